"""Score sheets laid out like the paper pad, and the winner (DF-19, DF-23, DF-24, V4)."""

from __future__ import annotations

from .cards import BET_PAYOUTS, CARS, PLACE_PRIZES

UNPLACED = len(CARS) + 1
"""A place worse than any finish, for disqualified cars and players without a car."""


def place(race: dict, car: str) -> int | None:
    """1 for the first car home; None for a car that never finished (DF-22)."""
    return race["finish"].index(car) + 1 if car in race["finish"] else None


def place_prize(race: dict, car: str) -> int:
    where = place(race, car)
    return PLACE_PRIZES[where - 1] if where else 0


def bet_payout(race: dict, round_number: int, car: str | None) -> int:
    where = place(race, car) if car else None
    payouts = BET_PAYOUTS[round_number - 1]
    return payouts[where - 1] if where and where <= len(payouts) else 0


def owned_cars(race: dict, seat: str) -> list[str]:
    return [car for car in CARS if race["cars"].get(car, {}).get("owner") == seat]


def score_sheet(race: dict, seat: str) -> dict:
    """One player's sheet of one race: placement + bets - auction = total."""
    placement = [
        {"car": car, "place": place(race, car), "prize": place_prize(race, car)} for car in owned_cars(race, seat)
    ]
    bets = [
        {"round": number, "car": car, "place": place(race, car), "payout": bet_payout(race, number, car)}
        for number, car in enumerate(race["bets"].get(seat, []), start=1)
    ]
    auction = [{"car": car, "price": race["cars"][car]["price"] or 0} for car in owned_cars(race, seat)]
    sheet = {
        "placement": placement,
        "placement_total": sum(row["prize"] for row in placement),
        "bets": bets,
        "bets_total": sum(row["payout"] for row in bets),
        "auction": auction,
        "auction_total": sum(row["price"] for row in auction),
    }
    sheet["total"] = sheet["placement_total"] + sheet["bets_total"] - sheet["auction_total"]
    return sheet


def best_place(race: dict, seat: str) -> int:
    return min((place(race, car) or UNPLACED for car in owned_cars(race, seat)), default=UNPLACED)


def final_table(races: list[dict], players: list[str]) -> list[dict]:
    """Players from richest down; a tie goes to the better placed car of the last race (DF-24, V4)."""
    rows = []
    for seat in players:
        sheets = [score_sheet(race, seat) for race in races]
        rows.append(
            {
                "seat": seat,
                "races": [sheet["total"] for sheet in sheets],
                "total": sum(sheet["total"] for sheet in sheets),
                "best_place": best_place(races[-1], seat),
            }
        )
    rows.sort(key=lambda row: (-row["total"], row["best_place"]))
    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if _ahead(other, row))
    return rows


def _ahead(other: dict, row: dict) -> bool:
    return (-other["total"], other["best_place"]) < (-row["total"], row["best_place"])


def winners(races: list[dict], players: list[str]) -> list[str]:
    return [row["seat"] for row in final_table(races, players) if row["rank"] == 1]


def first_owner_home(race: dict) -> str | None:
    """Beginner game: the owner of the first controlled car across the line wins (V1)."""
    for car in race["finish"]:
        owner = race["cars"][car]["owner"]
        if owner:
            return owner
    return None
