"""The score sheet: 2 per tourist eaten, −1 per escape charged to you (ET-26)."""

from __future__ import annotations

from companion.games.base import N_, msg

from .texts import joined, player


def points(score: dict) -> int:
    return 2 * score["eaten"] - score["escapes"]


def ranking(state: dict) -> list[dict]:
    """Everyone by points; equal points share a place (Q9).

    Among equals, more tourists eaten is listed first: the unofficial second
    criterion the digest allows, which never changes the shared place.
    """
    rows = [
        {
            "seat": seat,
            "label": player(seat),
            "eaten": score["eaten"],
            "escapes": score["escapes"],
            "points": points(score),
        }
        for seat, score in state["scores"].items()
    ]
    rows.sort(key=lambda row: (-row["points"], -row["eaten"], state["players"].index(row["seat"])))
    for row in rows:
        row["place"] = 1 + sum(1 for other in rows if other["points"] > row["points"])
    return rows


def summary(rows: list[dict]) -> dict:
    """The final ranking with each player's breakdown, in one message."""
    lines = [
        msg(
            N_("%(place)s. %(player)s: %(points)s points (%(eaten)s eaten ×2, %(escapes)s escaped −1)"),
            place=row["place"],
            player=row["seat"],
            points=row["points"],
            eaten=row["eaten"],
            escapes=row["escapes"],
        )
        for row in rows
    ]
    return msg(N_("Final ranking: %(ranking)s"), ranking=joined(lines))
