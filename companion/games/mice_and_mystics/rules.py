"""Mice and Mystics: the initiative track, cheese wheel, surges and story track beside the cardboard."""

from __future__ import annotations

from companion.games.base import N_, Game, Move, Option, RuleError, SeatSpec, msg

from . import chapter, cheese_and_story, minions, schema, sheets, views
from .names import (
    PARTY_ITEMS,
    seat_label,
)
from .seats import REFUSALS, own_mouse, seat_ids
from .story import ENDED, PLAYING, SETUP, WON

SETUP_ONLY, IN_PLAY, BEFORE_THE_END, ANY_TIME = (SETUP,), (PLAYING,), (SETUP, PLAYING), (SETUP, PLAYING, *ENDED)


# Each move once: what it does, the phases it may be made in, and whether only its mouse's own player may make it.
MOVES = {
    kind: Move(does, schema.ACTIONS[kind], phases, own_mouse if own else None)
    for kind, does, phases, own in (
        ("add_mouse", chapter.add_mouse, SETUP_ONLY, False),
        ("remove_mouse", chapter.remove_mouse, SETUP_ONLY, True),
        ("assign", chapter.assign, ANY_TIME, True),
        ("set_chapter", chapter.set_chapter, SETUP_ONLY, False),
        ("start_chapter", chapter.start_chapter, SETUP_ONLY, False),
        ("reveal_encounter", minions.reveal_encounter, IN_PLAY, False),
        ("add_minions", minions.add_minions, BEFORE_THE_END, False),
        ("place_minions", minions.place_minions, IN_PLAY, False),
        ("wound_minion", minions.wound_minion, IN_PLAY, False),
        ("defeat_minion", minions.defeat_minion, IN_PLAY, False),
        ("add_cheese", cheese_and_story.add_cheese, IN_PLAY, False),
        ("steal_cheese", cheese_and_story.steal_cheese, IN_PLAY, False),
        ("set_special_surge", cheese_and_story.set_special_surge, IN_PLAY, False),
        ("next", minions.next_turn, IN_PLAY, False),
        ("move_hourglass", cheese_and_story.move_hourglass, IN_PLAY, False),
        ("move_end_marker", cheese_and_story.move_end_marker, IN_PLAY, False),
        ("goals_done", cheese_and_story.goals_done, IN_PLAY, False),
        ("chapter_lost", cheese_and_story.chapter_lost, IN_PLAY, False),
        ("mouse_cheese", sheets.mouse_cheese, IN_PLAY, True),
        ("level_up", sheets.level_up, IN_PLAY, True),
        ("wound_mouse", sheets.wound_mouse, IN_PLAY, False),
        ("heal_mouse", sheets.heal_mouse, IN_PLAY, True),
        ("set_status", sheets.set_status, IN_PLAY, False),
        ("take_card", sheets.take_card, BEFORE_THE_END, True),
        ("drop_card", sheets.drop_card, BEFORE_THE_END, True),
        ("searched", sheets.searched, IN_PLAY, True),
        ("greedy_roaches", sheets.greedy_roaches, IN_PLAY, False),
        ("stash", sheets.stash, ANY_TIME, False),
        ("party_token", sheets.party_token, IN_PLAY, False),
        ("leave_room", sheets.leave_room, IN_PLAY, False),
        ("story_achievement", sheets.story_achievement, ANY_TIME, False),
        ("set_notes", sheets.set_notes, ANY_TIME, False),
        ("capture_mouse", sheets.capture_mouse, IN_PLAY, False),
        ("carry_card", sheets.carry_card, ANY_TIME, True),
        ("award", sheets.award, IN_PLAY, False),
        ("next_chapter", chapter.next_chapter, ENDED, False),
        ("end_campaign", chapter.end_campaign, ENDED, False),
        ("roll_dice", chapter.roll_dice, ANY_TIME, False),
    )
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
    moves = MOVES
    concurrent = frozenset({"add_cheese", "mouse_cheese", "roll_dice"})
    refusals = REFUSALS

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
            # BG Stats' start player, who began the play: the player of the first card when the first chapter began.
            "start_player": None,
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

    def fresh(self, state: dict) -> dict:
        state = super().fresh(state)
        state["events"] = []
        return state

    def wrong_phase(self, state: dict) -> RuleError:
        return RuleError(N_("That cannot be done at this point of the chapter."), code="wrong_phase")

    def view(self, state: dict, seat: str | None) -> dict:
        return views.seat_view(state, seat)

    def outcome(self, state: dict) -> dict | None:
        if state["phase"] not in ENDED or (state["options"]["campaign"] and not state["campaign_over"]):
            return None
        if state["phase"] == WON:
            return {
                "winners": list(state["seats"]),
                "summary": msg(N_("The mice completed chapter %(chapter)s!"), chapter=state["chapter"]),
                "start_player": state["start_player"],
            }
        return {
            "winners": [],
            "summary": msg(N_("The hourglass ran out: chapter %(chapter)s is lost."), chapter=state["chapter"]),
            "start_player": state["start_player"],
        }

    def describe(self, before: dict, after: dict, actor: str, action: dict) -> list[dict]:
        return [{**event, "seats": None} for event in after["events"]]

    def undo(self, before: dict, undone: dict, action: dict) -> dict:
        return before


# --- what the screens show -------------------------------------------------------------------------
