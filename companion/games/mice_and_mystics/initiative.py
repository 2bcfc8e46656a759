"""The initiative track: placing cards, ambushes, defeats and whose turn it is."""

from companion.games.base import N_, RuleError

from . import mice
from .names import LEADER, MINIONS, card_label, find_mouse, group_label, mouse_label
from .story import note

AMBUSH_DIE = (1, 3)
# The box puts at most eight minion cards on the track (rats, roaches, spiders, the centipede, Brodie's two and a
# leader's two); one more leaves room for a chapter's own minion. With the six mice that is the fifteen cards the
# table display shows in three rows of five: a track beyond that outgrows the TV's screen.
MINION_CARDS = 9
TRACK_FULL = N_(
    "The initiative track holds at most %(limit)s minion cards: the box's eight (Brodie and a leader bring two each) "
    "and one more."
)


def group_id(arrival: dict) -> str:
    if arrival["minion"] in MINIONS:
        return arrival["minion"]
    return f"{arrival['minion']}:{arrival['name']}"


def mouse_card(mouse_id: str) -> dict:
    return {"id": f"mouse:{mouse_id}", "kind": "mouse", "mouse": mouse_id}


def new_group(arrival: dict) -> dict:
    figures = 1 if arrival["minion"] in (LEADER, "brodie") else arrival["figures"]
    return {
        "id": group_id(arrival),
        "kind": arrival["minion"],
        "name": arrival.get("name", ""),
        "life": arrival["life"],
        "figures": [0] * figures,
        "greedy": False,
    }


def cards_for(group: dict, arrival: dict, rng) -> list[dict]:
    """The initiative cards a newly arrived minion type brings (MM-5, MM-34)."""
    if group["kind"] == "brodie":
        faces = ("pounce", "chase")
        return [{"id": f"brodie:{face}", "kind": "minion", "group": "brodie", "face": face} for face in faces]
    if group["kind"] == LEADER:
        owned = list(range(1, arrival["cards"] + 1))
        drawn = sorted(rng.sample(owned, min(2, len(owned))))
        return [
            {"id": f"{group['id']}#{n}", "kind": "leader", "group": group["id"], "number": n, "wounds": 0}
            for n in drawn
        ]
    return [{"id": group["id"], "kind": "minion", "group": group["id"]}]


def minions_on_board(state: dict) -> bool:
    return any(card["kind"] != "mouse" for card in state["track"])


def active_card(state: dict) -> dict | None:
    if 0 <= state["turn"] < len(state["track"]):
        return state["track"][state["turn"]]
    return None


def index_of(state: dict, card_id: str) -> int:
    for index, card in enumerate(state["track"]):
        if card["id"] == card_id:
            return index
    raise RuleError(N_("That card is not on the initiative track."), code="unknown_card")


def cards_of(arrival: dict) -> int:
    """MM-5 and MM-34: Brodie brings two cards, a leader two of its own (or its only one), any other type one."""
    if arrival["minion"] == "brodie":
        return 2
    if arrival["minion"] == LEADER:
        return min(2, arrival["cards"])
    return 1


def cards_brought(state: dict, arrivals: list[dict]) -> int:
    """How many minion cards these arrivals add to the track: none for a type already on it (MM-4)."""
    new_types = {group_id(arrival): cards_of(arrival) for arrival in arrivals}
    return sum(cards for gid, cards in new_types.items() if gid not in state["groups"])


def minion_cards(state: dict, arrivals: list[dict] = ()) -> int:
    """The minion cards on the track, with those that the minions waiting to be placed (and these) would bring."""
    on_track = sum(card["kind"] != "mouse" for card in state["track"])
    return on_track + cards_brought(state, state["pending"] + list(arrivals))


def check_room(state: dict, arrivals: list[dict]) -> None:
    if minion_cards(state, arrivals) > MINION_CARDS:
        raise RuleError(TRACK_FULL, code="track_full", limit=MINION_CARDS)


