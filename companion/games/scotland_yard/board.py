"""The Scotland Yard board: stations, transport links, start cards and map positions.

The facts live in board.json beside this module (a copy of the cross-checked
board graph, with its sources kept as attribution); it is read once at import.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

TRANSPORTS = ("taxi", "bus", "underground", "ferry")


@dataclass(frozen=True)
class Board:
    """The station graph: for each transport, station -> the stations one link away."""

    stations: int
    links: dict[str, dict[int, frozenset[int]]]
    start_cards: dict[str, tuple[int, ...]]
    positions: dict[int, tuple[int, int]]
    image_size: tuple[int, int]

    @classmethod
    def from_json(cls, data: dict) -> Board:
        links = {}
        for transport in TRANSPORTS:
            neighbours: dict[int, set[int]] = {}
            for a, b in data[transport]:
                neighbours.setdefault(a, set()).add(b)
                neighbours.setdefault(b, set()).add(a)
            links[transport] = {station: frozenset(near) for station, near in neighbours.items()}
        return cls(
            stations=data["stations"],
            links=links,
            start_cards={kind: tuple(cards) for kind, cards in data["start_cards"].items()},
            positions={int(station): (xy[0], xy[1]) for station, xy in data["positions"]["xy"].items()},
            image_size=tuple(data["positions"]["image_size"]),
        )

    def neighbours(self, station: int, transport: str) -> frozenset[int]:
        return self.links[transport].get(station, frozenset())

    def is_station(self, station: object) -> bool:
        return isinstance(station, int) and not isinstance(station, bool) and 1 <= station <= self.stations


def load() -> Board:
    with (Path(__file__).with_name("board.json")).open(encoding="utf-8") as handle:
        return Board.from_json(json.load(handle))


BOARD = load()
