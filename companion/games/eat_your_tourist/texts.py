"""The players' words: colours, phases and the per-colour lines of the history."""

from companion.games.base import N_, msg

COLOURS = ("blue", "yellow", "red", "green")
"""Tourist colours in panic-table order: row 1 is blue, row 4 is green."""

COLOUR_NAMES = {"blue": N_("Blue"), "yellow": N_("Yellow"), "red": N_("Red"), "green": N_("Green")}

# Whole sentences per colour, because Czech declines the colour with the tourist.
PANIC_ROWS = {
    "blue": N_("Move all blue tourists by %(distance)s"),
    "yellow": N_("Move all yellow tourists by %(distance)s"),
    "red": N_("Move all red tourists by %(distance)s"),
    "green": N_("Move all green tourists by %(distance)s"),
}
ANY_COLOUR_ROW = N_("Move all tourists of one colour by %(distance)s")
GHOSTS_ROW = N_("Move the opponents' ghosts %(distance)s squares in total and draw an event")

EATEN = {
    "blue": N_("%(player)s eats a blue tourist: +2"),
    "yellow": N_("%(player)s eats a yellow tourist: +2"),
    "red": N_("%(player)s eats a red tourist: +2"),
    "green": N_("%(player)s eats a green tourist: +2"),
}
ESCAPED = {
    "blue": N_("A blue tourist escapes from the castle: %(neighbour)s gets −1"),
    "yellow": N_("A yellow tourist escapes from the castle: %(neighbour)s gets −1"),
    "red": N_("A red tourist escapes from the castle: %(neighbour)s gets −1"),
    "green": N_("A green tourist escapes from the castle: %(neighbour)s gets −1"),
}
DIED = {
    "blue": N_("A blue tourist dies of fright: no points for anyone"),
    "yellow": N_("A yellow tourist dies of fright: no points for anyone"),
    "red": N_("A red tourist dies of fright: no points for anyone"),
    "green": N_("A green tourist dies of fright: no points for anyone"),
}

PHASES = {
    "fright": N_("Fright"),
    "hunt": N_("Hunt"),
    "panic": N_("Panic"),
    "over": N_("Game over"),
}


def player(seat: str) -> dict:
    """The seat's label: "Player 2".

    Messages name a player by the seat id instead, which the table shows as
    the name the player typed in.
    """
    return msg("Player %(number)s", number=int(seat.rsplit("-", 1)[1]))


def die(value: int, physical: bool) -> dict:
    """A roll as shown in the history, saying whose die it was."""
    if physical:
        return msg("%(value)s (table die)", value=value)
    return msg("%(value)s (app die)", value=value)


def joined(lines: list) -> dict | str:
    """Several messages shown as one, separated by semicolons."""
    if not lines:
        return ""
    if len(lines) == 1:
        return lines[0]
    return msg("%(first)s; %(rest)s", first=lines[0], rest=joined(lines[1:]))
