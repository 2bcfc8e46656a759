"""Who may change what: the table's seats, the mouse an action is about and the seat it names."""

from __future__ import annotations

from companion.games.base import HOST, N_, Refusal, RuleError

from .names import (
    find_mouse,
    mouse_label,
)

# A move on another player's mouse, or a mouse handed on by anyone but the host: this seat may never make it.
REFUSALS = {"not_your_mouse": Refusal.FORBIDDEN, "not_your_seat": Refusal.FORBIDDEN}


def seat_ids(options: dict) -> list[str]:
    players = min(max(int(options.get("players", 2)), 1), 4)
    return [f"player-{n}" for n in range(1, players + 1)]


def the_mouse(state: dict, actor: str, action: dict) -> dict:
    """The mouse an action is about."""
    try:
        return find_mouse(state, action.get("mouse", ""))
    except KeyError:
        raise RuleError(N_("There is no such mouse."), code="unknown_mouse") from None


def own_mouse(state: dict, actor: str, action: dict) -> None:
    """Who may make a move on a mouse sheet: its own player, or the host."""
    mouse = the_mouse(state, actor, action)
    if actor not in (HOST, mouse["seat"]):
        raise RuleError(
            N_("Only the player running %(mouse)s can do that."), code="not_your_mouse", mouse=mouse_label(mouse)
        )


def the_seat(state: dict, actor: str, action: dict) -> str:
    seat = action.get("seat") or (actor if actor != HOST else state["seats"][0])
    if seat not in state["seats"]:
        raise RuleError(N_("There is no such seat."), code="unknown_seat")
    if actor not in (HOST, seat):
        raise RuleError(N_("Only the host can hand a mouse to another player."), code="not_your_seat")
    return seat
