"""Mice and Mystics' views: the table's public view (the display, the host) and each seat's, as plain data."""

from __future__ import annotations

from companion.games.base import HOST, N_, msg

from . import initiative, mice, wheel
from .names import (
    ACHIEVEMENT_REMINDERS,
    ACHIEVEMENTS,
    CARD_PLACES,
    DIE_SYMBOLS,
    LEADER,
    PARTY_ITEMS,
    SLOTS,
    STATUSES,
    arrivals_label,
    card_label,
    find_mouse,
    group_label,
    mouse_label,
)
from .story import PLAYING


def seat_view(state: dict, seat: str | None) -> dict:
    """What a seat sees (None or the host: the table's public view)."""
    table = public_view(state)
    if seat is None or seat == HOST:
        return table
    own = [mouse for mouse in state["mice"] if mouse["seat"] == seat]
    active = initiative.active_card(state)
    following = next_card(state)
    return {
        **table,
        "seat": seat,
        "my_mice": [mouse_sheet(state, mouse) for mouse in own],
        "your_turn": state["phase"] == PLAYING and plays_card(state, seat, own, active),
        "up_next": state["phase"] == PLAYING and owns_card(own, following),
    }


def owns_card(own: list[dict], card: dict | None) -> bool:
    return card is not None and card["kind"] == "mouse" and any(m["id"] == card["mouse"] for m in own)


def plays_card(state: dict, seat: str, own: list[dict], card: dict | None) -> bool:
    """Whether the table waits on this seat for the card: its own mouse's, or the minions' it runs (MM-40)."""
    if card is None or card["kind"] == "mouse":
        return owns_card(own, card)
    return initiative.minions_player(state) == seat


# --- who may act ----------------------------------------------------------------------------------


def public_view(state: dict) -> dict:
    """The display: the initiative track large, the cheese wheel, the story track and the mice at a glance."""
    active = initiative.active_card(state)
    return {
        "phase": state["phase"],
        "chapter": state["chapter"],
        "campaign": state["options"]["campaign"],
        "round": state["round"],
        "track": [track_entry(state, card, card is active) for card in state["track"]],
        "active": active["id"] if active else None,
        "active_label": card_label(state, active) if active else None,
        "minions": [minion_entry(state, group) for group in groups_in_track_order(state)],
        "pending": [
            {"label": group_label({"kind": a["minion"], "name": a["name"]}), "figures": a["figures"]}
            for a in state["pending"]
        ],
        "cheese_wheel": {"cheese": state["wheel"], "surge_at": wheel.SURGE_AT},
        "story": {
            "hourglass": state["hourglass"],
            "end_page": state["end_page"],
            "pages_left": state["end_page"] - state["hourglass"],
        },
        "encounter": encounter_entry(state["encounter"]),
        "special_surge": state["special_surge"],
        "special_minions": arrivals_label(state["special_minions"]) if state["special_minions"] else None,
        "minion_life": dict(state["minion_life"]),
        "rooms_explored": state["rooms_explored"],
        "surge": state["surge"],
        "mice": [mouse_glance(mouse) for mouse in state["mice"]],
        "party_limit": mice.PARTY_LIMIT,
        "minion_cards": initiative.minion_cards(state),
        "minion_cards_limit": initiative.MINION_CARDS,
        "achievements": achievement_entries(state),
        "achievements_in_play": state["options"]["achievements"],
        "minions_player": initiative.minions_player(state),
        "defence_roller": defence_roller(state),
        "minions_line": minions_line(state),
        "dice_helper": state["options"]["dice_helper"],
        "dice": dice_entry(state["dice"]),
        "chapters": state["chapters"],
        "banner": state["banner"],
        "stash": [{"item": item, "label": msg(PARTY_ITEMS[item]), "count": n} for item, n in state["stash"].items()],
        "room_items": [
            {"item": item, "label": msg(PARTY_ITEMS[item]), "count": n} for item, n in state["room_items"].items() if n
        ],
        "story_achievements": list(state["story_achievements"]),
        "notes": state["notes"],
        "rooms_searched": rooms_named(state),
    }


def encounter_entry(card: dict | None) -> dict | None:
    """The face-up encounter card: its name, the page its row was read for, who came and who its surge brings."""
    if card is None:
        return None
    return {
        "name": card["name"],
        "surge": card["surge"],
        "page": card["page"],
        "minions": arrivals_label(card["minions"]) if card["minions"] else None,
        "surge_minions": arrivals_label(card["surge_minions"]) if card["surge_minions"] else None,
    }


