"""Scotland Yard rules: one test per numbered rule of shared/rules/scotland-yard.md (SY-n), and scenarios."""

import copy
import json
from pathlib import Path

import pytest

from companion.games.base import HOST, RuleError
from companion.games.scotland_yard import game
from companion.games.scotland_yard.board import BOARD
from companion.games.scotland_yard.figures import DETECTIVE_TICKETS, MISTER_X, REVEAL_MOVES
from companion.games.scotland_yard.notebook import possible_stations
from companion.rng import Rng

SHARED_BOARD = Path(__file__).resolve().parents[3] / "shared" / "data" / "scotland-yard" / "board.json"
OUR_BOARD = Path(__file__).resolve().parents[2] / "companion" / "games" / "scotland_yard" / "board.json"


def table(
    mister_x,
    detectives,
    bobbies=(),
    *,
    round=1,
    phase=MISTER_X,
    log=(),
    black=5,
    double=2,
    boards=None,
    moved=(),
    **options,
):
    """A compact literal state: stations of Mister X, the detectives and the bobbies."""
    figures = {}
    for n, station in enumerate(detectives, 1):
        figures[f"detective-{n}"] = {
            "kind": "detective",
            "seat": f"detective-{n}",
            "board": f"detective-{n}",
            "station": station,
        }
    for n, station in enumerate(bobbies, 1):
        figures[f"bobby-{n}"] = {"kind": "bobby", "seat": None, "board": None, "station": station}
    return {
        "options": {"detectives": len(detectives), "notebook": True, "bobbies_keep_hunt_alive": False, **options},
        "round": round,
        "phase": phase,
        "double_move": False,
        "mister_x": {"start": mister_x, "station": mister_x, "black": black, "double": double},
        "travel_log": [
            {"round": n, "ticket": ticket, "station": station, "double": False, "blocked": []}
            for n, (ticket, station) in enumerate(log, 1)
        ],
        "figures": figures,
        "boards": boards or {f"detective-{n}": dict(DETECTIVE_TICKETS) for n in range(1, len(detectives) + 1)},
        "moved": list(moved),
        "skips": [],
        "known_reveals": [],
        "end": None,
        "end_undone": False,
    }


def act(state, actor, to, ticket, piece=None, kind="move"):
    action = {"type": kind, "to": to, "ticket": ticket}
    if piece:
        action["piece"] = piece
    return game.apply(state, actor, action, Rng("test", 1))


def english(message):
    """A Msg as the English screen shows it."""
    args = {name: english(value) if isinstance(value, dict) else value for name, value in message["args"].items()}
    return message["msg"] % args


def refusal(state, actor, to, ticket, piece=None, kind="move"):
    with pytest.raises(RuleError) as error:
        act(state, actor, to, ticket, piece, kind)
    return english(error.value.message)


def public_lines(before, after, actor, action):
    return [line for line in game.describe(before, after, actor, action) if line["seats"] is None]


# -- setup: SY-1 to SY-6 ------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_the_table_has_one_mister_x_and_one_to_five_detective_players(players):
    seats = [seat.id for seat in game.seats({"detectives": players})]
    assert seats == [MISTER_X] + [f"detective-{n}" for n in range(1, players + 1)]


@pytest.mark.parametrize("players", [0, 6])
def test_a_table_with_no_or_six_detective_players_is_refused(players):
    with pytest.raises(RuleError, match="1 to 5 detective players"):
        game.setup({"detectives": players}, Rng("t", 0))


@pytest.mark.parametrize(("players", "bobbies"), [(2, 2), (3, 1), (4, 0), (5, 0)])
def test_bobbies_join_by_the_number_of_detective_players(players, bobbies):
    state = game.setup({"detectives": players}, Rng("t", 0))
    kinds = [spot["kind"] for spot in state["figures"].values()]
    assert kinds.count("detective") == players
    assert kinds.count("bobby") == bobbies


def test_each_detective_starts_with_11_taxi_8_bus_and_4_underground_tickets():
    state = game.setup({"detectives": 4}, Rng("t", 0))
    assert all(board == {"taxi": 11, "bus": 8, "underground": 4} for board in state["boards"].values())
    assert len(state["boards"]) == 4


def test_mister_x_starts_with_5_black_and_2_double_move_tickets_and_rides_normal_tickets_free():
    state = game.setup({"detectives": 3}, Rng("t", 0))
    assert state["mister_x"]["black"] == 5 and state["mister_x"]["double"] == 2
    moved = act(table(45, [13, 94]), MISTER_X, 46, "taxi")
    assert moved["mister_x"]["black"] == 5 and moved["mister_x"]["double"] == 2


