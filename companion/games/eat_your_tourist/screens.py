"""What the display and the phones show, built from the state."""

from __future__ import annotations

from companion.games.base import msg

from . import table, turn
from .texts import COLOUR_NAMES, COLOURS, player


def tourist_rows(state: dict) -> list[dict]:
    start = state["settings"]["tourists_per_colour"]
    return [{"colour": c, "label": msg(COLOUR_NAMES[c]), "left": state["tourists"][c], "start": start} for c in COLOURS]


def panic_table(state: dict) -> list[dict]:
    """The six rows, the applied one highlighted and the rolled one marked."""
    panic, speed = state["turn"]["panic"], state["settings"]["tourist_speed"]
    rows = []
    for row in range(1, 7):
        rows.append(
            {
                "roll": row,
                "colour": table.row_colour(row),
                "label": table.row_effect(row, speed),
                "rolled": bool(panic and panic["roll"] == row),
                "highlight": bool(panic and panic["row"] == row),
            }
        )
    return rows


def panic_view(state: dict) -> dict | None:
    panic = state["turn"]["panic"]
    if panic is None:
        return None
    effect = table.row_effect(panic["row"], state["settings"]["tourist_speed"], panic["colour"])
    return {**panic, "fallback": panic["row"] != panic["roll"], "label": effect}


def event_view(state: dict) -> dict | None:
    number = state["events"]["current"]
    if number is None:
        return None
    return {"number": number, "label": table.event_label(number, state["settings"]["event_titles"])}


def ghost_rows(state: dict) -> list[dict]:
    per_player = state["settings"]["ghosts_per_player"]
    return [
        {
            "seat": seat,
            "label": player(seat),
            "on_board": len(state["ghosts"][seat]),
            "off_board": per_player - len(state["ghosts"][seat]),
            "numbers": list(state["ghosts"][seat]),
        }
        for seat in state["players"]
    ]


def able_ghosts(state: dict) -> dict:
    """The active player's ghosts, by number, that can move (eat, attack) and vanish now: a phone asks only
    which one when more than one can."""
    return {"act": turn.free_ghosts(state), "vanish": turn.unmoved_ghosts(state)}
