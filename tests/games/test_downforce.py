"""Downforce companion: one test per rule of ../shared/rules/downforce.md that the app enforces."""

from __future__ import annotations

import copy
import itertools
import json
import random

import pytest

from companion.games.base import HOST, RuleError
from companion.games.downforce import game
from companion.games.downforce.cards import CARS
from companion.rng import Rng
from tests.games.scripted import ScriptedRng

P1, P2, P3, P4, P5, P6 = (f"player-{n}" for n in range(1, 7))


RNG = ScriptedRng()


def table(players=4, variant="standard", **changes) -> dict:
    """A compact literal state; by default the race is running and nothing has happened yet."""
    seats = [f"player-{n}" for n in range(1, players + 1)]
    state = {
        "players": seats,
        "variant": variant,
        "deck_order": "shuffled",
        "car_for_everyone": False,
        "race_no": 1,
        "races": [],
        "board": "river",
        "phase": "race",
        "grid": list(CARS),
        "entered": {"speed8": [], "powers": []},
        "lots": [],
        "set_aside": [],
        "auction": None,
        "sales": [],
        "cars": {},
        "won_powers": {},
        "powers": {},
        "bets": {seat: [] for seat in seats},
        "bet_round": 0,
        "betting": False,
        "finish": [],
        "bets_public": False,
        "banner": None,
    }
    state.update(changes)
    return state


def owners(**cars) -> dict:
    """cars as owner and price: owners(green=(P2, 6)); None for an uncontrolled car."""
    return {
        car: {"owner": sale[0], "price": sale[1]} if sale else {"owner": None, "price": None}
        for car, sale in cars.items()
    }


def lots(*pairs) -> list[dict]:
    return [{"car": car, "power": power} for car, power in pairs]


def at_auction(car, power="agility", eligible=None, forced=None, players=4, again=False, **changes) -> dict:
    seats = [f"player-{n}" for n in range(1, players + 1)]
    auction = {
        "car": car,
        "power": power,
        "again": again,
        "rebid": False,
        "bids": {},
        "open_bids": False,
        "eligible": eligible or seats,
        "forced": forced,
        "house_rule": False,
    }
    return table(players, phase="auction", auction=auction, **changes)


def play(state, *moves) -> dict:
    """Apply (actor, action) pairs in turn."""
    for actor, action in moves:
        state = game.apply(state, actor, action, RNG)
    return state


def bid(amount, stripes=1, wild=False):
    return {"type": "bid", "amount": amount, "stripes": stripes, "wild": wild}


PASS = {"type": "bid", "pass": True}


def finished_race(finish, cars, bets, players=4, variant="standard", **changes) -> dict:
    """A race whose cars have crossed the line in `finish`, scored as it ends."""
    state = table(players, variant, cars=cars, bets=bets, bet_round=3, **changes)
    state = play(state, *[(HOST, {"type": "finish", "car": car}) for car in finish])
    return state if len(finish) == len(CARS) else play(state, (HOST, {"type": "end_race"}))


# -- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "hand", "boxed"), [(2, 21, 0), (3, 14, 0), (4, 10, 2), (5, 8, 2), (6, 7, 0)])
def test_all_42_race_cards_are_dealt_evenly_and_4_or_5_players_box_two(players, hand, boxed):
    view = game.view(game.setup({"players": players}, RNG), None)
    assert (view["hand_size"], view["cards_to_box"]) == (hand, boxed)


def test_the_cars_start_on_the_grid_in_a_random_order():
    state = game.setup({"players": 3}, ScriptedRng(shuffle=lambda items: items[::-1]))
    assert sorted(state["grid"]) == sorted(CARS)
    assert state["grid"][0] == "red"


def test_options_outside_two_to_six_players_are_refused():
    with pytest.raises(RuleError):
        game.setup({"players": 7}, RNG)
    assert [seat.id for seat in game.seats({"players": 3})] == [P1, P2, P3]


def test_each_auction_offers_the_top_speed8_car_with_the_top_driver_power():
    state = game.setup({"players": 3}, RNG)
    assert (state["auction"]["car"], state["auction"]["power"]) == ("black", "aggressive")


def test_the_table_can_enter_the_physical_decks_top_card_first():
    state = game.setup({"players": 3, "deck_order": "entered"}, RNG)
    assert state["phase"] == "setup"
    for car in ("red", "green", "blue", "black", "orange"):
        state = play(state, (P2, {"type": "enter_speed8", "car": car}))
    for power in ("daring", "agility", "strategic", "concentration", "aggressive"):
        state = play(state, (HOST, {"type": "enter_power", "power": power}))
    assert state["phase"] == "auction"
    assert (state["auction"]["car"], state["auction"]["power"]) == ("red", "daring")
    assert state["lots"][-1] == {"car": "yellow", "power": "unpredictable"}


def test_entering_a_card_twice_is_refused_and_the_deck_order_is_not_shown():
    state = play(game.setup({"players": 3, "deck_order": "entered"}, RNG), (P1, {"type": "enter_speed8", "car": "red"}))
    with pytest.raises(RuleError):
        play(state, (P1, {"type": "enter_speed8", "car": "red"}))
    assert game.view(state, None)["setup"] == {"speed8_entered": 1, "powers_entered": 0, "needs_powers": True}


