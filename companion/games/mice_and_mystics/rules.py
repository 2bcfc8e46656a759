"""Mice and Mystics: the initiative track, cheese wheel, surges and story track beside the cardboard."""

from __future__ import annotations

import copy

from companion.games.base import N_, Game, Option, RuleError, SeatSpec, msg

from . import chapter, cheese_and_story, minions, schema, sheets, views
from .names import (
    PARTY_ITEMS,
    seat_label,
)
from .seats import seat_ids
from .story import ENDED, PLAYING, SETUP, WON

PHASES = {
    **dict.fromkeys(("add_mouse", "remove_mouse", "set_chapter", "start_chapter"), (SETUP,)),
    **dict.fromkeys(("next_chapter", "end_campaign"), ENDED),
    **dict.fromkeys(
        ("assign", "carry_card", "roll_dice", "stash", "story_achievement", "set_notes"), (SETUP, PLAYING, *ENDED)
    ),
    **dict.fromkeys(("add_minions", "take_card", "drop_card"), (SETUP, PLAYING)),
}


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


HANDLERS = {
    "add_mouse": chapter.add_mouse,
    "remove_mouse": chapter.remove_mouse,
    "assign": chapter.assign,
    "set_chapter": chapter.set_chapter,
    "start_chapter": chapter.start_chapter,
    "reveal_encounter": minions.reveal_encounter,
    "add_minions": minions.add_minions,
    "place_minions": minions.place_minions,
    "wound_minion": minions.wound_minion,
    "defeat_minion": minions.defeat_minion,
    "add_cheese": cheese_and_story.add_cheese,
    "steal_cheese": cheese_and_story.steal_cheese,
    "set_special_surge": cheese_and_story.set_special_surge,
    "next": minions.next_turn,
    "move_hourglass": cheese_and_story.move_hourglass,
    "move_end_marker": cheese_and_story.move_end_marker,
    "goals_done": cheese_and_story.goals_done,
    "chapter_lost": cheese_and_story.chapter_lost,
    "mouse_cheese": sheets.mouse_cheese,
    "level_up": sheets.level_up,
    "wound_mouse": sheets.wound_mouse,
    "heal_mouse": sheets.heal_mouse,
    "set_status": sheets.set_status,
    "take_card": sheets.take_card,
    "drop_card": sheets.drop_card,
    "searched": sheets.searched,
    "greedy_roaches": sheets.greedy_roaches,
    "stash": sheets.stash,
    "party_token": sheets.party_token,
    "leave_room": sheets.leave_room,
    "story_achievement": sheets.story_achievement,
    "set_notes": sheets.set_notes,
    "capture_mouse": sheets.capture_mouse,
    "carry_card": sheets.carry_card,
    "award": sheets.award,
    "next_chapter": chapter.next_chapter,
    "end_campaign": chapter.end_campaign,
    "roll_dice": chapter.roll_dice,
}


# --- what the screens show -------------------------------------------------------------------------
