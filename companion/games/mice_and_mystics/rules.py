"""Mice and Mystics: the initiative track, cheese wheel, surges and story track beside the cardboard."""

from __future__ import annotations

import copy

from companion.games.base import HOST, N_, Game, Option, RuleError, SeatSpec, msg

from . import initiative, mice, schema, story, views, wheel
from .names import (
    DIE_FACES,
    HEROES,
    LEADER,
    MINIONS,
    OTHER,
    PARTY_ITEMS,
    STATUSES,
    arrivals_label,
    find_mouse,
    group_label,
    mouse_label,
    seat_label,
)
from .story import ENDED, LOST, PLAYING, SETUP, WON, note

PHASES = {
    **dict.fromkeys(("add_mouse", "remove_mouse", "set_chapter", "start_chapter"), (SETUP,)),
    **dict.fromkeys(("next_chapter", "end_campaign"), ENDED),
    **dict.fromkeys(
        ("assign", "carry_card", "roll_dice", "stash", "story_achievement", "set_notes"), (SETUP, PLAYING, *ENDED)
    ),
    **dict.fromkeys(("add_minions", "take_card", "drop_card"), (SETUP, PLAYING)),
}
OWN_MOUSE = frozenset(
    {
        "remove_mouse",
        "assign",
        "mouse_cheese",
        "level_up",
        "heal_mouse",
        "carry_card",
        "take_card",
        "drop_card",
        "searched",
    }
)


class MiceAndMystics(Game):
    id = "mice-and-mystics"
    name = N_("Mice and Mystics")
    bgg_id = 124708
    summary = N_("The initiative track, the cheese wheel, surges and the hourglass, run for you.")
    options = (
        Option("players", N_("Players"), "int", 2, min=1, max=4, help=N_("A player may run several mice.")),
        Option("chapter", N_("Chapter"), "int", 1, min=1, max=99),
        Option(
            "end_page",
            N_("Chapter-end page"),
            "int",
            6,
            min=2,
            max=30,
            help=N_("Where the chapter-end marker starts on the story track."),
        ),
        Option(
            "campaign",
            N_("Campaign"),
            "bool",
            False,
            help=N_("Play chapters in sequence; mice keep their abilities and one search card."),
        ),
        Option("achievements", N_("Individual achievements"), "bool", False),
        Option(
            "dice_helper",
            N_("Dice helper"),
            "bool",
            False,
            help=N_("Roll action dice on the phones, for tables that lost theirs."),
        ),
    )
    actions = schema.ACTIONS
    concurrent = frozenset({"add_cheese", "mouse_cheese", "roll_dice"})

    def seats(self, options: dict) -> list[SeatSpec]:
        return [SeatSpec(seat, seat_label(seat)) for seat in seat_ids(options)]

    def setup(self, options: dict, rng) -> dict:
        return {
            "options": {
                "campaign": bool(options.get("campaign", False)),
                "achievements": bool(options.get("achievements", False)),
                "dice_helper": bool(options.get("dice_helper", False)),
            },
            "seats": seat_ids(options),
            "phase": SETUP,
            "chapter": int(options.get("chapter", 1)),
            "start_page": 1,
            "hourglass": 1,
            "end_page": int(options.get("end_page", 6)),
            # Where the chapter puts the marker; achievements and the story move end_page from there.
            "chapter_end_page": int(options.get("end_page", 6)),
            "special_surge": "",
            # MM-30 and Q13: the minions the room's special surge places, as the players recorded them.
            "special_minions": [],
            "encounter": None,
            "rooms_explored": 0,
            "wheel": 0,
            "mice": [],
            "custom_mice": 0,
            "track": [],
            "turn": -1,
            "round": 0,
            "groups": {},
            "pending": [],
            "achievements": {},
            "surge": None,
            "banner": None,
            "events": [],
            "dice": None,
            "chapters": [],
            "campaign_over": False,
            # Kept on paper before (MM-20, MM-27, MM-38, MM-39, MM-43): roaches each mouse defeated
            # during the face-up encounter card, the party stash, story achievements and free notes.
            "roach_kills": {},
            "stash": dict.fromkeys(PARTY_ITEMS, 0),
            # MM-43: party tokens on the board in the mice's room, gone when the mice leave it.
            "room_items": dict.fromkeys(PARTY_ITEMS, 0),
            "story_achievements": [],
            "notes": "",
            # Q13: the hit points this table last gave each minion type, the default for the next.
            "minion_life": {},
        }

    def apply(self, state: dict, actor: str, action: dict, rng) -> dict:
        kind = action.get("type")
        if kind not in schema.ACTIONS:
            raise RuleError(N_("Unknown action."), code="unknown_action")
        state = copy.deepcopy(state)
        state["events"] = []
        if state["phase"] not in PHASES.get(kind, (PLAYING,)):
            raise RuleError(N_("That cannot be done at this point of the chapter."), code="wrong_phase")
        HANDLERS[kind](state, actor, action, rng)
        return state

    def view(self, state: dict, seat: str | None) -> dict:
        return views.seat_view(state, seat)

    def outcome(self, state: dict) -> dict | None:
        if state["phase"] not in ENDED or (state["options"]["campaign"] and not state["campaign_over"]):
            return None
        # A cooperative game has no start player, but BG Stats wants one: the first seat stands for it.
        if state["phase"] == WON:
            return {
                "winners": list(state["seats"]),
                "summary": msg(N_("The mice completed chapter %(chapter)s!"), chapter=state["chapter"]),
                "start_player": state["seats"][0],
            }
        return {
            "winners": [],
            "summary": msg(N_("The hourglass ran out: chapter %(chapter)s is lost."), chapter=state["chapter"]),
            "start_player": state["seats"][0],
        }

    def describe(self, before: dict, after: dict, actor: str, action: dict) -> list[dict]:
        return [{**event, "seats": None} for event in after["events"]]

    def undo(self, before: dict, undone: dict, action: dict) -> dict:
        return before


