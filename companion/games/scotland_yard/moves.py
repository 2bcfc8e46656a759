"""The moves: the board's rides, Mister X's single and double moves, the detectives' and bobbies', the end of a
round and of the game."""

from __future__ import annotations

from companion.games.base import HOST, N_, Msg, RuleError, msg

from .board import BOARD
from .figures import (
    DETECTIVE_RIDES,
    MISTER_X,
    REVEAL_MOVES,
    RIDES,
    ROUNDS,
    TICKET_NAMES,
    TICKETS,
    detective_seats,
    figure_label,
)


def reachable(station: int, ticket: str) -> set[int]:
    """Stations one ride away on this ticket, ignoring who stands where."""
    return {near for ride in RIDES[ticket] for near in BOARD.neighbours(station, ride)}


def occupied_stations(state: dict) -> dict[int, str]:
    return {spot["station"]: figure for figure, spot in state["figures"].items()}


def _check_ride(origin: int, to: object, ticket: str, detective: bool) -> None:
    if not BOARD.is_station(to):
        raise RuleError(N_("Choose a station between 1 and %(last)s."), code="bad_station", last=BOARD.stations)
    if to == origin:
        raise RuleError(N_("Every figure has to leave its station each round."), code="must_move")
    if to in reachable(origin, ticket):
        return
    if to in BOARD.neighbours(origin, "ferry"):
        if detective:
            raise RuleError(N_("Only Mister X can take the ferry, with a black ticket."), code="ferry")
        raise RuleError(N_("Only a black ticket rides the ferry."), code="ferry")
    raise RuleError(
        N_("No %(ticket)s line links station %(origin)s with station %(to)s."),
        code="no_line",
        ticket=msg(TICKET_NAMES[ticket]),
        origin=origin,
        to=to,
    )


def _check_free(state: dict, to: int) -> None:
    holder = occupied_stations(state).get(to)
    if holder is not None:
        raise RuleError(
            N_("Station %(station)s is taken by %(figure)s."), code="occupied", station=to, figure=figure_label(holder)
        )


def _ticket(action: dict, allowed: tuple[str, ...]) -> str:
    ticket = action.get("ticket")
    if ticket == "black" and "black" not in allowed:
        raise RuleError(N_("Only Mister X has black tickets."), code="black_ticket")
    if ticket not in allowed:
        raise RuleError(N_("Choose a ticket: taxi, bus, underground or black."), code="bad_ticket")
    return ticket


def mister_x_moves(state: dict, station: int | None = None, black: int | None = None) -> dict[str, list[int]]:
    """Ticket -> the free stations Mister X can reach with it (SY-14, SY-21)."""
    station = state["mister_x"]["station"] if station is None else station
    black = state["mister_x"]["black"] if black is None else black
    taken = occupied_stations(state)
    tickets = TICKETS if black > 0 else DETECTIVE_RIDES
    moves = {ticket: sorted(reachable(station, ticket) - taken.keys()) for ticket in tickets}
    return {ticket: stations for ticket, stations in moves.items() if stations}


def double_move_starts(state: dict) -> dict[str, list[int]]:
    """First steps of a double move that leave Mister X a legal second step (SY-17, SY-20)."""
    if not may_double_move(state):
        return {}
    black = state["mister_x"]["black"]
    starts = {
        ticket: [to for to in stations if mister_x_moves(state, to, black - (ticket == "black"))]
        for ticket, stations in mister_x_moves(state).items()
    }
    return {ticket: stations for ticket, stations in starts.items() if stations}


def may_double_move(state: dict) -> bool:
    return state["phase"] == MISTER_X and not state["double_move"] and state["mister_x"]["double"] > 0


def play_move(state: dict, actor: str, action: dict) -> None:
    """A single move: Mister X's, or a detective's or bobby's (the piece named, else the actor's own)."""
    piece = action.get("piece") or _default_piece(state, actor)
    if piece == MISTER_X:
        move_mister_x(state, actor, action, double=False)
    else:
        _move_figure(state, actor, piece, action)