def track_entry(state: dict, card: dict, active: bool) -> dict:
    entry = {"id": card["id"], "kind": card["kind"], "label": card_label(state, card), "active": active}
    if card["kind"] == "mouse":
        mouse = find_mouse(state, card["mouse"])
        entry.update(seat=mouse["seat"], captured=mouse["captured"])
    elif card["kind"] == LEADER:
        entry.update(wounds=card["wounds"], life=state["groups"][card["group"]]["life"])
    return entry


def groups_in_track_order(state: dict) -> list[dict]:
    seen = []
    for card in state["track"]:
        if card["kind"] != "mouse" and card["group"] not in seen:
            seen.append(card["group"])
    return [state["groups"][gid] for gid in seen]


def minion_entry(state: dict, group: dict) -> dict:
    cards = [card["id"] for card in state["track"] if card.get("group") == group["id"]]
    return {
        "id": group["id"],
        "label": group_label(group),
        "life": group["life"],
        "figures": group["figures"],
        "cards": cards,
        "greedy": group["greedy"],
    }


def mouse_glance(mouse: dict) -> dict:
    return {
        "id": mouse["id"],
        "label": mouse_label(mouse),
        "seat": mouse["seat"],
        "life": mouse["life"],
        "wounds": mouse["wounds"],
        "poison": mouse["poison"],
        "cheese": mouse["cheese"],
        "statuses": [msg(STATUSES[status]) for status in mouse["statuses"]],
        "captured": mouse["captured"],
        "backpack": mice.backpack(mouse),
        "abilities": len(mouse["abilities"]),
    }


def mouse_sheet(state: dict, mouse: dict) -> dict:
    earned = [name for name, holder in state["achievements"].items() if holder == mouse["id"]]
    return {
        **mouse_glance(mouse),
        "status_ids": list(mouse["statuses"]),
        "abilities": list(mouse["abilities"]),
        "captures": mouse["captures"],
        "backpack_limit": mice.PACK_LIMIT,
        "can_level_up": mouse["cheese"] >= mice.LEVEL_UP_COST,
        "search_card": card_entry(mouse["search_card"]) if mouse["search_card"] else None,
        "cards": [card_entry(card) for card in mouse["cards"]],
        "card_places": [{"place": place, "label": msg(label)} for place, label in CARD_PLACES.items()],
        "slots": [{"slot": slot, "label": msg(label)} for slot, label in SLOTS.items()],
        "rooms_searched": list(mouse["rooms_searched"]),
        "achievements": [{"label": msg(ACHIEVEMENTS[a]), "reminder": msg(ACHIEVEMENT_REMINDERS[a])} for a in earned],
    }


def card_entry(card: dict) -> dict:
    return {**card, "place_label": place_label(card)}


def place_label(card: dict) -> dict:
    """ "Equipped" names the slot: "Equipped: Both paws"."""
    if card["place"] == "equipped":
        return msg(N_("Equipped: %(slot)s"), slot=msg(SLOTS[card["slot"]]))
    return msg(CARD_PLACES[card["place"]])


def rooms_named(state: dict) -> list[str]:
    """Every room a mouse searched this chapter, for the room field's suggestions."""
    return sorted({room for mouse in state["mice"] for room in mouse["rooms_searched"]}, key=str.casefold)


def achievement_entries(state: dict) -> list[dict]:
    return [
        {
            "achievement": name,
            "label": msg(ACHIEVEMENTS[name]),
            "mouse": mouse_label(find_mouse(state, holder)),
            "reminder": msg(ACHIEVEMENT_REMINDERS[name]),
        }
        for name, holder in sorted(state["achievements"].items())
    ]


def defence_roller(state: dict) -> str | None:
    """MM-40: the player to the left of the active player rolls the minions' defence."""
    player = initiative.active_player(state)
    if player is None:
        return None
    seats = state["seats"]
    return seats[(seats.index(player) + 1) % len(seats)]


def minions_line(state: dict) -> dict | None:
    """Who runs the minions and who rolls their defence, naming a player who does both once."""
    player, roller = initiative.minions_player(state), defence_roller(state)
    if player is None:
        return None
    if roller in (None, player):
        return msg(N_("%(player)s runs the minions and rolls their defence."), player=player)
    return msg(N_("%(player)s runs the minions; %(roller)s rolls their defence."), player=player, roller=roller)


def next_card(state: dict) -> dict | None:
    if not state["track"] or state["turn"] < 0:
        return None
    return state["track"][(state["turn"] + 1) % len(state["track"])]


def dice_entry(dice: dict | None) -> dict | None:
    if dice is None:
        return None
    return {"by": dice["by"], "faces": [{**face, "label": msg(DIE_SYMBOLS[face["symbol"]])} for face in dice["faces"]]}