def test_bobbies_ride_free_and_any_detective_may_move_them():
    state = table(46, [13, 94], [1, 2], phase="detectives")
    after = act(state, "detective-2", 8, "taxi", piece="bobby-1")
    assert after["figures"]["bobby-1"]["station"] == 8
    assert after["boards"] == state["boards"]
    after = act(after, "detective-1", 10, "taxi", piece="bobby-2")
    assert after["figures"]["bobby-2"]["station"] == 10


def test_start_cards_put_detectives_and_bobbies_on_d_cards_and_mister_x_on_a_secret_x_card():
    state = game.setup({"detectives": 2}, Rng("start", 0))
    stations = [spot["station"] for spot in state["figures"].values()]
    assert len(set(stations)) == 4
    assert set(stations) <= set(BOARD.start_cards["detective"])
    assert state["mister_x"]["station"] in BOARD.start_cards["mister_x"]
    assert game.view(state, MISTER_X)["station"] == state["mister_x"]["station"]
    for seat in (None, "detective-1", "detective-2"):
        view = game.view(state, seat)
        assert "station" not in view and view["mister_x_station"] is None


# -- rounds and movement: SY-7 to SY-14 ---------------------------------------------------------


def test_mister_x_moves_first_then_detectives_and_bobbies_in_any_order():
    state = table(45, [13, 94], [1])
    assert "Mister X moves first" in refusal(state, "detective-1", 14, "taxi")
    state = act(state, MISTER_X, 46, "taxi")
    assert state["phase"] == "detectives"
    assert "detectives are moving" in refusal(state, MISTER_X, 45, "taxi")
    state = act(state, "detective-1", 8, "taxi", piece="bobby-1")
    state = act(state, "detective-2", 75, "taxi")
    assert state["round"] == 1 and game.view(state, None)["to_move"] == ["detective-1"]
    state = act(state, "detective-1", 14, "taxi")
    assert state["round"] == 2 and state["phase"] == MISTER_X


def test_every_figure_must_leave_its_station_each_round():
    assert "has to leave its station" in refusal(table(45, [13, 94]), MISTER_X, 45, "taxi")
    assert "has to leave its station" in refusal(table(45, [13, 94], phase="detectives"), "detective-1", 13, "taxi")


def test_a_detective_move_uses_up_one_ticket_of_that_transport():
    state = act(table(45, [13, 94], phase="detectives"), "detective-1", 46, "underground")
    assert state["boards"]["detective-1"] == {"taxi": 11, "bus": 8, "underground": 3}


def test_a_detective_without_tickets_of_a_type_cannot_ride_it():
    boards = {"detective-1": {"taxi": 5, "bus": 0, "underground": 2}, "detective-2": dict(DETECTIVE_TICKETS)}
    state = table(45, [13, 94], phase="detectives", boards=boards)
    assert "no tickets of this kind left (bus)" in refusal(state, "detective-1", 14, "bus")


def test_a_detective_with_no_tickets_left_is_skipped_with_a_reason():
    boards = {"detective-1": dict(DETECTIVE_TICKETS), "detective-2": {"taxi": 0, "bus": 0, "underground": 0}}
    before = table(45, [13, 94])
    before["boards"] = boards
    after = act(before, MISTER_X, 46, "taxi")
    assert game.view(after, None)["to_move"] == ["detective-1"]
    lines = public_lines(before, after, MISTER_X, {"type": "move", "to": 46, "ticket": "taxi"})
    assert {
        "msg": "%(figure)s sits out round %(round)s: no tickets left.",
        "args": {"figure": {"msg": "Detective %(number)s", "args": {"number": 2}}, "round": 1, "station": 94},
        "seats": None,
    } in lines


def test_a_detective_whose_tickets_fit_no_line_from_its_station_is_skipped():
    boards = {"detective-1": {"taxi": 0, "bus": 3, "underground": 0}, "detective-2": dict(DETECTIVE_TICKETS)}
    state = act(table(45, [2, 94], boards=boards), MISTER_X, 46, "taxi")
    assert state["skips"] == [{"round": 1, "figure": "detective-1", "reason": "no_ticket_fits", "station": 2}]


def test_a_hemmed_in_detective_sits_out_only_this_round():
    # Detective 1 on station 2 (taxi to 10 and 20 only), both taken by bobbies that have moved.
    state = table(45, [2, 94], [10, 20], phase="detectives", moved=["bobby-1", "bobby-2"])
    state = act(state, "detective-2", 75, "taxi")
    assert state["skips"][0]["figure"] == "detective-1" and state["skips"][0]["reason"] == "blocked"
    assert state["round"] == 2
    state = act(state, MISTER_X, 46, "taxi")
    assert "detective-1" in game.view(state, None)["to_move"]
    state = act(state, "detective-2", 11, "taxi", piece="bobby-1")
    state = act(state, "detective-1", 10, "taxi")
    assert state["figures"]["detective-1"]["station"] == 10


