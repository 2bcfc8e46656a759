"""The chapter's setup, its end, and the campaign between chapters (with the optional dice helper)."""

from __future__ import annotations

from companion.games.base import N_, RuleError, msg

from . import initiative, mice, schema
from .names import (
    DIE_FACES,
    HEROES,
    PARTY_ITEMS,
    mouse_label,
    seat_label,
)
from .seats import the_mouse, the_seat
from .story import PLAYING, SETUP, note

PARTY_FULL = N_("A party has at most %(limit)s mice, one per hero in the box.")


def add_mouse(state: dict, actor: str, action: dict, rng) -> None:
    if len(state["mice"]) >= mice.PARTY_LIMIT:
        raise RuleError(PARTY_FULL, code="party_full", limit=mice.PARTY_LIMIT)
    hero = schema.choice(action, "hero")
    name = schema.text(action, "name")
    seat = the_seat(state, actor, action)
    if hero == "custom":
        if not name:
            raise RuleError(N_("Please give the mouse a name."), code="missing_field")
        state["custom_mice"] += 1
        mouse_id, hero = f"mouse-{state['custom_mice']}", None
    elif any(m["id"] == hero for m in state["mice"]):
        raise RuleError(N_("%(mouse)s is already in the party."), code="duplicate_mouse", mouse=msg(HEROES[hero]))
    else:
        mouse_id, name = hero, ""
    mouse = mice.new_mouse(mouse_id, hero, name, seat, schema.integer(action, "life"), schema.text(action, "ability"))
    state["mice"].append(mouse)
    note(state, N_("%(seat)s brings %(mouse)s into the party."), seat=seat_label(seat), mouse=mouse_label(mouse))


def remove_mouse(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    state["mice"].remove(mouse)
    note(state, N_("%(mouse)s leaves the party."), mouse=mouse_label(mouse))


def assign(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    seat = action.get("seat")
    if seat not in state["seats"]:
        raise RuleError(N_("There is no such seat."), code="unknown_seat")
    mouse["seat"] = seat
    note(state, N_("%(seat)s now runs %(mouse)s."), seat=seat_label(seat), mouse=mouse_label(mouse))


def set_chapter(state: dict, actor: str, action: dict, rng) -> None:
    start = action.get("hourglass_page", state["start_page"])
    end = action.get("end_page", state["end_page"])
    if "chapter" in action:
        state["chapter"] = schema.integer(action, "chapter")
    if "hourglass_page" in action:
        start = schema.integer(action, "hourglass_page")
    if "end_page" in action:
        end = schema.integer(action, "end_page")
    if start >= end:
        raise RuleError(N_("The hourglass must start before the chapter-end page."), code="bad_pages")
    state.update(start_page=start, hourglass=start, end_page=end, chapter_end_page=end)
    if "special_surge" in action:
        state["special_surge"] = schema.text(action, "special_surge")
    note(
        state,
        N_("Chapter %(chapter)s: the hourglass starts on page %(start)s, the chapter ends on page %(end)s."),
        chapter=state["chapter"],
        start=start,
        end=end,
    )


def start_chapter(state: dict, actor: str, action: dict, rng) -> None:
    if not state["mice"]:
        raise RuleError(N_("Add the mice in play first."), code="no_mice")
    state.update(phase=PLAYING, hourglass=state["start_page"], banner=None)
    note(state, N_("Chapter %(chapter)s begins."), chapter=state["chapter"])
    initiative.start_chapter(state, rng, schema.flag(action, "ambush"), schema.rolls(action))
    initiative.note_whose_turn(state)
    state["start_player"] = state["start_player"] or initiative.active_player(state)


def next_chapter(state: dict, actor: str, action: dict, rng) -> None:
    """MM-38: the next chapter of the campaign; the mice keep abilities and their one search card."""
    if not state["options"]["campaign"]:
        raise RuleError(N_("This table plays a single chapter."), code="not_campaign")
    state["chapters"].append({"chapter": state["chapter"], "result": state["phase"]})
    for mouse in state["mice"]:
        mice.carry_over(mouse)
    state.update(
        phase=SETUP,
        chapter=state["chapter"] + 1,
        start_page=1,
        hourglass=1,
        end_page=state["chapter_end_page"],
        special_surge="",
        special_minions=[],
        encounter=None,
        rooms_explored=0,
        wheel=0,
        track=[],
        turn=-1,
        round=0,
        groups={},
        pending=[],
        achievements={},
        roach_kills={},
        stash=dict.fromkeys(PARTY_ITEMS, 0),
        room_items=dict.fromkeys(PARTY_ITEMS, 0),
        surge=None,
        banner=None,
    )
    note(state, N_("On to chapter %(chapter)s: cheese, wounds and achievements reset."), chapter=state["chapter"])
    note(state, N_("The chapter-end marker goes back to page %(page)s."), page=state["end_page"])


def end_campaign(state: dict, actor: str, action: dict, rng) -> None:
    state["campaign_over"] = True
    note(state, N_("The campaign ends after chapter %(chapter)s."), chapter=state["chapter"])


def roll_dice(state: dict, actor: str, action: dict, rng) -> None:
    """Issue item 7: the optional dice helper; the physical dice stay the default."""
    if not state["options"]["dice_helper"]:
        raise RuleError(N_("The dice helper is off at this table."), code="no_dice_helper")
    faces = [DIE_FACES[rng.randint(0, len(DIE_FACES) - 1)] for _ in range(schema.integer(action, "count"))]
    state["dice"] = {"by": actor, "faces": [{"symbol": symbol, "move": move} for symbol, move in faces]}
    note(state, N_("%(actor)s rolls %(count)s dice."), actor=seat_label(actor), count=len(faces))
