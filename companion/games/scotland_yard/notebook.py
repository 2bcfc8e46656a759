"""The detectives' notebook: the stations Mister X can be at, from his reveals and the tickets he used since."""

from __future__ import annotations

from .board import BOARD
from .figures import REVEAL_MOVES
from .moves import occupied_stations, reachable


def possible_stations(state: dict) -> list[int]:
    """Where Mister X can be, from public facts only: start cards, tickets, reveals, figures."""
    possible = set(BOARD.start_cards["mister_x"])
    for number, entry in enumerate(state["travel_log"], 1):
        if number in REVEAL_MOVES:
            possible = {entry["station"]}
            continue
        blocked = set(entry["blocked"])
        # He was not caught, so he was not where a figure stood; and he cannot end his move there.
        possible = {to for station in possible - blocked for to in reachable(station, entry["ticket"])} - blocked
    return sorted(possible - occupied_stations(state).keys())


def notebook_view(state: dict) -> dict | None:
    if not state["options"]["notebook"]:
        return None
    stations = possible_stations(state)
    return {
        "count": len(stations),
        "stations": stations,
        "map": {
            "image_size": list(BOARD.image_size),
            "possible": [{"station": s, "x": BOARD.positions[s][0], "y": BOARD.positions[s][1]} for s in stations],
            "figures": [
                {
                    "id": f,
                    "station": spot["station"],
                    "x": BOARD.positions[spot["station"]][0],
                    "y": BOARD.positions[spot["station"]][1],
                }
                for f, spot in state["figures"].items()
            ],
        },
    }
