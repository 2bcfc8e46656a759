"""Scotland Yard: Mister X's secret travel log, the detectives' tickets and the notebook.

The cardboard board and the pawns stay on the table; this module keeps what the
phones replace, and checks every move against the real board graph.
Rule numbers (SY-n) refer to shared/rules/scotland-yard.md.
"""

from __future__ import annotations

import copy

from companion.games.base import HOST, N_, Game, Move, Msg, Option, RuleError, SeatSpec, msg

from .board import BOARD, TRANSPORTS

MISTER_X = "mister-x"
PLAYING = (MISTER_X, "detectives")  # the phases of a game still running
ROUNDS = 22
REVEAL_MOVES = (3, 8, 13, 18, 24)
DETECTIVE_TICKETS = {"taxi": 11, "bus": 8, "underground": 4}
BLACK_TICKETS = 5
DOUBLE_MOVES = 2
BOBBIES = {1: 2, 2: 2, 3: 1, 4: 0, 5: 0}
TICKETS = ("taxi", "bus", "underground", "black")
DETECTIVE_RIDES = ("taxi", "bus", "underground")
STATION_FIELD = {"type": "integer", "minimum": 1, "maximum": BOARD.stations}
# A black ticket rides anything, and it is the only ticket that rides the ferry (SY-21).
RIDES = {"taxi": ("taxi",), "bus": ("bus",), "underground": ("underground",), "black": TRANSPORTS}

TICKET_NAMES = {
    "taxi": N_("taxi"),
    "bus": N_("bus"),
    "underground": N_("underground"),
    "black": N_("black ticket"),
}
MISTER_X_TOOK = {
    "taxi": N_("Mister X took a taxi (move %(move)s)."),
    "bus": N_("Mister X took the bus (move %(move)s)."),
    "underground": N_("Mister X took the underground (move %(move)s)."),
    "black": N_("Mister X used a black ticket (move %(move)s)."),
}
YOU_TOOK = {
    "taxi": N_("You took a taxi to station %(station)s (move %(move)s)."),
    "bus": N_("You took the bus to station %(station)s (move %(move)s)."),
    "underground": N_("You took the underground to station %(station)s (move %(move)s)."),
    "black": N_("You used a black ticket to station %(station)s (move %(move)s)."),
}
FIGURE_TOOK = {
    "taxi": N_("%(figure)s took a taxi to station %(station)s."),
    "bus": N_("%(figure)s took the bus to station %(station)s."),
    "underground": N_("%(figure)s took the underground to station %(station)s."),
}
FIGURE_RODE = {
    "taxi": N_("%(figure)s took a taxi."),
    "bus": N_("%(figure)s took the bus."),
    "underground": N_("%(figure)s took the underground."),
}
SKIP_REASONS = {
    "no_tickets": N_("%(figure)s sits out round %(round)s: no tickets left."),
    "no_ticket_fits": N_("%(figure)s sits out round %(round)s: no ticket left for any line from station %(station)s."),
    "blocked": N_("%(figure)s sits out round %(round)s: every station it can reach from %(station)s is taken."),
}