def test_detective_ticket_boards_are_public_to_every_seat():
    state = act(table(45, [13, 94], phase="detectives"), "detective-1", 14, "bus")
    for seat in (None, MISTER_X, "detective-1", "detective-2"):
        assert game.view(state, seat)["boards"]["detective-1"] == {"taxi": 11, "bus": 7, "underground": 4}


def test_a_figure_may_ride_back_along_the_route_it_just_used():
    state = act(table(45, [13, 94]), MISTER_X, 46, "taxi")
    state = act(state, "detective-1", 14, "taxi")
    state = act(state, "detective-2", 75, "taxi")
    state = act(state, MISTER_X, 45, "taxi")
    state = act(state, "detective-1", 13, "taxi")
    assert state["mister_x"]["station"] == 45 and state["figures"]["detective-1"]["station"] == 13


def test_no_figure_may_move_onto_an_occupied_station():
    state = table(45, [13, 94], [14], phase="detectives")
    assert "Station 14 is taken by Bobby 1" in refusal(state, "detective-1", 14, "taxi")
    assert "Station 46 is taken by Detective 1" in refusal(table(45, [46, 94]), MISTER_X, 46, "taxi")


# -- Mister X's secret moves: SY-15 to SY-21 ---------------------------------------------------


def test_each_mister_x_move_is_one_log_entry_with_a_public_ticket_and_a_secret_station():
    before = table(45, [13, 94])
    after = act(before, MISTER_X, 46, "taxi")
    assert game.view(after, MISTER_X)["travel_log"][0] == {
        "move": 1,
        "round": 1,
        "ticket": "taxi",
        "double": False,
        "reveal": False,
        "station": 46,
    }
    assert game.view(after, None)["travel_log"][0]["station"] is None
    lines = game.describe(before, after, MISTER_X, {"type": "move", "to": 46, "ticket": "taxi"})
    assert lines[0] == {"msg": "Mister X took a taxi (move %(move)s).", "args": {"move": 1}, "seats": None}
    assert lines[1]["seats"] == [MISTER_X] and lines[1]["args"]["station"] == 46


def test_mister_x_shows_himself_after_moves_3_8_13_18_and_24():
    before = table(60, [13, 94], round=3, log=[("taxi", 61), ("taxi", 60)])
    after = act(before, MISTER_X, 45, "taxi")
    display = game.view(after, None)
    assert display["travel_log"][2]["station"] == 45 and display["travel_log"][2]["reveal"]
    assert display["banner"] == {"msg": "Mister X shows himself at station %(station)s!", "args": {"station": 45}}
    assert after["known_reveals"] == [{"move": 3, "station": 45}]
    lines = public_lines(before, after, MISTER_X, {"type": "move", "to": 45, "ticket": "taxi"})
    assert lines[-1]["args"] == {"station": 45, "move": 3}
    # He disappears with his next move.
    after = act(act(after, "detective-1", 14, "taxi"), "detective-2", 75, "taxi")
    after = act(after, MISTER_X, 46, "taxi")
    assert game.view(after, None)["banner"] is None
    assert game.view(after, None)["travel_log"][3]["station"] is None


def test_a_double_move_makes_two_log_entries_in_one_round_and_uses_up_its_ticket():
    state = act(table(45, [13, 94]), MISTER_X, 46, "taxi", kind="double_move")
    assert state["phase"] == MISTER_X and state["mister_x"]["double"] == 1
    state = act(state, MISTER_X, 79, "underground")
    assert state["phase"] == "detectives"
    assert [(e["round"], e["ticket"], e["double"]) for e in state["travel_log"]] == [
        (1, "taxi", True),
        (1, "underground", True),
    ]


def test_the_hosts_undo_of_a_mis_tapped_second_step_gives_mister_x_the_second_step_again():
    """On his phone the second step is one tap, with no confirm: a wrong station is taken back by the host's undo,
    the double move still under way and its ticket still spent, not by a new move."""
    first = act(table(45, [13, 94]), MISTER_X, 46, "taxi", kind="double_move")
    wrong = act(first, MISTER_X, 79, "underground")
    restored = game.undo(first, wrong, {"type": "move", "to": 79, "ticket": "underground"})
    view = game.view(restored, MISTER_X)
    assert view["double_move_in_progress"] and view["your_turn"] and view["station"] == 46
    assert restored["mister_x"]["double"] == 1 and len(restored["travel_log"]) == 1
    assert {"to": 47, "warning": False} in view["legal_moves"]["taxi"]
    assert act(restored, MISTER_X, 47, "taxi")["phase"] == "detectives"


def test_mister_x_has_only_two_double_moves_in_a_game():
    state = table(45, [13, 94], double=0)
    assert "no double-move tickets left" in refusal(state, MISTER_X, 46, "taxi", kind="double_move")
    assert game.view(state, MISTER_X)["can_double_move"] is False


