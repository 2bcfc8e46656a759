"""Setup, the betting rounds, the finish line and the next race (DF-1, DF-2, DF-13, DF-17 to DF-22, V1, V3, V4).

Every function takes a state that the caller already copied and changes it in place.
"""

from __future__ import annotations

from companion.games.base import N_, RuleError, msg

from .auction import start_auction
from .cards import BETTING_LINES, CARS, POWERS, car_name, other_board
from .scoring import first_owner_home


def new_race(state: dict, board: str, rng) -> None:
    """A fresh race: a random starting grid, and the decks shuffled or waiting to be entered."""
    state.update(
        board=board,
        phase="setup",
        grid=rng.shuffled(list(CARS)),
        entered={"speed8": [], "powers": []},
        lots=[],
        set_aside=[],
        auction=None,
        sales=[],
        cars={},
        won_powers={},
        powers={},
        bets={seat: [] for seat in state["players"]},
        bet_round=0,
        betting=False,
        finish=[],
        bets_public=False,
        banner=None,
    )
    if state["deck_order"] == "shuffled":
        deal(state, rng.shuffled(list(CARS)), rng.shuffled(list(POWERS)))


def deal(state: dict, speed8: list[str], powers: list[str]) -> None:
    if state["variant"] == "beginner":
        deal_beginner_cars(state, speed8)
    else:
        start_auction(state, speed8, powers)


def deal_beginner_cars(state: dict, speed8: list[str]) -> None:
    """No auction: the speed-8 cards are dealt so that everyone has as many cars; the rest race unowned (V1)."""
    players = state["players"]
    dealt = len(CARS) // len(players) * len(players)
    for index, car in enumerate(speed8):
        state["cars"][car] = {"owner": players[index % len(players)] if index < dealt else None, "price": None}
    state["phase"] = "race"


def enter_card(state: dict, deck: str, card: str) -> None:
    """The table types in the next card of a physical deck, top card first."""
    if state["phase"] != "setup" or state["deck_order"] != "entered":
        raise RuleError(N_("The decks are not being entered now."), code="wrong_phase")
    if deck == "powers" and state["variant"] == "beginner":
        raise RuleError(N_("The beginner game plays without driver powers."))
    cards, pile = CARS if deck == "speed8" else POWERS, state["entered"][deck]
    if card not in cards:
        raise RuleError(N_("Pick one of the six cards of that deck."))
    if card in pile:
        raise RuleError(N_("That card is already entered."))
    pile.append(card)
    if len(pile) == len(cards) - 1:
        pile.extend(c for c in cards if c not in pile)
    _deal_when_entered(state)


def _deal_when_entered(state: dict) -> None:
    speed8, powers = state["entered"]["speed8"], state["entered"]["powers"]
    needs_powers = state["variant"] != "beginner"
    if len(speed8) == len(CARS) and (len(powers) == len(POWERS) or not needs_powers):
        deal(state, list(speed8), list(powers) if needs_powers else [])


def start_player(state: dict) -> str | None:
    """The owner of the car on the start-player space, else of the next owned car on the grid (DF-13, Q8)."""
    for car in state["grid"]:
        owner = state["cars"].get(car, {}).get("owner")
        if owner:
            return owner
    return None


def turn_order(state: dict) -> list[str]:
    """Clockwise from the start player (DF-13)."""
    first = start_player(state)
    players = state["players"]
    if first is None:
        return list(players)
    index = players.index(first)
    return players[index:] + players[:index]


def players_out(state: dict) -> list[str]:
    """Players whose cars have all finished discard their hand and skip their turns (DF-21)."""
    out = []
    for seat in state["players"]:
        cars = [car for car, sale in state["cars"].items() if sale["owner"] == seat]
        if cars and all(car in state["finish"] for car in cars):
            out.append(seat)
    return out


def _require_race(state: dict) -> None:
    if state["phase"] != "race":
        raise RuleError(N_("The race is not running."), code="wrong_phase")


def open_betting(state: dict) -> None:
    """The first car crossed a betting line: everyone secretly names a car to win (DF-17, Q9)."""
    _require_race(state)
    if state["variant"] == "beginner":
        raise RuleError(N_("The beginner game plays without bets."))
    if state["betting"]:
        raise RuleError(N_("Betting round %(round)s is still open."), round=state["bet_round"])
    if state["bet_round"] >= BETTING_LINES:
        raise RuleError(N_("All three betting rounds have been played."))
    state["bet_round"] += 1
    state["betting"] = True
    state["banner"] = msg(N_("Betting round %(round)s: everyone picks a car to win."), round=state["bet_round"])


def place_bet(state: dict, seat: str, action: dict) -> None:
    """A secret bet on any car, changeable until the last bet of the round is in (DF-17, DF-18)."""
    _require_race(state)
    if not state["betting"]:
        raise RuleError(N_("No betting round is open."), code="wrong_phase")
    if action.get("round") not in (None, state["bet_round"]):
        raise RuleError(N_("Betting round %(round)s is over."), code="stale", round=action["round"])
    if action.get("car") not in CARS:
        raise RuleError(N_("Pick one of the six cars."))
    bets = state["bets"][seat]
    if len(bets) == state["bet_round"]:
        bets[-1] = action["car"]
    else:
        bets.append(action["car"])
    if all(len(state["bets"][player]) == state["bet_round"] for player in state["players"]):
        state["betting"] = False
        state["banner"] = msg(N_("All bets of round %(round)s are in."), round=state["bet_round"])


def cross_finish(state: dict, car: str) -> None:
    """The next car across the line takes the next finishing space (DF-20); in endurance, the next by distance."""
    _require_race(state)
    if state["betting"]:
        raise RuleError(N_("Finish the betting round first."))
    if car not in CARS:
        raise RuleError(N_("Pick one of the six cars."))
    if car in state["finish"]:
        raise RuleError(N_("The %(car)s has already finished."), car=car_name(car))
    state["finish"].append(car)
    if state["variant"] == "endurance" and len(state["finish"]) == len(CARS) - 1:
        state["finish"].extend(c for c in CARS if c not in state["finish"])
    if len(state["finish"]) == len(CARS) or _beginner_won(state):
        end_race(state)


def _beginner_won(state: dict) -> bool:
    return state["variant"] == "beginner" and first_owner_home(state) is not None


def stop_race(state: dict) -> None:
    """No player has cards left: the cars still on the track are disqualified (DF-22)."""
    _require_race(state)
    if state["betting"]:
        raise RuleError(N_("Finish the betting round first."))
    if state["variant"] == "endurance":
        raise RuleError(N_("In the endurance race, rank every car by distance."))
    end_race(state)


def end_race(state: dict) -> None:
    state["races"].append(race_record(state))
    state["betting"] = False
    last = state["variant"] != "world-championship" or len(state["races"]) == 2
    state["phase"] = "finished" if last else "between"
    state["banner"] = msg(N_("The race is over. The bets are revealed."))
    if state["variant"] == "beginner":
        state["banner"] = msg(N_("The race is over."))


def race_record(state: dict) -> dict:
    """What a finished race keeps for scoring."""
    keys = ("board", "grid", "cars", "powers", "bets", "finish", "sales")
    return {key: state[key] for key in keys}


def next_race(state: dict, rng) -> None:
    """World championship: the second race on the other side of the board (V4)."""
    if state["phase"] != "between":
        raise RuleError(N_("There is no second race to start now."), code="wrong_phase")
    state["race_no"] = 2
    new_race(state, other_board(state["board"]), rng)
