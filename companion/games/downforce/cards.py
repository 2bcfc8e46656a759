"""The cars, driver powers, board sides and the payout tables of the score pad."""

from __future__ import annotations

from companion.games.base import N_, msg

CARS = ("black", "blue", "green", "yellow", "orange", "red")
"""The six cars, in the order of the score pad's header."""

CAR_NAMES = {
    "black": N_("black car"),
    "blue": N_("blue car"),
    "green": N_("green car"),
    "yellow": N_("yellow car"),
    "orange": N_("orange car"),
    "red": N_("red car"),
}

POWERS = ("aggressive", "agility", "concentration", "strategic", "daring", "unpredictable")

POWER_NAMES = {
    "aggressive": N_("Aggressive driving"),
    "agility": N_("Agility"),
    "concentration": N_("Concentration"),
    "strategic": N_("Strategic thinking"),
    "daring": N_("Daring manoeuvre"),
    "unpredictable": N_("Unpredictability"),
}
"""The Czech edition's names translated into each page's language: the English card texts are unknown (Q11)."""

# The card texts are missing from the rulebook (Q11): reminders only, the card on the table decides. They speak of
# the card's owner, not to "you": the table display shows them too.
POWER_REMINDERS = {
    "aggressive": N_(
        "When its owner plays a card whose top stripe is their car's colour, that car may move 1 extra space. "
        "Not when the top stripe is a wild stripe."
    ),
    "agility": N_(
        "On other players' turns its owner, not the active player, decides how their car moves. "
        "The owner claims it. Check the card on the table."
    ),
    "concentration": N_(
        "If the owner's car's normal move passed only over rectangular spaces, it moves 2 more spaces at once, "
        "before the next stripe. Check the card on the table."
    ),
    "strategic": N_("When its owner plays a card, they may skip one stripe of their choice."),
    "daring": N_("When its owner plays a card, they may resolve its stripes from bottom to top."),
    "unpredictable": N_(
        "When its owner plays a card, its wild stripe may move any car, even one already on the card. "
        "Two wild stripes still move two different cars."
    ),
}

BOARDS = {"river": N_("River circuit"), "bay": N_("Bay circuit")}

PLACE_PRIZES = (12, 9, 6, 4, 2, 0)
"""Money for finishing 1st to 6th (DF-23)."""

BET_PAYOUTS = ((9, 6, 3), (6, 4, 2), (3, 2, 1))
"""Money for bet 1, 2 and 3 on the car that finishes 1st, 2nd or 3rd (DF-19)."""

BETTING_LINES = 3
RACE_CARDS = 42
BEGINNER_HAND = 3
TWO_PLAYER_HAND = 7
LOWEST_BID, HIGHEST_BID = 1, 6
MOST_STRIPES = 6


def car_name(car: str) -> dict:
    return msg(CAR_NAMES[car])


def power_name(power: str) -> dict:
    return msg(POWER_NAMES[power])


def other_board(board: str) -> str:
    return "bay" if board == "river" else "river"


def hand_size(players: int, variant: str) -> int:
    """Race cards dealt to each player at the start (DF-1, V1, V2)."""
    return BEGINNER_HAND if variant == "beginner" else RACE_CARDS // players


def cards_to_box(players: int, variant: str) -> int:
    """Race cards left over after dealing evenly; with 4 or 5 players 2 go back to the box (DF-1)."""
    return 0 if variant == "beginner" else RACE_CARDS % players
