"""What each seat sees: the table's public view, Mister X's and a detective's."""

from __future__ import annotations

import copy

from companion.games.base import N_, Msg, msg

from .board import BOARD
from .figures import MISTER_X, REVEAL_MOVES, ROUNDS, figure_label
from .moves import (
    controls_figure,
    double_move_starts,
    end_summary,
    figure_moves,
    may_double_move,
    mister_x_moves,
    rides_of,
    skipped_figures,
    waiting_figures,
)
from .notebook import notebook_view


def _log_entry(number: int, entry: dict, show_station: bool) -> dict:
    reveal = number in REVEAL_MOVES
    return {
        "move": number,
        "round": entry["round"],
        "ticket": entry["ticket"],
        "double": entry["double"],
        "reveal": reveal,
        "station": entry["station"] if show_station or reveal else None,
    }


def _travel_log(state: dict, full: bool) -> list[dict]:
    return [_log_entry(n, entry, full) for n, entry in enumerate(state["travel_log"], 1)]


def _known_reveals(state: dict) -> list[dict]:
    log = state["travel_log"]
    return [
        {**reveal, "undone": len(log) < reveal["move"] or log[reveal["move"] - 1]["station"] != reveal["station"]}
        for reveal in state["known_reveals"]
    ]


def _banner(state: dict) -> Msg | None:
    if state["end"]:
        return end_summary(state)
    number = len(state["travel_log"])
    if number in REVEAL_MOVES and (state["phase"] == "detectives" or state["double_move"]):
        return msg(N_("Mister X shows himself at station %(station)s!"), station=state["travel_log"][-1]["station"])
    return None


def public_view(state: dict) -> dict:
    over = state["phase"] == "over"
    skipped = skipped_figures(state)
    return {
        "round": state["round"],
        "rounds": ROUNDS,
        "move": len(state["travel_log"]),
        "reveal_moves": list(REVEAL_MOVES),
        "phase": state["phase"],
        "over": over,
        "travel_log": _travel_log(state, full=over),
        "mister_x_station": state["mister_x"]["station"] if over else None,
        "mister_x_tickets": {"black": state["mister_x"]["black"], "double": state["mister_x"]["double"]},
        "double_move_in_progress": state["double_move"],
        "figures": [
            {
                "id": f,
                "label": figure_label(f),
                "kind": spot["kind"],
                "seat": spot["seat"],
                "station": spot["station"],
                "board": spot["board"],
                "moved": f in state["moved"],
                "skipped": f in skipped,
            }
            for f, spot in state["figures"].items()
        ],
        "boards": copy.deepcopy(state["boards"]),
        "pooled_tickets": state["options"]["detectives"] == 1,
        "to_move": waiting_figures(state),
        "known_reveals": _known_reveals(state),
        "end_undone": state["end_undone"],
        "banner": _banner(state),
        "notebook": notebook_view(state),
    }


def _hunters_reach(state: dict) -> set[int]:
    """Stations some detective or bobby could ride to next round."""
    return {
        near
        for figure, spot in state["figures"].items()
        for ride in rides_of(state, figure)
        for near in BOARD.neighbours(spot["station"], ride)
    }


def _by_station(moves: dict[str, list[int]], doubles: dict[str, list[int]] | None = None) -> list[dict]:
    """Each station once, with the tickets that reach it (and those that start a double move there): a phone
    offers a station once and its tickets after it, so no station repeats under each ticket that reaches it."""
    doubles = doubles or {}
    stations = sorted({to for targets in moves.values() for to in targets})
    return [
        {
            "to": to,
            "tickets": [ticket for ticket, targets in moves.items() if to in targets],
            "doubles": [ticket for ticket, targets in doubles.items() if to in targets],
        }
        for to in stations
    ]


def mister_x_view(state: dict) -> dict:
    my_turn = state["phase"] == MISTER_X
    danger = _hunters_reach(state)

    def flagged(moves: dict[str, list[int]]) -> dict[str, list[dict]]:
        return {t: [{"to": to, "warning": to in danger} for to in stations] for t, stations in moves.items()}

    moves = mister_x_moves(state) if my_turn else {}
    doubles = double_move_starts(state)
    stations = [{**pick, "warning": pick["to"] in danger} for pick in _by_station(moves, doubles)]
    return {
        "seat": MISTER_X,
        "your_turn": my_turn,
        "station": state["mister_x"]["station"],
        "travel_log": _travel_log(state, full=True),
        "legal_moves": flagged(moves),
        "stations": stations,
        "can_double_move": may_double_move(state),
        "double_move_moves": flagged(doubles),
    }


def detective_view(state: dict, seat: str) -> dict:
    mine = [f for f in state["figures"] if controls_figure(state, seat, f)]
    waiting = set(waiting_figures(state))
    legal = {f: figure_moves(state, f) for f in mine if f in waiting}
    return {
        "seat": seat,
        "your_turn": any(legal.values()),
        "tickets": dict(state["boards"][seat]),
        "my_figures": mine,
        "legal_moves": legal,
        "stations": {figure: _by_station(moves) for figure, moves in legal.items()},
    }


def whose_move(state: dict) -> Msg | None:
    if state["phase"] == "over":
        return None
    if state["double_move"]:
        return msg(N_("Round %(round)s: Mister X makes the second step of his double move."), round=state["round"])
    if state["phase"] == MISTER_X:
        return msg(N_("Round %(round)s: Mister X is moving."), round=state["round"])
    return msg(N_("Round %(round)s: the detectives and bobbies are moving."), round=state["round"])