# -- auction ---------------------------------------------------------------------------------


def test_rulebook_auction_example_two_bids_of_6_for_green_go_to_the_card_with_more_stripes():
    state = at_auction("green", "agility", lots=lots(("red", "daring")))
    state = play(state, (P1, PASS), (P2, bid(6, stripes=3)), (P3, bid(4, stripes=2)), (P4, bid(6, stripes=2)))
    assert state["cars"]["green"] == {"owner": P2, "price": 6}
    assert state["won_powers"] == {P2: ["agility"]}
    assert state["auction"]["car"] == "red"


def test_bids_stay_sealed_until_the_last_eligible_player_has_bid():
    state = play(at_auction("green"), (P1, bid(3)), (P2, bid(5)), (P3, PASS))
    assert state["sales"] == []
    assert game.view(state, None)["auction"]["bids_in"] == [P1, P2, P3]
    assert game.view(state, None)["auction"]["status"]["args"] == {"count": 3, "total": 4}


def test_a_player_can_change_their_bid_until_the_last_bid_is_in():
    state = play(at_auction("green"), (P1, bid(2)), (P2, bid(4)), (P3, PASS), (P1, bid(5)), (P4, PASS))
    assert state["cars"]["green"] == {"owner": P1, "price": 5}


def test_four_bids_sent_at_once_are_all_accepted_because_bids_are_concurrent():
    assert {"bid", "bet"} <= game.concurrent
    state = play(at_auction("green"), (P4, bid(1)), (P3, bid(2)), (P2, bid(3)), (P1, bid(4)))
    assert state["cars"]["green"]["owner"] == P1


def test_a_card_without_the_car_colour_is_a_pass():
    state = play(at_auction("green"), (P1, PASS), (P2, PASS), (P3, bid(1)), (P4, PASS))
    assert state["cars"]["green"] == {"owner": P3, "price": 1}


def test_a_bid_outside_the_stripe_numbers_is_refused():
    with pytest.raises(RuleError):
        play(at_auction("green"), (P1, bid(7)))
    with pytest.raises(RuleError):
        play(at_auction("green"), (P1, {"type": "bid", "amount": 3}))


def test_the_highest_bid_wins_whatever_the_stripes():
    state = play(
        at_auction("green"), (P1, bid(5, stripes=1, wild=True)), (P2, bid(4, stripes=4)), (P3, PASS), (P4, PASS)
    )
    assert state["cars"]["green"]["owner"] == P1


def test_on_equal_bids_and_stripes_the_card_without_a_wild_stripe_wins():
    state = play(at_auction("green"), (P1, bid(4, 2, wild=True)), (P2, bid(4, 2)), (P3, PASS), (P4, bid(4, 2, True)))
    assert state["cars"]["green"] == {"owner": P2, "price": 4}


def test_a_perfect_tie_is_bid_again_by_the_tied_players_only_as_a_house_rule():
    state = play(at_auction("green"), (P1, bid(4, 2)), (P2, bid(4, 2)), (P3, bid(3, 4)), (P4, PASS))
    assert state["sales"][-1]["result"] == "tie"
    assert state["auction"]["rebid"] and state["auction"]["eligible"] == [P1, P2]
    assert "house rule" in state["banner"]["msg"]
    with pytest.raises(RuleError):
        play(state, (P3, bid(6)))
    state = play(state, (P2, bid(2, 1)), (P1, bid(5, 1)))
    assert state["cars"]["green"] == {"owner": P1, "price": 5}


def test_a_car_nobody_bids_on_is_set_aside():
    state = play(at_auction("green", lots=lots(("red", "daring"))), *[(seat, PASS) for seat in (P1, P2, P3, P4)])
    assert state["set_aside"] == [{"car": "green", "power": "agility"}]
    assert "green" not in state["cars"]
    assert game.view(state, None)["set_aside"] == ["green"]


def test_a_player_who_owns_a_car_still_bids_in_the_next_auction():
    rest = lots(("red", "daring"), ("blue", "strategic"), ("yellow", "aggressive"), ("orange", "concentration"))
    state = at_auction("green", cars=owners(black=(P1, 2)), lots=rest)
    state = play(state, (P1, bid(3)), (P2, PASS), (P3, PASS), (P4, PASS))
    assert state["cars"]["green"]["owner"] == P1
    assert state["auction"]["eligible"] == [P1, P2, P3, P4]


def test_once_cars_left_equal_players_without_a_car_only_they_may_bid():
    sold = owners(black=(P1, 2), blue=(P1, 1))
    state = at_auction(
        "green", cars=sold, lots=lots(("yellow", "daring"), ("orange", "strategic"), ("red", "unpredictable"))
    )
    state = play(state, (P1, bid(3)), (P2, PASS), (P3, PASS), (P4, PASS))
    assert state["auction"]["car"] == "yellow"
    assert state["auction"]["eligible"] == [P2, P3, P4]
    with pytest.raises(RuleError):
        play(state, (P1, bid(6)))
    view = game.view(state, P1)
    assert view["your_turn"] is False and game.view(state, P2)["your_turn"] is True