class ScotlandYard(Game):
    """Mister X flees across London; the phones keep his travel log and the detectives' tickets."""

    id = "scotland-yard"
    name = N_("Scotland Yard")
    bgg_id = 438
    summary = N_(
        "Mister X's secret travel log on his phone, the detectives' tickets on theirs, "
        "every move checked against the real board."
    )
    options = (
        Option(
            "detectives",
            N_("Detective players"),
            "int",
            3,
            min=1,
            max=5,
            help=N_("With 1, the two-player game: one player runs two detectives with pooled tickets and two bobbies."),
        ),
        Option(
            "notebook",
            N_("Detectives' notebook"),
            "bool",
            True,
            help=N_("Show the stations where Mister X can be, from everything public."),
        ),
        Option(
            "bobbies_keep_hunt_alive",
            N_("Bobbies keep the hunt alive"),
            "bool",
            False,
            help=N_("If on, Mister X wins by stranding the detectives only when the bobbies cannot move either."),
        ),
    )
    # Who may make a move, and when, depends on the piece it moves: each move checks it itself.
    moves = {
        "move": Move(
            lambda state, actor, action, rng: _move(state, actor, action),
            {
                "type": "object",
                "properties": {
                    "piece": {"type": "string"},
                    "to": STATION_FIELD,
                    "ticket": {"type": "string", "enum": list(TICKETS)},
                },
                "required": ["to", "ticket"],
            },
            PLAYING,
        ),
        "double_move": Move(
            lambda state, actor, action, rng: _move_mister_x(state, actor, action, double=True),
            {
                "type": "object",
                "properties": {"to": STATION_FIELD, "ticket": {"type": "string", "enum": list(TICKETS)}},
                "required": ["to", "ticket"],
            },
            PLAYING,
        ),
    }
    concurrent = frozenset({"move"})

    def moment(self, state):
        return state["round"], state["phase"]

    # -- setup ------------------------------------------------------------------

    def seats(self, options: dict) -> list[SeatSpec]:
        players = _options(options)["detectives"]
        return [SeatSpec(MISTER_X, msg(N_("Mister X")))] + [
            SeatSpec(f"detective-{n}", msg(N_("Detective %(number)s"), number=n)) for n in range(1, players + 1)
        ]

    def setup(self, options: dict, rng) -> dict:
        options = _options(options)
        players = options["detectives"]
        pooled = players == 1
        detectives = [f"detective-{n}" for n in range(1, (2 if pooled else players) + 1)]
        bobbies = [f"bobby-{n}" for n in range(1, BOBBIES[players] + 1)]
        cards = rng.shuffled(list(BOARD.start_cards["detective"]))
        figures = {}
        for figure in detectives:
            owner = "detective-1" if pooled else figure
            figures[figure] = {"kind": "detective", "seat": owner, "board": owner, "station": cards.pop()}
        for figure in bobbies:
            figures[figure] = {"kind": "bobby", "seat": None, "board": None, "station": cards.pop()}
        if pooled:
            boards = {"detective-1": {ride: 2 * count for ride, count in DETECTIVE_TICKETS.items()}}
        else:
            boards = {figure: dict(DETECTIVE_TICKETS) for figure in detectives}
        start = rng.choice(list(BOARD.start_cards["mister_x"]))
        state = {
            "options": options,
            "round": 1,
            "phase": MISTER_X,
            "double_move": False,
            "mister_x": {"start": start, "station": start, "black": BLACK_TICKETS, "double": DOUBLE_MOVES},
            "travel_log": [],
            "figures": figures,
            "boards": boards,
            "moved": [],
            "skips": [],
            "known_reveals": [],
            "end": None,
            "end_undone": False,
        }
        _check_cornered(state)
        return state

    # -- actions ----------------------------------------------------------------

    def wrong_phase(self, state: dict) -> RuleError:
        return RuleError(N_("The game is over."), code="game_over")

    def undo(self, before: dict, undone: dict, action: dict) -> dict:
        """Roll back, but every station Mister X showed (SY-16) stays known.

        House rule: undoing the end of the game hides his route again. The end screen showed
        the whole travel log, so the table agrees to play on as if only his reveals were seen.
        """
        restored = copy.deepcopy(before)
        for reveal in undone["known_reveals"]:
            if reveal not in restored["known_reveals"]:
                restored["known_reveals"].append(reveal)
        if undone["phase"] == "over":
            restored["end_undone"] = True
        return restored

    # -- what each seat sees ----------------------------------------------------

    def view(self, state: dict, seat: str | None) -> dict:
        public = _public_view(state)
        if seat == MISTER_X:
            return {**public, **_mister_x_view(state)}
        if seat in _detective_seats(state):
            return {**public, **_detective_view(state, seat)}
        return {**public, "whose_move": _whose_move(state)}

    def outcome(self, state: dict) -> dict | None:
        end = state["end"]
        if end is None:
            return None
        winners = [MISTER_X] if end["winner"] == MISTER_X else _detective_seats(state)
        roles = {MISTER_X: msg(N_("Mister X"))} | dict.fromkeys(_detective_seats(state), msg(N_("Detectives")))
        return {"winners": winners, "summary": _end_summary(state), "start_player": MISTER_X, "roles": roles}

    def describe(self, before: dict, after: dict, actor: str, action: dict) -> list[dict]:
        return _describe(before, after, action, end_shown=True)

    def describe_undone(self, before: dict, undone: dict, restored: dict, actor: str, action: dict) -> list[dict]:
        """House rule: after an undone end only Mister X knows where he stood, so the lines say no more."""
        return _describe(before, undone, action, end_shown=restored["phase"] == "over")