def test_mister_x_may_play_only_one_double_move_per_round():
    state = act(table(45, [13, 94]), MISTER_X, 46, "taxi", kind="double_move")
    assert "Only one double move per round" in refusal(state, MISTER_X, 47, "taxi", kind="double_move")
    assert game.view(state, MISTER_X)["double_move_moves"] == {}


def test_a_double_move_across_a_reveal_shows_only_the_first_station():
    state = table(60, [13, 94], round=3, log=[("taxi", 61), ("taxi", 60)])
    state = act(state, MISTER_X, 45, "taxi", kind="double_move")
    assert game.view(state, "detective-1")["banner"]["args"] == {"station": 45}
    state = act(state, MISTER_X, 46, "taxi")
    display = game.view(state, None)
    assert [e["station"] for e in display["travel_log"]] == [None, None, 45, None]
    assert display["banner"] is None
    assert state["mister_x"]["station"] == 46


def test_neither_step_of_a_double_move_may_enter_a_detectives_station():
    state = table(45, [46, 94])
    assert "taken by Detective 1" in refusal(state, MISTER_X, 46, "taxi", kind="double_move")
    state = act(state, MISTER_X, 32, "taxi", kind="double_move")
    state["figures"]["detective-2"]["station"] = 33
    assert "taken by Detective 2" in refusal(state, MISTER_X, 33, "taxi")


def test_a_double_move_may_not_lead_into_a_dead_end():
    # With his last black ticket to 194, only the ferry leads back; the taxi stations 192, 193, 195 are taken.
    state = table(157, [192, 193], [195], black=1)
    assert "no second step" in refusal(state, MISTER_X, 194, "black", kind="double_move")
    assert 194 not in [m["to"] for m in game.view(state, MISTER_X)["double_move_moves"]["black"]]
    assert 194 in [m["to"] for m in game.view(state, MISTER_X)["legal_moves"]["black"]]


def test_mister_x_cannot_take_the_ferry_without_a_black_ticket():
    assert "Only a black ticket rides the ferry" in refusal(table(157, [13, 94]), MISTER_X, 115, "taxi")
    assert "no black tickets left" in refusal(table(157, [13, 94], black=0), MISTER_X, 115, "black")


def test_a_black_ticket_rides_the_ferry_and_shows_no_transport():
    before = table(157, [13, 94])
    after = act(before, MISTER_X, 115, "black")
    assert after["mister_x"]["black"] == 4
    entry = game.view(after, "detective-1")["travel_log"][0]
    assert entry["ticket"] == "black" and entry["station"] is None
    lines = public_lines(before, after, MISTER_X, {"type": "move", "to": 115, "ticket": "black"})
    assert lines[0]["msg"] == "Mister X used a black ticket (move %(move)s)."


def test_a_black_ticket_rides_any_transport_and_counts_down_to_zero():
    state = table(45, [13, 94], black=1)
    assert "black" in game.view(state, MISTER_X)["legal_moves"]
    state = act(state, MISTER_X, 46, "black")
    assert state["mister_x"]["black"] == 0
    state = act(act(state, "detective-1", 14, "taxi"), "detective-2", 75, "taxi")
    assert "black" not in game.view(state, MISTER_X)["legal_moves"]


def test_black_tickets_may_be_used_inside_a_double_move():
    state = act(table(157, [13, 94]), MISTER_X, 115, "black", kind="double_move")
    state = act(state, MISTER_X, 108, "black")
    assert state["mister_x"] == {"start": 157, "station": 108, "black": 3, "double": 1}


def test_detectives_have_no_black_tickets_and_cannot_take_the_ferry():
    state = table(45, [157, 94], phase="detectives")
    assert "Only Mister X has black tickets" in refusal(state, "detective-1", 115, "black")
    assert "Only Mister X can take the ferry" in refusal(state, "detective-1", 115, "taxi")


def test_a_move_along_no_line_is_refused_with_a_clear_message():
    message = refusal(table(45, [13, 94]), MISTER_X, 1, "bus")
    assert "No " in message and "line links station 45 with station 1" in message
    assert "between 1 and 199" in refusal(table(45, [13, 94]), MISTER_X, 200, "taxi")
    assert "Choose a ticket" in refusal(table(45, [13, 94]), MISTER_X, 46, "boat")


# -- the end: SY-22 to SY-25 ------------------------------------------------------------------


def test_a_detective_entering_mister_xs_station_catches_him_at_once():
    before = act(table(45, [33, 94], [1]), MISTER_X, 46, "taxi")
    after = act(before, "detective-1", 46, "taxi")
    assert game.outcome(after) | {"roles": None} == {
        "winners": ["detective-1", "detective-2"],
        "summary": {
            "msg": "%(figure)s caught Mister X at station %(station)s!",
            "args": {"figure": {"msg": "Detective %(number)s", "args": {"number": 1}}, "station": 46},
        },
        "start_player": MISTER_X,
        "roles": None,
    }
    lines = public_lines(before, after, "detective-1", {"type": "move", "to": 46, "ticket": "taxi"})
    assert lines[-1]["msg"] == "%(figure)s caught Mister X at station %(station)s!"
    assert "game is over" in refusal(after, "detective-2", 75, "taxi")


