"""Mouse sheets: cheese, wounds, statuses, capture, achievements and the campaign carry-over."""

from companion.games.base import N_, RuleError

from .names import ACHIEVEMENTS, MOVES_END_MARKER, PAWS_USED, SLOTS, STATUSES, mouse_label
from .story import check_lost, note

# The box has six mouse heroes (figures and hero cards); a chapter's party is usually four of them.
PARTY_LIMIT = 6
LEVEL_UP_COST = 6
PACK_LIMIT = 3
PAWS = 2
CHEESE_MASTER_ROLL = 3
ROACH_SLAYER_ROACHES = 4


def new_mouse(mouse_id: str, hero: str | None, name: str, seat: str, life: int, ability: str) -> dict:
    return {
        "id": mouse_id,
        "hero": hero,
        "name": name,
        "seat": seat,
        "life": life,
        "wounds": 0,
        "poison": 0,
        "cheese": 0,
        "statuses": [],
        "captured": False,
        "captures": 0,
        "abilities": [ability] if ability else [],
        # Search cards kept this chapter: {"name", "place"}, place one of CARD_PLACES; an equipped one has its "slot".
        "cards": [],
        "rooms_searched": [],
        # MM-38: the one search card, {"name", "place"}, this mouse carries into the next chapter.
        "search_card": None,
    }


def gain_cheese(mouse: dict, count: int) -> None:
    """MM-16 and MM-24: cheese rolled, found or shared; a stash never goes below zero."""
    if mouse["cheese"] + count < 0:
        raise RuleError(
            N_("%(mouse)s has only %(cheese)s cheese."),
            code="not_enough_cheese",
            mouse=mouse_label(mouse),
            cheese=mouse["cheese"],
        )
    mouse["cheese"] += count


def level_up(state: dict, mouse: dict, ability: str) -> None:
    """MM-23: 6 cheese buys one new ability card of the mouse's class."""
    if mouse["cheese"] < LEVEL_UP_COST:
        raise RuleError(N_("Levelling up costs 6 cheese."), code="not_enough_cheese")
    mouse["cheese"] -= LEVEL_UP_COST
    mouse["abilities"].append(ability)
    note(state, N_("%(mouse)s spends 6 cheese on the ability %(ability)s."), mouse=mouse_label(mouse), ability=ability)


def cheese_rolled(state: dict, mouse: dict, count: int) -> None:
    """MM-16 and MM-39: cheese from one roll; 3 or more in one roll earns Cheese Master."""
    gain_cheese(mouse, count)
    if count >= CHEESE_MASTER_ROLL and state["options"]["achievements"]:
        award(state, mouse, "cheese_master", check=False)


def roach_defeated(state: dict, mouse: dict) -> None:
    """MM-39: the first mouse to defeat 4 roaches during one encounter card is the Roach Slayer."""
    kills = state["roach_kills"]
    kills[mouse["id"]] = kills.get(mouse["id"], 0) + 1
    if kills[mouse["id"]] >= ROACH_SLAYER_ROACHES and state["options"]["achievements"]:
        award(state, mouse, "roach_slayer", check=False)


def backpack(mouse: dict) -> int:
    return packed(mouse["cards"])


def packed(cards: list[dict]) -> int:
    """MM-23: the cards in the backpack that count towards its limit (tricks do not)."""
    return sum(card["place"] == "pack" for card in cards)


def placed_card(name: str, place: str, slot: str | None) -> dict:
    """A search card where the mouse keeps it; an equipped card fills a slot (MM-23)."""
    if place != "equipped":
        return {"name": name, "place": place}
    if not isinstance(slot, str) or slot not in SLOTS:
        raise RuleError(N_("Choose the slot %(card)s fills."), code="missing_field", card=name)
    return {"name": name, "place": place, "slot": slot}


def take_card(mouse: dict, card: dict) -> None:
    """MM-20 and MM-23: a kept search card is equipped or packed; the backpack holds 3 besides tricks,
    and a mouse equips one card per slot, two in its paws."""
    others = [kept for kept in mouse["cards"] if kept["name"] != card["name"]]
    if card["place"] == "pack" and packed(others) >= PACK_LIMIT:
        raise RuleError(N_("A backpack holds at most 3 cards besides tricks: discard one."), code="pack_full")
    if card["place"] == "equipped":
        check_slot_free(mouse, others, card["slot"])
    mouse["cards"] = [*others, card]


def check_slot_free(mouse: dict, others: list[dict], slot: str) -> None:
    equipped = [card for card in others if card["place"] == "equipped"]
    if slot in PAWS_USED:
        if sum(PAWS_USED.get(card["slot"], 0) for card in equipped) + PAWS_USED[slot] > PAWS:
            raise RuleError(
                N_("%(mouse)s has no free paw: put a card from its paws in the backpack first."),
                code="slot_full",
                mouse=mouse_label(mouse),
            )
        return
    for card in equipped:
        if card["slot"] == slot:
            raise RuleError(
                N_("%(mouse)s already has %(card)s in that slot: put it in the backpack first."),
                code="slot_full",
                mouse=mouse_label(mouse),
                card=card["name"],
            )