def _describe(before: dict, after: dict, action: dict, end_shown: bool) -> list[dict]:
    """The history of one action; end_shown False keeps the station of an end to Mister X."""
    lines = []
    if action.get("type") == "double_move":
        lines.append(_line(N_("Mister X plays a double move.")))
    for number in range(len(before["travel_log"]) + 1, len(after["travel_log"]) + 1):
        lines += _log_lines(after, number)
    end = after["end"] if not before["end"] else None
    for figure, spot in after["figures"].items():
        if spot["station"] != before["figures"][figure]["station"]:
            if end and end["reason"] == "captured" and end["figure"] == figure and not end_shown:
                # He stands where this figure went: the station goes with the end.
                lines.append(_line(FIGURE_RODE[action["ticket"]], figure=_label(figure)))
            else:
                took = FIGURE_TOOK[action["ticket"]]
                lines.append(_line(took, figure=_label(figure), station=spot["station"]))
    for skip in after["skips"][len(before["skips"]) :]:
        lines.append(
            _line(
                SKIP_REASONS[skip["reason"]],
                figure=_label(skip["figure"]),
                round=skip["round"],
                station=skip["station"],
            )
        )
    if after["round"] > before["round"] and after["phase"] != "over":
        lines.append(_line(N_("Round %(round)s: Mister X moves."), round=after["round"]))
    if end:
        lines.append({**_end_summary(after), "seats": None if end_shown else [MISTER_X]})
    return lines


# -- options and seats -----------------------------------------------------------


def _options(options: dict) -> dict:
    try:
        players = int(options.get("detectives", 3))
    except (TypeError, ValueError):
        players = 0
    if not 1 <= players <= 5:
        raise RuleError(N_("Scotland Yard is played with 1 to 5 detective players."), code="bad_option")
    return {
        "detectives": players,
        "notebook": bool(options.get("notebook", True)),
        "bobbies_keep_hunt_alive": bool(options.get("bobbies_keep_hunt_alive", False)),
    }


def _detective_seats(state: dict) -> list[str]:
    return [f"detective-{n}" for n in range(1, state["options"]["detectives"] + 1)]


def _label(figure: str) -> Msg:
    """A figure's name as the players say it: Mister X, Detective 2, Bobby 1."""
    if figure == MISTER_X:
        return msg(N_("Mister X"))
    kind, number = figure.rsplit("-", 1)
    if kind == "bobby":
        return msg(N_("Bobby %(number)s"), number=int(number))
    return msg(N_("Detective %(number)s"), number=int(number))


def _line(msgid: str, seats: list[str] | None = None, **args) -> dict:
    return {**msg(msgid, **args), "seats": seats}


# -- the board -------------------------------------------------------------------


def _reach(station: int, ticket: str) -> set[int]:
    """Stations one ride away on this ticket, ignoring who stands where."""
    return {near for ride in RIDES[ticket] for near in BOARD.neighbours(station, ride)}


def _occupied(state: dict) -> dict[int, str]:
    return {spot["station"]: figure for figure, spot in state["figures"].items()}


