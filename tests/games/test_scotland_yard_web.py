"""Scotland Yard's screens: Mister X's stations never reach another screen, and every string is translated."""

from __future__ import annotations

import re
from collections import deque

import pytest
from flask import render_template

from companion.catalogs import ROOT
from companion.games.scotland_yard.board import BOARD
from companion.games.scotland_yard.figures import DETECTIVE_RIDES, MISTER_X
from companion.games.scotland_yard.history import YOU_TOOK
from tests import pages
from tests.http import call
from tests.leaks import DISPLAY, Table, json_frames, walk
from tests.pages import api, english_pieces, page, visible_text

SEATS = [MISTER_X, "detective-1", "detective-2"]
LOG_STATION = re.compile(r'class="station log-station">(\d+)<')


# -- playing through an API ------------------------------------------------------


def distances_to(target: int) -> dict[int, int]:
    """Rides a detective needs from each station to the target (taxi, bus and underground)."""
    far = {target: 0}
    queue = deque([target])
    while queue:
        station = queue.popleft()
        for ride in DETECTIVE_RIDES:
            for near in BOARD.neighbours(station, ride):
                if near not in far:
                    far[near] = far[station] + 1
                    queue.append(near)
    return far


def mister_x_step(view: dict, double: bool = False) -> dict:
    """A safe-looking move from Mister X's view: no warning if he can help it, a black ticket once in a while."""
    moves = view["double_move_moves"] if double else view["legal_moves"]
    choices = [(ticket, target) for ticket, targets in moves.items() for target in targets]
    choices.sort(key=lambda choice: (choice[1]["warning"], choice[0] != "black" or view["move"] != 4))
    ticket, target = choices[0]
    return {"type": "double_move" if double else "move", "to": target["to"], "ticket": ticket}


def detective_step(view: dict, mister_x: int, chase: bool) -> dict | None:
    """A move for the first of this seat's figures still to move: toward Mister X when chasing, else never onto him."""
    far = distances_to(mister_x)
    for figure, moves in view["legal_moves"].items():
        if figure != view["seat"] and not figure.endswith(view["seat"][-1]):
            continue  # detective-1 moves bobby-1, detective-2 bobby-2
        choices = [(ticket, to) for ticket, stations in moves.items() for to in stations]
        if not chase:
            choices = [choice for choice in choices if choice[1] != mister_x] or choices
        if choices:
            ticket, to = min(choices, key=lambda choice: (far.get(choice[1], 99) if chase else 0, choice))
            return {"type": "move", "piece": figure, "to": to, "ticket": ticket}
    return None


# -- what the others may see ------------------------------------------------------


def assert_no_secret_station(viewer: str, text: str, revealed: set[int], over: bool) -> None:
    assert "secret-station" not in text, f"{viewer} got an element holding Mister X's secret station"
    frames = json_frames(text)
    assert frames, f"{viewer} received no JSON view"
    for frame in frames:
        for part in walk(frame):
            assert part.get("msg") not in YOU_TOOK.values(), f"{viewer} got Mister X's own history line"
            if "travel_log" in part and not part.get("over"):
                for entry in part["travel_log"]:
                    assert entry["station"] is None or entry["reveal"], f"{viewer} got move {entry['move']}"
                assert part["mister_x_station"] is None, f"{viewer} got Mister X's station"
                assert part.get("seat") != MISTER_X and "station" not in part
    if not over:
        shown = {int(station) for station in LOG_STATION.findall(text)}
        assert shown <= revealed, f"{viewer} was shown stations {shown - revealed}"


