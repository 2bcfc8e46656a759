"""The sealed auction of the cars, car by car (DF-3 to DF-12).

Every function takes a state that the caller already copied and changes it in place.
"""

from __future__ import annotations

from companion.games.base import N_, RuleError, msg

from .cards import HIGHEST_BID, LOWEST_BID, MOST_STRIPES, car_name


def players_without_car(state: dict) -> list[str]:
    owners = {car["owner"] for car in state["cars"].values()}
    return [seat for seat in state["players"] if seat not in owners]


def cars_left(state: dict) -> int:
    """Cars still to be sold, the one on offer and the set-aside ones included."""
    return len(state["lots"]) + len(state["set_aside"]) + (1 if state["auction"] else 0)


def start_auction(state: dict, speed8: list[str], powers: list[str]) -> None:
    """Stack the two decks face down and turn up the first car and driver power (DF-3)."""
    state["lots"] = [{"car": car, "power": power} for car, power in zip(speed8, powers, strict=True)]
    state["phase"] = "auction"
    open_next_lot(state)


def open_next_lot(state: dict) -> None:
    """Offer the next car, then the set-aside ones while someone has no car (DF-10)."""
    state["auction"] = None
    if state["lots"]:
        _offer(state, state["lots"].pop(0), again=False)
    elif state["set_aside"] and players_without_car(state):
        _offer(state, state["set_aside"].pop(0), again=True)
    else:
        for lot in state["set_aside"]:
            _race_uncontrolled(state, lot, again=False)
        state["set_aside"] = []
        _close_auction(state)


def _offer(state: dict, lot: dict, again: bool) -> None:
    state["auction"] = {**lot, "again": again, "rebid": False, "bids": {}, "open_bids": False, "house_rule": False}
    state["auction"].update(eligibility(state))


def eligibility(state: dict) -> dict:
    """Who may bid on the car on offer, and whose bid is forced (DF-8, DF-9)."""
    waiting = players_without_car(state)
    left = cars_left(state)
    if waiting and left <= len(waiting):
        forced = waiting[0] if left == 1 and len(waiting) == 1 else None
        return {"eligible": waiting, "forced": forced}
    return {"eligible": list(state["players"]), "forced": None}


def read_bid(action: dict) -> dict:
    """The face-down card a player entered: the bid in the car's colour, its stripes, its wild stripe."""
    if action.get("pass"):
        return {"pass": True}
    amount, stripes = action.get("amount"), action.get("stripes")
    if not isinstance(amount, int) or not LOWEST_BID <= amount <= HIGHEST_BID:
        raise RuleError(
            N_("Enter the number in the car's colour stripe, from %(low)s to %(high)s, or pass."),
            low=LOWEST_BID,
            high=HIGHEST_BID,
        )
    if not isinstance(stripes, int) or not 1 <= stripes <= MOST_STRIPES:
        raise RuleError(N_("Enter how many car-colour stripes your card has, from 1 to %(most)s."), most=MOST_STRIPES)
    return {"pass": False, "amount": amount, "stripes": stripes, "wild": bool(action.get("wild"))}


def place_bid(state: dict, seat: str, action: dict) -> None:
    """A sealed bid, which the player may change until the last one is in (DF-4)."""
    auction = _auction_for(state, action)
    if auction["forced"]:
        raise RuleError(N_("This car goes to %(seat)s by a forced bid: only they show a card."), seat=auction["forced"])
    if seat not in auction["eligible"]:
        raise RuleError(N_("Only players without a car may bid on this car."), code="not_eligible")
    auction["bids"][seat] = read_bid(action)
    if all(player in auction["bids"] for player in auction["eligible"]):
        reveal(state)


def place_forced_bid(state: dict, seat: str, action: dict) -> None:
    """The last player without a car shows their lowest card in that colour, a wild, or bids 1 (DF-9)."""
    auction = _auction_for(state, action)
    if auction["forced"] is None:
        raise RuleError(N_("This car is auctioned with sealed bids: nobody shows a forced card."), code="not_eligible")
    if seat != auction["forced"]:
        raise RuleError(
            N_("This car goes to %(seat)s by a forced bid: only they show a card."),
            code="not_eligible",
            seat=auction["forced"],
        )
    source = action.get("from")
    if source not in ("colour", "wild", "none"):
        raise RuleError(N_("Say whether you show a card in the car's colour, a wild stripe, or neither."))
    amount = 1 if source == "none" else action.get("amount")
    if not isinstance(amount, int) or not LOWEST_BID <= amount <= HIGHEST_BID:
        raise RuleError(
            N_("Enter the number on the stripe you show, from %(low)s to %(high)s."), low=LOWEST_BID, high=HIGHEST_BID
        )
    auction["bids"][seat] = {"pass": False, "amount": amount, "from": source, "forced": True}
    _sell(state, seat, amount)


def _auction_for(state: dict, action: dict) -> dict:
    auction = state["auction"]
    if state["phase"] != "auction" or auction is None:
        raise RuleError(N_("No car is up for auction now."), code="wrong_phase")
    if action.get("car") not in (None, auction["car"]):
        raise RuleError(N_("The auction for the %(car)s is over."), code="stale", car=car_name(action["car"]))
    return auction