def _last_car_for_p4():
    """P1 to P3 own cars; the orange auction between P3 and P4 leaves only red."""
    sold = owners(black=(P1, 2), blue=(P1, 1), green=(P2, 3), yellow=(P2, 1))
    won = {P1: ["aggressive", "agility"], P2: ["concentration", "unpredictable"]}
    state = at_auction("orange", "strategic", [P3, P4], cars=sold, won_powers=won, lots=lots(("red", "daring")))
    return play(state, (P3, bid(3)), (P4, PASS))


def test_the_last_car_goes_to_the_last_player_without_one_at_their_lowest_number():
    state = _last_car_for_p4()
    assert state["auction"]["car"] == "red" and state["auction"]["forced"] == P4
    assert game.view(state, P4)["your_turn"] and not game.view(state, P1)["your_turn"]
    with pytest.raises(RuleError):
        play(state, (P4, bid(2)))
    with pytest.raises(RuleError):
        play(state, (P1, {"type": "forced_bid", "from": "colour", "amount": 1}))
    state = play(state, (P4, {"type": "forced_bid", "from": "colour", "amount": 2}))
    assert state["cars"]["red"] == {"owner": P4, "price": 2}
    assert state["phase"] == "powers"


def test_the_forced_bid_uses_a_wild_stripe_and_failing_that_is_1():
    state = _last_car_for_p4()
    wild = play(state, (P4, {"type": "forced_bid", "from": "wild", "amount": 3}))
    assert wild["cars"]["red"]["price"] == 3
    none = play(state, (P4, {"type": "forced_bid", "from": "none"}))
    assert none["cars"]["red"]["price"] == 1


def test_set_aside_cars_are_auctioned_again_and_a_car_still_unsold_races_uncontrolled():
    sold = owners(black=(P1, 2), blue=(P1, 1), green=(P2, 3), orange=(P3, 4))
    state = at_auction("red", "daring", cars=sold, set_aside=lots(("yellow", "agility")))
    state = play(state, *[(seat, PASS) for seat in (P1, P2, P3, P4)])
    assert state["auction"]["car"] == "yellow" and state["auction"]["again"]
    state = play(state, *[(seat, PASS) for seat in (P1, P2, P3, P4)])
    assert state["cars"]["yellow"] == {"owner": None, "price": None}
    assert state["auction"]["car"] == "red" and state["auction"]["forced"] == P4
    state = play(state, (P4, {"type": "forced_bid", "from": "colour", "amount": 1}))
    assert state["cars"]["red"]["owner"] == P4


def test_set_aside_cars_race_uncontrolled_when_everyone_already_has_a_car():
    sold = owners(black=(P1, 2), blue=(P2, 1), green=(P3, 3))
    state = at_auction("red", "daring", players=3, cars=sold, set_aside=lots(("yellow", "agility")))
    state = play(state, (P1, PASS), (P2, PASS), (P3, PASS))
    assert state["cars"]["yellow"]["owner"] is None and state["cars"]["red"]["owner"] is None
    assert [sale["result"] for sale in state["sales"]] == ["set_aside", "uncontrolled", "uncontrolled"]
    assert state["phase"] == "race"


def _last_two_cars_for_p3_and_p4(**changes):
    """P1 and P2 own four cars; P3 and P4 have none and only they may bid on green and red."""
    sold = owners(black=(P1, 2), blue=(P1, 1), orange=(P2, 3), yellow=(P2, 1))
    won = {P1: ["aggressive", "agility"], P2: ["concentration", "unpredictable"]}
    return at_auction(
        "green", "daring", [P3, P4], cars=sold, won_powers=won, lots=lots(("red", "strategic")), **changes
    )


def test_players_without_a_car_who_pass_on_the_last_cars_are_told_those_cars_race_without_an_owner():
    state = _last_two_cars_for_p3_and_p4()  # DF-10 against DF-8
    for _ in range(4):
        state = play(state, (P3, PASS), (P4, PASS))
    assert state["cars"]["green"]["owner"] is None and state["cars"]["red"]["owner"] is None
    for seat in (None, P3):
        assert game.view(state, seat)["left_without_car"] == [P3, P4]


def test_the_house_rule_gives_each_player_without_a_car_one_by_forced_bids_in_turn():
    assert "House rule" in next(o.label for o in game.options if o.name == "car_for_everyone")
    state = play(_last_two_cars_for_p3_and_p4(car_for_everyone=True), (P3, PASS), (P4, PASS))  # DF-8, DF-9
    view = game.view(state, None)
    assert (view["auction"]["car"], view["auction"]["forced"], view["auction"]["house_rule"]) == ("green", P3, True)
    assert any("House rule" in note["msg"] for note in view["reminders"])
    state = play(state, (P3, {"type": "forced_bid", "from": "colour", "amount": 2}))
    assert state["auction"]["car"] == "red" and state["auction"]["forced"] == P4
    state = play(state, (P4, {"type": "forced_bid", "from": "none"}))
    assert (state["cars"]["green"], state["cars"]["red"]) == ({"owner": P3, "price": 2}, {"owner": P4, "price": 1})
    assert [sale["result"] for sale in state["sales"]] == ["forced_next", "sold", "sold"]
    assert game.view(state, None)["left_without_car"] == []


