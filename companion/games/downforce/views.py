"""What each seat may see: secrets leave the state here, and only here."""

from __future__ import annotations

from companion.games.base import N_, msg

from .auction import players_without_car
from .cards import BOARDS, CARS, POWER_REMINDERS, TWO_PLAYER_HAND, cards_to_box, hand_size, power_name
from .race import players_out, start_player, turn_order
from .scoring import final_table, first_owner_home, score_sheet

RACE_OVER = ("between", "finished")


def table_view(state: dict, seat: str | None) -> dict:
    view = public_view(state)
    if seat in state["players"]:
        view.update(seat_view(state, seat))
        view["banner"] = seat_banner(state)
    else:
        view["your_turn"] = False
    return view


def seat_banner(state: dict) -> dict | None:
    """A phone shows the auction's last news only until the race starts: its first screen then belongs to the bets."""
    if state["phase"] == "race" and not state["bet_round"]:
        return None
    return state.get("banner")


def public_view(state: dict) -> dict:
    players = len(state["players"])
    return {
        "phase": state["phase"],
        "variant": state["variant"],
        "two_player": players == 2,
        "race": state["race_no"],
        "race_count": 2 if state["variant"] == "world-championship" else 1,
        "board": state["board"],
        "board_name": msg(BOARDS[state["board"]]),
        "players": list(state["players"]),
        "hand_size": hand_size(players, state["variant"]),
        "cards_to_box": cards_to_box(players, state["variant"]),
        "reminders": reminders(state),
        "grid": list(state["grid"]),
        "setup": setup_progress(state),
        "auction": auction_view(state),
        "set_aside": [lot["car"] for lot in state["set_aside"]],
        "sales": revealed_sales(state),
        "cars": {car: dict(sale) for car, sale in state["cars"].items()},
        "powers": {seat: power_card(power) for seat, power in state["powers"].items()},
        "choosing_power": [seat for seat in state["won_powers"] if seat not in state["powers"]],
        "left_without_car": left_without_car(state),
        "start_player": start_player(state) if state["phase"] in ("race", *RACE_OVER) else None,
        "turn_order": turn_order(state) if state["phase"] == "race" else [],
        "out": players_out(state),
        "betting": betting_view(state),
        "finish": list(state["finish"]),
        "bets": public_bets(state),
        "results": results_view(state),
        "banner": state.get("banner"),
    }


def seat_view(state: dict, seat: str) -> dict:
    auction = state["auction"]
    view = {
        "seat": seat,
        "my_cars": [car for car, sale in state["cars"].items() if sale["owner"] == seat],
        "my_bid": auction["bids"].get(seat) if auction else None,
        "my_bets": list(state["bets"].get(seat, [])),
        "my_power_choices": [power_card(p) for p in state["won_powers"].get(seat, [])]
        if state["phase"] == "powers"
        else [],
        "your_turn": your_turn(state, seat),
    }
    if state["races"] and state["variant"] != "beginner":
        view["score_sheets"] = [score_sheet(race, seat) for race in state["races"]]
        view["score_sheet"] = view["score_sheets"][-1]
    return view


def your_turn(state: dict, seat: str) -> bool:
    """True while this seat still has to bid, show a card, keep a power or bet."""
    phase, auction = state["phase"], state["auction"]
    if phase == "auction" and auction:
        if auction["forced"]:
            return seat == auction["forced"]
        return seat in auction["eligible"] and seat not in auction["bids"]
    if phase == "powers":
        return seat in state["won_powers"] and seat not in state["powers"]
    if phase == "race" and state["betting"]:
        return len(state["bets"][seat]) < state["bet_round"]
    return False


def reminders(state: dict) -> list[dict]:
    """What the table does by hand in this variant."""
    notes = []
    if len(state["players"]) == 2:
        notes.append(
            msg(
                N_(
                    "Two players: each keeps their speed-8 cards face up on the table. After the auction, "
                    "each shuffles their race cards into their own draw deck and draws %(hand)s, then draws 1 "
                    "after playing a card from their hand."
                ),
                hand=TWO_PLAYER_HAND,
            )
        )
    extra = {
        "beginner": N_(
            "Beginner game: everyone holds 3 cards and refills to 3 after their turn. No driver powers, no bets: "
            "the first car home wins."
        ),
        "endurance": N_(
            "Endurance race: the finish line does not count. Play every card, speed-8 cards included, "
            "then rank the cars by distance; a tie goes to the car in the inside lane."
        ),
        "world-championship": N_(
            "World championship: two races, one on each side of the board; the money of both is added up."
        ),
    }
    if state["variant"] in extra:
        notes.append(msg(extra[state["variant"]]))
    if state["car_for_everyone"]:
        notes.append(
            msg(
                N_(
                    "House rule: when the players without a car all pass on the last cars, each of them in turn "
                    "takes one by a forced bid."
                )
            )
        )
    return notes


def left_without_car(state: dict) -> list[str]:
    """Players the auction left without a car: the rules clash there (DF-8 against DF-10)."""
    if state["phase"] in ("setup", "auction"):
        return []
    return players_without_car(state)


def setup_progress(state: dict) -> dict | None:
    """Only counts: the order of a face-down deck is nobody's business."""
    if state["phase"] != "setup":
        return None
    return {
        "speed8_entered": len(state["entered"]["speed8"]),
        "powers_entered": len(state["entered"]["powers"]),
        "needs_powers": state["variant"] != "beginner",
    }


def power_card(power: str) -> dict:
    return {"power": power, "name": power_name(power), "reminder": msg(POWER_REMINDERS[power])}


def auction_view(state: dict) -> dict | None:
    """The car and driver power on offer and who has bid; the bids themselves stay face down."""
    auction = state["auction"]
    if state["phase"] != "auction" or not auction:
        return None
    bids_in = [seat for seat in auction["eligible"] if seat in auction["bids"]]
    view = {
        "car": auction["car"],
        "power": power_card(auction["power"]),
        "again": auction["again"],
        "rebid": auction["rebid"],
        "eligible": list(auction["eligible"]),
        "forced": auction["forced"],
        "house_rule": auction["house_rule"],
        "bids_in": bids_in,
        "status": msg(N_("%(count)s of %(total)s bids in"), count=len(bids_in), total=len(auction["eligible"])),
    }
    if auction["open_bids"]:
        # An undo took back a reveal: those cards were face up on the table.
        view["bids"] = dict(auction["bids"])
    return view


def revealed_sales(state: dict) -> list[dict]:
    return [dict(sale) for sale in state["sales"]]


def betting_view(state: dict) -> dict:
    bets_in = [seat for seat in state["players"] if len(state["bets"][seat]) >= state["bet_round"]]
    return {
        "round": state["bet_round"],
        "open": state["betting"],
        "bets_in": bets_in if state["betting"] else [],
    }


def public_bets(state: dict) -> dict | None:
    """Everyone's bets, only once the race is over (DF-17)."""
    if state["phase"] in RACE_OVER or state["bets_public"]:
        return {seat: list(bets) for seat, bets in state["bets"].items()}
    return None


def results_view(state: dict) -> dict | None:
    """The race order and the final table, for every screen once a race is over."""
    if state["phase"] not in RACE_OVER:
        return None
    race = state["races"][-1]
    results = {
        "race_order": list(race["finish"]),
        "disqualified": [car for car in CARS if car not in race["finish"]],
    }
    if state["variant"] == "beginner":
        results["winner"] = first_owner_home(race)
        return results
    results["final_table"] = final_table(state["races"], state["players"])
    results["score_sheets"] = {seat: score_sheet(race, seat) for seat in state["players"]}
    return results
