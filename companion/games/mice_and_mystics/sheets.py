"""The mouse sheets' moves: cheese, levels, wounds, statuses, cards, the party's stash and tokens."""

from __future__ import annotations

from companion.games.base import N_, RuleError, msg

from . import initiative, mice, schema, views
from .names import (
    PARTY_ITEMS,
    STATUSES,
    mouse_label,
    seat_label,
)
from .seats import the_mouse
from .story import note


def mouse_cheese(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    count = schema.integer(action, "count")
    if count >= 0:
        note(state, N_("%(mouse)s gains %(count)s cheese."), mouse=mouse_label(mouse), count=count)
    else:
        note(state, N_("%(mouse)s gives up %(count)s cheese."), mouse=mouse_label(mouse), count=-count)
    if schema.flag(action, "rolled"):
        mice.cheese_rolled(state, mouse, count)
    else:
        mice.gain_cheese(mouse, count)


def level_up(state: dict, actor: str, action: dict, rng) -> None:
    mice.level_up(state, the_mouse(state, actor, action), schema.text(action, "ability") or "?")


def wound_mouse(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    poison = schema.flag(action, "poison")
    count = schema.integer(action, "count")
    if poison:
        note(state, N_("%(mouse)s takes %(count)s poison wounds."), mouse=mouse_label(mouse), count=count)
    else:
        note(state, N_("%(mouse)s takes %(count)s wounds."), mouse=mouse_label(mouse), count=count)
    mice.wound(state, mouse, count, poison)


def heal_mouse(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    mice.heal(mouse, schema.integer(action, "count"), schema.flag(action, "poison"))
    note(state, N_("%(mouse)s is healed."), mouse=mouse_label(mouse))


def set_status(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    status = schema.choice(action, "status")
    on = schema.flag(action, "on")
    mice.set_status(mouse, status, on)
    label = msg(STATUSES[status])
    if on:
        note(state, N_("%(mouse)s is now %(status)s."), mouse=mouse_label(mouse), status=label)
    else:
        note(state, N_("%(mouse)s is no longer %(status)s."), mouse=mouse_label(mouse), status=label)


def take_card(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    card = mice.placed_card(required_text(action, "card"), schema.choice(action, "place"), action.get("slot"))
    mice.take_card(mouse, card)
    note(
        state,
        N_("%(mouse)s keeps %(card)s: %(place)s."),
        mouse=mouse_label(mouse),
        card=card["name"],
        place=views.place_label(card),
    )


def drop_card(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    card = required_text(action, "card")
    mice.drop_card(mouse, card)
    note(state, N_("%(mouse)s discards %(card)s."), mouse=mouse_label(mouse), card=card)


def searched(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    room = required_text(action, "room")
    mice.searched(mouse, room)
    note(state, N_("%(mouse)s searched %(room)s successfully."), mouse=mouse_label(mouse), room=room)


def required_text(action: dict, key: str) -> str:
    value = schema.text(action, key)
    if not value:
        raise RuleError(N_("Please fill in %(field)s."), code="missing_field", field=key)
    return value


def capture_mouse(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    if mouse["captured"]:
        raise RuleError(N_("%(mouse)s is already captured."), code="captured", mouse=mouse_label(mouse))
    mice.capture(state, mouse)


def carry_card(state: dict, actor: str, action: dict, rng) -> None:
    mouse = the_mouse(state, actor, action)
    place = schema.choice(action, "place") if "place" in action else "pack"
    mice.choose_carried_card(mouse, schema.text(action, "card"), place, action.get("slot"))
    note(
        state,
        N_("%(mouse)s will carry %(card)s into the next chapter."),
        mouse=mouse_label(mouse),
        card=mouse["search_card"]["name"] if mouse["search_card"] else "-",
    )


def greedy_roaches(state: dict, actor: str, action: dict, rng) -> None:
    initiative.set_greedy(state, schema.flag(action, "on"))


def stash(state: dict, actor: str, action: dict, rng) -> None:
    """MM-43: the party items are tokens in the party stash, for this chapter only (MM-38)."""
    item, change = schema.choice(action, "item"), schema.integer(action, "change")
    if state["stash"][item] + change < 0:
        raise RuleError(N_("The party stash holds no %(item)s."), code="empty_stash", item=msg(PARTY_ITEMS[item]))
    state["stash"][item] += change
    note(state, N_("Party stash: %(item)s × %(count)s."), item=msg(PARTY_ITEMS[item]), count=state["stash"][item])


def party_token(state: dict, actor: str, action: dict, rng) -> None:
    """MM-43: a party item's token goes from the stash onto the board, back to the stash, or is used up."""
    item, to = schema.choice(action, "item"), schema.choice(action, "to")
    label = msg(PARTY_ITEMS[item])
    if to == "room":
        take_token(state, "stash", item, N_("The party stash holds no %(item)s."), "empty_stash")
        state["room_items"][item] += 1
        note(state, N_("%(item)s goes on the board in this room."), item=label)
        return
    take_token(state, "room_items", item, N_("No %(item)s lies in this room."), "not_in_room")
    if to == "stash":
        state["stash"][item] += 1
        note(state, N_("%(item)s goes back to the party stash."), item=label)
    else:
        note(state, N_("%(item)s is used up: shuffle its card back into the search deck."), item=label)


def take_token(state: dict, where: str, item: str, refusal: str, code: str) -> None:
    if not state[where][item]:
        raise RuleError(refusal, code=code, item=msg(PARTY_ITEMS[item]))
    state[where][item] -= 1


def leave_room(state: dict, actor: str, action: dict, rng) -> None:
    note(state, N_("The mice leave the room."))
    leave_the_room(state)


def leave_the_room(state: dict) -> None:
    """MM-43: a party token left in a room leaves the board, and its card goes back into the search deck."""
    for item, count in state["room_items"].items():
        if count:
            note(
                state,
                N_("%(item)s stays behind: the token leaves the board; shuffle its card back into the search deck."),
                item=msg(PARTY_ITEMS[item]),
            )
    state["room_items"] = dict.fromkeys(PARTY_ITEMS, 0)


def story_achievement(state: dict, actor: str, action: dict, rng) -> None:
    """MM-38: story achievements stay with the party from chapter to chapter."""
    text = required_text(action, "text")
    if schema.flag(action, "on"):
        if text not in state["story_achievements"]:
            state["story_achievements"].append(text)
        note(state, N_("Story achievement: %(text)s."), text=text)
    elif text in state["story_achievements"]:
        state["story_achievements"].remove(text)
        note(state, N_("Story achievement crossed out: %(text)s."), text=text)


def set_notes(state: dict, actor: str, action: dict, rng) -> None:
    state["notes"] = schema.text(action, "text")
    note(state, N_("%(actor)s updated the party's notes."), actor=seat_label(actor))


def award(state: dict, actor: str, action: dict, rng) -> None:
    if not state["options"]["achievements"]:
        raise RuleError(N_("Individual achievements are not in play at this table."), code="no_achievements")
    mice.award(state, the_mouse(state, actor, action), schema.choice(action, "achievement"))