def test_a_bobby_entering_mister_xs_station_catches_him_too():
    state = act(table(45, [13, 94], [1]), MISTER_X, 46, "taxi")
    state = act(state, "detective-2", 46, "bus", piece="bobby-1")
    assert game.outcome(state)["summary"]["args"]["figure"]["msg"] == "Bobby %(number)s"


def test_mister_x_loses_when_he_cannot_move_to_any_free_station():
    # Mister X ends on station 2, whose only links (taxi to 10 and 20) the detectives then take.
    state = table(2, [11, 33], round=5, phase="detectives", log=[("taxi", 2)] * 5)
    state = act(state, "detective-1", 10, "taxi")
    assert game.outcome(state) is None
    state = act(state, "detective-2", 20, "taxi")
    assert game.outcome(state)["winners"] == ["detective-1", "detective-2"]
    assert game.outcome(state)["summary"]["msg"] == "Mister X is cornered at station %(station)s: the detectives win!"


def test_mister_x_wins_after_round_22_once_the_detectives_have_moved():
    state = table(45, [13, 94], round=22, phase="detectives", log=[("taxi", 45)] * 22)
    state = act(state, "detective-1", 14, "taxi")
    assert game.outcome(state) is None
    state = act(state, "detective-2", 75, "taxi")
    assert game.outcome(state)["winners"] == [MISTER_X]


def test_mister_x_wins_when_no_detective_can_move_any_more():
    empty = {"taxi": 0, "bus": 0, "underground": 0}
    state = table(45, [13, 94], [1], boards={"detective-1": dict(empty), "detective-2": dict(empty)})
    state = act(state, MISTER_X, 46, "taxi")
    assert game.outcome(state)["winners"] == [MISTER_X]
    assert game.outcome(state)["summary"]["msg"].startswith("No detective can move any more")


def test_bobbies_keep_the_hunt_alive_when_the_table_says_so():
    empty = {"taxi": 0, "bus": 0, "underground": 0}
    state = table(
        45, [13, 94], [1], boards={"detective-1": dict(empty), "detective-2": dict(empty)}, bobbies_keep_hunt_alive=True
    )
    state = act(state, MISTER_X, 46, "taxi")
    assert game.outcome(state) is None and game.view(state, None)["to_move"] == ["bobby-1"]


# -- the two-player game (V1) ------------------------------------------------------------------------


def test_the_lone_detective_runs_two_detectives_with_pooled_tickets_and_two_bobbies():
    state = game.setup({"detectives": 1}, Rng("two", 0))
    assert list(state["figures"]) == ["detective-1", "detective-2", "bobby-1", "bobby-2"]
    assert state["boards"] == {"detective-1": {"taxi": 22, "bus": 16, "underground": 8}}
    assert [seat.id for seat in game.seats({"detectives": 1})] == [MISTER_X, "detective-1"]
    view = game.view(state, "detective-1")
    assert view["my_figures"] == ["detective-1", "detective-2", "bobby-1", "bobby-2"]
    assert view["tickets"] == {"taxi": 22, "bus": 16, "underground": 8} and view["pooled_tickets"]


def test_both_detectives_of_the_two_player_game_spend_the_same_pool():
    state = game.setup({"detectives": 1}, Rng("two", 0))
    state = act(state, MISTER_X, game.view(state, MISTER_X)["legal_moves"]["taxi"][0]["to"], "taxi")
    for figure in ("detective-1", "detective-2"):
        ride, stations = next(iter(game.view(state, "detective-1")["legal_moves"][figure].items()))
        state = act(state, "detective-1", stations[0], ride, piece=figure)
    assert sum(state["boards"]["detective-1"].values()) == 44


# -- seats, the host and the history -----------------------------------------------------------------


def test_a_detective_may_move_only_its_own_detective_and_the_bobbies():
    state = table(45, [13, 94], [1], phase="detectives")
    assert "only your own detective" in refusal(state, "detective-1", 74, "taxi", piece="detective-2")
    assert "Mister X cannot move the detectives" in refusal(state, MISTER_X, 14, "taxi", piece="detective-1")
    assert "already moved" in refusal(act(state, "detective-1", 14, "taxi"), "detective-1", 13, "taxi")
    assert "no figure called" in refusal(state, "detective-1", 14, "taxi", piece="bobby-7")


