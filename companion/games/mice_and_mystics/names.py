"""The names on the cards: heroes, minions, statuses, achievements and the action die."""

from companion.games.base import N_, Msg, msg

HEROES = {
    "collin": N_("Prince Collin"),
    "nez": N_("Nez Bonebiter"),
    "filch": N_("Filch"),
    "maginos": N_("Maginos"),
    "tilda": N_("Tilda"),
    "lily": N_("Lily"),
}

MINIONS = {
    "rats": N_("Rats"),
    "roaches": N_("Roaches"),
    "spiders": N_("Spiders"),
    "centipede": N_("Centipede"),
    "brodie": N_("Brodie the cat"),
}
LEADER = "leader"
OTHER = "other"

BRODIE_CARDS = {"pounce": N_("Brodie: Pounce"), "chase": N_("Brodie: Chase")}

STATUSES = {
    "stunned": N_("Stunned"),
    "webbed": N_("Webbed"),
    "knocked_down": N_("Knocked down"),
    "charmed": N_("Charmed"),
}

ACHIEVEMENTS = {
    "cheese_master": N_("Cheese Master"),
    "roach_slayer": N_("Roach Slayer"),
    "poison_resistance": N_("Poison Resistance"),
    "prisoner": N_("Prisoner"),
    "cat_tamer": N_("Cat Tamer"),
}
MOVES_END_MARKER = frozenset({"cheese_master", "roach_slayer", "prisoner"})
ACHIEVEMENT_REMINDERS = {
    "cheese_master": N_("When this mouse rolls cheese on defence, every active mouse gains 1 cheese."),
    "roach_slayer": N_("Roaches on this mouse's tile are never greedy."),
    "poison_resistance": N_("This mouse's poison wounds count as normal wounds."),
    "prisoner": N_("On a third capture this mouse is rescued at once and keeps its search cards."),
    "cat_tamer": N_("Large minions roll 1 die fewer in defence against this mouse."),
}

PARTY_ITEMS = {
    "fishhook": N_("Fishhook & Thread"),
    "fork": N_("Dinner Fork"),
    "grape": N_("Grape"),
    "disguises": N_("Disguises"),
}
CARD_PLACES = {"equipped": N_("Equipped"), "pack": N_("In the backpack"), "trick": N_("Trick in the backpack")}
# MM-23: one equipped card per slot, except the two paws. The rulebook names the paws; the other slots are
# read off the card's slot graphic (armour by the part of the body it covers, accessories): an assumption
# to check against the cards.
SLOTS = {
    "paw": N_("One paw"),
    "paws": N_("Both paws"),
    "head": N_("Head"),
    "body": N_("Body"),
    "accessory": N_("Accessory"),
}
PAWS_USED = {"paw": 1, "paws": 2}

DIE_SYMBOLS = {
    "sword": N_("Sword"),
    "bow": N_("Bow"),
    "shield": N_("Sword and shield"),
    "cheese": N_("Cheese"),
    "star": N_("Star"),
}
# The digest (Q12) has no transcription of a physical die: this face list is an
# assumption to be checked against a real die; the physical dice stay the default.
DIE_FACES = (
    ("sword", 1),
    ("sword", 2),
    ("bow", 3),
    ("shield", 1),
    ("cheese", 2),
    ("star", 3),
)


def seat_label(seat: str) -> Msg:
    if seat.startswith("player-"):
        return msg(N_("Player %(number)s"), number=int(seat.removeprefix("player-")))
    return msg(N_("Host"))


def mouse_label(mouse: dict) -> Msg:
    if mouse.get("hero"):
        return msg(HEROES[mouse["hero"]])
    return msg(N_("%(name)s"), name=mouse["name"])


def group_label(group: dict) -> Msg:
    if group["kind"] in MINIONS:
        return msg(MINIONS[group["kind"]])
    return msg(N_("%(name)s"), name=group["name"])


def arrival_label(arrival: dict) -> Msg:
    group = group_label({"kind": arrival["minion"], "name": arrival["name"]})
    if arrival["minion"] in (LEADER, "brodie"):
        return group
    return msg(N_("%(count)s × %(minion)s"), count=arrival["figures"], minion=group)


def arrivals_label(arrivals: list[dict]) -> Msg:
    """ "3 × Rats, 2 × Roaches" as one message, each piece translated where it is shown."""
    label = arrival_label(arrivals[-1])
    for arrival in reversed(arrivals[:-1]):
        label = msg(N_("%(first)s, %(rest)s"), first=arrival_label(arrival), rest=label)
    return label


def card_label(state: dict, card: dict) -> Msg:
    if card["kind"] == "mouse":
        return mouse_label(find_mouse(state, card["mouse"]))
    if card.get("face"):
        return msg(BRODIE_CARDS[card["face"]])
    group = state["groups"][card["group"]]
    if card["kind"] == "leader":
        return msg(N_("%(name)s (card %(number)s)"), name=group["name"], number=card["number"])
    return group_label(group)


def find_mouse(state: dict, mouse_id: str) -> dict:
    for mouse in state["mice"]:
        if mouse["id"] == mouse_id:
            return mouse
    raise KeyError(mouse_id)