def move_mister_x(state: dict, actor: str, action: dict, double: bool) -> None:
    if actor == HOST:
        raise RuleError(N_("The host cannot move Mister X: only his own phone knows where he is."), code="not_yours")
    if actor != MISTER_X:
        raise RuleError(N_("Only Mister X moves Mister X."), code="not_yours")
    if state["phase"] != MISTER_X:
        raise RuleError(N_("The detectives are moving now; Mister X moves again next round."), code="not_your_turn")
    ticket = _ticket(action, TICKETS)
    mister_x = state["mister_x"]
    if double and state["double_move"]:
        raise RuleError(N_("Only one double move per round: make the second step of this one."), code="double_move")
    if double and mister_x["double"] == 0:
        raise RuleError(N_("You have no double-move tickets left."), code="double_move")
    if ticket == "black" and mister_x["black"] == 0:
        raise RuleError(N_("You have no black tickets left."), code="black_ticket")
    to = action.get("to")
    _check_ride(mister_x["station"], to, ticket, detective=False)
    _check_free(state, to)
    if double and not mister_x_moves(state, to, mister_x["black"] - (ticket == "black")):
        raise RuleError(
            N_("From station %(station)s your double move would have no second step."), code="double_move", station=to
        )
    _record_move(state, to, ticket, double)


def _record_move(state: dict, to: int, ticket: str, double: bool) -> None:
    mister_x = state["mister_x"]
    state["travel_log"].append(
        {
            "round": state["round"],
            "ticket": ticket,
            "station": to,
            "double": double or state["double_move"],
            # Where the figures stood is public and lets the notebook rule stations out.
            "blocked": sorted(occupied_stations(state)),
        }
    )
    mister_x["station"] = to
    mister_x["black"] -= ticket == "black"
    if len(state["travel_log"]) in REVEAL_MOVES:
        reveal = {"move": len(state["travel_log"]), "station": to}
        if reveal not in state["known_reveals"]:
            state["known_reveals"].append(reveal)
    if double:
        mister_x["double"] -= 1
        state["double_move"] = True
    else:
        state["double_move"] = False
        state["phase"] = "detectives"
        state["moved"] = []
        _settle(state)


def check_cornered(state: dict) -> None:
    if state["phase"] == MISTER_X and not mister_x_moves(state):
        _end(state, "detectives", "cornered")


def _default_piece(state: dict, actor: str) -> str:
    if actor == MISTER_X:
        return MISTER_X
    own = [figure for figure, spot in state["figures"].items() if spot["seat"] == actor]
    if len(own) == 1:
        return own[0]
    raise RuleError(N_("Say which figure you are moving."), code="which_piece")


def rides_of(state: dict, figure: str) -> tuple[str, ...]:
    """The tickets this figure can still ride on: bobbies ride free (SY-5, SY-10)."""
    board = state["figures"][figure]["board"]
    if board is None:
        return DETECTIVE_RIDES
    return tuple(ride for ride in DETECTIVE_RIDES if state["boards"][board][ride] > 0)


def figure_moves(state: dict, figure: str) -> dict[str, list[int]]:
    station = state["figures"][figure]["station"]
    taken = occupied_stations(state)
    moves = {ride: sorted(reachable(station, ride) - taken.keys()) for ride in rides_of(state, figure)}
    return {ride: stations for ride, stations in moves.items() if stations}


def skipped_figures(state: dict) -> set[str]:
    return {skip["figure"] for skip in state["skips"] if skip["round"] == state["round"]}


def waiting_figures(state: dict) -> list[str]:
    """Figures that still have to move this round."""
    if state["phase"] != "detectives":
        return []
    done = set(state["moved"]) | skipped_figures(state)
    return [figure for figure in state["figures"] if figure not in done]


def controls_figure(state: dict, actor: str, figure: str) -> bool:
    spot = state["figures"][figure]
    if actor == HOST:
        return True  # the host may stand in for a detective whose phone is gone: their moves are public
    return actor in detective_seats(state) and spot["seat"] in (None, actor)