def test_a_re_bid_after_a_perfect_tie_that_everyone_passes_turns_into_a_forced_bid_of_the_house_rule():
    state = play(_last_two_cars_for_p3_and_p4(car_for_everyone=True), (P3, bid(4, 2)), (P4, bid(4, 2)))  # Q6
    assert state["auction"]["rebid"]
    before = state
    state = play(state, (P3, PASS), (P4, PASS))  # DF-8, DF-9 with the house rule
    lot = game.view(state, P3)["auction"]
    assert (lot["forced"], lot["house_rule"], lot["rebid"]) == (P3, True, False)
    lines = [line["msg"] for line in game.describe(before, state, P4, PASS)]
    assert "House rule: the %(car)s with %(power)s goes to %(seat)s by a forced bid." in lines
    state = play(state, (P3, {"type": "forced_bid", "from": "none"}))
    assert state["cars"]["green"] == {"owner": P3, "price": 1}


def test_without_the_house_rule_a_table_is_set_up_with_cars_racing_unowned():
    state = game.setup({"players": 3}, RNG)
    assert state["car_for_everyone"] is False
    assert game.setup({"players": 3, "car_for_everyone": True}, RNG)["car_for_everyone"] is True


def test_the_winner_writes_down_the_price_and_shows_the_driver_power():
    state = play(at_auction("green", "agility", players=2), (P1, bid(4)), (P2, bid(2)))
    view = game.view(state, None)
    assert view["cars"]["green"] == {"owner": P1, "price": 4}
    assert view["sales"][-1]["bids"][P2]["amount"] == 2


def test_a_player_with_several_cars_keeps_one_driver_power_for_all_of_them():
    sold = owners(black=(P1, 2), blue=(P1, 1), green=(P2, 3), yellow=(P3, 3), orange=(P3, 2))
    won = {P1: ["agility", "daring"], P2: ["strategic"], P3: ["aggressive", "concentration"]}
    state = at_auction("red", "unpredictable", players=3, cars=sold, won_powers=won)
    state = play(state, (P1, PASS), (P2, bid(1)), (P3, PASS))
    assert state["phase"] == "powers" and state["powers"] == {}
    assert all(game.view(state, seat)["your_turn"] for seat in (P1, P2, P3))
    assert state["won_powers"][P2] == ["strategic", "unpredictable"]
    with pytest.raises(RuleError):
        play(state, (P1, {"type": "keep_power", "power": "strategic"}))
    state = play(
        state,
        (P1, {"type": "keep_power", "power": "daring"}),
        (P2, {"type": "keep_power", "power": "unpredictable"}),
        (P3, {"type": "keep_power", "power": "aggressive"}),
    )
    assert state["phase"] == "race"
    assert game.view(state, None)["powers"][P1]["power"] == "daring"


def test_a_player_with_one_car_keeps_its_driver_power_without_asking():
    won = {P1: ["agility"], P2: ["strategic"]}
    state = at_auction("red", "daring", players=3, cars=owners(black=(P1, 1), blue=(P2, 1)), won_powers=won)
    state = play(state, (P1, PASS), (P2, PASS), (P3, bid(2)))
    assert state["phase"] == "race"
    assert state["powers"] == {P1: "agility", P2: "strategic", P3: "daring"}


def test_driver_powers_show_their_reminder_text():
    state = table(cars=owners(black=(P1, 1)), powers={P1: "concentration"})
    card = game.view(state, P2)["powers"][P1]
    assert card["name"]["msg"] == "Concentration"  # the Czech edition's name only in Czech
    assert "rectangular" in card["reminder"]["msg"]


# -- race ------------------------------------------------------------------------------------


def test_the_owner_of_the_car_on_the_start_space_plays_first_then_clockwise():
    state = table(grid=["green", *[c for c in CARS if c != "green"]], cars=owners(green=(P3, 2), black=(P1, 1)))
    view = game.view(state, None)
    assert view["start_player"] == P3
    assert view["turn_order"] == [P3, P4, P1, P2]


def test_an_uncontrolled_car_on_the_start_space_passes_the_first_turn_down_the_grid():
    state = table(
        grid=["red", "orange", "black", "blue", "green", "yellow"], cars=owners(red=None, orange=None, black=(P2, 1))
    )
    assert game.view(state, None)["start_player"] == P2


def test_any_seat_or_the_host_opens_a_betting_round_when_a_line_is_crossed():
    state = play(table(), (P3, {"type": "open_bets"}))
    assert state["betting"] and state["bet_round"] == 1
    with pytest.raises(RuleError):
        play(state, (HOST, {"type": "open_bets"}))


def test_a_bet_round_closes_when_every_player_has_bet_and_bets_are_locked():
    state = play(table(players=2), (HOST, {"type": "open_bets"}), (P1, {"type": "bet", "car": "red"}))
    state = play(state, (P1, {"type": "bet", "car": "blue"}), (P2, {"type": "bet", "car": "red"}))
    assert not state["betting"] and state["bets"] == {P1: ["blue"], P2: ["red"]}
    with pytest.raises(RuleError):
        play(state, (P1, {"type": "bet", "car": "green"}))


