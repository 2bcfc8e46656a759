"""History lines in the players' words; bids and bets stay redacted until they are revealed."""

from __future__ import annotations

from companion.games.base import N_, msg

from .cards import BOARDS, CARS, car_name, power_name
from .race import start_player


def line(msgid: str, seats: list[str] | None = None, **args) -> dict:
    return {**msg(msgid, **args), "seats": seats}


def describe_action(before: dict, after: dict, actor: str, action: dict) -> list[dict]:
    kind = action["type"]
    lines = ACTION_LINES[kind](before, after, actor, action)
    if before["race_no"] == after["race_no"]:
        lines += sale_lines(before, after)
    lines += next_step_lines(before, after)
    return lines


def _entered(before, after, actor, action):
    if action["type"] == "enter_speed8":
        return [line(N_("%(seat)s entered the next speed-8 card."), seat=actor)]
    return [line(N_("%(seat)s entered the next driver-power card."), seat=actor)]


def _bid(before, after, actor, action):
    auction = before["auction"]
    changed = actor in auction["bids"]
    public = N_("%(seat)s changed their bid.") if changed else N_("%(seat)s placed a bid.")
    car = car_name(auction["car"])
    if action.get("pass"):
        private = line(N_("Your card for the %(car)s: no stripe of this colour (a pass)."), [actor], car=car)
    elif action.get("wild"):
        private = line(
            N_("Your bid for the %(car)s: %(amount)s, a card with %(stripes)s colour stripes and a wild stripe."),
            [actor],
            car=car,
            amount=action["amount"],
            stripes=action["stripes"],
        )
    else:
        private = line(
            N_("Your bid for the %(car)s: %(amount)s, a card with %(stripes)s colour stripes."),
            [actor],
            car=car,
            amount=action["amount"],
            stripes=action["stripes"],
        )
    return [line(public, seat=actor), private]


def _forced_bid(before, after, actor, action):
    amount = 1 if action["from"] == "none" else action["amount"]
    texts = {
        "colour": N_("%(seat)s shows their lowest card in this colour: %(amount)s."),
        "wild": N_("%(seat)s has no card in this colour and shows a wild stripe: %(amount)s."),
        "none": N_("%(seat)s has neither this colour nor a wild stripe and bids %(amount)s."),
    }
    return [line(texts[action["from"]], seat=actor, amount=amount)]


def _keep_power(before, after, actor, action):
    return [line(N_("%(seat)s keeps the driver power %(power)s."), seat=actor, power=power_name(action["power"]))]


def _open_bets(before, after, actor, action):
    return [line(N_("Betting round %(round)s is open: everyone picks a car to win."), round=after["bet_round"])]


def _bet(before, after, actor, action):
    number = after["bet_round"]
    lines = [
        line(N_("%(seat)s placed bet %(round)s."), seat=actor, round=number),
        line(N_("Your bet %(round)s: the %(car)s."), [actor], round=number, car=car_name(action["car"])),
    ]
    if before["betting"] and not after["betting"]:
        lines.append(line(N_("All bets of round %(round)s are in."), round=number))
    return lines


def _finish(before, after, actor, action):
    place = len(before["finish"]) + 1
    if after["variant"] == "endurance":
        return [line(N_("The %(car)s is ranked %(place)s by distance."), car=car_name(action["car"]), place=place)]
    return [line(N_("The %(car)s finishes in place %(place)s."), car=car_name(action["car"]), place=place)]


def _end_race(before, after, actor, action):
    return [line(N_("%(seat)s ended the race: no player has cards left."), seat=actor)]


def _next_race(before, after, actor, action):
    return [line(N_("The second race starts on the %(board)s."), board=msg(BOARDS[after["board"]]))]


ACTION_LINES = {
    "enter_speed8": _entered,
    "enter_power": _entered,
    "bid": _bid,
    "forced_bid": _forced_bid,
    "keep_power": _keep_power,
    "open_bets": _open_bets,
    "bet": _bet,
    "finish": _finish,
    "end_race": _end_race,
    "next_race": _next_race,
}