def _check_ride(origin: int, to: object, ticket: str, detective: bool) -> None:
    if not BOARD.is_station(to):
        raise RuleError(N_("Choose a station between 1 and %(last)s."), code="bad_station", last=BOARD.stations)
    if to == origin:
        raise RuleError(N_("Every figure has to leave its station each round."), code="must_move")
    if to in _reach(origin, ticket):
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
    holder = _occupied(state).get(to)
    if holder is not None:
        raise RuleError(
            N_("Station %(station)s is taken by %(figure)s."), code="occupied", station=to, figure=_label(holder)
        )


def _ticket(action: dict, allowed: tuple[str, ...]) -> str:
    ticket = action.get("ticket")
    if ticket == "black" and "black" not in allowed:
        raise RuleError(N_("Only Mister X has black tickets."), code="black_ticket")
    if ticket not in allowed:
        raise RuleError(N_("Choose a ticket: taxi, bus, underground or black."), code="bad_ticket")
    return ticket


# -- Mister X ----------------------------------------------------------------------


def _mister_x_moves(state: dict, station: int | None = None, black: int | None = None) -> dict[str, list[int]]:
    """Ticket -> the free stations Mister X can reach with it (SY-14, SY-21)."""
    station = state["mister_x"]["station"] if station is None else station
    black = state["mister_x"]["black"] if black is None else black
    taken = _occupied(state)
    tickets = TICKETS if black > 0 else DETECTIVE_RIDES
    moves = {ticket: sorted(_reach(station, ticket) - taken.keys()) for ticket in tickets}
    return {ticket: stations for ticket, stations in moves.items() if stations}


def _double_move_starts(state: dict) -> dict[str, list[int]]:
    """First steps of a double move that leave Mister X a legal second step (SY-17, SY-20)."""
    if not _may_double_move(state):
        return {}
    black = state["mister_x"]["black"]
    starts = {
        ticket: [to for to in stations if _mister_x_moves(state, to, black - (ticket == "black"))]
        for ticket, stations in _mister_x_moves(state).items()
    }
    return {ticket: stations for ticket, stations in starts.items() if stations}


def _may_double_move(state: dict) -> bool:
    return state["phase"] == MISTER_X and not state["double_move"] and state["mister_x"]["double"] > 0


def _move(state: dict, actor: str, action: dict) -> None:
    """A single move: Mister X's, or a detective's or bobby's (the piece named, else the actor's own)."""
    piece = action.get("piece") or _default_piece(state, actor)
    if piece == MISTER_X:
        _move_mister_x(state, actor, action, double=False)
    else:
        _move_figure(state, actor, piece, action)


def _move_mister_x(state: dict, actor: str, action: dict, double: bool) -> None:
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
    if double and not _mister_x_moves(state, to, mister_x["black"] - (ticket == "black")):
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
            "blocked": sorted(_occupied(state)),
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


def _check_cornered(state: dict) -> None:
    if state["phase"] == MISTER_X and not _mister_x_moves(state):
        _end(state, "detectives", "cornered")


# -- detectives and bobbies ---------------------------------------------------------


def _default_piece(state: dict, actor: str) -> str:
    if actor == MISTER_X:
        return MISTER_X
    own = [figure for figure, spot in state["figures"].items() if spot["seat"] == actor]
    if len(own) == 1:
        return own[0]
    raise RuleError(N_("Say which figure you are moving."), code="which_piece")


def _rides(state: dict, figure: str) -> tuple[str, ...]:
    """The tickets this figure can still ride on: bobbies ride free (SY-5, SY-10)."""
    board = state["figures"][figure]["board"]
    if board is None:
        return DETECTIVE_RIDES
    return tuple(ride for ride in DETECTIVE_RIDES if state["boards"][board][ride] > 0)


def _figure_moves(state: dict, figure: str) -> dict[str, list[int]]:
    station = state["figures"][figure]["station"]
    taken = _occupied(state)
    moves = {ride: sorted(_reach(station, ride) - taken.keys()) for ride in _rides(state, figure)}
    return {ride: stations for ride, stations in moves.items() if stations}


def _skipped(state: dict) -> set[str]:
    return {skip["figure"] for skip in state["skips"] if skip["round"] == state["round"]}


