"""The cheese wheel and the story track's moves: cheese, special surges, hourglass and marker, the chapter's end."""

from __future__ import annotations

from companion.games.base import N_, RuleError

from . import initiative, schema, story, wheel
from .minions import arrival
from .names import (
    arrivals_label,
    mouse_label,
    seat_label,
)
from .seats import the_mouse
from .story import LOST, WON, note


def add_cheese(state: dict, actor: str, action: dict, rng) -> None:
    """MM-16: one tap per cheese a minion rolls; Brodie's cheese never counts (MM-34)."""
    if action.get("minion") == "brodie":
        raise RuleError(N_("Brodie's cheese never goes on the cheese wheel."), code="brodie_cheese")
    count = schema.integer(action, "count")
    note(state, N_("%(actor)s adds %(count)s cheese to the cheese wheel."), actor=seat_label(actor), count=count)
    wheel.add_minion_cheese(state, count, rng)


def steal_cheese(state: dict, actor: str, action: dict, rng) -> None:
    """MM-27: cheese a greedy roach steals goes onto the cheese wheel; only greedy roaches steal."""
    mouse = the_mouse(state, actor, action)
    initiative.greedy_roaches_in_play(state)
    stolen = min(mouse["cheese"], schema.integer(action, "count"))
    mouse["cheese"] -= stolen
    note(state, N_("A greedy roach steals %(count)s cheese from %(mouse)s."), count=stolen, mouse=mouse_label(mouse))
    wheel.add_minion_cheese(state, stolen, rng)


def set_special_surge(state: dict, actor: str, action: dict, rng) -> None:
    """MM-30: a room's special surge, in words and the minions it places, replaces the encounter card's."""
    state["special_surge"] = schema.text(action, "text")
    rows = schema.minion_rows(action, "minions")
    state["special_minions"] = [arrival(state, row, row["figures"]) for row in rows if row["figures"]]
    if state["special_minions"]:
        note(state, N_("Special surge here: %(minions)s."), minions=arrivals_label(state["special_minions"]))
    if state["special_surge"]:
        note(state, N_("Special surge here: %(text)s"), text=state["special_surge"])
    if not state["special_surge"] and not state["special_minions"]:
        note(state, N_("No special surge here."))


def move_hourglass(state: dict, actor: str, action: dict, rng) -> None:
    story.move_hourglass(state, schema.integer(action, "pages"))


def move_end_marker(state: dict, actor: str, action: dict, rng) -> None:
    story.move_end_marker(state, schema.integer(action, "pages"))


def goals_done(state: dict, actor: str, action: dict, rng) -> None:
    """MM-31: every victory condition met before the hourglass ran out."""
    state["phase"] = WON
    story.banner(state, N_("Victory! Chapter %(chapter)s is won."), chapter=state["chapter"])
    note(state, state["banner"]["msg"], **state["banner"]["args"])


def chapter_lost(state: dict, actor: str, action: dict, rng) -> None:
    """Q5: the chapter's own defeat condition was met."""
    state["phase"] = LOST
    story.banner(state, N_("Defeat: chapter %(chapter)s is lost."), chapter=state["chapter"])
    note(state, state["banner"]["msg"], **state["banner"]["args"])
