"""Undoing any end of Scotland Yard hides Mister X again, in the history too (house rule, SY-22 to SY-25).

Each kind of end is played on a real server with seeded play, then undone; every byte the
detectives and the display receive afterwards, on every channel, is checked for his station.
"""

from __future__ import annotations

import itertools
import json

import pytest

from companion.games.scotland_yard.board import BOARD
from companion.games.scotland_yard.figures import DETECTIVE_RIDES, MISTER_X
from companion.games.scotland_yard.history import FIGURE_TOOK, SKIP_REASONS
from tests.games.test_scotland_yard_web import distances_to
from tests.http import call
from tests.leaks import DISPLAY, Table, json_frames, walk

SEATS = [MISTER_X, "detective-1", "detective-2"]
DETECTIVES = ("detective-1", "detective-2")
# Lines that name a station because a detective or a bobby stands there, or because Mister X showed himself.
PUBLIC_STATIONS = {
    *FIGURE_TOOK.values(),
    *SKIP_REASONS.values(),
    "Mister X shows himself at station %(station)s (move %(move)s)!",
}
ENDS = {  # each kind of end, by the summary it shows
    "captured": "%(figure)s caught Mister X at station %(station)s!",  # SY-22
    "cornered": "Mister X is cornered at station %(station)s: the detectives win!",  # SY-23
    "escaped": "Round %(rounds)s is over and nobody caught Mister X: he escapes from station %(station)s!",  # SY-24
    "stranded": "No detective can move any more: Mister X wins at station %(station)s!",  # SY-25
}


# -- the board, as the players see it -------------------------------------------------------------


def around(station: int, black: int) -> set[int]:
    """Where Mister X could go from `station` next round: the ferry too while he has a black ticket."""
    rides = ("taxi", "bus", "underground", *(("ferry",) if black else ()))
    return {near for ride in rides for near in BOARD.neighbours(station, ride)}


def rides_from(station: int, tickets: dict | None) -> dict[int, str]:
    """Station -> a ticket for it, one ride away with the tickets left (None: a bobby, who rides free)."""
    reach: dict[int, str] = {}
    for ride in DETECTIVE_RIDES:
        if tickets is None or tickets[ride] > 0:
            for near in BOARD.neighbours(station, ride):
                reach.setdefault(near, ride)
    return reach


def tickets_of(public: dict, figure: dict) -> dict | None:
    return public["boards"][figure["board"]] if figure["board"] else None


def covering(public: dict, to: int, black: int) -> dict | None:
    """Figure -> (station, ticket) that fills every way out of `to` this round, if the figures can."""
    figures = public["figures"]
    ways_out = sorted(around(to, black))
    if len(ways_out) > len(figures):
        return None
    reach = {f["id"]: rides_from(f["station"], tickets_of(public, f)) for f in figures}
    for order in itertools.permutations([f["id"] for f in figures], len(ways_out)):
        if all(station in reach[figure] for figure, station in zip(order, ways_out, strict=True)):
            return {figure: (station, reach[figure][station]) for figure, station in zip(order, ways_out, strict=True)}
    return None


# -- seeded play towards one kind of end ------------------------------------------------------------


def mister_x_move(view: dict, public: dict, ending: str) -> dict:
    moves = [(ticket, move) for ticket, targets in view["legal_moves"].items() for move in targets]
    black = view["mister_x_tickets"]["black"]
    if ending == "captured":
        moves.sort(key=lambda choice: not choice[1]["warning"])  # into a hunter's reach
    elif ending == "cornered":
        moves.sort(key=lambda choice: choice[0] != "black")  # spend the black tickets: the ferry is a way out
        trap = next((c for c in moves if covering(public, c[1]["to"], black - (c[0] == "black"))), None)
        stands = [figure["station"] for figure in public["figures"]]

        def nearness(choice):
            ways_out = around(choice[1]["to"], black - (choice[0] == "black"))
            return len(ways_out), sum(min(distances_to(out).get(s, 99) for s in stands) for out in ways_out)

        moves = [trap] if trap else sorted(moves, key=nearness)
    else:
        moves.sort(key=lambda choice: (choice[1]["warning"], choice[0] == "black"))
    ticket, move = moves[0]
    return {"type": "move", "to": move["to"], "ticket": ticket}


def seat_of(figure: dict) -> str:
    return figure["seat"] or f"detective-{figure['id'][-1]}"  # detective-1 moves bobby-1, detective-2 bobby-2


