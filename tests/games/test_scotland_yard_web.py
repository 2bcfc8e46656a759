"""Scotland Yard's screens: Mister X's stations never reach another screen, and every string is translated."""

from __future__ import annotations

import html
import json
import re
from collections import deque

import pytest
from babel.messages.pofile import read_po

from companion.catalogs import ROOT, Source
from companion.games.scotland_yard.board import BOARD
from companion.games.scotland_yard.rules import DETECTIVE_RIDES, MISTER_X, YOU_TOOK
from tests.http import call
from tests.leaks import DISPLAY, Table

SEATS = [MISTER_X, "detective-1", "detective-2"]
TEMPLATES = ROOT / "templates" / "games" / "scotland-yard"
TRANSLATIONS = ROOT / "companion" / "games" / "scotland_yard" / "translations"
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


def json_frames(text: str) -> list[dict]:
    """The JSON documents among everything a screen received: socket frames, action answers, API views."""
    frames = []
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                frames.append(json.loads(line))
            except ValueError:
                continue
    return frames


def walk(value):
    """Every dict inside a JSON document."""
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from walk(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from walk(inner)


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
    for page in pages(client, code, tokens, "en"):
        shown = [int(station) for station in LOG_STATION.findall(page)]
        assert shown[: len(stations)] == stations
        assert "secret-station" not in page


# -- languages ---------------------------------------------------------------------


def open_table(client) -> tuple[str, dict]:
    answer = client.post("/api/tables", json={"game": "scotland-yard", "options": {"detectives": 2}})
    assert answer.status_code == 201, answer.json
    code, tokens = answer.json["code"], {"host": answer.json["host_token"]}
    for seat, name in zip(SEATS, ("Xena", "Dora", "Dirk"), strict=True):
        claimed = client.post(f"/api/tables/{code}/seats", json={"seat": seat, "name": name})
        assert claimed.status_code == 201, claimed.json
        tokens[seat] = claimed.json["token"]
    return code, tokens


def api(client, code: str, token: str, action: dict | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"}
    if action is None:
        return client.get(f"/api/tables/{code}/view", headers=headers).json["view"]
    answer = client.post(f"/api/tables/{code}/actions", json=action, headers=headers)
    assert answer.status_code == 200, answer.json
    return answer.json["view"]


def mister_x_moves(client, code: str, tokens: dict) -> dict:
    """Mister X's move of this round, a double move when he has made two moves (its first half is the reveal)."""
    view = api(client, code, tokens[MISTER_X])
    if view["can_double_move"] and view["double_move_moves"] and view["move"] == 2:
        view = api(client, code, tokens[MISTER_X], mister_x_step(view, double=True))
    return api(client, code, tokens[MISTER_X], mister_x_step(view))


def detectives_move(client, code: str, tokens: dict, chase: bool) -> dict:
    station = api(client, code, tokens[MISTER_X])["station"]
    for seat in ("detective-1", "detective-2"):
        while True:
            view = api(client, code, tokens[seat])
            step = None if view["over"] else detective_step(view, station, chase)
            if step is None:
                break
            api(client, code, tokens[seat], step)
    return api(client, code, tokens[MISTER_X])


def play_to_the_end(client, code: str, tokens: dict) -> dict:
    view = api(client, code, tokens[MISTER_X])
    while not view["over"]:
        if view["phase"] == MISTER_X:
            view = mister_x_moves(client, code, tokens)
        if not view["over"]:
            view = detectives_move(client, code, tokens, chase=view["round"] > 3)
    return view


def pages(client, code: str, tokens: dict, lang: str) -> list[str]:
    """Mister X's page, both detectives' pages and the display, in one language."""
    got = []
    for seat in SEATS:
        client.set_cookie(f"seat_{code}", tokens[seat])
        got.append(client.get(f"/t/{code}/seat?lang={lang}").get_data(as_text=True))
    client.delete_cookie(f"seat_{code}")
    client.set_cookie(f"host_{code}", tokens["host"])
    got.append(client.get(f"/t/{code}/display?lang={lang}").get_data(as_text=True))
    return got


def visible_text(page: str) -> str:
    """What a reader sees or hears: text between tags and the title and aria-label attributes."""
    labels = re.findall(r'(?:title|aria-label)="([^"]*)"', page)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body) + " " + " ".join(labels))


def english_pieces(lang: str) -> list[str]:
    """The English words of this game's templates that the language's catalogue translates differently."""
    templates = tuple(sorted(TEMPLATES.rglob("*.html")))
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    pieces = []
    for message in Source(TRANSLATIONS, (), templates).messages():
        if not message.id:
            continue
        translated = catalog.get(message.id)
        assert translated is not None and translated.string, f"{lang}: no translation of {message.id!r}"
        for piece in re.split(r"%\(\w+\)s", message.id):
            piece = piece.strip(" .:…()")
            if len(piece) >= 5 and piece not in translated.string:
                pieces.append(piece)
    return pieces


@pytest.mark.parametrize("lang", ["cs", "nl"])
def test_every_screen_speaks_czech_and_dutch_through_the_whole_game(client, lang):
    code, tokens = open_table(client)
    pieces = english_pieces(lang)
    assert pieces
    screens = pages(client, code, tokens, lang)  # Mister X to move, with a double move on offer
    api(client, code, tokens[MISTER_X], mister_x_step(api(client, code, tokens[MISTER_X])))
    screens += pages(client, code, tokens, lang)  # the detectives and bobbies to move
    detectives_move(client, code, tokens, chase=False)
    api(client, code, tokens[MISTER_X], mister_x_step(api(client, code, tokens[MISTER_X]), double=True))
    screens += pages(client, code, tokens, lang)  # the second step of a double move
    play_to_the_end(client, code, tokens)
    screens += pages(client, code, tokens, lang)
    for page in screens:
        assert f'lang="{lang}"' in page
        text = visible_text(page)
        untranslated = [piece for piece in pieces if piece in text]
        assert not untranslated, untranslated


def test_the_two_player_game_shows_one_pooled_ticket_board_and_no_notebook_when_it_is_off(client):
    answer = client.post("/api/tables", json={"game": "scotland-yard", "options": {"detectives": 1, "notebook": False}})
    code, host = answer.json["code"], answer.json["host_token"]
    token = client.post(f"/api/tables/{code}/seats", json={"seat": "detective-1", "name": "Dora"}).json["token"]
    client.set_cookie(f"seat_{code}", token)
    page = client.get(f"/t/{code}/seat").get_data(as_text=True)
    assert "(pooled for both detectives)" in page
    assert 'Taxi <b class="count">22</b>' in page
    assert page.count('class="my-figure') == 4  # two detectives and two bobbies
    client.set_cookie(f"host_{code}", host)
    display = client.get(f"/t/{code}/display").get_data(as_text=True)
    assert 'id="sy-notebook"' not in display and 'id="sy-log"' in display


def test_a_reveal_in_the_first_half_of_a_double_move_stays_on_the_display_after_the_second_half(client):
    code, tokens = open_table(client)
    for _round in (1, 2):
        mister_x_moves(client, code, tokens)
        detectives_move(client, code, tokens, chase=False)
    view = mister_x_moves(client, code, tokens)  # from move 2: a double move, moves 3 and 4
    assert [entry["double"] for entry in view["travel_log"]] == [False, False, True, True]
    client.set_cookie(f"host_{code}", tokens["host"])
    display = client.get(f"/t/{code}/display").get_data(as_text=True)
    station = view["travel_log"][2]["station"]
    assert f"Mister X showed himself at station {station} (move 3), then moved on." in display
    assert LOG_STATION.findall(display) == [str(station)]
