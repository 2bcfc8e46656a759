"""Downforce's screens: sealed bids and secret bets never reach another screen, every string is translated,
and an auction, a forced last bid, the bets and the finish run through the HTML forms of the pages."""

from __future__ import annotations

import json
import re

import pytest

from tests import pages
from tests.http import call
from tests.leaks import DISPLAY, Table, json_frames, walk
from tests.pages import Device, api, english_pieces, page, visible_text

SEATS = ["player-1", "player-2", "player-3"]
NAMES = dict(zip(SEATS, ("Anna", "Bea", "Cyril"), strict=True))
PRIVATE_BID_LINES = {
    "Your card for the %(car)s: no stripe of this colour (a pass).",
    "Your bid for the %(car)s: %(amount)s, a card with %(stripes)s colour stripes and a wild stripe.",
    "Your bid for the %(car)s: %(amount)s, a card with %(stripes)s colour stripes.",
}
PRIVATE_BET_LINE = "Your bet %(round)s: the %(car)s."


# -- what the other screens may see ------------------------------------------------------------------


def card(bid: dict) -> tuple:
    """A bid card as the leak check compares it: number, colour stripes, wild stripe."""
    return (bid.get("amount"), bid.get("stripes"), bool(bid.get("wild")))


class Secrets:
    """What each seat entered, and what the table has turned face up, to judge every byte a screen got."""

    def __init__(self):
        self.bids: dict[str, set] = {seat: set() for seat in SEATS}
        self.passed: set[str] = set()
        self.bets: dict[str, set] = {seat: set() for seat in SEATS}
        self.revealed: set[tuple] = set()
        self.race_over = False

    def entered(self, seat: str, action: dict) -> None:
        if action["type"] == "bid" and action.get("pass"):
            self.passed.add(seat)
        elif action["type"] == "bid":
            self.bids[seat].add(card(action))
        elif action["type"] == "bet":
            self.bets[seat].add((action["round"], action["car"]))

    def check(self, viewer: str, text: str) -> None:
        """No amount, stripe count or wild mark of another player before the reveal; no bet before the end."""
        own_bids = self.bids.get(viewer, set())
        own_bets = self.bets.get(viewer, set())
        assert "secret-bid" not in text or viewer in SEATS, f"{viewer} got an element holding a sealed bid"
        assert "secret-bet" not in text or viewer in SEATS, f"{viewer} got an element holding a secret bet"
        frames = json_frames(text)
        assert frames, f"{viewer} received no JSON view"
        for frame in frames:
            for part in walk(frame):
                if "stripes" in part and "amount" in part:
                    seen = card(part) if "wild" in part else (part["amount"], part["stripes"])
                    allowed = {c if "wild" in part else c[:2] for c in own_bids | self.revealed}
                    assert seen in allowed, f"{viewer} got the sealed card {seen}"
                if isinstance(part.get("auction"), dict):
                    assert "bids" not in part["auction"], f"{viewer} got the face-down cards"
                if "my_bid" in part and part["my_bid"] is not None:
                    mine = part["my_bid"]
                    assert (mine.get("pass") and viewer in self.passed) or card(mine) in own_bids, viewer
                if part.get("msg") in PRIVATE_BID_LINES:
                    args = part["args"]
                    if "amount" in args:
                        assert (args["amount"], args["stripes"]) in {c[:2] for c in own_bids}, viewer
                    else:
                        assert viewer in self.passed, f"{viewer} got another player's pass"
                if "phase" in part and "bets" in part and not self.race_over:
                    assert part["bets"] is None, f"{viewer} got the bets before the race was over"
                if "my_bets" in part:
                    mine = set(enumerate(part["my_bets"], start=1))
                    assert mine <= own_bets, f"{viewer} got the bets {mine - own_bets}"
                if part.get("msg") == PRIVATE_BET_LINE and not self.race_over:
                    args = part["args"]
                    assert (args["round"], args["car"]["msg"].split()[0]) in own_bets, f"{viewer} got {args}"


