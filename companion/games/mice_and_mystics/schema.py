"""The actions' fields as JSON Schemas, and small readers that check them."""

from companion.games.base import N_, RuleError

from .names import ACHIEVEMENTS, CARD_PLACES, HEROES, LEADER, MINIONS, OTHER, PARTY_ITEMS, SLOTS, STATUSES

TEXT = {"type": "string", "maxLength": 200}
COUNT = {"type": "integer", "minimum": 1, "maximum": 30, "default": 1}
PAGES = {"type": "integer", "minimum": -10, "maximum": 10, "default": 1}
ROLLS = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 3}}
MOUSE = {"type": "string"}
SLOT = {"type": "string", "enum": list(SLOTS), "description": "The slot an equipped card fills (MM-23)."}


def fields(required: tuple[str, ...] = (), **properties) -> dict:
    return {"type": "object", "properties": properties, "required": list(required)}


MINION = {"type": "string", "enum": [*MINIONS, LEADER, OTHER]}
LEADER_CARDS = {"type": "integer", "minimum": 1, "maximum": 10, "default": 2}
# MM-26 and Q13: the minions a card or a room brings, by type; hit points default to what the table last gave the type.
ARRIVING = {
    "minion": MINION,
    "life": {
        "type": "integer",
        "minimum": 1,
        "maximum": 30,
        "description": "Hit points of each figure; default: what this table last gave the type, else 1.",
    },
    "name": {**TEXT, "description": "The name of a leader or another minion."},
    "cards": LEADER_CARDS,
}
FIGURES = {"type": "integer", "minimum": 0, "maximum": 30, "default": 0}


def minion_list(description: str, **counts) -> dict:
    return {
        "type": "array",
        "maxItems": 10,
        "description": description,
        "items": fields(("minion",), **ARRIVING, **counts),
    }


