"""A table's history: the lines each action told, who may read each, and windows of them for a seat."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class HistoryLine:
    seq: int
    msg: str
    args: dict
    seats: list | None = None
    undone: bool = False

    @property
    def readers(self) -> list:
        """Who may read it, as the seats' line counts count: None stands for everyone."""
        return [None] if self.seats is None else self.seats

    def visible_to(self, seat: str | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)


def history_lines(seq: int, lines: list[dict], undone: bool = False) -> list[HistoryLine]:
    """A game's lines for the action at `seq`, each with the seats that may read it."""
    return [HistoryLine(seq, line["msg"], line["args"], line.get("seats"), undone) for line in lines]


@dataclass
class HistoryWindow:
    """Some of the history lines a seat may see, oldest first, as plain data."""

    lines: list[dict]
    before: int | None  # ask for the lines before this seq to see older ones; None: there are none
    number: int  # how many lines this seat may see up to the newest of these (the newest line's number)
