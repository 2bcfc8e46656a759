"""The panic table and the event deck, as pure functions of plain data."""

from __future__ import annotations

from companion.games.base import msg

from .texts import ANY_COLOUR_ROW, COLOURS, GHOSTS_ROW, PANIC_ROWS

DISTANCES = (1, 2, 3, 4, 2)
"""How far tourists run on panic rows 1–5 with the rulebook's speed."""

GHOST_SQUARES = 3
"""How far the opponents' ghosts move in total on a panic 6."""

SPEEDS = {"slower": -1, "normal": 0, "faster": 1}

EVENT_CARDS = 11


def distance(row: int, speed: str) -> int:
    """How far the tourists of panic row 1–5 run with the table's speed house rule."""
    return max(1, DISTANCES[row - 1] + SPEEDS[speed])


def row_colour(row: int) -> str | None:
    """The colour panic row 1–4 moves; rows 5 and 6 have none of their own."""
    return COLOURS[row - 1] if 1 <= row <= 4 else None


def panic_row(roll: int, tourists: dict) -> int | None:
    """The row that applies to a roll: a missing colour walks up from row 1 (ET-23).

    None when no tourist is left at all (ET-24).
    """
    if not any(tourists.values()):
        return None
    if roll >= 5 or tourists[row_colour(roll)]:
        return roll
    return next(row for row in range(1, 5) if tourists[row_colour(row)])


def row_effect(row: int, speed: str, colour: str | None = None) -> dict:
    """What a panic row tells the active player to do."""
    if row == 6:
        return msg(GHOSTS_ROW, distance=GHOST_SQUARES)
    colour = colour or row_colour(row)
    if colour is None:
        return msg(ANY_COLOUR_ROW, distance=distance(row, speed))
    return msg(PANIC_ROWS[colour], distance=distance(row, speed))


def new_deck(rng) -> dict:
    """The 11 event cards, shuffled, with nothing in play yet (ET-25)."""
    return {"deck": rng.shuffled(list(range(1, EVENT_CARDS + 1))), "discard": [], "current": None}


def draw_event(events: dict, rng) -> dict:
    """Turn up the top card; it replaces the current event, which is discarded.

    An empty deck is first rebuilt from the shuffled discards; the card still in
    play is not among them, as it is only discarded once replaced.
    """
    deck, discard = list(events["deck"]), list(events["discard"])
    if not deck:
        deck, discard = rng.shuffled(discard), []
    if events["current"] is not None:
        discard.append(events["current"])
    return {"deck": deck[1:], "discard": discard, "current": deck[0]}


def event_titles(text: str) -> list[str | None]:
    """Typed card titles, one a line; None where a card has no real title yet."""
    lines = [line.strip() for line in (text or "").splitlines()]
    titles: list[str | None] = []
    for number in range(1, EVENT_CARDS + 1):
        line = lines[number - 1] if number <= len(lines) else ""
        titles.append(None if line in ("", f"Event {number}") else line)
    return titles


def event_label(number: int, titles: list) -> dict:
    """The card as shown on the display."""
    title = titles[number - 1] if number <= len(titles) else None
    if title:
        return msg("Event %(number)s: %(title)s", number=number, title=title)
    return msg("Event %(number)s", number=number)