def test_no_screen_sees_another_players_bid_before_the_reveal_or_a_bet_before_the_race_ends(server):
    table = Table(server.url, "downforce", {"players": 3}, SEATS)
    secrets = Secrets()

    def truth() -> dict:
        return call(server.url, "GET", f"/api/tables/{table.code}/view", token=table.tokens["player-1"])[1]["view"]

    def check(after: str, owners: tuple = ()) -> dict:
        view = truth()
        for sale in view["sales"]:
            secrets.revealed |= {card(bid) for bid in sale["bids"].values() if not bid["pass"]}
        got = table.received()
        for viewer, text in got.items():
            secrets.check(viewer, text)
        for owner in owners:
            assert "secret-bid" in got[owner] or "secret-bet" in got[owner], f"{owner}'s own page lost it: {after}"
        assert "Your bid for" not in got[DISPLAY] and "Your bet" not in got[DISPLAY], after
        return view

    def act(seat: str, **action) -> dict:
        action = {"type": "bid", **action}
        secrets.entered(seat, action)
        status, body = table.act(seat, action)
        assert status == 200, body
        return body["view"]

    # Every card entered in this game is different, so a number seen anywhere tells whose it was.
    cards = iter([(amount, stripes, wild) for amount in (6, 5, 4, 3, 2) for stripes in (1, 2, 3, 4) for wild in (0, 1)])
    view = check("the start")
    # The first car: everybody bids, and Anna changes her card before the last one is in.
    amount, stripes, wild = next(cards)
    act("player-1", amount=amount, stripes=stripes, wild=bool(wild))
    check("Anna's bid", owners=("player-1",))
    amount, stripes, wild = next(cards)
    act("player-2", amount=amount, stripes=stripes, wild=bool(wild))
    check("Bea's bid", owners=("player-2",))
    amount, stripes, wild = next(cards)
    act("player-1", amount=amount, stripes=stripes, wild=bool(wild))
    check("Anna's changed bid", owners=("player-1",))
    act("player-3", **{"pass": True})
    view = check("the reveal")
    assert view["sales"][0]["result"] == "sold" and len(view["sales"][0]["bids"]) == 3
    # The other cars: Bea buys what she can, Cyril passes until the last car is forced on him.
    while view["phase"] == "auction":
        lot = view["auction"]
        if lot["forced"]:
            status, body = table.act(lot["forced"], {"type": "forced_bid", "from": "colour", "amount": 3})
            assert status == 200, body
            view = body["view"]
            break
        for seat in lot["eligible"][:-1]:
            amount, stripes, wild = next(cards)
            if seat == "player-3":
                act(seat, **{"pass": True})
            else:
                act(seat, amount=amount, stripes=stripes, wild=bool(wild))
        check(f"all but the last bid for the {lot['car']} car")  # the frames of the reveal come with the next check
        act(lot["eligible"][-1], **{"pass": True})
        view = truth()
    assert view["phase"] in ("powers", "race"), view["phase"]
    for seat in SEATS:
        mine = call(server.url, "GET", f"/api/tables/{table.code}/view", token=table.tokens[seat])[1]["view"]
        for choice in mine["my_power_choices"][:1]:
            status, body = table.act(seat, {"type": "keep_power", "power": choice["power"]})
            assert status == 200, body

    # Three betting rounds: each seat picks a different car each round, and Anna changes her mind once.
    picks = {1: ("red", "blue", "green"), 2: ("yellow", "red", "blue"), 3: ("green", "yellow", "orange")}
    for round_number, cars in picks.items():
        status, body = table.act("host", {"type": "open_bets"})
        assert status == 200, body
        for seat, car in zip(SEATS, cars, strict=True):
            if seat == "player-1" and round_number == 2:
                act(seat, type="bet", car="black", round=round_number)
                check("Anna's first thought", owners=(seat,))
            act(seat, type="bet", car=car, round=round_number)
            if seat == "player-2":  # Cyril's last bet closes the round; its frames come with the next check
                check(f"two bets of round {round_number}", owners=("player-1", "player-2"))
    for car in ("blue", "red", "green", "yellow"):
        status, body = table.act("host", {"type": "finish", "car": car})
        assert status == 200, body
    check("four cars home")
    status, body = table.act("host", {"type": "end_race"})
    assert status == 200, body
    secrets.race_over = True
    got = table.received()
    final = truth()
    assert final["bets"] == {seat: [picks[n][index] for n in (1, 2, 3)] for index, seat in enumerate(SEATS)}
    for viewer in got:
        assert "The bets, face up" in got[viewer]
    table.close()