def room_for(state: dict, arrivals: list[dict]) -> list[dict]:
    """MM-30 places as many minions as it can: a surge's types whose cards the track has no room for stay off."""
    kept = []
    for arrival in arrivals:
        if minion_cards(state, [*kept, arrival]) <= MINION_CARDS:
            kept.append(arrival)
        else:
            label = group_label({"kind": arrival["minion"], "name": arrival["name"]})
            note(state, N_("The initiative track has no room for %(minion)s: they stay off the board."), minion=label)
    return kept


def start_chapter(state: dict, rng, ambush: bool, rolls: list[int]) -> None:
    """MM-3 at the chapter's start: the mice and the first minions, shuffled from slot 1."""
    state["track"] = [mouse_card(mouse["id"]) for mouse in state["mice"]]
    state["turn"] = 0
    state["round"] = 1
    place_arrivals(state, rng, ambush, rolls, rebuild=True)


def summon(state: dict, arrivals: list[dict], rng, ambush: bool = False, rolls: tuple[int, ...] = ()) -> None:
    """MM-26 step 4: the minions an encounter or a surge brings join the track by themselves (MM-3, MM-4)."""
    state["pending"] += arrivals
    place_arrivals(state, rng, ambush, list(rolls))


def place_arrivals(state: dict, rng, ambush: bool, rolls: list[int], rebuild: bool = False) -> None:
    """MM-2 to MM-6: put the waiting minions' cards on the initiative track."""
    rebuild = rebuild or not minions_on_board(state)
    new_cards = []
    for arrival in state["pending"]:
        new_cards += join_or_arrive(state, arrival, rng)
    state["pending"] = []
    if rebuild:
        rebuild_track(state, new_cards, rng)
    else:
        append_late(state, new_cards, rng)
    rolled = ambush_targets(new_cards, ambush, late=not rebuild)
    move_up_all(state, rolled, list(rolls), rng)
    if rebuild:
        state["turn"] = 0


def join_or_arrive(state: dict, arrival: dict, rng) -> list[dict]:
    """MM-4: a type already on the track only gets more figures, never a second card."""
    gid = group_id(arrival)
    group = state["groups"].get(gid)
    if group is not None:
        if group["kind"] not in (LEADER, "brodie"):
            group["figures"] += [0] * arrival["figures"]
        note(
            state, N_("%(minion)s already have a card on the initiative track: no new card."), minion=group_label(group)
        )
        return []
    group = new_group(arrival)
    state["groups"][gid] = group
    if group["kind"] in MINIONS:
        state["minion_life"][group["kind"]] = group["life"]  # Q13: the next card of this type defaults to it
    return cards_for(group, arrival, rng)


def rebuild_track(state: dict, new_cards: list[dict], rng) -> None:
    """MM-3: shuffle every mouse card with the new minion cards and lay them out from slot 1."""
    mice = [card for card in state["track"] if card["kind"] == "mouse"]
    state["track"] = rng.shuffled(mice + new_cards)
    state["turn"] = 0
    note(state, N_("The initiative track is shuffled and laid out from the top."))


def append_late(state: dict, new_cards: list[dict], rng) -> None:
    """MM-4 and Q3: new minions go in the next free slots, a late leader's cards at the very bottom."""
    leaders = [card for card in new_cards if card["kind"] == "leader"]
    others = [card for card in new_cards if card["kind"] != "leader"]
    state["track"] += rng.shuffled(others) + leaders
    if new_cards:
        note(state, N_("New minion cards go to the bottom of the initiative track."))


def ambush_targets(new_cards: list[dict], ambush: bool, late: bool) -> list[str]:
    """MM-6 and Q3: an ambush rolls for each new minion card; a late leader rolls for its first card only."""
    targets, leaders_seen = [], set()
    for card in new_cards:
        if card["kind"] != "leader" or not late:
            if ambush:
                targets.append(card["id"])
        elif card["group"] not in leaders_seen:
            leaders_seen.add(card["group"])
            targets.append(card["id"])
    return targets


