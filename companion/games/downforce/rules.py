"""Downforce: sealed auction bids, secret race bets and the final sums (rules digest DF-1 to DF-32)."""

from __future__ import annotations

import copy

from companion.games.base import HOST, N_, Game, Move, Option, Refusal, RuleError, SeatSpec, msg

from . import auction, race
from .cards import BOARDS, CARS, POWERS, car_name
from .history import describe_action
from .scoring import final_table, first_owner_home
from .views import table_view

VARIANTS = {
    "standard": N_("Standard race"),
    "beginner": N_("Beginner game"),
    "endurance": N_("Endurance race"),
    "world-championship": N_("World championship (two races)"),
}
DECK_ORDERS = {"shuffled": N_("Shuffled by the server"), "entered": N_("Entered from the physical decks")}

CAR = {"type": "string", "enum": list(CARS), "title": N_("Car")}
POWER = {"type": "string", "enum": list(POWERS), "title": N_("Driver power")}
STRIPE = {"type": "integer", "minimum": 1, "maximum": 6, "title": N_("Number in the car's colour stripe")}
STRIPES = {
    "type": "integer",
    "minimum": 1,
    "maximum": 6,
    "title": N_("Car-colour stripes on the card (wild not counted)"),
}
WILD = {"type": "boolean", "title": N_("The card has a white wild stripe")}
PASS = {"type": "boolean", "title": N_("No stripe of this colour (pass)")}
SHOWN = {"type": "string", "enum": ["colour", "wild", "none"], "title": N_("The card you show")}
ROUND = {"type": "integer", "minimum": 1, "maximum": 3, "title": N_("Betting round")}


def _schema(properties: dict | None = None, required: tuple = ()) -> dict:
    return {"type": "object", "properties": properties or {}, "required": list(required)}


def at_the_table(state: dict, actor: str, action: dict) -> None:
    if actor != HOST and actor not in state["players"]:
        raise RuleError(N_("Only players at this table can do that."), code="not_your_seat")


def own_seat(state: dict, actor: str, action: dict) -> None:
    """Sealed actions of single players: the host cannot make them for anyone."""
    if actor not in state["players"]:
        raise RuleError(N_("Only the player themselves can do that, on their own phone."), code="not_your_seat")


# Each move once: what it does, its fields and who may make it (the phases are the race's and the auction's own).
MOVES = {
    "enter_speed8": Move(
        lambda state, actor, action, rng: race.enter_card(state, "speed8", action.get("car")),
        _schema({"car": CAR}, ("car",)),
        who=at_the_table,
    ),
    "enter_power": Move(
        lambda state, actor, action, rng: race.enter_card(state, "powers", action.get("power")),
        _schema({"power": POWER}, ("power",)),
        who=at_the_table,
    ),
    "bid": Move(
        lambda state, actor, action, rng: auction.place_bid(state, actor, action),
        _schema({"car": CAR, "amount": STRIPE, "stripes": STRIPES, "wild": WILD, "pass": PASS}),
        who=own_seat,
    ),
    "forced_bid": Move(
        lambda state, actor, action, rng: auction.place_forced_bid(state, actor, action),
        _schema({"car": CAR, "from": SHOWN, "amount": STRIPE}, ("from",)),
        who=own_seat,
    ),
    "keep_power": Move(
        lambda state, actor, action, rng: auction.keep_power(state, actor, action.get("power")),
        _schema({"power": POWER}, ("power",)),
        who=own_seat,
    ),
    "open_bets": Move(lambda state, actor, action, rng: race.open_betting(state), _schema(), who=at_the_table),
    "bet": Move(
        lambda state, actor, action, rng: race.place_bet(state, actor, action),
        _schema({"car": CAR, "round": ROUND}, ("car",)),
        who=own_seat,
    ),
    "finish": Move(
        lambda state, actor, action, rng: race.cross_finish(state, action.get("car")),
        _schema({"car": CAR}, ("car",)),
        who=at_the_table,
    ),
    "end_race": Move(lambda state, actor, action, rng: race.stop_race(state), _schema(), who=at_the_table),
    "next_race": Move(lambda state, actor, action, rng: race.next_race(state, rng), _schema(), who=at_the_table),
}