def sale_lines(before: dict, after: dict) -> list[dict]:
    """The cards turned face up at a reveal, and what became of the car."""
    lines = []
    for sale in after["sales"][len(before["sales"]) :]:
        lines += revealed_bid_lines(after["players"], sale)
        lines.append(sale_result_line(sale))
    return lines


def revealed_bid_lines(players: list[str], sale: dict) -> list[dict]:
    lines = []
    for seat in players:
        bid = sale["bids"].get(seat)
        if bid is None or bid.get("forced"):
            continue
        if bid["pass"]:
            lines.append(line(N_("%(seat)s passed."), seat=seat))
        elif bid["wild"]:
            lines.append(
                line(
                    N_("%(seat)s bid %(amount)s (%(stripes)s colour stripes and a wild stripe)."),
                    seat=seat,
                    amount=bid["amount"],
                    stripes=bid["stripes"],
                )
            )
        else:
            lines.append(
                line(
                    N_("%(seat)s bid %(amount)s (%(stripes)s colour stripes)."),
                    seat=seat,
                    amount=bid["amount"],
                    stripes=bid["stripes"],
                )
            )
    return lines


def sale_result_line(sale: dict) -> dict:
    car = car_name(sale["car"])
    if sale["result"] == "sold":
        return line(
            N_("%(seat)s wins the %(car)s for %(price)s million."), seat=sale["winner"], car=car, price=sale["price"]
        )
    if sale["result"] == "tie":
        return line(
            N_("A perfect tie for the %(car)s: the tied players bid again with other cards (house rule)."), car=car
        )
    if sale["result"] == "set_aside":
        return line(N_("Nobody bid: the %(car)s is set aside for later."), car=car)
    if sale["result"] == "forced_next":
        return line(N_("Nobody bid on the %(car)s."), car=car)
    return line(N_("The %(car)s races without an owner."), car=car)


def next_step_lines(before: dict, after: dict) -> list[dict]:
    """What the table turns to next: the next car on offer, the powers, the race, the results."""
    lines = []
    auction = after["auction"]
    if auction and not auction["rebid"] and _new_lot(before, after):
        lines.append(_offer_line(after))
    if after["phase"] == "race" and before["phase"] != "race":
        lines.append(line(N_("The race starts. %(seat)s plays first."), seat=start_player(after)))
    if after["phase"] in ("between", "finished") and before["phase"] == "race":
        lines += race_end_lines(after)
    return lines


def _new_lot(before: dict, after: dict) -> bool:
    return (
        before["auction"] is None or len(after["sales"]) > len(before["sales"]) or before["race_no"] != after["race_no"]
    )


def _offer_line(state: dict) -> dict:
    auction = state["auction"]
    car, power = car_name(auction["car"]), power_name(auction["power"])
    if auction["house_rule"]:
        return line(
            N_("House rule: the %(car)s with %(power)s goes to %(seat)s by a forced bid."),
            car=car,
            power=power,
            seat=auction["forced"],
        )
    if auction["forced"]:
        return line(
            N_("Last car: the %(car)s with %(power)s goes to %(seat)s, who shows their lowest card in its colour."),
            car=car,
            power=power,
            seat=auction["forced"],
        )
    if len(auction["eligible"]) < len(state["players"]):
        return line(
            N_("Up for auction: the %(car)s with %(power)s. Only players without a car may bid."), car=car, power=power
        )
    if auction["again"]:
        return line(N_("Offered again: the %(car)s with %(power)s."), car=car, power=power)
    return line(N_("Up for auction: the %(car)s with %(power)s."), car=car, power=power)


def race_end_lines(state: dict) -> list[dict]:
    """The disqualified cars and every bet, revealed now that the race is over."""
    race = state["races"][-1]
    if state["variant"] == "beginner":
        return []
    lines = [
        line(N_("The %(car)s did not finish and is disqualified."), car=car_name(car))
        for car in CARS
        if car not in race["finish"]
    ]
    for seat in state["players"]:
        for number, car in enumerate(race["bets"].get(seat, []), start=1):
            lines.append(
                line(N_("Bet %(round)s of %(seat)s: the %(car)s."), seat=seat, round=number, car=car_name(car))
            )
    return lines