def test_one_card_crossing_two_lines_holds_two_betting_rounds_in_a_row():
    state = play(
        table(players=2),
        (HOST, {"type": "open_bets"}),
        (P1, {"type": "bet", "car": "red"}),
        (P2, {"type": "bet", "car": "red"}),
    )
    state = play(
        state, (HOST, {"type": "open_bets"}), (P1, {"type": "bet", "car": "red"}), (P2, {"type": "bet", "car": "blue"})
    )
    assert state["bets"] == {P1: ["red", "red"], P2: ["red", "blue"]} and state["bet_round"] == 2


def test_a_bet_may_name_any_car_whoever_controls_it():
    state = table(players=2, cars=owners(red=(P2, 3)), betting=True, bet_round=1)
    assert play(state, (P1, {"type": "bet", "car": "red"}))["bets"][P1] == ["red"]


def test_only_three_betting_rounds_are_held():
    with pytest.raises(RuleError):
        play(table(bet_round=3), (HOST, {"type": "open_bets"}))


def test_a_stale_bet_for_a_closed_round_is_refused():
    with pytest.raises(RuleError):
        play(table(betting=True, bet_round=2), (P1, {"type": "bet", "car": "red", "round": 1}))


def test_players_whose_cars_have_all_finished_are_out_but_still_bet():
    state = table(players=2, cars=owners(red=(P1, 1), blue=(P2, 1)), finish=["red"], bet_round=2)
    assert game.view(state, None)["out"] == [P1]
    state = play(state, (P2, {"type": "open_bets"}))
    assert game.view(state, P1)["your_turn"] is True


def test_cars_cross_the_finish_line_into_the_next_free_place():
    state = play(table(), (HOST, {"type": "finish", "car": "blue"}), (P2, {"type": "finish", "car": "red"}))
    assert state["finish"] == ["blue", "red"]
    with pytest.raises(RuleError):
        play(state, (P1, {"type": "finish", "car": "blue"}))


def test_the_race_ends_by_itself_when_all_six_cars_have_finished():
    state = play(table(), *[(HOST, {"type": "finish", "car": car}) for car in CARS])
    assert state["phase"] == "finished"


def test_cars_that_never_finish_are_disqualified_and_earn_nothing():
    cars = owners(black=(P1, 2), green=(P2, 1))
    bets = {P1: ["black", "black", "black"], P2: ["green", "blue", "blue"], P3: [], P4: []}
    state = finished_race(["blue", "red", "yellow", "orange"], cars, bets)
    results = game.view(state, None)["results"]
    assert results["disqualified"] == ["black", "green"]
    sheet = game.view(state, P1)["score_sheet"]
    assert sheet["placement"] == [{"car": "black", "place": None, "prize": 0}]
    assert sheet["bets_total"] == 0 and sheet["total"] == -2
    assert game.view(state, P2)["score_sheet"]["bets_total"] == 0 + 6 + 3


def test_place_prizes_are_12_9_6_4_2_0_for_the_owner():
    cars = owners(**{car: (P1, 0) for car in CARS})
    state = finished_race(list(CARS), cars, {P1: [], P2: [], P3: [], P4: []})
    assert [row["prize"] for row in game.view(state, P1)["score_sheet"]["placement"]] == [12, 9, 6, 4, 2, 0]


def test_bet_payouts_are_9_6_3_then_6_4_2_then_3_2_1():
    bets = {
        P1: ["black", "black", "black"],
        P2: ["blue", "blue", "blue"],
        P3: ["green", "green", "green"],
        P4: ["red"] * 3,
    }
    state = finished_race(list(CARS), owners(), bets)
    payouts = {
        seat: [row["payout"] for row in game.view(state, seat)["score_sheet"]["bets"]] for seat in (P1, P2, P3, P4)
    }
    assert payouts == {P1: [9, 6, 3], P2: [6, 4, 2], P3: [3, 2, 1], P4: [0, 0, 0]}


def test_rulebook_scoring_example_11_plus_13_minus_9_is_15():
    cars = owners(yellow=(P1, 4), green=(P1, 5), blue=(P2, 3), red=(P3, 2), black=(P4, 1), orange=None)
    bets = {P1: ["yellow", "yellow", "blue"], P2: [], P3: [], P4: []}
    state = finished_race(["blue", "yellow", "red", "black", "green", "orange"], cars, bets)
    sheet = game.view(state, P1)["score_sheet"]
    assert (sheet["placement_total"], sheet["bets_total"], sheet["auction_total"], sheet["total"]) == (11, 13, 9, 15)
    assert [row["payout"] for row in sheet["bets"]] == [6, 4, 3]


def test_an_uncontrolled_car_pays_its_place_prize_to_nobody_but_bets_on_it_win():
    cars = owners(red=None, blue=(P1, 1), black=(P2, 1))
    state = finished_race(["red", "blue", "black"], cars, {P1: ["red"], P2: [], P3: [], P4: []})
    table_rows = {row["seat"]: row["total"] for row in game.view(state, None)["results"]["final_table"]}
    assert table_rows == {P1: 9 + 9 - 1, P2: 6 - 1, P3: 0, P4: 0}


def test_the_richest_player_wins():
    cars = owners(red=(P1, 1), blue=(P2, 1))
    state = finished_race(["red", "blue"], cars, {P1: [], P2: [], P3: [], P4: []})
    outcome = game.outcome(state)
    assert outcome["winners"] == [P1] and outcome["summary"]["args"] == {"seat": P1, "money": 11}


