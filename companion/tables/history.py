"""A table's history: the lines each action told, who may read each, and windows of them for a seat."""

from __future__ import annotations

import marshal
from dataclasses import dataclass, replace

# The newest lines keep their args as they came; older ones, which a window rarely reaches, keep them packed.
KEPT_UNPACKED = 30


@dataclass(slots=True)
class HistoryLine:
    seq: int
    msg: str
    args: dict | bytes  # bytes: packed by marshal, a fraction of the dict's memory and exact for plain data
    seats: list | None = None
    undone: bool = False

    def plain_args(self) -> dict:
        return marshal.loads(self.args) if type(self.args) is bytes else self.args

    def packed(self) -> HistoryLine:
        return self if type(self.args) is bytes else replace(self, args=marshal.dumps(self.args))

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
