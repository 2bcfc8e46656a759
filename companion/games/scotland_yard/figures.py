"""The figures, tickets and rounds of Scotland Yard: its numbers, its options and seats, and its figures' names."""

from __future__ import annotations

from companion.games.base import N_, Msg, RuleError, msg

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


def chosen_options(options: dict) -> dict:
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


def detective_seats(state: dict) -> list[str]:
    return [f"detective-{n}" for n in range(1, state["options"]["detectives"] + 1)]


def figure_label(figure: str) -> Msg:
    """A figure's name as the players say it: Mister X, Detective 2, Bobby 1."""
    if figure == MISTER_X:
        return msg(N_("Mister X"))
    kind, number = figure.rsplit("-", 1)
    if kind == "bobby":
        return msg(N_("Bobby %(number)s"), number=int(number))
    return msg(N_("Detective %(number)s"), number=int(number))


def history_line(msgid: str, seats: list[str] | None = None, **args) -> dict:
    return {**msg(msgid, **args), "seats": seats}
