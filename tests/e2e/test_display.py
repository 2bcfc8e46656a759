"""The table display is a TV dashboard: every phase of every game fits one 1080p screen, in type legible from 2 m.

The games are played through the JSON API (the phones' own screens are tested elsewhere); the display is a
real Chromium page of the host, with every seat taken, checked after each phase at 1920x1080 and 1280x720.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.walk import LANGUAGES, MEASURE, NAMES, SMALLEST_TEXT, TV_SCREENS
from tests.games.test_scotland_yard_web import detective_step, mister_x_step
from tests.http import call, open_table


class Table:
    """A table opened through the API with every seat taken; its display open in Chromium as the host."""

    def __init__(self, server, browser, game: str, options: dict, seats, lang: str = "en"):
        self.base = server.url
        created = open_table(self.base, game, options, seats)
        self.code, self.tokens = created["code"], {seat: created[seat] for seat in seats}
        self.tokens["host"] = created["host"]
        self.seq = 0
        self.context = browser.new_context(viewport=TV_SCREENS[0])
        self.context.add_cookies(
            [
                {"name": f"host_{self.code}", "value": created["host"], "url": self.base},
                {"name": "lang", "value": lang, "url": self.base},
            ]
        )
        self.display = self.context.new_page()
        self.display.goto(f"{self.base}/t/{self.code}/display")

    def act(self, seat: str, **action) -> dict:
        status, body = call(self.base, "POST", f"/api/tables/{self.code}/actions", action, self.tokens[seat])
        assert status == 200, (action, body)
        self.seq = body["seq"]
        return body["view"]

    def try_act(self, seat: str, **action) -> dict | None:
        """An action the rules may refuse in this state (the walk goes on either way)."""
        status, body = call(self.base, "POST", f"/api/tables/{self.code}/actions", action, self.tokens[seat])
        if status != 200:
            return None
        self.seq = body["seq"]
        return body["view"]

    def view(self, seat: str = "host") -> dict:
        return call(self.base, "GET", f"/api/tables/{self.code}/view", token=self.tokens[seat])[1]["view"]

    def assert_fits(self, phase: str) -> None:
        """The display shows this phase on one screen, at 1080p and at 720p, and nothing is too small at 1080p."""
        expect(self.display.locator("#live")).to_have_attribute("data-seq", str(self.seq))
        for screen in TV_SCREENS:
            self.display.set_viewport_size(screen)
            measured = self.display.evaluate(MEASURE, SMALLEST_TEXT)
            assert measured["height"] <= screen["height"], f"{phase}: {measured['height']} px tall at {screen}"
            assert measured["width"] <= screen["width"], f"{phase}: {measured['width']} px wide at {screen}"
            if screen is TV_SCREENS[0]:
                assert not measured["small"], f"{phase}: text under {SMALLEST_TEXT} px: {measured['small']}"
        self.display.set_viewport_size(TV_SCREENS[0])

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def tv(server, browser):
    tables = []

    def open_tv(game: str, options: dict, seats, lang: str = "en") -> Table:
        tables.append(Table(server, browser, game, options, seats, lang))
        return tables[-1]

    yield open_tv
    for table in tables:
        table.close()


def test_scotland_yard_fits_the_tv_from_mister_xs_first_move_to_the_end(tv):
    detectives = [f"detective-{n}" for n in range(1, 6)]
    table = tv("scotland-yard", {"detectives": 5}, ["mister-x", *detectives])
    table.assert_fits("Mister X's first move")
    truth = table.act("mister-x", **mister_x_step(table.view("mister-x")))
    table.assert_fits("the detectives' turn")
    for round_number in range(1, 23):
        # A detective hemmed in by the others may get free once they have moved: go round until nobody can move.
        moved = True
        while moved:
            moved = False
            for seat in detectives:
                while (step := detective_step(table.view(seat), truth["station"], chase=round_number > 3)) is not None:
                    moved = True
                    if table.act(seat, **step)["over"]:
                        table.assert_fits("the end")
                        return
        truth = table.view("mister-x")
        if truth["over"]:
            break
        if round_number == 3:
            table.assert_fits("after the first reveal")
        truth = table.act("mister-x", **mister_x_step(truth))
    table.assert_fits("the end")


def test_downforce_fits_the_tv_through_the_auction_the_race_and_the_final_sums(tv):
    seats = [f"player-{n}" for n in range(1, 7)]
    table = tv("downforce", {"players": 6, "variant": "world-championship"}, seats)
    table.assert_fits("the first car on offer")
    table.act("player-1", type="bid", amount=5, stripes=2)
    table.assert_fits("a sealed bid in")
    view = table.view()
    while view["phase"] == "auction":
        lot = view["auction"]
        if lot["forced"]:
            table.act(lot["forced"], type="forced_bid", **{"from": "colour"}, amount=3)
        for seat in lot["eligible"]:
            table.try_act(seat, type="bid", amount=4, stripes=int(seat[-1]))
        view = table.view()
        if view["phase"] == "auction" and len(view["sales"]) == 1:
            table.assert_fits("a car sold and the next on offer")
    table.assert_fits("the driver powers")
    for seat in seats:
        for choice in table.view(seat).get("my_power_choices", [])[:1]:
            table.act(seat, type="keep_power", power=choice["power"])
    table.act("host", type="open_bets")
    table.assert_fits("a betting round")
    for seat in seats:
        table.act(seat, type="bet", car="red", round=1)
    for car in ("blue", "red", "green", "yellow", "orange", "black"):
        table.act("host", type="finish", car=car)
        if car == "red":
            table.assert_fits("cars crossing the finish line")
    table.assert_fits("the score sheet between races")
    table.act("host", type="next_race")
    table.assert_fits("the second race's auction")


def test_mice_and_mystics_fits_the_tv_from_the_setup_through_a_chapter_to_its_end(tv):
    seats = [f"player-{n}" for n in range(1, 5)]
    table = tv("mice-and-mystics", {"players": 4, "dice_helper": True}, seats)
    table.assert_fits("the setup")
    for seat, hero in zip(seats, ("collin", "lily", "filch", "maginos"), strict=True):
        table.act(seat, type="add_mouse", hero=hero, life=5)
    table.act("player-1", type="add_minions", minion="rats", figures=3, life=1)
    table.act("player-1", type="add_minions", minion="leader", name="Vurst", life=3, cards=4)
    table.assert_fits("mice and minions set up")
    table.act("player-1", type="start_chapter")
    table.assert_fits("the first card of the initiative track")
    table.act("player-2", type="add_minions", minion="spiders", figures=2, life=1)
    table.act("player-2", type="place_minions")
    table.act("player-1", type="reveal_encounter", name="Rat swarm", surge="2 rats")
    table.act("player-1", type="add_cheese", count=5)
    table.act("player-1", type="wound_mouse", mouse="collin", count=2, poison=True)
    table.act("player-1", type="roll_dice", count=4)
    table.act("player-1", type="move_hourglass", pages=3)
    table.assert_fits("a chapter in full swing")
    table.act("player-1", type="goals_done")
    table.assert_fits("the chapter won")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_mice_and_mystics_fits_the_tv_with_the_largest_table_the_app_allows(tv, lang):
    # Six mice (one per hero in the box, the most a party may have) with long names, and the most minion cards the
    # track takes: every one of the box (rats, roaches, spiders, the centipede, Brodie's two and two of Captain
    # Vurst's) and one more type with a long name: 15 cards.
    seats = dict(zip([f"player-{n}" for n in range(1, 5)], NAMES, strict=False))
    table = tv("mice-and-mystics", {"players": 4, "dice_helper": True, "achievements": True}, seats, lang)
    for number, hero in enumerate(("collin", "nez", "filch", "maginos", "tilda", "lily")):
        table.act(f"player-{number % 4 + 1}", type="add_mouse", hero=hero, life=6)
    for minion, figures in (("rats", 6), ("roaches", 6), ("spiders", 2), ("centipede", 1), ("brodie", 1)):
        table.act("host", type="add_minions", minion=minion, figures=figures, life=2)
    table.act("host", type="add_minions", minion="leader", name="Captain Vurst", life=6, cards=4)
    table.act("host", type="add_minions", minion="other", name="Krysí hlídka u brány", figures=2, life=2)
    assert table.try_act("host", type="add_minions", minion="other", name="Žáby", figures=1) is None
    table.assert_fits("six mice and the most minions set up")
    view = table.act("host", type="start_chapter")
    assert len(view["track"]) == 15
    table.assert_fits("the largest initiative track")
    table.act("host", type="reveal_encounter", name="Krysí hlídka u brány", surge="2 rats")
    table.act("host", type="wound_mouse", mouse="collin", count=2, poison=True)
    table.act("host", type="set_status", mouse="nez", status="knocked_down", on=True)
    table.act("host", type="roll_dice", count=6)
    table.act("host", type="add_cheese", count=6)
    table.assert_fits("a surge with the largest initiative track")
    table.act("host", type="goals_done")
    table.assert_fits("the chapter won with the largest initiative track")


def test_eat_your_tourist_fits_the_tv_through_a_turn_a_fight_and_the_final_ranking(tv):
    seats = [f"player-{n}" for n in range(1, 5)]
    table = tv("eat-your-tourist", {"players": 4, "starting_player": "player-1", "tourists_per_colour": 2}, seats)
    table.assert_fits("the first fright phase")
    table.act("host", type="roll_fright")
    table.act("host", type="next")
    table.act("host", type="enter_ghost")
    table.assert_fits("the hunt")
    table.act("host", type="eat", colour="green", steps=1)
    table.act("host", type="next")
    table.act("host", type="roll_panic")
    table.assert_fits("the panic phase")
    while table.view()["phase"] != "over":
        view = table.view()
        for colour in ("blue", "yellow", "red", "green"):
            if table.try_act("host", type="tourist_escapes", colour=colour):
                break
        else:
            table.try_act("host", type="roll_panic") or table.try_act("host", type="next")
        if view["phase"] == "hunt" and not table.try_act("host", type="next"):
            table.try_act("host", type="next")
    table.assert_fits("the final ranking")