def test_the_leak_check_catches_a_sealed_card_or_a_bet_that_reached_another_screen():
    secrets = Secrets()
    secrets.entered("player-1", {"type": "bid", "amount": 5, "stripes": 2, "wild": True})
    secrets.entered("player-2", {"type": "bet", "car": "red", "round": 1})
    own = json.dumps({"view": {"phase": "auction", "bets": None, "my_bid": {"amount": 5, "stripes": 2, "wild": True}}})
    secrets.check("player-1", own)
    for viewer, text in [
        ("player-3", own),
        (DISPLAY, json.dumps({"history": [{"msg": min(PRIVATE_BID_LINES), "args": {"amount": 5, "stripes": 2}}]})),
        ("player-1", json.dumps({"view": {"my_bets": ["red"]}})),
        ("player-1", json.dumps({"view": {"phase": "race", "bets": {"player-2": ["red"]}}})),
        (DISPLAY, '{"view": {}}\n<li class="secret-bet">red</li>'),
    ]:
        with pytest.raises(AssertionError):
            secrets.check(viewer, text)


# -- a table in the test client ------------------------------------------------------------------------


def open_table(client, players: int = 3, **options) -> tuple[str, dict]:
    names = {seat: NAMES[seat] for seat in SEATS[:players]}
    return pages.open_table(client, "downforce", {"players": players, **options}, names)


def section(page_html: str, element_id: str) -> str:
    found = re.search(rf'<section[^>]*id="{element_id}".*?</section>', page_html, flags=re.S)
    assert found, f"no #{element_id}"
    return re.sub(r"\s+", " ", visible_text(found.group(0))).strip()


def enter_decks(client, code: str, tokens: dict, speed8: list[str], powers: list[str] | None = None) -> dict:
    for car in speed8[:5]:
        view = api(client, code, tokens["host"], type="enter_speed8", car=car)
    for power in (powers or ["aggressive", "agility", "concentration", "strategic", "daring"])[:5]:
        view = api(client, code, tokens["host"], type="enter_power", power=power)
    return view


def pass_round(client, code: str, tokens: dict, view: dict, bidder: str | None = None, amount: int = 1) -> dict:
    """Everyone eligible passes, except `bidder`, who bids `amount` with a one-stripe card; a forced bid is 1."""
    forced = view["auction"]["forced"]
    if forced:
        return api(client, code, tokens[forced], type="forced_bid", **{"from": "none"})
    for seat in view["auction"]["eligible"]:
        if seat == bidder:
            view = api(client, code, tokens[seat], type="bid", amount=amount, stripes=1)
        else:
            view = api(client, code, tokens[seat], type="bid", **{"pass": True})
    return api(client, code, tokens["host"])


# -- the states every screen is rendered in ---------------------------------------------------------------


def entering_decks(client, app):
    code, tokens = open_table(client, deck_order="entered")
    api(client, code, tokens["player-2"], type="enter_speed8", car="red")
    return code, tokens


def bidding(client, app):
    """Anna's card is face down; then Bea and Cyril bid against her in the second auction after a set-aside car."""
    code, tokens = open_table(client)
    api(client, code, tokens["player-1"], type="bid", amount=4, stripes=2, wild=True)
    return code, tokens


def revealed(client, app):
    code, tokens = bidding(client, app)
    api(client, code, tokens["player-2"], type="bid", amount=4, stripes=2)
    api(client, code, tokens["player-3"], type="bid", **{"pass": True})
    return code, tokens