def _move_figure(state: dict, actor: str, figure: str, action: dict) -> None:
    if figure not in state["figures"]:
        raise RuleError(N_("There is no figure called %(piece)s at this table."), code="no_piece", piece=figure)
    if actor == MISTER_X:
        raise RuleError(N_("Mister X cannot move the detectives or the bobbies."), code="not_yours")
    if not controls_figure(state, actor, figure):
        raise RuleError(N_("You can move only your own detective and the bobbies."), code="not_yours")
    if state["phase"] != "detectives":
        raise RuleError(N_("Mister X moves first; wait until he has moved."), code="not_your_turn")
    if figure in state["moved"]:
        raise RuleError(N_("%(figure)s has already moved this round."), code="moved", figure=figure_label(figure))
    if figure in skipped_figures(state):
        raise RuleError(N_("%(figure)s sits out this round."), code="skipped", figure=figure_label(figure))
    ticket = _ticket(action, DETECTIVE_RIDES)
    if ticket not in rides_of(state, figure):
        raise RuleError(
            N_("%(figure)s has no tickets of this kind left (%(ticket)s)."),
            code="no_tickets",
            figure=figure_label(figure),
            ticket=msg(TICKET_NAMES[ticket]),
        )
    spot = state["figures"][figure]
    to = action.get("to")
    _check_ride(spot["station"], to, ticket, detective=True)
    _check_free(state, to)
    spot["station"] = to
    if spot["board"] is not None:
        state["boards"][spot["board"]][ticket] -= 1
    state["moved"].append(figure)
    if to == state["mister_x"]["station"]:
        _end(state, "detectives", "captured", figure=figure)
    else:
        _settle(state)


def _settle(state: dict) -> None:
    """Skip the figures that cannot move (SY-11), then close the round if nobody is left."""
    for figure in waiting_figures(state):
        if not any(reachable(state["figures"][figure]["station"], ride) for ride in rides_of(state, figure)):
            reason = "no_ticket_fits" if rides_of(state, figure) else "no_tickets"
            _skip(state, figure, reason)
    waiting = waiting_figures(state)
    # A figure hemmed in by the others may get free when they move, so it sits out only when all are stuck.
    if waiting and not any(figure_moves(state, figure) for figure in waiting):
        for figure in waiting:
            _skip(state, figure, "blocked")
    if _hunt_stalled(state):
        _end(state, MISTER_X, "stranded")
    elif not waiting_figures(state):
        _end_round(state)


def _skip(state: dict, figure: str, reason: str) -> None:
    station = state["figures"][figure]["station"]
    state["skips"].append({"round": state["round"], "figure": figure, "reason": reason, "station": station})


def _hunt_stalled(state: dict) -> bool:
    """No detective can move any more (SY-25); bobbies count only if the table says so (Q4)."""
    keep_alive = state["options"]["bobbies_keep_hunt_alive"]
    hunters = [f for f, spot in state["figures"].items() if keep_alive or spot["kind"] == "detective"]
    return set(hunters) <= skipped_figures(state)


def _end_round(state: dict) -> None:
    if state["round"] == ROUNDS:
        _end(state, MISTER_X, "escaped")
        return
    state["round"] += 1
    state["phase"] = MISTER_X
    state["moved"] = []
    check_cornered(state)


def _end(state: dict, winner: str, reason: str, figure: str | None = None) -> None:
    state["phase"] = "over"
    state["end"] = {"winner": winner, "reason": reason, "figure": figure, "station": state["mister_x"]["station"]}


def end_summary(state: dict) -> Msg:
    end = state["end"]
    station = end["station"]
    if end["reason"] == "captured":
        return msg(
            N_("%(figure)s caught Mister X at station %(station)s!"),
            figure=figure_label(end["figure"]),
            station=station,
        )
    if end["reason"] == "cornered":
        return msg(N_("Mister X is cornered at station %(station)s: the detectives win!"), station=station)
    if end["reason"] == "escaped":
        return msg(
            N_("Round %(rounds)s is over and nobody caught Mister X: he escapes from station %(station)s!"),
            rounds=ROUNDS,
            station=station,
        )
    return msg(N_("No detective can move any more: Mister X wins at station %(station)s!"), station=station)