def test_a_tie_on_money_goes_to_the_player_whose_car_placed_better():
    cars = owners(blue=(P1, 5), red=(P2, 2))  # 12 - 5 = 7 and 9 - 2 = 7
    state = finished_race(["blue", "red"], cars, {P1: [], P2: [], P3: [], P4: []}, players=4)
    assert game.outcome(state)["winners"] == [P1]
    cars = owners(blue=(P1, 6), red=(P2, 9))  # 3 and 3, and red placed 1st
    state = finished_race(["red", "blue"], cars, {P1: [], P2: [], P3: [], P4: []})
    ranks = {row["seat"]: row["rank"] for row in game.view(state, None)["results"]["final_table"]}
    assert ranks[P2] == 1 and ranks[P1] == 2


def test_each_phone_shows_its_own_score_sheet_and_the_display_the_final_table():
    cars = owners(red=(P1, 1), blue=(P2, 1))
    state = finished_race(["red", "blue"], cars, {P1: [], P2: [], P3: [], P4: []})
    sheet = game.view(state, P2)["score_sheet"]
    assert set(sheet) >= {"placement", "bets", "auction", "total"}
    display = game.view(state, None)
    assert display["results"]["race_order"] == ["red", "blue"]
    assert [row["seat"] for row in display["results"]["final_table"]][:2] == [P1, P2]
    assert "score_sheet" not in display


# -- who may act -----------------------------------------------------------------------------


def test_bids_and_bets_come_only_from_the_player_s_own_seat():
    with pytest.raises(RuleError):
        play(at_auction("green"), (HOST, bid(3)))
    with pytest.raises(RuleError):
        play(table(betting=True, bet_round=1), (HOST, {"type": "bet", "car": "red"}))
    with pytest.raises(RuleError):
        play(table(), ("stranger", {"type": "open_bets"}))


def test_apply_leaves_the_state_it_was_given_untouched():
    state = at_auction("green")
    before = copy.deepcopy(state)
    play(state, (P1, bid(3)))
    assert state == before


def test_a_stale_bid_for_a_car_already_sold_is_refused():
    state = play(at_auction("green", lots=lots(("red", "daring"))), (P1, bid(3)), (P2, PASS), (P3, PASS), (P4, PASS))
    with pytest.raises(RuleError):
        play(state, (P2, {**bid(5), "car": "green"}))


# -- secrets ---------------------------------------------------------------------------------


def secrets_in(value) -> list:
    """Every bid-like or bet-like thing a view holds: dicts with amounts, stripes, wild marks or passes."""
    found = []
    if isinstance(value, dict):
        if {"amount", "stripes", "wild", "pass"} & set(value):
            found.append(value)
        for key, item in value.items():
            if key in ("my_bets", "bets") and item:
                found.append({key: item})
            found += secrets_in(item)
    elif isinstance(value, list):
        for item in value:
            found += secrets_in(item)
    return found


def test_before_the_reveal_nobody_but_the_bidder_sees_a_bid_not_even_the_display():
    before = at_auction("green")
    state = play(before, (P1, bid(5, stripes=3, wild=True)))
    state = play(state, (P2, PASS), (P3, bid(2, stripes=2)))
    for seat in (None, P2, P3, P4):
        view = game.view(state, seat)
        mine = [view.pop("my_bid", None)]
        assert secrets_in(view) == [], seat
        assert mine in ([None], [{"pass": True}], [{"pass": False, "amount": 2, "stripes": 2, "wild": False}])
    assert game.view(state, P1)["my_bid"] == {"pass": False, "amount": 5, "stripes": 3, "wild": True}
    lines = game.describe(before, play(before, (P1, bid(5, stripes=3, wild=True))), P1, bid(5, stripes=3, wild=True))
    for seat in (P2, P3, P4):
        seen = [line for line in lines if line["seats"] is None or seat in line["seats"]]
        assert seen and all(set(line["args"]) <= {"seat"} for line in seen)
    assert any(line["seats"] == [P1] and line["args"]["amount"] == 5 for line in lines)


def test_at_the_reveal_every_bid_is_shown_at_once():
    before = play(at_auction("green"), (P1, bid(5, 3, True)), (P2, PASS), (P3, bid(2, 2)))
    after = play(before, (P4, bid(1)))
    public = [line for line in game.describe(before, after, P4, bid(1)) if line["seats"] is None]
    amounts = {line["args"]["seat"]: line["args"]["amount"] for line in public if "amount" in line["args"]}
    assert amounts[P1] == 5 and amounts[P3] == 2 and amounts[P4] == 1
    assert game.view(after, None)["banner"]["args"]["seat"] == P1