def only_carless_may_bid(client, app):
    """Anna owns four cars: the last two are for Bea and Cyril alone."""
    code, tokens = open_table(client)
    view = api(client, code, tokens["host"])
    for _ in range(4):
        view = pass_round(client, code, tokens, view, bidder="player-1")
    assert view["auction"]["eligible"] == ["player-2", "player-3"]
    api(client, code, tokens["player-2"], type="bid", amount=2, stripes=2)
    return code, tokens


def forced(client, app):
    code, tokens = only_carless_may_bid(client, app)
    api(client, code, tokens["player-3"], type="bid", **{"pass": True})  # Bea wins, a car is left for Cyril
    view = api(client, code, tokens["host"])
    assert view["auction"]["forced"] == "player-3", view["auction"]
    return code, tokens


def powers(client, app):
    code, tokens = forced(client, app)
    api(client, code, tokens["player-3"], type="forced_bid", **{"from": "none"})
    return code, tokens


def betting(client, app):
    code, tokens = powers(client, app)
    choices = api(client, code, tokens["player-1"])["my_power_choices"]
    api(client, code, tokens["player-1"], type="keep_power", power=choices[1]["power"])
    api(client, code, tokens["host"], type="open_bets")
    api(client, code, tokens["player-2"], type="bet", car="green")
    return code, tokens


def racing(client, app):
    code, tokens = betting(client, app)
    api(client, code, tokens["player-1"], type="bet", car="red")
    api(client, code, tokens["player-3"], type="bet", car="red")
    api(client, code, tokens["host"], type="finish", car="black")
    return code, tokens


def finished(client, app):
    code, tokens = racing(client, app)
    for round_number in (2, 3):
        api(client, code, tokens["host"], type="open_bets")
        for seat in SEATS:
            api(client, code, tokens[seat], type="bet", car="blue", round=round_number)
    api(client, code, tokens["host"], type="finish", car="blue")
    api(client, code, tokens["host"], type="end_race")
    return code, tokens


def beginner(client, app):
    code, tokens = open_table(client, variant="beginner")
    api(client, code, tokens["host"], type="finish", car="red")
    return code, tokens


def endurance(client, app):
    code, tokens = open_table(client, players=2, variant="endurance")
    view = api(client, code, tokens["host"])
    while view["phase"] == "auction":
        view = pass_round(client, code, tokens, view, bidder=view["auction"]["eligible"][0])
    return code, tokens


def championship_between(client, app):
    code, tokens = open_table(client, players=2, variant="world-championship")
    view = api(client, code, tokens["host"])
    while view["phase"] == "auction":
        view = pass_round(client, code, tokens, view, bidder=view["auction"]["eligible"][-1], amount=2)
    for seat in ("player-1", "player-2"):
        for choice in api(client, code, tokens[seat])["my_power_choices"][:1]:
            api(client, code, tokens[seat], type="keep_power", power=choice["power"])
    api(client, code, tokens["host"], type="finish", car="green")
    api(client, code, tokens["host"], type="end_race")
    return code, tokens


STATES = {
    "entering the decks": entering_decks,
    "a bid face down": bidding,
    "the reveal": revealed,
    "only carless players bid": only_carless_may_bid,
    "the forced last bid": forced,
    "driver powers": powers,
    "a betting round": betting,
    "the race": racing,
    "the results": finished,
    "beginner game over": beginner,
    "endurance race": endurance,
    "between two championship races": championship_between,
}


@pytest.mark.parametrize("state", list(STATES))
def test_every_seat_and_the_display_render_in_english_czech_and_dutch(client, app, state):
    code, tokens = STATES[state](client, app)
    players = [seat for seat in SEATS if seat in tokens]
    for lang in ("en", "cs", "nl"):
        pieces = english_pieces("downforce", lang) if lang != "en" else ()
        assert lang == "en" or ("Players and cars" in pieces and "Change your card" in pieces)
        for who in [*players, DISPLAY]:
            text = page(app, code, tokens, who, lang)
            assert f'lang="{lang}"' in text
            assert 'class="df df-' in text and "%(" not in text and "{{" not in text, (lang, who)
            shown = visible_text(text)
            untranslated = [piece for piece in pieces if piece in shown]
            assert not untranslated, (state, lang, who, untranslated)