class Downforce(Game):
    id = "downforce"
    name = "Downforce"
    bgg_id = 215311
    summary = N_("Sealed auction bids, secret race bets and the final sums, beside the cardboard race track.")
    options = (
        Option("players", N_("Players"), "int", 4, min=2, max=6),
        Option("board", N_("Board side"), "choice", "river", choices=BOARDS),
        Option("variant", N_("Variant"), "choice", "standard", choices=VARIANTS),
        Option(
            "deck_order",
            N_("Speed-8 and driver-power decks"),
            "choice",
            "shuffled",
            choices=DECK_ORDERS,
            help=N_("Enter the decks if you shuffle the cards on the table and want the app to follow them."),
        ),
        Option(
            "car_for_everyone",
            N_("House rule: every player gets a car"),
            "bool",
            False,
            help=N_(
                "When the players without a car all pass on the last cars, each of them in turn must take one "
                "by a forced bid instead of the cars racing without an owner."
            ),
        ),
    )
    moves = MOVES
    concurrent = frozenset({"bid", "forced_bid", "keep_power", "bet"})
    # Not a player of this table, or a sealed action of another: never this seat's. A bid or bet for an auction or a
    # betting round that is over: the table has moved past it.
    refusals = {"not_your_seat": Refusal.FORBIDDEN, "stale": Refusal.CONFLICT}

    def moment(self, state):
        auction = state["auction"]
        lot = auction and (auction["car"], auction["again"], auction["rebid"])
        return state["phase"], lot, state["bet_round"], state["betting"]

    def seats(self, options: dict) -> list[SeatSpec]:
        count = self._options(options)["players"]
        return [SeatSpec(f"player-{n}", msg(N_("Player %(number)s"), number=n)) for n in range(1, count + 1)]

    def setup(self, options: dict, rng) -> dict:
        options = self._options(options)
        state = {
            "players": [f"player-{n}" for n in range(1, options["players"] + 1)],
            "variant": options["variant"],
            "deck_order": options["deck_order"],
            "car_for_everyone": bool(options["car_for_everyone"]),
            "race_no": 1,
            "races": [],
        }
        race.new_race(state, options["board"], rng)
        return state

    def _options(self, options: dict) -> dict:
        chosen = {option.name: options.get(option.name, option.default) for option in self.options}
        if not isinstance(chosen["players"], int) or not 2 <= chosen["players"] <= 6:
            raise RuleError(N_("Downforce is for 2 to 6 players."))
        for option in self.options:
            if option.kind == "choice" and chosen[option.name] not in option.choices:
                raise RuleError(N_("The option %(option)s has a value the game cannot use."), option=option.name)
        return chosen

    def view(self, state: dict, seat: str | None) -> dict:
        return table_view(state, seat)

    def outcome(self, state: dict) -> dict | None:
        if state["phase"] != "finished":
            return None
        if state["variant"] == "beginner":
            return beginner_outcome(state)
        table = final_table(state["races"], state["players"])
        winners = [row["seat"] for row in table if row["rank"] == 1]
        if len(winners) == 1:
            summary = msg(N_("%(seat)s wins with %(money)s million dollars."), seat=winners[0], money=table[0]["total"])
        else:
            summary = msg(N_("A shared win with %(money)s million dollars each."), money=table[0]["total"])
        scores = {row["seat"]: row["total"] for row in table}
        return {"winners": winners, "summary": summary, "scores": scores, "start_player": self._starter(state)}

    @staticmethod
    def _starter(state: dict) -> str:
        """BG Stats' start player, who began the play: the first race's (DF-13), as its record keeps the grid and the
        cars' owners; the first seat if no car on its grid had an owner."""
        return race.start_player(state["races"][0]) or state["players"][0]

    def describe(self, before: dict, after: dict, actor: str, action: dict) -> list[dict]:
        return describe_action(before, after, actor, action)

    def undo(self, before: dict, undone: dict, action: dict) -> dict:
        """Take an action back; cards already turned face up stay known to everyone."""
        state = copy.deepcopy(before)
        if state["race_no"] != undone["race_no"]:
            return state
        if state["auction"] and _bids_were_seen(state, undone):
            state["auction"]["open_bids"] = True
        if undone["phase"] in ("between", "finished") or undone["bets_public"]:
            state["bets_public"] = True
        return state


def _bids_were_seen(state: dict, undone: dict) -> bool:
    """The undone action revealed this car's bids, or they were already face up."""
    same_car = undone["auction"] and undone["auction"]["car"] == state["auction"]["car"]
    if same_car and undone["auction"]["open_bids"] and undone["auction"]["rebid"] == state["auction"]["rebid"]:
        return True
    revealed = undone["sales"][len(state["sales"]) :]
    return any(sale["car"] == state["auction"]["car"] for sale in revealed)


def beginner_outcome(state: dict) -> dict:
    race_ = state["races"][-1]
    winner = first_owner_home(race_)
    starter = Downforce._starter(state)
    if winner is None:
        return {"winners": [], "summary": msg(N_("No player's car finished.")), "start_player": starter}
    first = next(car for car in race_["finish"] if race_["cars"][car]["owner"] == winner)
    summary = msg(N_("%(seat)s wins: the %(car)s finished first."), seat=winner, car=car_name(first))
    return {"winners": [winner], "summary": summary, "start_player": starter}