def _waiting(state: dict) -> list[str]:
    """Figures that still have to move this round."""
    if state["phase"] != "detectives":
        return []
    done = set(state["moved"]) | _skipped(state)
    return [figure for figure in state["figures"] if figure not in done]


def _controls(state: dict, actor: str, figure: str) -> bool:
    spot = state["figures"][figure]
    if actor == HOST:
        return True  # the host may stand in for a detective whose phone is gone: their moves are public
    return actor in _detective_seats(state) and spot["seat"] in (None, actor)


def _move_figure(state: dict, actor: str, figure: str, action: dict) -> None:
    if figure not in state["figures"]:
        raise RuleError(N_("There is no figure called %(piece)s at this table."), code="no_piece", piece=figure)
    if actor == MISTER_X:
        raise RuleError(N_("Mister X cannot move the detectives or the bobbies."), code="not_yours")
    if not _controls(state, actor, figure):
        raise RuleError(N_("You can move only your own detective and the bobbies."), code="not_yours")
    if state["phase"] != "detectives":
        raise RuleError(N_("Mister X moves first; wait until he has moved."), code="not_your_turn")
    if figure in state["moved"]:
        raise RuleError(N_("%(figure)s has already moved this round."), code="moved", figure=_label(figure))
    if figure in _skipped(state):
        raise RuleError(N_("%(figure)s sits out this round."), code="skipped", figure=_label(figure))
    ticket = _ticket(action, DETECTIVE_RIDES)
    if ticket not in _rides(state, figure):
        raise RuleError(
            N_("%(figure)s has no tickets of this kind left (%(ticket)s)."),
            code="no_tickets",
            figure=_label(figure),
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
    for figure in _waiting(state):
        if not any(_reach(state["figures"][figure]["station"], ride) for ride in _rides(state, figure)):
            reason = "no_ticket_fits" if _rides(state, figure) else "no_tickets"
            _skip(state, figure, reason)
    waiting = _waiting(state)
    # A figure hemmed in by the others may get free when they move, so it sits out only when all are stuck.
    if waiting and not any(_figure_moves(state, figure) for figure in waiting):
        for figure in waiting:
            _skip(state, figure, "blocked")
    if _hunt_stalled(state):
        _end(state, MISTER_X, "stranded")
    elif not _waiting(state):
        _end_round(state)


def _skip(state: dict, figure: str, reason: str) -> None:
    station = state["figures"][figure]["station"]
    state["skips"].append({"round": state["round"], "figure": figure, "reason": reason, "station": station})


def _hunt_stalled(state: dict) -> bool:
    """No detective can move any more (SY-25); bobbies count only if the table says so (Q4)."""
    keep_alive = state["options"]["bobbies_keep_hunt_alive"]
    hunters = [f for f, spot in state["figures"].items() if keep_alive or spot["kind"] == "detective"]
    return set(hunters) <= _skipped(state)


def _end_round(state: dict) -> None:
    if state["round"] == ROUNDS:
        _end(state, MISTER_X, "escaped")
        return
    state["round"] += 1
    state["phase"] = MISTER_X
    state["moved"] = []
    _check_cornered(state)


def _end(state: dict, winner: str, reason: str, figure: str | None = None) -> None:
    state["phase"] = "over"
    state["end"] = {"winner": winner, "reason": reason, "figure": figure, "station": state["mister_x"]["station"]}


def _end_summary(state: dict) -> Msg:
    end = state["end"]
    station = end["station"]
    if end["reason"] == "captured":
        return msg(
            N_("%(figure)s caught Mister X at station %(station)s!"), figure=_label(end["figure"]), station=station
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


# -- the notebook -----------------------------------------------------------------


def possible_stations(state: dict) -> list[int]:
    """Where Mister X can be, from public facts only: start cards, tickets, reveals, figures."""
    possible = set(BOARD.start_cards["mister_x"])
    for number, entry in enumerate(state["travel_log"], 1):
        if number in REVEAL_MOVES:
            possible = {entry["station"]}
            continue
        blocked = set(entry["blocked"])
        # He was not caught, so he was not where a figure stood; and he cannot end his move there.
        possible = {to for station in possible - blocked for to in _reach(station, entry["ticket"])} - blocked
    return sorted(possible - _occupied(state).keys())


def _notebook(state: dict) -> dict | None:
    if not state["options"]["notebook"]:
        return None
    stations = possible_stations(state)
    return {
        "count": len(stations),
        "stations": stations,
        "map": {
            "image_size": list(BOARD.image_size),
            "possible": [{"station": s, "x": BOARD.positions[s][0], "y": BOARD.positions[s][1]} for s in stations],
            "figures": [
                {
                    "id": f,
                    "station": spot["station"],
                    "x": BOARD.positions[spot["station"]][0],
                    "y": BOARD.positions[spot["station"]][1],
                }
                for f, spot in state["figures"].items()
            ],
        },
    }


# -- views --------------------------------------------------------------------------


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
        return _end_summary(state)
    number = len(state["travel_log"])
    if number in REVEAL_MOVES and (state["phase"] == "detectives" or state["double_move"]):
        return msg(N_("Mister X shows himself at station %(station)s!"), station=state["travel_log"][-1]["station"])
    return None


def _public_view(state: dict) -> dict:
    over = state["phase"] == "over"
    skipped = _skipped(state)
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
                "label": _label(f),
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
        "to_move": _waiting(state),
        "known_reveals": _known_reveals(state),
        "end_undone": state["end_undone"],
        "banner": _banner(state),
        "notebook": _notebook(state),
    }


def _hunters_reach(state: dict) -> set[int]:
    """Stations some detective or bobby could ride to next round."""
    return {
        near
        for figure, spot in state["figures"].items()
        for ride in _rides(state, figure)
        for near in BOARD.neighbours(spot["station"], ride)
    }


def _mister_x_view(state: dict) -> dict:
    my_turn = state["phase"] == MISTER_X
    danger = _hunters_reach(state)

    def flagged(moves: dict[str, list[int]]) -> dict[str, list[dict]]:
        return {t: [{"to": to, "warning": to in danger} for to in stations] for t, stations in moves.items()}

    return {
        "seat": MISTER_X,
        "your_turn": my_turn,
        "station": state["mister_x"]["station"],
        "travel_log": _travel_log(state, full=True),
        "legal_moves": flagged(_mister_x_moves(state)) if my_turn else {},
        "can_double_move": _may_double_move(state),
        "double_move_moves": flagged(_double_move_starts(state)),
    }


def _detective_view(state: dict, seat: str) -> dict:
    mine = [f for f in state["figures"] if _controls(state, seat, f)]
    waiting = set(_waiting(state))
    legal = {f: _figure_moves(state, f) for f in mine if f in waiting}
    return {
        "seat": seat,
        "your_turn": any(legal.values()),
        "tickets": dict(state["boards"][seat]),
        "my_figures": mine,
        "legal_moves": legal,
    }


def _whose_move(state: dict) -> Msg | None:
    if state["phase"] == "over":
        return None
    if state["double_move"]:
        return msg(N_("Round %(round)s: Mister X makes the second step of his double move."), round=state["round"])
    if state["phase"] == MISTER_X:
        return msg(N_("Round %(round)s: Mister X is moving."), round=state["round"])
    return msg(N_("Round %(round)s: the detectives and bobbies are moving."), round=state["round"])


def _log_lines(state: dict, number: int) -> list[dict]:
    entry = state["travel_log"][number - 1]
    lines = [
        _line(MISTER_X_TOOK[entry["ticket"]], move=number),
        _line(YOU_TOOK[entry["ticket"]], seats=[MISTER_X], station=entry["station"], move=number),
    ]
    if number in REVEAL_MOVES:
        lines.append(
            _line(
                N_("Mister X shows himself at station %(station)s (move %(move)s)!"),
                station=entry["station"],
                move=number,
            )
        )
    return lines