def test_the_display_shows_who_has_bid_but_never_what_and_the_owner_sees_their_own_card(client, app):
    code, tokens = bidding(client, app)
    display = page(app, code, tokens, DISPLAY)
    offer = section(display, "df-offer")
    assert "1 of 3 bids in" in offer
    assert "Anna card face down" in offer and "Bea choosing…" in offer
    assert "df-bidcard" not in display and "secret-bid" not in display
    anna = page(app, code, tokens, "player-1")
    assert re.search(r'class="df-my-bid secret-bid">.*?>4</b>.*?colour stripes: 2.*?wild stripe', anna, flags=re.S)
    bea = page(app, code, tokens, "player-2")
    assert "secret-bid" not in bea and 'data-action="bid"' in bea
    assert "df-reveal" not in display  # nothing was turned over yet


def test_a_car_for_the_carless_only_and_the_forced_last_bid_are_explained_on_each_phone(client, app):
    code, tokens = only_carless_may_bid(client, app)
    anna = page(app, code, tokens, "player-1")
    assert "You have a car already: only the players without one bid now." in anna
    assert 'data-action="bid"' not in anna
    assert "1 of 2 bids in" in section(page(app, code, tokens, DISPLAY), "df-offer")
    api(client, code, tokens["player-3"], type="bid", **{"pass": True})
    cyril = page(app, code, tokens, "player-3")
    assert 'data-action="forced_bid"' in cyril and "This car is yours" in cyril
    assert "Cyril is the last player without a car" in page(app, code, tokens, "player-2")


def test_the_world_championship_shows_the_standings_and_starts_the_second_race_on_the_other_side(client, app):
    code, tokens = championship_between(client, app)
    display = page(app, code, tokens, DISPLAY)
    assert "Standings after race 1" in display and 'data-action="next_race"' in page(app, code, tokens, "host")
    assert "Race 1 of 2" in display and "River circuit" in display
    api(client, code, tokens["host"], type="next_race")
    display = page(app, code, tokens, DISPLAY)
    assert "Race 2 of 2" in display and "Bay circuit" in display and "Up for auction" in display


def test_the_beginner_game_has_no_bets_and_names_the_first_owner_home(client, app):
    code, tokens = open_table(client, variant="beginner")
    display = page(app, code, tokens, DISPLAY)
    assert 'id="df-betting"' not in display and 'data-action="finish"' in page(app, code, tokens, "host")
    view = api(client, code, tokens["host"], type="finish", car="red")
    owner = view["cars"]["red"]["owner"] or next(
        view["cars"][car]["owner"] for car in view["results"]["race_order"] if view["cars"][car]["owner"]
    )
    display = page(app, code, tokens, DISPLAY)
    assert f"{NAMES[owner]} wins: their car crossed the line first." in section(display, "df-race-order")


def test_the_endurance_race_ranks_by_distance_and_cannot_be_stopped_early(client, app):
    code, tokens = endurance(client, app)
    for seat in ("player-1", "player-2"):
        for choice in api(client, code, tokens[seat])["my_power_choices"][:1]:
            api(client, code, tokens[seat], type="keep_power", power=choice["power"])
    display = page(app, code, tokens, DISPLAY)
    assert "Ranking by distance" in display and 'data-action="end_race"' not in display
    assert "Two-player game" in display and "each keeps their speed-8 cards face up" in display


# -- an auction through the forms of the pages ---------------------------------------------------------