def drop_card(mouse: dict, name: str) -> None:
    if not any(card["name"] == name for card in mouse["cards"]):
        raise RuleError(
            N_("%(mouse)s has no search card called %(card)s."),
            code="unknown_card",
            mouse=mouse_label(mouse),
            card=name,
        )
    mouse["cards"] = [card for card in mouse["cards"] if card["name"] != name]


def searched(mouse: dict, room: str) -> None:
    """MM-20: each mouse may search successfully only once per room (per tile, Q6)."""
    if room.casefold() in (done.casefold() for done in mouse["rooms_searched"]):
        raise RuleError(
            N_("%(mouse)s has already searched %(room)s successfully."),
            code="already_searched",
            mouse=mouse_label(mouse),
            room=room,
        )
    mouse["rooms_searched"].append(room)


def set_status(mouse: dict, status: str, on: bool) -> None:
    """MM-37: the negative markers on the mouse's card."""
    if status not in STATUSES:
        raise RuleError(N_("There is no such status."), code="unknown_status")
    if on and status not in mouse["statuses"]:
        mouse["statuses"].append(status)
    if not on and status in mouse["statuses"]:
        mouse["statuses"].remove(status)


def wound(state: dict, mouse: dict, count: int, poison: bool) -> None:
    """MM-35 and MM-39: wounds reaching life capture the mouse; Poison Resistance makes poison plain."""
    if mouse["captured"]:
        raise RuleError(N_("A captured mouse cannot be wounded."), code="captured")
    if poison and state["achievements"].get("poison_resistance") != mouse["id"]:
        mouse["poison"] += count
    else:
        mouse["wounds"] += count
    if mouse["wounds"] + mouse["poison"] >= mouse["life"]:
        capture(state, mouse)


def heal(mouse: dict, count: int, poison: bool) -> None:
    """MM-37: normal healing cannot remove poison wounds; special healing can."""
    key = "poison" if poison else "wounds"
    mouse[key] = max(0, mouse[key] - count)


def capture(state: dict, mouse: dict) -> None:
    """MM-35: the figure leaves the board, its card stays, cheese and wounds go, the hourglass moves."""
    had_poison = mouse["poison"] > 0
    mouse.update(cheese=0, wounds=0, poison=0, statuses=[], captured=True, captures=mouse["captures"] + 1)
    state["hourglass"] += 1
    note(
        state, N_("%(mouse)s is captured! It loses its cheese and its equipped search cards."), mouse=mouse_label(mouse)
    )
    note(state, N_("The hourglass moves to page %(page)s."), page=state["hourglass"])
    if state["options"]["achievements"]:
        capture_achievements(state, mouse, had_poison)
    if mouse["captured"]:  # the Prisoner, rescued at once on a third capture, keeps them
        mouse["cards"] = [card for card in mouse["cards"] if card["place"] != "equipped"]
    check_lost(state)


def capture_achievements(state: dict, mouse: dict, had_poison: bool) -> None:
    """MM-39: Poison Resistance and Prisoner are earned by being captured."""
    if had_poison:
        award(state, mouse, "poison_resistance", check=False)
    if mouse["captures"] == 2:
        award(state, mouse, "prisoner", check=False)
    if mouse["captures"] >= 3 and state["achievements"].get("prisoner") == mouse["id"]:
        mouse["captured"] = False
        note(
            state,
            N_("%(mouse)s is the Prisoner: rescued at once, and keeps its search cards."),
            mouse=mouse_label(mouse),
        )


def award(state: dict, mouse: dict, achievement: str, check: bool = True) -> None:
    """MM-39: each individual achievement goes to the first mouse that earns it."""
    if achievement not in ACHIEVEMENTS:
        raise RuleError(N_("There is no such achievement."), code="unknown_achievement")
    if achievement in state["achievements"]:
        if check:
            raise RuleError(N_("That achievement has already been earned this chapter."), code="already_awarded")
        return
    state["achievements"][achievement] = mouse["id"]
    note(
        state,
        N_("%(mouse)s earns %(achievement)s."),
        mouse=mouse_label(mouse),
        achievement={"msg": ACHIEVEMENTS[achievement], "args": {}},
    )
    if achievement in MOVES_END_MARKER:
        state["end_page"] += 1
        note(state, N_("The chapter-end marker moves to page %(page)s."), page=state["end_page"])
    if check:
        check_lost(state)


def choose_carried_card(mouse: dict, name: str, place: str, slot: str | None) -> None:
    """MM-38: the card goes on as it is now (equipped or packed); a card not on the sheet where the player says."""
    if not name:
        mouse["search_card"] = None
        return
    kept = [card for card in mouse["cards"] if card["name"] == name]
    mouse["search_card"] = dict(kept[0]) if kept else placed_card(name, place, slot)


def carry_over(mouse: dict) -> None:
    """MM-38: abilities and the one chosen search card stay; cheese, wounds, cards and searched rooms reset.

    The carried card starts the chapter among the mouse's cards, equipped or packed as it was.
    """
    carried = [mouse["search_card"]] if mouse["search_card"] else []
    mouse.update(
        wounds=0,
        poison=0,
        cheese=0,
        statuses=[],
        captured=False,
        captures=0,
        cards=carried,
        rooms_searched=[],
        search_card=None,
    )