def test_the_host_cannot_move_mister_x_but_may_stand_in_for_a_detective():
    assert "host cannot move Mister X" in refusal(table(45, [13, 94]), HOST, 46, "taxi", piece=MISTER_X)
    state = act(table(45, [13, 94], phase="detectives"), HOST, 75, "taxi", piece="detective-2")
    assert state["figures"]["detective-2"]["station"] == 75


def test_apply_does_not_change_the_state_it_is_given():
    state = table(45, [13, 94])
    frozen = copy.deepcopy(state)
    act(act(state, MISTER_X, 46, "taxi", kind="double_move"), MISTER_X, 47, "taxi")
    assert state == frozen


def test_the_hosts_undo_rolls_back_but_a_shown_reveal_stays_known():
    before = table(60, [13, 94], round=3, log=[("taxi", 61), ("taxi", 60)])
    after = act(before, MISTER_X, 45, "taxi")
    restored = game.undo(before, after, {"type": "move", "to": 45, "ticket": "taxi"})
    assert restored["mister_x"]["station"] == 60 and len(restored["travel_log"]) == 2
    for seat in (None, "detective-1", MISTER_X):
        assert game.view(restored, seat)["known_reveals"] == [{"move": 3, "station": 45, "undone": True}]
    redo = act(restored, MISTER_X, 45, "taxi")
    assert game.view(redo, None)["known_reveals"] == [{"move": 3, "station": 45, "undone": False}]


def test_undoing_the_end_of_the_game_hides_mister_x_again_as_a_labelled_house_rule():
    before = act(table(45, [33, 94]), MISTER_X, 46, "taxi")
    over = act(before, "detective-1", 46, "taxi")
    restored = game.undo(before, over, {"type": "move", "to": 46, "ticket": "taxi"})
    for seat in (None, "detective-1"):
        view = game.view(restored, seat)
        assert view["known_reveals"] == [] and view["mister_x_station"] is None  # SY-15: his log is secret
        assert [entry["station"] for entry in view["travel_log"]] == [None]
        assert view["end_undone"] is True
    assert act(restored, "detective-1", 32, "taxi")["end"] is None


def test_undoing_the_end_keeps_only_the_stations_mister_x_really_showed():
    shown = act(table(60, [46, 94], round=3, log=[("taxi", 61), ("taxi", 60)]), MISTER_X, 45, "taxi")
    over = act(shown, "detective-1", 45, "taxi")
    restored = game.undo(shown, over, {"type": "move", "to": 45, "ticket": "taxi"})  # SY-16
    view = game.view(restored, "detective-2")
    assert view["known_reveals"] == [{"move": 3, "station": 45, "undone": False}]
    assert [entry["station"] for entry in view["travel_log"]] == [None, None, 45]


def test_an_undone_capture_leaves_lines_that_tell_only_mister_x_where_he_was_caught():
    before = act(table(45, [33, 94]), MISTER_X, 46, "taxi")
    capture = {"type": "move", "to": 46, "ticket": "taxi"}
    over = act(before, "detective-1", 46, "taxi")
    restored = game.undo(before, over, capture)  # SY-22, undone by the house rule
    lines = game.describe_undone(before, over, restored, "detective-1", capture)
    assert [english(line) for line in lines if line["seats"] is None] == ["Detective 1 took a taxi."]
    assert [english(line) for line in lines if line["seats"] == [MISTER_X]] == [
        "Detective 1 caught Mister X at station 46!"
    ]


# -- Mister X's phone, the detectives' phones, the display ---------------------------------------------


def test_mister_xs_phone_lists_legal_destinations_per_ticket_and_warns_of_reachable_ones():
    view = game.view(table(45, [33, 94]), MISTER_X)
    assert view["your_turn"] is True
    assert view["legal_moves"]["taxi"] == [
        {"to": 32, "warning": True},
        {"to": 46, "warning": True},
        {"to": 58, "warning": False},
        {"to": 59, "warning": False},
        {"to": 60, "warning": False},
    ]
    assert set(view["legal_moves"]) == {"taxi", "black"}


def test_a_detectives_phone_lists_its_figures_and_their_legal_moves():
    state = act(table(45, [13, 94], [1]), MISTER_X, 46, "taxi")
    view = game.view(state, "detective-1")
    assert view["your_turn"] is True and view["my_figures"] == ["detective-1", "bobby-1"]
    assert view["legal_moves"]["detective-1"]["underground"] == [46, 67, 89]
    assert view["tickets"] == {"taxi": 11, "bus": 8, "underground": 4}
    assert "detective-2" not in view["legal_moves"]
    assert game.view(table(45, [13, 94]), "detective-1")["your_turn"] is False