def test_an_auction_a_forced_last_bid_the_bets_and_the_score_sheet_through_the_forms(client, app):
    """The rulebook's examples on the screens: two sixes, the card with more stripes wins; the pad adds up to 15."""
    code, tokens = open_table(client, deck_order="entered")
    display = Device.of(app, code, tokens, "host")  # the host page: the display's game with the host's controls
    for car in ("green", "yellow", "red", "blue", "black"):
        display.submit("enter_speed8", f"{car} car", car=car)
    for power in ("agility", "daring", "strategic", "aggressive", "unpredictable"):
        display.submit("enter_power", display.form("enter_power", power=power)["buttons"][0]["text"], power=power)
    anna, bea, cyril = (Device.of(app, code, tokens, seat) for seat in SEATS)
    assert "Up for auction" in anna.page and 'id="df-offer" data-car="green"' in anna.page

    # Green: two fives with one colour stripe each; Bea's card also has a wild stripe, so Anna's wins.
    anna.submit("bid", "1", {"amount": 5}, car="green")
    assert "1 of 3 bids in" in section(display.refresh(), "df-offer") and "secret-bid" not in display.page
    assert "secret-bid" in anna.page and re.search(r'name="amount" value="5"[^>]* checked', anna.page)
    bea.submit("bid", "1", {"amount": 5, "wild": "true"}, car="green")
    cyril.submit("bid", "No stripe of this colour (pass)", car="green")
    reveal = section(display.refresh(), "df-reveal")
    assert "Anna 5 colour stripes: 1 wins Bea 5 colour stripes: 1 wild stripe Cyril no stripe of this colour" in reveal
    assert "Anna takes the car and its driver power for 5 million." in reveal

    # Yellow to Anna for 4. Red: two sixes, and Bea, changing her card before the last one is in, has more stripes.
    anna.submit("bid", "2", {"amount": 4}, car="yellow")
    bea.submit("bid", "No stripe of this colour (pass)", car="yellow")
    cyril.submit("bid", "1", {"amount": 3}, car="yellow")
    bea.submit("bid", "2", {"amount": 6}, car="red")
    bea.submit("bid", "3", {"amount": 6}, car="red")
    cyril.submit("bid", "2", {"amount": 6}, car="red")
    anna.submit("bid", "No stripe of this colour (pass)", car="red")
    reveal = section(display.refresh(), "df-reveal")
    assert "Bea 6 colour stripes: 3 wins Cyril 6 colour stripes: 2" in reveal

    # Nobody wants blue, black or orange: set aside, offered again, two race without an owner, the last is Cyril's.
    for car in ("blue", "black", "orange", "blue", "black"):
        for screen in (anna, bea, cyril):
            screen.submit("bid", "No stripe of this colour (pass)", car=car)
        assert "Cards turned over" in display.refresh()
    assert section(display.page, "df-offer").startswith("The last car orange car")
    assert "This car is yours" in cyril.refresh() and 'data-action="bid"' not in cyril.page
    assert 'data-action="forced_bid"' not in anna.refresh()
    cyril.submit("forced_bid", "No card in this colour: I show a wild stripe", {"amount": 2}, car="orange")
    players = section(display.refresh(), "df-players")  # each sale in the players' list
    assert "Cyril orange car 2 million" in players and "Races without an owner: black car blue car" in players

    # Anna keeps one of her two powers; the race, three secret bets each, the finish.
    anna.submit("keep_power", "Daring manoeuvre", power="daring")
    bets = {anna: ("yellow", "yellow", "blue"), bea: ("red", "red", "red"), cyril: ("orange", "blue", "blue")}
    for round_number in (1, 2, 3):
        display.submit("open_bets", f"Open betting round {round_number}")
        for screen, cars in bets.items():
            screen.submit("bet", f"{cars[round_number - 1]} car", round=round_number)
            assert "secret-bet" in screen.page
        assert "secret-bet" not in display.refresh()
    for car in ("blue", "yellow", "red", "black", "green", "orange"):
        display.submit("finish", f"{car} car", car=car)
    sheet = section(anna.refresh(), "df-my-sheet")
    assert "Placement green car 5. +2 yellow car 2. +9 Placement total +11" in sheet
    assert "Bets Bet 1 yellow car 2. +6 Bet 2 yellow car 2. +4 Bet 3 blue car 1. +3 Bets total +13" in sheet
    assert "Auction green car −5 yellow car −4 Auction total −9 Total +15" in sheet
    assert "secret-bet" not in anna.page
    final = section(display.refresh(), "df-final")
    assert final.startswith("Final table # Player Total 1 ")
    assert "Anna +15" in final and "The bets, face up" in display.page
