"""Panic: one roll on the panic table, with the walk up when a colour is gone."""

from __future__ import annotations

from companion.games.base import N_, RuleError, msg

from . import table
from .texts import COLOURS, die
from .turn import colour_on_board, draw_event, read_die


def roll_panic(state: dict, actor: str, action: dict, rng) -> None:
    """One roll on the panic table; a missing colour walks up from row 1 (ET-18, ET-23)."""
    turn = state["turn"]
    if turn["panic"] is not None:
        raise RuleError(N_("The panic die has already been rolled this turn."), code="already_rolled")
    value, physical = read_die(action, rng)
    row = table.panic_row(value, state["tourists"])
    colour = table.row_colour(row)
    if row == 5:
        present = [c for c in COLOURS if state["tourists"][c]]
        colour = present[0] if len(present) == 1 else None
    turn["panic"] = {"roll": value, "physical": physical, "row": row, "colour": colour}
    effect = table.row_effect(row, state["settings"]["tourist_speed"], colour)
    banner = _panic_banner(state["active"], value, row, effect)
    state["news"].append(
        msg(N_("%(player)s rolls %(roll)s for panic"), player=state["active"], roll=die(value, physical))
    )
    state["news"].append(banner)
    if row == 6:
        banner = msg(N_("%(panic)s. %(event)s"), panic=banner, event=draw_event(state, rng))
    state["banner"] = banner


def _panic_banner(player: str, value: int, row: int, effect: dict) -> dict:
    """What the whole table reads, on the display too: it names the player who rolled."""
    if row != value:
        return msg(
            N_("Panic! %(player)s rolled %(roll)s, but that colour has left the castle: %(effect)s"),
            player=player,
            roll=value,
            effect=effect,
        )
    return msg(N_("Panic! %(player)s rolled %(roll)s: %(effect)s"), player=player, roll=value, effect=effect)


def choose_colour(state: dict, actor: str, action: dict, rng) -> None:
    """On a 5 the active player picks one colour still on the board (Q5)."""
    panic = state["turn"]["panic"]
    if panic is None or panic["row"] != 5:
        raise RuleError(N_("You choose a colour only after rolling a 5 for panic."), code="no_choice")
    panic["colour"] = colour_on_board(state, action)
    effect = table.row_effect(5, state["settings"]["tourist_speed"], panic["colour"])
    state["banner"] = _panic_banner(state["active"], panic["roll"], 5, effect)
    state["news"].append(msg(N_("%(player)s chooses: %(effect)s"), player=state["active"], effect=effect))