def bid_rank(bid: dict) -> tuple:
    """Highest bid, then more colour stripes, then the card without a wild stripe (DF-5)."""
    return (bid["amount"], bid["stripes"], not bid["wild"])


def reveal(state: dict) -> None:
    """Turn all the cards face up at once and give the car to the best bid."""
    auction = state["auction"]
    offers = {seat: bid for seat, bid in auction["bids"].items() if not bid["pass"]}
    if not offers:
        if must_go_to_a_carless_player(state):
            _force_next_carless(state)
        else:
            _unsold(state)
        return
    best = max(bid_rank(bid) for bid in offers.values())
    leaders = [seat for seat in auction["eligible"] if seat in offers and bid_rank(offers[seat]) == best]
    if len(leaders) == 1:
        _sell(state, leaders[0], best[0])
    else:
        _rebid(state, leaders)


def _sale(state: dict, result: str, **extra) -> dict:
    auction = state["auction"]
    sale = {
        "car": auction["car"],
        "power": auction["power"],
        "again": auction["again"],
        "rebid": auction["rebid"],
        "bids": auction["bids"],
        "result": result,
        "winner": None,
        "price": None,
        **extra,
    }
    state["sales"].append(sale)
    return sale


def _sell(state: dict, seat: str, price: int) -> None:
    """The winner writes down the price and takes the car and its driver power (DF-11)."""
    auction = state["auction"]
    _sale(state, "sold", winner=seat, price=price)
    state["cars"][auction["car"]] = {"owner": seat, "price": price}
    state["won_powers"].setdefault(seat, []).append(auction["power"])
    state["banner"] = msg(
        N_("%(seat)s wins the %(car)s for %(price)s million."), seat=seat, car=car_name(auction["car"]), price=price
    )
    open_next_lot(state)


def _unsold(state: dict) -> None:
    """Nobody bid: set the car aside, or, offered again, it races uncontrolled (DF-6, DF-10)."""
    auction = state["auction"]
    lot = {"car": auction["car"], "power": auction["power"]}
    if auction["again"]:
        _sale(state, "uncontrolled")
        state["cars"][lot["car"]] = {"owner": None, "price": None}
        state["banner"] = msg(N_("Nobody bid again: the %(car)s races without an owner."), car=car_name(lot["car"]))
    else:
        _sale(state, "set_aside")
        state["set_aside"].append(lot)
        state["banner"] = msg(N_("Nobody bid: the %(car)s is set aside for later."), car=car_name(lot["car"]))
    open_next_lot(state)


def must_go_to_a_carless_player(state: dict) -> bool:
    """House rule for DF-8 over DF-10: with the table's consent, the last cars never race unowned."""
    waiting = players_without_car(state)
    return state["car_for_everyone"] and bool(waiting) and cars_left(state) <= len(waiting)


def _force_next_carless(state: dict) -> None:
    """Nobody bid on a car the players without one must share: the first of them takes it by a forced bid."""
    auction = state["auction"]
    forced = players_without_car(state)[0]
    _sale(state, "forced_next", forced=forced)
    # A tie's re-bid that everyone passed ends here too: the offer is a forced bid now, no longer a re-bid.
    state["auction"] = {
        **auction,
        "rebid": False,
        "bids": {},
        "eligible": [forced],
        "forced": forced,
        "house_rule": True,
    }
    state["banner"] = msg(
        N_("Nobody bid: %(seat)s has no car and takes the %(car)s by a forced bid (house rule)."),
        seat=forced,
        car=car_name(auction["car"]),
    )


def _rebid(state: dict, leaders: list[str]) -> None:
    """Equal bid, stripes and wild stripe: the tied players bid again with other cards (house rule, Q6)."""
    auction = state["auction"]
    _sale(state, "tie", tied=leaders)
    state["auction"] = {**auction, "rebid": True, "bids": {}, "open_bids": False, "eligible": leaders, "forced": None}
    state["banner"] = msg(
        N_("A perfect tie for the %(car)s: the tied players bid again with other cards (house rule)."),
        car=car_name(auction["car"]),
    )


def _race_uncontrolled(state: dict, lot: dict, again: bool) -> None:
    state["auction"] = {**lot, "again": again, "rebid": False, "bids": {}, "open_bids": False}
    _sale(state, "uncontrolled")
    state["cars"][lot["car"]] = {"owner": None, "price": None}
    state["auction"] = None


def _close_auction(state: dict) -> None:
    """Players with several cars keep one of their driver powers; the others go back to the box (DF-12)."""
    for seat, powers in state["won_powers"].items():
        if len(powers) == 1:
            state["powers"][seat] = powers[0]
    waiting = [seat for seat in state["won_powers"] if seat not in state["powers"]]
    state["phase"] = "powers" if waiting else "race"


def keep_power(state: dict, seat: str, power: str) -> None:
    if state["phase"] != "powers":
        raise RuleError(N_("Driver powers are chosen after the auction."), code="wrong_phase")
    if power not in state["won_powers"].get(seat, []):
        raise RuleError(N_("You can only keep a driver power you won with a car."))
    state["powers"][seat] = power
    if all(player in state["powers"] for player in state["won_powers"]):
        state["phase"] = "race"