def test_no_screen_but_mister_xs_ever_receives_his_unrevealed_stations(server):
    table = Table(server.url, "scotland-yard", {"detectives": 2}, SEATS)

    def mister_x_view() -> dict:
        return call(server.url, "GET", f"/api/tables/{table.code}/view", token=table.tokens[MISTER_X])[1]["view"]

    def check(after: str) -> dict:
        truth = mister_x_view()
        revealed = {entry["station"] for entry in truth["travel_log"] if entry["reveal"]}
        got = table.received()
        for viewer in ("detective-1", "detective-2", DISPLAY):
            assert_no_secret_station(viewer, got[viewer], revealed, truth["over"])
        if not truth["over"]:
            assert "secret-station" in got[MISTER_X], after
        return truth

    truth = check("the start")
    for round_number in range(1, 7):
        if truth["move"] in (2, 5) and truth["can_double_move"]:
            # From move 2 the first half is move 3, a reveal; the second half stays hidden.
            status, body = table.act(MISTER_X, mister_x_step(truth, double=True))
            assert status == 200, body
            truth = check(f"the first half of a double move in round {round_number}")
        status, body = table.act(MISTER_X, mister_x_step(truth))
        assert status == 200, body
        truth = check(f"Mister X's move in round {round_number}")
        # The detectives' moves push frames that pile up on the sockets until the next check reads them all.
        over = False
        for seat in ("detective-1", "detective-2"):
            while not over:
                view = call(server.url, "GET", f"/api/tables/{table.code}/view", token=table.tokens[seat])[1]
                step = detective_step(view["view"], truth["station"], chase=round_number == 6)
                if step is None:
                    break
                status, body = table.act(seat, step)
                assert status == 200, body
                over = body["view"]["over"]
        truth = mister_x_view()
        if over:
            break
    truth = check("the last round")
    assert [entry["move"] for entry in truth["travel_log"] if entry["reveal"]] == [3, 8]
    table.close()


def test_at_the_end_every_screen_shows_every_station_of_the_travel_log(client):
    code, tokens = open_table(client)
    view = play_to_the_end(client, code, tokens)
    stations = [entry["station"] for entry in view["travel_log"]]
    for text in screens(client, code, tokens, "en"):
        shown = [int(station) for station in LOG_STATION.findall(text)]
        assert shown[: len(stations)] == stations
        assert "secret-station" not in text


# -- languages ---------------------------------------------------------------------


def open_table(client) -> tuple[str, dict]:
    names = dict(zip(SEATS, ("Xena", "Dora", "Dirk"), strict=True))
    return pages.open_table(client, "scotland-yard", {"detectives": 2}, names)


def mister_x_moves(client, code: str, tokens: dict) -> dict:
    """Mister X's move of this round, a double move when he has made two moves (its first half is the reveal)."""
    view = api(client, code, tokens[MISTER_X])
    if view["can_double_move"] and view["double_move_moves"] and view["move"] == 2:
        view = api(client, code, tokens[MISTER_X], **mister_x_step(view, double=True))
    return api(client, code, tokens[MISTER_X], **mister_x_step(view))


def detectives_move(client, code: str, tokens: dict, chase: bool) -> dict:
    station = api(client, code, tokens[MISTER_X])["station"]
    for seat in ("detective-1", "detective-2"):
        while True:
            view = api(client, code, tokens[seat])
            step = None if view["over"] else detective_step(view, station, chase)
            if step is None:
                break
            api(client, code, tokens[seat], **step)
    return api(client, code, tokens[MISTER_X])


def play_to_the_end(client, code: str, tokens: dict) -> dict:
    view = api(client, code, tokens[MISTER_X])
    while not view["over"]:
        if view["phase"] == MISTER_X:
            view = mister_x_moves(client, code, tokens)
        if not view["over"]:
            view = detectives_move(client, code, tokens, chase=view["round"] > 3)
    return view


def screens(client, code: str, tokens: dict, lang: str) -> list[str]:
    """Mister X's page, both detectives' pages and the display, in one language."""
    return [page(client.application, code, tokens, who, lang) for who in (*SEATS, "host")]


@pytest.mark.parametrize("lang", ["cs", "nl"])
def test_every_screen_speaks_czech_and_dutch_through_the_whole_game(client, lang):
    code, tokens = open_table(client)
    pieces = english_pieces("scotland-yard", lang)
    assert pieces
    seen = screens(client, code, tokens, lang)  # Mister X to move, with a double move on offer
    api(client, code, tokens[MISTER_X], **mister_x_step(api(client, code, tokens[MISTER_X])))
    seen += screens(client, code, tokens, lang)  # the detectives and bobbies to move
    detectives_move(client, code, tokens, chase=False)
    api(client, code, tokens[MISTER_X], **mister_x_step(api(client, code, tokens[MISTER_X]), double=True))
    seen += screens(client, code, tokens, lang)  # the second step of a double move
    play_to_the_end(client, code, tokens)
    seen += screens(client, code, tokens, lang)
    for text in seen:
        assert f'lang="{lang}"' in text
        shown = visible_text(text)
        untranslated = [piece for piece in pieces if piece in shown]
        assert not untranslated, untranslated