def move_up_all(state: dict, card_ids: list[str], rolls: list[int], rng) -> None:
    for card_id in sorted(card_ids, key=lambda cid: index_of(state, cid)):
        roll = rolls.pop(0) if rolls else rng.randint(*AMBUSH_DIE)
        move_up(state, card_id, roll)


def move_up(state: dict, card_id: str, roll: int) -> None:
    """Q10: the card moves up by the roll, never above slot 1; the cards it passes shift down."""
    active = active_card(state)
    index = index_of(state, card_id)
    card = state["track"].pop(index)
    state["track"].insert(max(0, index - roll), card)
    if active is not None:
        state["turn"] = index_of(state, active["id"])
    note(state, N_("Ambush! %(card)s moves up %(roll)s."), card=card_label(state, card), roll=roll)


def remove_card(state: dict, card_id: str) -> None:
    """MM-7: the card leaves and the gap closes; the cards below move up a slot."""
    index = index_of(state, card_id)
    card = state["track"].pop(index)
    if index < state["turn"]:
        state["turn"] -= 1
    note(state, N_("%(card)s leaves the initiative track."), card=card_label(state, card))


def remove_group(state: dict, gid: str) -> None:
    for card in [card for card in state["track"] if card.get("group") == gid]:
        remove_card(state, card["id"])
    del state["groups"][gid]


def wound_minion(state: dict, card_id: str, figure: int, count: int) -> None:
    """MM-19: wounds on a figure (or on a leader's card) until they reach its life."""
    active = active_card(state)
    wound_card(state, card_id, figure, count)
    someone_up_after_removal(state, active)


def wound_card(state: dict, card_id: str, figure: int, count: int) -> None:
    card = state["track"][index_of(state, card_id)]
    if card["kind"] == "mouse":
        raise RuleError(N_("Wound mice on their own sheets."), code="not_a_minion")
    group = state["groups"][card["group"]]
    if card["kind"] == "leader":
        card["wounds"] += count
        if card["wounds"] >= group["life"]:
            defeat_leader_card(state, card)
        return
    if not 1 <= figure <= len(group["figures"]):
        raise RuleError(N_("There is no such figure."), code="unknown_figure")
    group["figures"][figure - 1] += count
    if group["figures"][figure - 1] >= group["life"]:
        defeat_figure(state, group, figure)


def defeat(state: dict, card_id: str, figure: int) -> None:
    """A figure is defeated outright (or a leader's card is removed), whatever its wounds."""
    card = state["track"][index_of(state, card_id)]
    if card["kind"] == "mouse":
        raise RuleError(N_("Mice are captured, not defeated."), code="not_a_minion")
    active = active_card(state)
    group = state["groups"][card["group"]]
    if card["kind"] == "leader":
        defeat_leader_card(state, card)
    else:
        defeat_figure(state, group, min(max(figure, 1), len(group["figures"])))
    someone_up_after_removal(state, active)


def someone_up_after_removal(state: dict, active: dict | None) -> None:
    """MM-7 with MM-1 and MM-36: when the active card leaves, the card below it comes up as on "next".

    After the last slot a new round begins; a captured mouse coming up is rescued if no
    minions are left, or misses its turn.
    """
    if active is None or any(card["id"] == active["id"] for card in state["track"]):
        return
    start_round_after_the_last_card(state)
    come_up(state)


def defeat_figure(state: dict, group: dict, figure: int) -> None:
    group["figures"].pop(figure - 1)
    note(state, N_("A figure of %(minion)s is defeated."), minion=group_label(group))
    if group["kind"] == "roaches":
        credit_roach(state)
    if not group["figures"]:
        note(state, N_("The last of %(minion)s is defeated."), minion=group_label(group))
        remove_group(state, group["id"])


def credit_roach(state: dict) -> None:
    """MM-39: a roach defeated on a mouse's turn counts towards that mouse's Roach Slayer."""
    card = active_card(state)
    if card is not None and card["kind"] == "mouse":
        mice.roach_defeated(state, find_mouse(state, card["mouse"]))