def test_no_bet_of_another_seat_is_seen_before_the_race_ends():
    before = table(cars=owners(red=(P1, 1)), betting=True, bet_round=1)
    state = play(before, (P1, {"type": "bet", "car": "orange"}), (P2, {"type": "bet", "car": "orange"}))
    for seat in (None, P3, P4):
        view = game.view(state, seat)
        assert secrets_in(view) == [], seat
    assert game.view(state, P1)["my_bets"] == ["orange"]
    assert game.view(state, None)["betting"]["bets_in"] == [P1, P2]
    lines = game.describe(
        before, play(before, (P1, {"type": "bet", "car": "orange"})), P1, {"type": "bet", "car": "orange"}
    )
    for seat in (P2, P3, P4):
        seen = [line for line in lines if line["seats"] is None or seat in line["seats"]]
        assert "orange" not in json.dumps(seen)
    state = play(state, (P3, {"type": "bet", "car": "red"}), (P4, {"type": "bet", "car": "red"}))
    assert game.view(state, P4)["bets"] is None and game.view(state, P4)["my_bets"] == ["red"]
    ended = play(state, (HOST, {"type": "end_race"}))
    assert game.view(ended, P4)["bets"][P1] == ["orange"]


# -- undo ------------------------------------------------------------------------------------


def test_undoing_a_reveal_keeps_the_bids_face_up_for_everyone():
    before = play(at_auction("green"), (P1, bid(5)), (P2, PASS), (P3, bid(2)))
    undone = play(before, (P4, bid(1)))
    state = game.undo(before, undone, bid(1))
    assert state["auction"]["car"] == "green" and state["cars"] == {}
    assert game.view(state, P4)["auction"]["bids"][P1]["amount"] == 5


def test_undoing_a_sealed_bid_keeps_the_others_sealed():
    before = play(at_auction("green"), (P1, bid(5)))
    state = game.undo(before, play(before, (P2, bid(2))), bid(2))
    assert "bids" not in game.view(state, P2)["auction"]


def test_undoing_the_end_of_the_race_keeps_the_revealed_bets_public():
    before = table(bets={P1: ["red"], P2: ["blue"], P3: ["red"], P4: ["red"]}, bet_round=1)
    undone = play(before, (HOST, {"type": "end_race"}))
    state = game.undo(before, undone, {"type": "end_race"})
    assert state["phase"] == "race" and game.view(state, P3)["bets"][P2] == ["blue"]


# -- variants --------------------------------------------------------------------------------


def test_beginner_game_deals_the_cars_evenly_with_no_auction_powers_or_bets():
    state = game.setup({"players": 4, "variant": "beginner"}, RNG)
    assert state["phase"] == "race" and state["sales"] == []
    owned = {car: sale["owner"] for car, sale in state["cars"].items()}
    assert owned == {"black": P1, "blue": P2, "green": P3, "yellow": P4, "orange": None, "red": None}
    assert game.view(state, None)["hand_size"] == 3
    with pytest.raises(RuleError):
        play(state, (HOST, {"type": "open_bets"}))


def test_beginner_game_is_won_by_the_owner_of_the_first_controlled_car_home():
    state = game.setup({"players": 3, "variant": "beginner"}, RNG)
    state = play(state, (HOST, {"type": "finish", "car": "blue"}))
    assert state["phase"] == "finished"
    assert game.outcome(state)["winners"] == [P2]
    four = play(game.setup({"players": 4, "variant": "beginner"}, RNG), (HOST, {"type": "finish", "car": "red"}))
    assert four["phase"] == "race"


def test_beginner_game_with_entered_decks_needs_only_the_speed8_cards():
    state = game.setup({"players": 2, "variant": "beginner", "deck_order": "entered"}, RNG)
    for car in ("red", "green", "blue", "black", "orange"):
        state = play(state, (HOST, {"type": "enter_speed8", "car": car}))
    assert state["phase"] == "race"
    assert [car for car, sale in state["cars"].items() if sale["owner"] == P1] == ["red", "blue", "orange"]


def test_two_player_game_deals_21_cards_and_keeps_speed8_cards_on_the_table():
    state = game.setup({"players": 2}, RNG)
    view = game.view(state, P1)
    assert view["hand_size"] == 21 and view["two_player"]
    assert view["reminders"][0]["args"] == {"hand": 7}
    assert state["auction"]["eligible"] == [P1, P2]


def test_two_player_auction_needs_both_players_to_get_a_car():
    state = play(at_auction("orange", players=2, lots=lots(("red", "daring"))), (P1, bid(2)), (P2, PASS))
    assert state["auction"]["forced"] == P2


def test_endurance_race_ranks_every_car_by_distance_and_still_holds_bets():
    state = table(variant="endurance", cars=owners(red=(P1, 2)))
    state = play(state, (HOST, {"type": "open_bets"}))
    state = play(state, *[(seat, {"type": "bet", "car": "red"}) for seat in (P1, P2, P3, P4)])
    with pytest.raises(RuleError):
        play(state, (HOST, {"type": "end_race"}))
    state = play(
        state, *[(HOST, {"type": "finish", "car": car}) for car in ("red", "blue", "black", "green", "yellow")]
    )
    assert state["phase"] == "finished" and state["finish"][-1] == "orange"
    assert game.view(state, P1)["score_sheet"]["total"] == 12 + 9 - 2
    assert "inside lane" in game.view(state, None)["reminders"][0]["msg"]