def seat_ids(options: dict) -> list[str]:
    players = min(max(int(options.get("players", 2)), 1), 4)
    return [f"player-{n}" for n in range(1, players + 1)]


def the_mouse(state: dict, actor: str, action: dict) -> dict:
    """The mouse an action is about; a seat may change only its own mice's sheets."""
    try:
        mouse = find_mouse(state, action.get("mouse", ""))
    except KeyError:
        raise RuleError(N_("There is no such mouse."), code="unknown_mouse") from None
    if action["type"] in OWN_MOUSE and actor not in (HOST, mouse["seat"]):
        raise RuleError(
            N_("Only the player running %(mouse)s can do that."), code="not_your_mouse", mouse=mouse_label(mouse)
        )
    return mouse


def the_seat(state: dict, actor: str, action: dict) -> str:
    seat = action.get("seat") or (actor if actor != HOST else state["seats"][0])
    if seat not in state["seats"]:
        raise RuleError(N_("There is no such seat."), code="unknown_seat")
    if actor not in (HOST, seat):
        raise RuleError(N_("Only the host can hand a mouse to another player."), code="not_your_seat")
    return seat


# --- chapter setup ---------------------------------------------------------------------------------


def add_mouse(state: dict, actor: str, action: dict, rng) -> None:
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


# --- minions and the initiative track --------------------------------------------------------------


def reveal_encounter(state: dict, actor: str, action: dict, rng) -> None:
    """MM-25: the new encounter card lies face up and defines the next surge; the old one is discarded.

    The players record the card's row for the hourglass's page and its surge once (Q13): the row's
    minions come now (MM-26), the surge's come with the next surge (MM-30).
    """
    name = required_text(action, "name")
    rows = schema.minion_rows(action, "minions")
    now = [arrival(state, row, row["figures"]) for row in rows if row["figures"]]
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
    state["pending"].append(arrival(state, row, schema.integer(action, "figures")))
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


# --- cheese wheel and story track -----------------------------------------------------------------


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


# --- mouse sheets ----------------------------------------------------------------------------------


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


# --- campaign and dice -----------------------------------------------------------------------------


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


HANDLERS = {
    "add_mouse": add_mouse,
    "remove_mouse": remove_mouse,
    "assign": assign,
    "set_chapter": set_chapter,
    "start_chapter": start_chapter,
    "reveal_encounter": reveal_encounter,
    "add_minions": add_minions,
    "place_minions": place_minions,
    "wound_minion": wound_minion,
    "defeat_minion": defeat_minion,
    "add_cheese": add_cheese,
    "steal_cheese": steal_cheese,
    "set_special_surge": set_special_surge,
    "next": next_turn,
    "move_hourglass": move_hourglass,
    "move_end_marker": move_end_marker,
    "goals_done": goals_done,
    "chapter_lost": chapter_lost,
    "mouse_cheese": mouse_cheese,
    "level_up": level_up,
    "wound_mouse": wound_mouse,
    "heal_mouse": heal_mouse,
    "set_status": set_status,
    "take_card": take_card,
    "drop_card": drop_card,
    "searched": searched,
    "greedy_roaches": greedy_roaches,
    "stash": stash,
    "party_token": party_token,
    "leave_room": leave_room,
    "story_achievement": story_achievement,
    "set_notes": set_notes,
    "capture_mouse": capture_mouse,
    "carry_card": carry_card,
    "award": award,
    "next_chapter": next_chapter,
    "end_campaign": end_campaign,
    "roll_dice": roll_dice,
}


# --- what the screens show -------------------------------------------------------------------------