def roaches_in_play(state: dict) -> dict:
    roaches = state["groups"].get("roaches")
    if roaches is None:
        raise RuleError(N_("No roaches are in play."), code="no_roaches")
    return roaches


def greedy_roaches_in_play(state: dict) -> None:
    """MM-27: only a greedy roach steals cheese for the wheel."""
    if not roaches_in_play(state)["greedy"]:
        raise RuleError(N_("The roaches in play are not greedy."), code="not_greedy")


def set_greedy(state: dict, on: bool) -> None:
    """MM-27: a "Greedy roaches" encounter turns every roach in play greedy."""
    roaches_in_play(state)["greedy"] = on
    if on:
        note(state, N_("Every roach in play is greedy now."))
    else:
        note(state, N_("The roaches are no longer greedy."))


def defeat_leader_card(state: dict, card: dict) -> None:
    """MM-19: a leader is defeated only when its last card leaves the track."""
    group = state["groups"][card["group"]]
    remove_card(state, card["id"])
    if not any(other.get("group") == group["id"] for other in state["track"]):
        note(state, N_("%(minion)s is defeated!"), minion=group_label(group))
        del state["groups"][group["id"]]


def last_mouse_card(state: dict) -> dict | None:
    mice = [card for card in state["track"] if card["kind"] == "mouse"]
    return mice[-1] if mice else None


def minions_player(state: dict) -> str | None:
    """MM-40: the player whose mouse is lowest on the initiative track runs the minions."""
    last = last_mouse_card(state)
    return find_mouse(state, last["mouse"])["seat"] if last else None


def active_player(state: dict) -> str | None:
    """The player who plays the active card's turn: its mouse's, or for a minion card the minions' (MM-40)."""
    active = active_card(state)
    if active is None:
        return None
    return find_mouse(state, active["mouse"])["seat"] if active["kind"] == "mouse" else minions_player(state)


def end_turn(state: dict) -> bool:
    """MM-1: the active card's turn ends and the track moves on a slot; after the last card a new round begins.

    True when time runs short (MM-29): the last mouse on the track finished with no minions on the board.
    """
    finished = active_card(state)
    short = False
    if finished is not None and finished["kind"] == "mouse":
        wear_off_charm(state, find_mouse(state, finished["mouse"]))
        short = finished is last_mouse_card(state) and not minions_on_board(state)
    step(state)
    return short


def come_up(state: dict) -> None:
    """MM-36: a captured mouse whose card comes up is rescued with no minions about, else it misses the turn."""
    for _ in range(len(state["track"])):
        card = active_card(state)
        if card["kind"] != "mouse" or not find_mouse(state, card["mouse"])["captured"]:
            break
        if not minions_on_board(state):
            rescue(state, find_mouse(state, card["mouse"]))
            break
        note(state, N_("%(mouse)s is captured and misses the turn."), mouse=card_label(state, card))
        step(state)
    note_whose_turn(state)


def wear_off_charm(state: dict, mouse: dict) -> None:
    """MM-37: a charm lasts until the end of the mouse's turn."""
    if "charmed" in mouse["statuses"]:
        mouse["statuses"].remove("charmed")
        note(state, N_("%(mouse)s is no longer charmed."), mouse=mouse_label(mouse))


def step(state: dict) -> None:
    state["turn"] += 1
    start_round_after_the_last_card(state)


def start_round_after_the_last_card(state: dict) -> None:
    if state["turn"] >= len(state["track"]):
        state["turn"] = 0
        state["round"] += 1
        note(state, N_("Round %(round)s begins."), round=state["round"])


def rescue(state: dict, mouse: dict) -> None:
    """MM-36: no minions on the board, so the captured mouse is rescued; that is its whole turn."""
    mouse["captured"] = False
    note(
        state,
        N_("%(mouse)s is rescued! Place it on or next to another mouse; that is its whole turn."),
        mouse=mouse_label(mouse),
    )


def note_whose_turn(state: dict) -> None:
    card = active_card(state)
    if card is not None:
        note(state, N_("%(card)s is up."), card=card_label(state, card))