def test_the_notebook_narrows_mister_x_down_from_his_last_reveal():
    # Round 3: Mister X (60) rides a taxi to 45, a reveal; detectives stand on 32 and 58.
    state = table(60, [32, 58], round=3, log=[("taxi", 61), ("taxi", 60)])
    state = act(state, MISTER_X, 45, "taxi")
    assert possible_stations(state) == [45]
    state = act(act(state, "detective-1", 44, "taxi"), "detective-2", 59, "taxi")
    # Move 4, by taxi from 45 (taxi to 32, 46, 58, 59, 60); 59 is taken.
    state = act(state, MISTER_X, 46, "taxi")
    assert possible_stations(state) == [32, 46, 58, 60]
    state = act(state, "detective-2", 58, "taxi")
    assert possible_stations(state) == [32, 46, 60]
    state = act(state, "detective-1", 32, "taxi")
    notebook = game.view(state, None)["notebook"]
    assert notebook["count"] == 2 and notebook["stations"] == [46, 60]
    assert notebook["map"]["possible"][0] == {"station": 46, "x": BOARD.positions[46][0], "y": BOARD.positions[46][1]}


def test_the_notebook_can_be_switched_off():
    assert game.view(table(45, [13, 94], notebook=False), None)["notebook"] is None
    assert game.setup({"detectives": 3, "notebook": False}, Rng("t", 0))["options"]["notebook"] is False


def test_the_display_shows_whose_move_it_is():
    assert game.view(table(45, [13, 94]), None)["whose_move"]["msg"] == "Round %(round)s: Mister X is moving."


# -- whole games ----------------------------------------------------------------------------------------


def mister_x_plays(state, double_rounds):
    """Mister X takes the first destination no detective can reach next round."""
    view = game.view(state, MISTER_X)
    kind, moves = "move", view["legal_moves"]
    if state["round"] in double_rounds and view["double_move_moves"]:
        kind, moves = "double_move", view["double_move_moves"]
    choices = [(t, m) for t in ("taxi", "bus", "underground", "black") for m in moves.get(t, [])]
    ticket, move = next(((t, m) for t, m in choices if not m["warning"]), choices[0])
    return MISTER_X, {"type": kind, "to": move["to"], "ticket": ticket}


def detectives_play(state):
    """The detectives (peeking, for the script) ride their most plentiful ticket and miss him."""
    figure = game.view(state, None)["to_move"][0]
    seat = state["figures"][figure]["seat"] or "detective-1"
    legal = game.view(state, seat)["legal_moves"][figure]
    board = state["boards"].get(state["figures"][figure]["board"] or "", {})
    rides = sorted(legal, key=lambda ride: -board.get(ride, 99))
    ride, to = next((r, to) for r in rides for to in legal[r] if to != state["mister_x"]["station"])
    return seat, {"type": "move", "piece": figure, "to": to, "ticket": ride}


def play_out(seed, players=3, double_rounds=(10, 20)):
    """Yield (before, actor, action, after) until the game ends."""
    state = game.setup({"detectives": players}, Rng(seed, 0))
    seq = 1
    while game.outcome(state) is None:
        actor, action = mister_x_plays(state, double_rounds) if state["phase"] == MISTER_X else detectives_play(state)
        after = game.apply(state, actor, action, Rng(seed, seq))
        yield state, actor, action, after
        state, seq = after, seq + 1


def test_a_scripted_full_game_of_22_rounds_is_won_by_mister_x():
    steps = list(play_out("0"))
    final = steps[-1][3]
    assert game.outcome(final)["winners"] == [MISTER_X]
    assert final["end"]["reason"] == "escaped" and final["round"] == 22
    assert len(final["travel_log"]) == 24
    assert [r["move"] for r in final["known_reveals"]] == list(REVEAL_MOVES)
    for seat in (None, MISTER_X, "detective-1", "detective-2", "detective-3"):
        view = game.view(final, seat)
        assert [e["station"] for e in view["travel_log"]] == [e["station"] for e in final["travel_log"]]
        assert view["mister_x_station"] == final["mister_x"]["station"]


def test_mister_xs_move_number_is_rounds_played_plus_double_moves_and_never_above_24():
    for _before, _actor, _action, after in play_out("0"):
        doubles_used = 2 - after["mister_x"]["double"]
        rounds_moved = after["round"] - (after["phase"] == MISTER_X and not after["double_move"])
        assert len(after["travel_log"]) == rounds_moved + doubles_used - after["double_move"]
        assert len(after["travel_log"]) <= 24


def test_reveals_fall_exactly_on_moves_3_8_13_18_and_24():
    for _before, _actor, _action, after in play_out("0"):
        public = game.view(after, "detective-1")["travel_log"]
        if game.outcome(after) is None:
            assert [e["move"] for e in public if e["station"] is not None] == [
                m for m in REVEAL_MOVES if m <= len(public)
            ]


def test_detective_ticket_totals_never_go_up_and_bobbies_never_change_them():
    for before, _actor, action, after in play_out("0"):
        for board, tickets in after["boards"].items():
            assert all(tickets[t] <= before["boards"][board][t] for t in tickets)
        if action.get("piece", "").startswith("bobby"):
            assert after["boards"] == before["boards"]