def test_the_two_player_game_shows_one_pooled_ticket_board_and_no_notebook_when_it_is_off(client):
    options = {"detectives": 1, "notebook": False}
    code, tokens = pages.open_table(client, "scotland-yard", options, {"detective-1": "Dora"})
    phone = page(client.application, code, tokens, "detective-1")
    assert "(pooled for both detectives)" in phone
    assert 'Taxi <b class="count">22</b>' in phone
    assert phone.count('class="my-figure') == 4  # two detectives and two bobbies
    display = page(client.application, code, tokens, "host")
    assert 'id="sy-notebook"' not in display and 'id="sy-log"' in display


def test_a_reveal_in_the_first_half_of_a_double_move_stays_on_the_display_after_the_second_half(client):
    code, tokens = open_table(client)
    for _round in (1, 2):
        mister_x_moves(client, code, tokens)
        detectives_move(client, code, tokens, chase=False)
    view = mister_x_moves(client, code, tokens)  # from move 2: a double move, moves 3 and 4
    assert [entry["double"] for entry in view["travel_log"]] == [False, False, True, True]
    display = page(client.application, code, tokens, "host")
    station = view["travel_log"][2]["station"]
    assert f"Mister X showed himself at station {station} (move 3), then moved on." in display
    assert LOG_STATION.findall(display) == [str(station)]


@pytest.mark.parametrize(
    ("lang", "count", "line"),
    [
        ("en", 1, "Mister X can be at 1 station:"),
        ("en", 3, "Mister X can be at 3 stations:"),
        ("cs", 1, "Mister X může být na 1 stanici:"),
        ("cs", 3, "Mister X může být na 3 stanicích:"),
        ("nl", 1, "Mister X kan op 1 halte zijn:"),
        ("nl", 3, "Mister X kan op 3 haltes zijn:"),
    ],
)
def test_the_notebook_counts_one_station_and_several_stations_in_each_language(app, lang, count, line):
    notebook = {"count": count, "stations": [13, 26, 29][:count]}
    with app.test_request_context(f"/?lang={lang}"):
        html = render_template("games/scotland-yard/_notebook.html", view={"notebook": notebook, "over": False})
    assert line in html


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("ticket", ["taxi", "bus", "underground", "black", "double"])
def test_every_ticket_s_text_stands_out_from_its_colour_by_at_least_4_5_to_1(ticket):
    css = (ROOT / "companion" / "games" / "scotland_yard" / "static" / "style.css").read_text()
    colours = dict(re.findall(r"--([\w-]+): (#[0-9a-f]{6})", css.split("@media")[0]))
    assert contrast(colours[ticket], colours[f"{ticket}-fg"]) >= 4.5


TICKET_CHIP = re.compile(r'class="sy-ticket t-(\w+)">([^<]*?)\s*(?:<b class="count">|</span>)')
ENGLISH_TICKETS = {"Underground", "Metro", "Black", "Black ticket", "Double move"}


def ticket_names(texts: list[str]) -> dict[str, set[str]]:
    """Each ticket kind and every name its chips carry across the given pages."""
    names: dict[str, set[str]] = {}
    for text in texts:
        for kind, name in TICKET_CHIP.findall(text):
            names.setdefault(kind, set()).add(name.strip())
    return names


@pytest.mark.parametrize("lang", ["en", "cs", "nl"])
def test_each_ticket_has_one_name_on_every_screen_and_no_english_one_in_czech_or_dutch(client, lang):
    code, tokens = open_table(client)
    api(client, code, tokens[MISTER_X], **mister_x_step(api(client, code, tokens[MISTER_X])))
    seen = screens(client, code, tokens, lang) + [page(client.application, code, tokens, "display", lang)]
    names = ticket_names(seen)
    assert {"taxi", "bus", "underground", "black"} <= set(names), names
    # the black ticket's chip may drop the word "ticket" where space is short: one name, its short form
    names["black"] = {name.split()[0] for name in names["black"]}
    assert all(len(shown) == 1 for shown in names.values()), names
    if lang != "en":
        english = {name for shown in names.values() for name in shown} & ENGLISH_TICKETS - {"Metro"}
        assert not english, english