def test_world_championship_runs_two_races_on_both_board_sides_and_sums_the_money():
    assert game.setup({"players": 2, "variant": "world-championship", "board": "bay"}, RNG)["board"] == "bay"
    first = table(players=2, variant="world-championship", board="bay", cars=owners(red=(P1, 1), blue=(P2, 1)))
    state = play(first, (HOST, {"type": "finish", "car": "red"}), (HOST, {"type": "end_race"}))
    assert state["phase"] == "between" and game.outcome(state) is None
    state = play(state, (P2, {"type": "next_race"}))
    assert state["board"] == "river" and state["race_no"] == 2 and state["phase"] == "auction"
    state = {**state, "phase": "race", "auction": None, "lots": [], "cars": owners(red=(P2, 1), blue=(P1, 1))}
    state = play(state, (HOST, {"type": "finish", "car": "red"}), (HOST, {"type": "end_race"}))
    rows = {row["seat"]: row for row in game.view(state, None)["results"]["final_table"]}
    assert rows[P1]["races"] == [11, -1] and rows[P2]["races"] == [-1, 11]
    # 10 each: the tie goes to the better placed car of the second race.
    assert game.outcome(state)["winners"] == [P2]
    assert len(game.view(state, P1)["score_sheets"]) == 2


# -- history and translations ----------------------------------------------------------------


def test_every_history_line_names_a_message_and_its_seats():
    before = at_auction("green")
    after = play(before, (P1, bid(2)))
    for line in game.describe(before, after, P1, bid(2)):
        assert set(line) == {"msg", "args", "seats"}


def test_czech_and_dutch_catalogues_are_complete():
    from companion.catalogs import missing

    assert [problem for problem in missing() if "/downforce/" in problem] == []


def test_a_whole_four_player_game_plays_through_on_the_phones():
    from companion.rng import Rng

    state, seq = game.setup({"players": 4, "board": "bay"}, Rng("table", 0)), 0

    def act(actor, action):
        nonlocal state, seq
        seq += 1
        after = game.apply(state, actor, action, Rng("table", seq))
        json.dumps(game.describe(state, after, actor, action))
        state = after

    while state["phase"] == "auction":
        auction = state["auction"]
        if auction["forced"]:
            act(auction["forced"], {"type": "forced_bid", "from": "colour", "amount": 2})
            continue
        for number, seat in enumerate(auction["eligible"]):
            act(seat, bid(1 + (number + len(state["sales"])) % 6, stripes=1 + number))
    for seat, powers in state["won_powers"].items():
        if seat not in state["powers"]:
            act(seat, {"type": "keep_power", "power": powers[-1]})
    for _ in range(3):
        act(HOST, {"type": "open_bets"})
        for seat in state["players"]:
            act(seat, {"type": "bet", "car": "green"})
    for car in ("green", "red", "blue", "black", "yellow", "orange"):
        act(P1, {"type": "finish", "car": car})
    assert state["phase"] == "finished"
    assert len(state["cars"]) == 6
    assert game.outcome(state)["winners"]
    for seat in (None, P1, P2, P3, P4):
        json.dumps(game.view(state, seat))


def random_race_to_the_end(state: dict, chooser: random.Random, act) -> None:
    """Random sealed bids (or passes), kept powers, betting rounds and finishes, until the race is over."""
    while state()["phase"] in ("auction", "powers", "race"):
        now = state()
        if now["phase"] == "auction" and now["auction"]["forced"]:
            act(now["auction"]["forced"], type="forced_bid", **{"from": "none"})
        elif now["phase"] == "auction":
            seat = next(seat for seat in now["auction"]["eligible"] if seat not in now["auction"]["bids"])
            bid = {"pass": True} if chooser.random() < 0.4 else {"amount": chooser.randint(1, 6), "stripes": 1}
            act(seat, type="bid", **bid)
        elif now["phase"] == "powers":
            seat = next(seat for seat in now["won_powers"] if seat not in now["powers"])
            act(seat, type="keep_power", power=chooser.choice(now["won_powers"][seat]))
        elif now["bet_round"] < 3 and chooser.random() < 0.3:
            act(HOST, type="open_bets")
            for seat in now["players"]:
                act(seat, type="bet", car=chooser.choice(CARS))
        else:
            act(HOST, type="finish", car=chooser.choice([car for car in CARS if car not in now["finish"]]))


@pytest.mark.parametrize("seed", range(12))
def test_the_start_player_is_who_began_the_first_race_of_the_play(seed):
    """BG Stats' start player began the play: the one the history named when the first race started (DF-13), also
    through a world championship's second race, at random tables of two to six."""
    chooser = random.Random(seed)
    options = {"players": chooser.randint(2, 6), "variant": chooser.choice(["standard", "world-championship"])}
    options["car_for_everyone"] = chooser.random() < 0.5
    state = game.setup(options, Rng(str(seed), 0))
    lines, seqs = [], itertools.count(1)

    def act(actor: str, **action) -> None:
        nonlocal state
        before, state = state, game.apply(state, actor, action, Rng(str(seed), next(seqs)))
        lines.extend(game.describe(before, state, actor, action))

    random_race_to_the_end(lambda: state, chooser, act)
    if state["phase"] == "between":
        act(HOST, type="next_race")
        random_race_to_the_end(lambda: state, chooser, act)
    starts = [line["args"]["seat"] for line in lines if line["msg"] == "The race starts. %(seat)s plays first."]
    assert len(starts) == (2 if options["variant"] == "world-championship" else 1)
    assert game.outcome(state)["start_player"] == starts[0]