def test_a_scripted_game_ending_in_a_capture():
    state = table(36, [48, 94], [24], round=1)
    state = act(state, MISTER_X, 37, "taxi")  # 36 -> 37, hidden
    state = act(state, "detective-2", 93, "taxi")
    state = act(state, "detective-1", 35, "taxi")
    state = act(state, "detective-1", 37, "taxi", piece="bobby-1")
    assert state["end"]["reason"] == "captured" and state["end"]["figure"] == "bobby-1"
    assert game.view(state, "detective-2")["mister_x_station"] == 37


# -- secrets never leak ---------------------------------------------------------------------------------


def assert_no_secret(view, state):
    """Only revealed log entries carry a station; Mister X's own fields are absent."""
    assert "station" not in view and view["mister_x_station"] is None
    assert MISTER_X not in view.get("legal_moves", {}) and MISTER_X not in view.get("my_figures", [])
    for entry in view["travel_log"]:
        expected = state["travel_log"][entry["move"] - 1]["station"] if entry["move"] in REVEAL_MOVES else None
        assert entry["station"] == expected
    assert view["known_reveals"] == [{**r, "undone": False} for r in state["known_reveals"]]
    assert MISTER_X not in [figure["id"] for figure in view["figures"]]


@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_no_view_or_history_line_for_detectives_or_the_display_holds_mister_xs_hidden_station(players):
    seats = [None] + [f"detective-{n}" for n in range(1, players + 1)]
    for before, actor, action, after in play_out(f"leak-{players}", players):
        if game.outcome(after) is not None:
            break
        assert json.loads(json.dumps(after)) == after
        for seat in seats:
            view = game.view(after, seat)
            assert json.loads(json.dumps(view)) == view
            assert_no_secret(view, after)
        for line in game.describe(before, after, actor, action):
            if line["seats"] != [MISTER_X] and "station" in line["args"] and line["msg"].startswith("Mister X"):
                move = line["args"]["move"]
                assert move in REVEAL_MOVES and line["args"]["station"] == after["travel_log"][move - 1]["station"]


def twins():
    """Two tables alike in everything public, with Mister X on different hidden paths."""
    one = table(35, [13, 94], [117])
    two = table(45, [13, 94], [117])
    return one, two


def test_detectives_and_the_display_cannot_tell_two_hidden_paths_apart():
    one, two = twins()
    steps = [
        ((MISTER_X, 36, "taxi", None, "double_move"), (MISTER_X, 46, "taxi", None, "double_move")),
        ((MISTER_X, 37, "taxi", None, "move"), (MISTER_X, 47, "taxi", None, "move")),
        (("detective-1", 14, "taxi", None, "move"),) * 2,
        (("detective-2", 75, "taxi", None, "move"),) * 2,
        (("detective-1", 116, "taxi", "bobby-1", "move"),) * 2,
    ]
    for step_one, step_two in steps:
        new_one, new_two = act(one, *step_one), act(two, *step_two)
        for seat in (None, "detective-1", "detective-2"):
            assert game.view(new_one, seat) == game.view(new_two, seat)
        action_one = {"type": step_one[4], "to": step_one[1], "ticket": step_one[2]}
        action_two = {"type": step_two[4], "to": step_two[1], "ticket": step_two[2]}
        assert public_lines(one, new_one, step_one[0], action_one) == public_lines(
            two, new_two, step_two[0], action_two
        )
        one, two = new_one, new_two
    assert game.view(one, MISTER_X)["station"] == 37 and game.view(two, MISTER_X)["station"] == 47
    assert one["round"] == 2 and game.view(one, None)["travel_log"][1]["station"] is None


# -- the board ------------------------------------------------------------------------------------------


def test_the_projects_board_matches_the_shared_board_data():
    if not SHARED_BOARD.exists():
        pytest.skip("the shared board data is not present")
    shared = json.loads(SHARED_BOARD.read_text(encoding="utf-8"))
    ours = json.loads(OUR_BOARD.read_text(encoding="utf-8"))
    for key in ("stations", "start_cards", "positions"):
        assert ours[key] == shared[key]
    for transport in ("taxi", "bus", "underground", "ferry"):
        assert {tuple(sorted(link)) for link in ours[transport]} == {tuple(sorted(link)) for link in shared[transport]}


def test_the_board_has_199_stations_and_the_ferry_runs_194_157_115_108():
    assert BOARD.stations == 199
    assert sorted(BOARD.neighbours(157, "ferry")) == [115, 194]
    assert sorted(BOARD.neighbours(115, "ferry")) == [108, 157]
    assert all(BOARD.neighbours(station, "taxi") for station in range(1, 200))