ACTIONS = {
    "add_mouse": fields(
        ("hero", "life"),
        hero={"type": "string", "enum": [*HEROES, "custom"]},
        name=TEXT,
        seat={"type": "string"},
        life={"type": "integer", "minimum": 1, "maximum": 20},
        ability=TEXT,
    ),
    "remove_mouse": fields(("mouse",), mouse=MOUSE),
    "assign": fields(("mouse", "seat"), mouse=MOUSE, seat={"type": "string"}),
    "set_chapter": fields(
        (),
        chapter={"type": "integer", "minimum": 1, "maximum": 99},
        hourglass_page={"type": "integer", "minimum": 1, "maximum": 30},
        end_page={"type": "integer", "minimum": 2, "maximum": 30},
        special_surge=TEXT,
    ),
    "start_chapter": fields((), ambush={"type": "boolean", "default": False}, rolls=ROLLS),
    "reveal_encounter": fields(
        ("name",),
        name=TEXT,
        surge={**TEXT, "description": "What else the card's surge does, in words."},
        minions=minion_list(
            "MM-25 and MM-30: the card's row for the hourglass's page (figures, placed now) and its surge "
            "(surge_figures, placed by the next surge).",
            figures={**FIGURES, "description": "Figures of this type the card's row places now."},
            surge_figures={**FIGURES, "description": "Figures of this type the card's surge places."},
        ),
        ambush={"type": "boolean", "default": False},
        rolls=ROLLS,
    ),
    "add_minions": fields(("minion",), minion=MINION, figures=COUNT, life=COUNT, name=TEXT, cards=LEADER_CARDS),
    "place_minions": fields((), ambush={"type": "boolean", "default": False}, rolls=ROLLS),
    "wound_minion": fields(("card",), card={"type": "string"}, figure=COUNT, count=COUNT),
    "defeat_minion": fields(("card",), card={"type": "string"}, figure=COUNT),
    "add_cheese": fields((), count=COUNT, minion={"type": "string"}),
    "steal_cheese": fields(("mouse",), mouse=MOUSE, count=COUNT),
    "set_special_surge": fields(
        (),
        text=TEXT,
        minions=minion_list(
            "MM-30: the minions the room's special surge places.",
            figures={**FIGURES, "description": "Figures of this type the special surge places."},
        ),
    ),
    "next": fields(),
    "move_hourglass": fields((), pages=PAGES),
    "move_end_marker": fields((), pages=PAGES),
    "goals_done": fields(),
    "chapter_lost": fields(),
    "mouse_cheese": fields(
        ("mouse",),
        mouse=MOUSE,
        count={**PAGES, "minimum": -30, "maximum": 30},
        rolled={"type": "boolean", "default": False, "description": "The cheese came in one roll (Cheese Master)."},
    ),
    "level_up": fields(("mouse",), mouse=MOUSE, ability=TEXT),
    "wound_mouse": fields(("mouse",), mouse=MOUSE, count=COUNT, poison={"type": "boolean", "default": False}),
    "heal_mouse": fields(("mouse",), mouse=MOUSE, count=COUNT, poison={"type": "boolean", "default": False}),
    "set_status": fields(
        ("mouse", "status"),
        mouse=MOUSE,
        status={"type": "string", "enum": list(STATUSES)},
        on={"type": "boolean", "default": True},
    ),
    "take_card": fields(
        ("mouse", "card", "place"),
        mouse=MOUSE,
        card=TEXT,
        place={"type": "string", "enum": list(CARD_PLACES)},
        slot=SLOT,
    ),
    "drop_card": fields(("mouse", "card"), mouse=MOUSE, card=TEXT),
    "searched": fields(("mouse", "room"), mouse=MOUSE, room=TEXT),
    "greedy_roaches": fields((), on={"type": "boolean", "default": True}),
    "stash": fields(
        ("item",), item={"type": "string", "enum": list(PARTY_ITEMS)}, change={**PAGES, "minimum": -1, "maximum": 1}
    ),
    "party_token": fields(
        ("item", "to"),
        item={"type": "string", "enum": list(PARTY_ITEMS)},
        to={
            "type": "string",
            "enum": ["room", "stash", "discard"],
            "description": "room: from the stash onto the board; stash: picked up again; discard: used up.",
        },
    ),
    "leave_room": fields(),
    "story_achievement": fields(("text",), text=TEXT, on={"type": "boolean", "default": True}),
    "set_notes": fields((), text={"type": "string", "maxLength": 2000}),
    "capture_mouse": fields(("mouse",), mouse=MOUSE),
    "carry_card": fields(
        ("mouse",),
        mouse=MOUSE,
        card=TEXT,
        place={
            "type": "string",
            "enum": list(CARD_PLACES),
            "description": "Where a card not on the mouse's sheet goes (default: the backpack).",
        },
        slot=SLOT,
    ),
    "award": fields(("mouse", "achievement"), mouse=MOUSE, achievement={"type": "string", "enum": list(ACHIEVEMENTS)}),
    "next_chapter": fields(),
    "end_campaign": fields(),
    "roll_dice": fields((), count={**COUNT, "maximum": 10}),
}


# The readers below fill in the schema's defaults: the platform has checked every field against its schema
# (type, bounds, choices, length) before an action reaches the rules.


def integer(action: dict, key: str, default: int | None = None) -> int:
    """An integer field, else its schema's default."""
    value = action.get(key, ACTIONS[action["type"]]["properties"][key].get("default", default))
    if value is None:
        raise RuleError(N_("Please fill in %(field)s."), code="missing_field", field=key)
    return value


def text(action: dict, key: str) -> str:
    return (action.get(key) or "").strip()


def flag(action: dict, key: str) -> bool:
    return bool(action.get(key, ACTIONS[action["type"]]["properties"][key].get("default", False)))


def choice(action: dict, key: str) -> str:
    value = action.get(key)
    if value is None:
        raise RuleError(N_("Please choose %(field)s."), code="bad_field", field=key)
    return value


def rolls(action: dict) -> list[int]:
    return action.get("rolls") or []


def minion_rows(action: dict, key: str) -> list[dict]:
    """A list of minions by type, each row's counts filled in with their defaults."""
    properties = ACTIONS[action["type"]]["properties"][key]["items"]["properties"]
    return [read_row(row, properties) for row in action.get(key) or []]


def read_row(row: dict, properties: dict) -> dict:
    read = {"minion": row["minion"], "name": (row.get("name") or "").strip()}
    for field, spec in properties.items():
        if spec["type"] == "integer" and row.get(field, spec.get("default")) is not None:
            read[field] = row.get(field, spec.get("default"))
    return read
