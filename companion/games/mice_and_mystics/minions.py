"""The minions' moves: encounter cards, arrivals, the track's turns, wounds and defeats."""

from __future__ import annotations

from companion.games.base import N_, RuleError

from . import initiative, schema, story, wheel
from .names import (
    LEADER,
    MINIONS,
    OTHER,
    arrivals_label,
    group_label,
)
from .sheets import leave_the_room, required_text
from .story import PLAYING, note


def reveal_encounter(state: dict, actor: str, action: dict, rng) -> None:
    """MM-25: the new encounter card lies face up and defines the next surge; the old one is discarded.

    The players record the card's row for the hourglass's page and its surge once (Q13): the row's
    minions come now (MM-26), the surge's come with the next surge (MM-30).
    """
    name = required_text(action, "name")
    rows = schema.minion_rows(action, "minions")
    now = [arrival(state, row, row["figures"]) for row in rows if row["figures"]]
    initiative.check_room(state, now)
    state["encounter"] = {
        "name": name,
        "surge": schema.text(action, "surge"),
        "page": state["hourglass"],
        "minions": now,
        "surge_minions": [arrival(state, row, row["surge_figures"]) for row in rows if row["surge_figures"]],
    }
    state["rooms_explored"] += 1
    state["roach_kills"] = {}
    leave_the_room(state)  # MM-22: exploring takes every mouse to the new room
    if not now:
        note(state, N_("New encounter: %(card)s."), card=name)
        return
    story.banner(state, N_("New encounter %(card)s: %(minions)s arrive."), card=name, minions=arrivals_label(now))
    note(state, state["banner"]["msg"], **state["banner"]["args"])
    initiative.summon(state, now, rng, schema.flag(action, "ambush"), schema.rolls(action))


def arrival(state: dict, row: dict, figures: int) -> dict:
    """Minions of one type coming into play; a leader or another minion needs its name."""
    minion, name = row["minion"], row.get("name", "")
    if minion in (LEADER, OTHER) and not name:
        raise RuleError(N_("Please give the minion a name."), code="missing_field")
    return {
        "minion": minion,
        "name": name if minion not in MINIONS else "",
        "figures": figures,
        "life": row.get("life") or state["minion_life"].get(minion, 1),
        "cards": row.get("cards", 2),
    }


def add_minions(state: dict, actor: str, action: dict, rng) -> None:
    row = {
        "minion": schema.choice(action, "minion"),
        "name": schema.text(action, "name"),
        "life": schema.integer(action, "life"),
        "cards": schema.integer(action, "cards"),
    }
    coming = arrival(state, row, schema.integer(action, "figures"))
    initiative.check_room(state, [coming])
    state["pending"].append(coming)
    note(state, N_("Coming into play: %(minion)s."), minion=group_label({"kind": row["minion"], "name": row["name"]}))


def place_minions(state: dict, actor: str, action: dict, rng) -> None:
    if not state["pending"]:
        raise RuleError(N_("Add the minions coming into play first."), code="no_minions")
    initiative.place_arrivals(state, rng, schema.flag(action, "ambush"), schema.rolls(action))


def wound_minion(state: dict, actor: str, action: dict, rng) -> None:
    count = schema.integer(action, "count")
    initiative.wound_minion(state, action.get("card", ""), schema.integer(action, "figure"), count)


def defeat_minion(state: dict, actor: str, action: dict, rng) -> None:
    initiative.defeat(state, action.get("card", ""), schema.integer(action, "figure"))


def next_turn(state: dict, actor: str, action: dict, rng) -> None:
    state["banner"] = None
    if initiative.end_turn(state):
        note(state, N_("Time is running out: one cheese goes on the cheese wheel."))
        wheel.add_minion_cheese(state, 1, rng)  # MM-29; its surge may bring minions before the next card comes up
    if state["phase"] == PLAYING:
        initiative.come_up(state)