def figure_move(public: dict, mister_x: int, ending: str, plan: dict) -> tuple[str, dict]:
    """The seat and the move of one figure still to move, from what every screen knows (and his station)."""
    figures = {figure["id"]: figure for figure in public["figures"]}
    taken = {figure["station"] for figure in figures.values()}
    options = {
        f: [
            (t, to)
            for to, t in rides_from(figures[f]["station"], tickets_of(public, figures[f])).items()
            if to not in taken
        ]
        for f in public["to_move"]
    }

    def move(figure: str, ticket: str, to: int) -> tuple[str, dict]:
        return seat_of(figures[figure]), {"type": "move", "piece": figure, "to": to, "ticket": ticket}

    if ending == "captured":
        for figure, choices in options.items():
            for ticket, to in choices:
                if to == mister_x:
                    return move(figure, ticket, to)
    for figure, (to, ticket) in plan.items():
        if figure in options and to not in taken:
            return move(figure, ticket, to)
    wanted = {to for to, _ticket in plan.values()}
    far = distances_to(mister_x)
    for figure, choices in options.items():
        free = [(t, to) for t, to in choices if to != mister_x and to not in wanted]
        if figure in plan or not free:
            continue
        tickets = tickets_of(public, figures[figure])
        if ending == "stranded":  # spend taxi and bus, and end where no underground leaves
            key = lambda c: (c[0] == "underground", bool(BOARD.neighbours(c[1], "underground")), c[0] != "taxi", c)  # noqa: E731
        elif ending == "cornered":
            key = lambda c: (far.get(c[1], 99), c)  # noqa: E731
        else:  # keep every ticket and many ways on, and never step onto him

            def key(c, tickets=tickets):
                left = {**tickets, c[0]: tickets[c[0]] - 1} if tickets else None
                return -len(rides_from(c[1], left)), -(tickets or {}).get(c[0], 99), c

        return move(figure, *min(free, key=key))
    figure, choices = next((f, c) for f, c in options.items() if c)
    return move(figure, *choices[0])


def view_of(table: Table, who: str) -> dict:
    token = table.host if who == DISPLAY else table.tokens[who]
    status, body = call(table.base, "GET", f"/api/tables/{table.code}/view", token=token)
    assert status == 200, body
    return body


def play_to_an_end(table: Table, ending: str) -> dict:
    """Play the table out, steering towards `ending`; the last answer (every view carries the public part)."""
    plan: dict = {}
    answer = view_of(table, DISPLAY)
    while not answer["outcome"]:
        public = answer["view"]
        if public["phase"] == MISTER_X:
            mister_x = view_of(table, MISTER_X)["view"]
            action = mister_x_move(mister_x, public, ending)
            black = mister_x["mister_x_tickets"]["black"] - (action["ticket"] == "black")
            plan = (covering(public, action["to"], black) if ending == "cornered" else None) or {}
            seat, station = MISTER_X, action["to"]
        else:
            seat, action = figure_move(public, station, ending, plan)
        status, answer = table.act(seat, action)
        assert status == 200, answer
    return answer


# -- what the others receive after the undo ---------------------------------------------------------


def english(message: dict) -> str:
    args = {name: english(value) if isinstance(value, dict) else value for name, value in message["args"].items()}
    return message["msg"] % args


def stations_named(line: dict) -> set[int]:
    return {value for part in walk(line) for key, value in part.get("args", {}).items() if key == "station"}


def assert_history_keeps_his_station(viewer: str, text: str, secret: set[int], ended_at: int, said: list[str]):
    for sentence in said:
        assert sentence not in text, f"{viewer} still reads {sentence!r} after the undo"
    frames = [frame for frame in json_frames(text) if "history" in frame]
    assert frames, f"{viewer} received no history after the undo"
    for frame in frames:
        for line in frame["history"]:
            named = stations_named(line) & secret
            if line["seq"] >= ended_at:
                assert not named, f"{viewer} got {line} after the undo"
            elif named:
                assert line["msg"] in PUBLIC_STATIONS, f"{viewer} got {line}"


@pytest.mark.parametrize("ending", ENDS)
def test_after_the_host_undoes_an_end_of_any_kind_no_detective_or_display_byte_names_mister_xs_station(server, ending):
    for _table in range(5):  # a table's start cards are its own: a few tables may end otherwise
        table = Table(server.url, "scotland-yard", {"detectives": 2}, SEATS)
        play_to_an_end(table, ending)
        over = view_of(table, DISPLAY)
        if over["outcome"]["summary"]["msg"] == ENDS[ending]:
            break
        table.close()
    else:
        pytest.fail(f"five tables never ended {ending}")
    ended_at = over["seq"]
    end_station = over["view"]["mister_x_station"]
    said = [
        english(line) for line in over["history"] if line["seq"] == ended_at and end_station in stations_named(line)
    ]
    assert said, "the end named his station"
    table.received()
    table.received()  # the end's own frames, however late they come
    status, body = call(server.url, "POST", f"/api/tables/{table.code}/undo", {"seen_seq": ended_at}, table.host)
    assert status == 200, body
    table.responses[DISPLAY].append(json.dumps(body))
    now = view_of(table, MISTER_X)["view"]["station"]
    revealed = {reveal["station"] for reveal in body["view"]["known_reveals"]}
    secret = {now, end_station} - revealed
    got = table.received()
    for viewer in (*DETECTIVES, DISPLAY):
        assert_history_keeps_his_station(viewer, got[viewer], secret, ended_at, said)
    assert any(sentence in got[MISTER_X] for sentence in said)  # his own phone still tells him
    table.close()
