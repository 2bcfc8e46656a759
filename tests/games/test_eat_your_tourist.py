"""Sežer svého turistu!: one test per numbered rule of the digest the app keeps (ET-n, Qn, Hn)."""

import copy

import pytest

from companion.games.base import HOST, RuleError
from companion.games.eat_your_tourist import game
from companion.rng import Rng
from tests.games.scripted import ScriptedRng

NONE_LEFT = {"blue": 0, "yellow": 0, "red": 0, "green": 0}


def started(players=3, options=None, turn=None, **changes):
    """A table with player-1 to move in the fright phase, changed as given."""
    state = game.setup({"players": players, "starting_player": "player-1", **(options or {})}, ScriptedRng())
    state.update(copy.deepcopy(changes))
    if "ghosts" in changes:  # given as how many each seat has on the board: ghosts 1, 2, ... are
        state["ghosts"] = {seat: list(range(1, count + 1)) for seat, count in changes["ghosts"].items()}
    state["turn"].update(turn or {})
    return state


def play(state, *actions, actor=None, dice=()):
    """Apply actions in order, each by the active player unless an actor is given."""
    rng = ScriptedRng(dice)
    for action in actions:
        state = game.apply(state, actor or state["active"], action, rng)
    return state


def on_board(state):
    return {seat: len(ghosts) for seat, ghosts in state["ghosts"].items()}


def points(state):
    return {row["seat"]: row["points"] for row in game.view(state, None)["scoreboard"]}


# --- setup -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "tiles"), [(2, 9), (3, 12), (4, 12)])
def test_two_players_build_the_castle_from_9_tiles_and_three_or_four_from_12(players, tiles):
    assert game.view(started(players), None)["settings"]["castle_tiles"] == tiles  # ET-1


def test_each_player_has_two_ghosts_waiting_off_the_board():
    ghosts = game.view(started(3), None)["ghosts"]  # ET-2
    assert [(g["on_board"], g["off_board"]) for g in ghosts] == [(0, 2)] * 3


def test_the_three_ghosts_house_rule_gives_each_player_three():
    ghosts = game.view(started(3, {"three_ghosts": True}), None)["ghosts"]  # H2
    assert {g["off_board"] for g in ghosts} == {3}


def test_three_ghosts_each_is_refused_with_four_players_as_the_box_has_nine():
    with pytest.raises(RuleError):
        game.setup({"players": 4, "three_ghosts": True}, ScriptedRng())


def test_the_highest_start_roll_begins_and_tied_players_roll_again():
    state = game.setup({"players": 3, "starting_player": "roll"}, ScriptedRng([6, 2, 6, 3, 5]))  # ET-3, Q9
    assert state["start_rolls"] == [
        {"player-1": 6, "player-2": 2, "player-3": 6},
        {"player-1": 3, "player-3": 5},
    ]
    assert state["active"] == "player-3"


def test_a_chosen_starting_player_begins_without_a_roll():
    state = game.setup({"players": 4, "starting_player": "player-2"}, ScriptedRng())
    assert (state["active"], state["start_rolls"]) == ("player-2", [])


def test_a_starting_player_beyond_the_table_is_refused():
    with pytest.raises(RuleError):
        game.setup({"players": 2, "starting_player": "player-3"}, ScriptedRng())


def test_the_tourists_are_four_of_each_colour_unless_the_table_says_otherwise():
    assert started()["tourists"] == {"blue": 4, "yellow": 4, "red": 4, "green": 4}  # Q3
    assert started(options={"tourists_per_colour": 2})["tourists"]["green"] == 2


# --- the turn ----------------------------------------------------------------------------


def test_a_turn_goes_fright_hunt_panic_and_then_passes_to_the_left():
    state = started(3)  # ET-4
    phases = []
    for _ in range(2):
        phases.append(state["phase"])
        state = play(state, {"type": "next"})
    phases.append(state["phase"])
    state = play(state, {"type": "roll_panic", "value": 1}, {"type": "next"})
    assert phases == ["fright", "hunt", "panic"]
    assert (state["active"], state["phase"], state["turn_number"]) == ("player-2", "fright", 2)


def test_play_wraps_from_the_last_seat_to_the_first():
    state = started(3, active="player-3", phase="panic")
    state = play(state, {"type": "roll_panic", "value": 2}, {"type": "next"})
    assert state["active"] == "player-1"


def test_the_turn_cannot_end_before_the_panic_roll():
    with pytest.raises(RuleError, match="panic"):
        play(started(phase="panic"), {"type": "next"})


def test_only_the_active_player_or_the_host_records_the_turn():
    state = started(3)
    with pytest.raises(RuleError, match="not your turn"):
        play(state, {"type": "next"}, actor="player-2")
    assert play(state, {"type": "next"}, actor=HOST)["phase"] == "hunt"


def test_an_action_outside_its_phase_is_refused():
    with pytest.raises(RuleError, match="phase"):
        play(started(), {"type": "roll_panic"})


def test_apply_leaves_the_given_state_untouched():
    state = started(phase="hunt", ghosts={"player-1": 1, "player-2": 0, "player-3": 0})
    before = copy.deepcopy(state)
    play(state, {"type": "eat", "colour": "red", "steps": 2})
    assert state == before


# --- fright ---------------------------------------------------------------------------------


def test_each_frightened_tourist_gets_its_own_roll():
    state = play(started(), {"type": "roll_fright"}, {"type": "roll_fright"}, dice=(4, 2))  # ET-8
    assert [r["value"] for r in state["turn"]["fright_rolls"]] == [4, 2]


def last_fright_roll(state):
    roll = state["turn"]["fright_rolls"][-1]
    return roll["value"], roll["physical"]


def panic_roll(state):
    return state["turn"]["panic"]["roll"], state["turn"]["panic"]["physical"]


@pytest.mark.parametrize(
    ("phase", "kind", "recorded"), [("fright", "roll_fright", last_fright_roll), ("panic", "roll_panic", panic_roll)]
)
def test_a_typed_physical_roll_is_kept_and_without_one_the_app_rolls(phase, kind, recorded):
    state = started(phase=phase)
    assert recorded(play(state, {"type": kind, "value": 3}, dice=(6,))) == (3, True)
    assert recorded(play(state, {"type": kind}, dice=(6,))) == (6, False)


@pytest.mark.parametrize("value", [0, 7, True, "4"])
def test_a_die_value_outside_1_to_6_is_refused(value):
    with pytest.raises(RuleError, match="1 to 6"):
        play(started(), {"type": "roll_fright", "value": value})


def test_the_seeded_app_die_gives_the_same_roll_on_replay():
    state = started()
    first = game.apply(state, "player-1", {"type": "roll_fright"}, Rng("seed", 7))
    again = game.apply(state, "player-1", {"type": "roll_fright"}, Rng("seed", 7))
    assert first == again


def test_a_tourist_that_dies_of_fright_scores_for_nobody():
    state = play(started(), {"type": "tourist_dies", "colour": "yellow"})  # ET-10
    assert state["tourists"]["yellow"] == 3
    assert state["gone"]["died"] == 1
    assert set(points(state).values()) == {0}


@pytest.mark.parametrize(
    ("players", "active", "penalised"),
    [
        (2, "player-1", "player-2"),
        (2, "player-2", "player-1"),
        (3, "player-2", "player-3"),
        (3, "player-3", "player-1"),
        (4, "player-3", "player-4"),
        (4, "player-4", "player-1"),
    ],
)
def test_an_escape_in_fright_costs_the_active_players_left_neighbour_one_point(players, active, penalised):
    state = play(started(players, active=active), {"type": "tourist_escapes", "colour": "red"})  # ET-11, Q1
    assert points(state) == {seat: -1 if seat == penalised else 0 for seat in state["players"]}
    assert state["tourists"]["red"] == 3


def test_a_tourist_of_a_colour_no_longer_on_the_board_cannot_escape():
    with pytest.raises(RuleError, match="colour"):
        play(started(tourists={**NONE_LEFT, "red": 1}), {"type": "tourist_escapes", "colour": "blue"})


# --- hunt --------------------------------------------------------------------------------------


def hunting(ghosts=(0, 0, 0), **turn):
    return started(phase="hunt", ghosts={f"player-{k}": n for k, n in enumerate(ghosts, 1)}, turn=turn or None)


def test_only_one_ghost_enters_the_board_each_turn():
    state = play(hunting(), {"type": "enter_ghost"})  # ET-12
    assert on_board(state)["player-1"] == 1
    with pytest.raises(RuleError, match="one ghost"):
        play(state, {"type": "enter_ghost"})


def test_a_ghost_cannot_enter_when_all_are_on_the_board():
    with pytest.raises(RuleError, match="no ghost waiting"):
        play(hunting((2, 0, 0)), {"type": "enter_ghost"})


def test_ghosts_share_the_turns_five_movement_points():
    moves = ({"type": "move_ghost", "ghost": 1, "steps": 3}, {"type": "move_ghost", "ghost": 2, "steps": 2})  # ET-13
    state = play(hunting((2, 0, 0)), *moves)
    assert state["turn"]["movement_left"] == 0
    with pytest.raises(RuleError, match="0 movement points"):
        play(state, {"type": "move_ghost", "ghost": 1, "steps": 1})


def test_unused_movement_points_are_lost_at_the_end_of_the_turn():
    state = play(hunting((1, 0, 0)), {"type": "move_ghost", "steps": 1}, {"type": "next"})
    state = play(state, {"type": "roll_panic", "value": 1}, {"type": "next"})
    assert state["turn"]["movement_left"] == 5


def test_the_more_movement_points_house_rule_raises_the_budget():
    state = started(options={"movement_points": 7})  # H4
    assert game.view(state, None)["movement"] == {"left": 7, "total": 7}


def test_entering_the_board_costs_no_movement_points():
    assert play(hunting(), {"type": "enter_ghost"})["turn"]["movement_left"] == 5  # Q6


def test_eating_a_tourist_gives_the_eater_two_points_and_takes_the_tourist_off():
    state = play(hunting((1, 0, 0)), {"type": "eat", "colour": "green", "steps": 2})  # ET-15
    assert points(state)["player-1"] == 2
    assert state["tourists"]["green"] == 3
    assert state["turn"]["movement_left"] == 3


def test_a_ghost_that_ate_must_stay_put_but_the_other_may_go_on():
    alone = play(hunting((1, 0, 0)), {"type": "eat", "colour": "blue"})  # ET-15
    with pytest.raises(RuleError, match="stay put"):
        play(alone, {"type": "move_ghost", "steps": 1})
    pair = play(hunting((2, 0, 0)), {"type": "eat", "ghost": 1, "colour": "blue"})
    with pytest.raises(RuleError, match="ghost 1 has eaten or fought and must stay put"):
        play(pair, {"type": "move_ghost", "ghost": 1, "steps": 1})
    pair = play(pair, {"type": "move_ghost", "steps": 2})  # the one ghost that still can: no need to say which
    assert pair["turn"]["movement_left"] == 3 and pair["turn"]["moved"] == [1, 2]


def test_a_player_without_a_ghost_on_the_board_cannot_eat():
    with pytest.raises(RuleError, match="no ghost"):
        play(hunting(), {"type": "eat", "colour": "blue"})


def fight(attacker_roll, defender_roll, ghosts=(1, 1, 0)):
    state = play(hunting(ghosts), {"type": "fight", "ghost": ghosts[0], "opponent": "player-2", "steps": 1})
    state = play(state, {"type": "fight_roll", "value": attacker_roll})
    return play(state, {"type": "fight_roll", "value": defender_roll}, actor="player-2")


def test_in_a_ghost_fight_the_lower_roll_leaves_the_board_and_the_winner_rests():
    state = fight(5, 2)  # ET-16
    assert on_board(state) == {"player-1": 1, "player-2": 0, "player-3": 0}
    assert state["turn"]["last_fight"]["winner"] == "player-1"
    with pytest.raises(RuleError, match="stay put"):
        play(state, {"type": "move_ghost", "steps": 1})


def test_a_defender_who_rolls_higher_knocks_the_attacker_off():
    state = fight(1, 4)
    assert on_board(state) == {"player-1": 0, "player-2": 1, "player-3": 0}


def test_a_tied_ghost_fight_sends_both_ghosts_off_the_board():
    state = fight(3, 3)
    assert on_board(state) == {"player-1": 0, "player-2": 0, "player-3": 0}
    assert state["turn"]["last_fight"]["winner"] is None


def test_a_ghost_knocked_off_in_its_own_turn_reenters_next_turn_as_that_turns_entry():
    state = fight(1, 6, ghosts=(2, 1, 0))  # ET-16: no second chance this turn
    with pytest.raises(RuleError, match="no ghost waiting"):
        play(state, {"type": "enter_ghost"})
    state = started(phase="hunt", ghosts={"player-1": 1, "player-2": 0, "player-3": 0})
    state = play(state, {"type": "enter_ghost"})
    with pytest.raises(RuleError, match="one ghost"):
        play(state, {"type": "enter_ghost"})


def test_the_defender_rolls_for_their_own_ghost_and_nobody_else_joins_in():
    state = play(hunting((1, 1, 0)), {"type": "fight", "opponent": "player-2"})
    assert game.view(state, "player-2")["your_turn"] is True
    with pytest.raises(RuleError, match="not your turn"):
        play(state, {"type": "fight_roll"}, actor="player-3")
    with pytest.raises(RuleError, match="own ghost"):
        play(state, {"type": "fight_roll", "seat": "player-1"}, actor="player-2")
    state = play(state, {"type": "fight_roll"}, actor="player-2", dice=(4,))
    assert state["turn"]["fight"]["rolls"] == {"player-2": 4}


def test_the_active_player_may_type_in_the_defenders_table_die():
    state = play(hunting((1, 1, 0)), {"type": "fight", "opponent": "player-2"})
    state = play(state, {"type": "fight_roll", "value": 2}, {"type": "fight_roll", "value": 6, "seat": "player-2"})
    assert on_board(state)["player-1"] == 0


def test_nothing_else_happens_until_both_ghosts_have_rolled():
    state = play(hunting((2, 1, 0)), {"type": "fight", "ghost": 2, "opponent": "player-2"})
    with pytest.raises(RuleError, match="fight first"):
        play(state, {"type": "next"})


def test_a_fight_needs_an_opponents_ghost_on_the_board():
    with pytest.raises(RuleError, match="no ghost"):
        play(hunting((1, 0, 0)), {"type": "fight", "opponent": "player-3"})


def test_a_vanished_ghost_costs_nothing_and_waits_for_its_owners_next_turn():
    state = play(hunting((2, 0, 0)), {"type": "vanish", "ghost": 2})  # ET-17, Q10
    assert state["ghosts"]["player-1"] == [1] and state["turn"]["resting"] == [2]
    assert state["turn"]["movement_left"] == 5
    with pytest.raises(RuleError, match="no ghost waiting"):
        play(state, {"type": "enter_ghost"})
    state = play(state, {"type": "move_ghost", "steps": 5})
    state = play(state, {"type": "next"}, {"type": "roll_panic", "value": 1}, {"type": "next"})
    for _ in range(2):
        state = play(state, {"type": "next"}, {"type": "next"}, {"type": "roll_panic", "value": 1}, {"type": "next"})
    state = play(state, {"type": "next"}, {"type": "enter_ghost"})
    assert state["ghosts"]["player-1"] == [1, 2]


def test_a_ghost_that_moved_cannot_vanish_afterwards():
    state = play(hunting((1, 0, 0)), {"type": "move_ghost", "steps": 2})  # ET-17: "instead of moving"
    with pytest.raises(RuleError, match="instead of moving"):
        play(state, {"type": "vanish"})
    assert "vanish" not in game.view(state, "player-1")["actions"]


def test_ghosts_are_told_apart_so_moving_one_does_not_stop_the_other_from_vanishing():
    state = play(hunting((2, 0, 0)), {"type": "move_ghost", "ghost": 1, "steps": 2})  # ET-17, Q10
    assert game.view(state, "player-1")["able_ghosts"] == {"act": [1, 2], "vanish": [2]}
    with pytest.raises(RuleError, match="ghost 1 has moved this turn") as refused:
        play(state, {"type": "vanish", "ghost": 1})
    assert refused.value.code == "ghost_moved"
    state = play(state, {"type": "vanish"})  # only ghost 2 can: one tap, no choice
    assert state["ghosts"]["player-1"] == [1] and state["turn"]["resting"] == [2]


def test_a_ghost_that_moves_twice_leaves_the_other_free_to_vanish():
    steps = ({"type": "move_ghost", "ghost": 1, "steps": 1},) * 2  # ET-17: issue 18's second case, told apart
    state = play(hunting((2, 0, 0)), *steps, {"type": "vanish", "ghost": 2})
    assert state["ghosts"]["player-1"] == [1]


def test_once_both_ghosts_moved_neither_may_vanish():
    moves = ({"type": "move_ghost", "ghost": 1, "steps": 1}, {"type": "move_ghost", "ghost": 2, "steps": 1})
    state = play(hunting((2, 0, 0)), *moves)  # ET-17: each moved, so neither vanishes "instead of moving"
    for action in ({"type": "vanish"}, {"type": "vanish", "ghost": 2}):
        with pytest.raises(RuleError, match="instead of moving") as refused:
            play(state, action)
        assert refused.value.code == "ghost_moved"
    assert "vanish" not in game.view(state, "player-1")["actions"]


def test_after_one_ghost_moved_and_ate_the_other_still_vanishes():
    state = play(hunting((2, 0, 0)), {"type": "move_ghost", "ghost": 1, "steps": 2})  # ET-17: issue 18's first case
    state = play(state, {"type": "eat", "ghost": 1, "colour": "blue", "steps": 1}, {"type": "vanish"})
    assert state["ghosts"]["player-1"] == [1] and state["turn"]["resting"] == [2]


def test_with_two_ghosts_able_the_app_asks_which_one():
    for action in ({"type": "move_ghost", "steps": 1}, {"type": "vanish"}, {"type": "eat", "colour": "red"}):
        with pytest.raises(RuleError, match="Say which ghost: 1, 2") as refused:
            play(hunting((2, 0, 0)), action)
        assert refused.value.code == "which_ghost"
    with pytest.raises(RuleError, match="ghost 3 is not on the board"):
        play(hunting((2, 0, 0)), {"type": "move_ghost", "ghost": 3, "steps": 1})


def test_a_fight_knocks_off_the_ghost_that_was_attacked():
    state = play(hunting((2, 2, 0)), {"type": "fight", "ghost": 2, "opponent": "player-2", "target": 1})  # ET-16
    state = play(state, {"type": "fight_roll", "value": 6}, {"type": "fight_roll", "value": 1, "seat": "player-2"})
    assert state["ghosts"] == {"player-1": [1, 2], "player-2": [2], "player-3": []}
    assert state["turn"]["done"] == [2]
    with pytest.raises(RuleError, match="which of their ghosts"):
        play(hunting((1, 2, 0)), {"type": "fight", "opponent": "player-2"})


# --- panic -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "colour", "label"),
    [
        (1, "blue", ("Move all blue tourists by %(distance)s", 1)),
        (2, "yellow", ("Move all yellow tourists by %(distance)s", 2)),
        (3, "red", ("Move all red tourists by %(distance)s", 3)),
        (4, "green", ("Move all green tourists by %(distance)s", 4)),
        (5, None, ("Move all tourists of one colour by %(distance)s", 2)),
        (6, None, ("Move the opponents' ghosts %(distance)s squares in total and draw an event", 3)),
    ],
)
def test_the_panic_table_gives_each_roll_its_effect(roll, colour, label):
    view = game.view(play(started(phase="panic"), {"type": "roll_panic", "value": roll}), None)  # ET-18
    assert (view["panic"]["row"], view["panic"]["colour"]) == (roll, colour)
    assert (view["panic"]["label"]["msg"], view["panic"]["label"]["args"]["distance"]) == label
    assert [row["roll"] for row in view["panic_table"] if row["highlight"]] == [roll]
    assert view["banner"]["args"]["roll"] == roll if roll < 6 else view["banner"]["args"]["panic"]["args"]["roll"]


def test_a_panic_6_moves_the_opponents_ghosts_and_turns_up_an_event():
    state = play(started(phase="panic"), {"type": "roll_panic", "value": 6})  # ET-19, Q2
    assert state["events"]["current"] == 1
    assert game.view(state, None)["event"]["label"] == {"msg": "Event %(number)s", "args": {"number": 1}}


def test_a_panicking_tourist_with_nowhere_to_go_dies_and_scores_for_nobody():
    state = play(started(phase="panic"), {"type": "roll_panic", "value": 3}, {"type": "tourist_dies", "colour": "red"})
    assert (state["gone"]["died"], set(points(state).values())) == (1, {0})  # ET-21


@pytest.mark.parametrize(
    ("players", "active", "penalised"),
    [
        (2, "player-2", "player-1"),
        (3, "player-1", "player-2"),
        (3, "player-3", "player-1"),
        (4, "player-2", "player-3"),
        (4, "player-4", "player-1"),
    ],
)
def test_an_escape_in_panic_costs_the_active_players_left_neighbour_one_point(players, active, penalised):
    state = started(players, active=active, phase="panic")
    state = play(state, {"type": "roll_panic", "value": 4}, {"type": "tourist_escapes", "colour": "green"})
    assert points(state) == {seat: -1 if seat == penalised else 0 for seat in state["players"]}  # ET-22


@pytest.mark.parametrize(
    ("roll", "left", "row", "colour"),
    [
        (3, {"blue": 2, "yellow": 1, "red": 0, "green": 1}, 1, "blue"),
        (4, {"blue": 0, "yellow": 1, "red": 1, "green": 0}, 2, "yellow"),
        (1, {"blue": 0, "yellow": 0, "red": 2, "green": 3}, 3, "red"),
        (2, {"blue": 0, "yellow": 0, "red": 0, "green": 1}, 4, "green"),
        (4, {"blue": 0, "yellow": 0, "red": 0, "green": 1}, 4, "green"),
    ],
)
def test_a_colour_no_longer_on_the_board_walks_up_the_table_from_1(roll, left, row, colour):
    state = play(started(phase="panic", tourists=left), {"type": "roll_panic", "value": roll})  # ET-23
    panic = game.view(state, None)["panic"]
    assert (panic["row"], panic["colour"], panic["fallback"]) == (row, colour, roll != row)
    assert panic["label"]["args"]["distance"] == row


def test_a_5_lets_the_player_pick_one_colour_still_on_the_board():
    state = started(phase="panic", tourists={"blue": 0, "yellow": 2, "red": 0, "green": 1})  # Q5
    state = play(state, {"type": "roll_panic", "value": 5})
    assert state["turn"]["panic"]["colour"] is None
    with pytest.raises(RuleError, match="colour"):
        play(state, {"type": "choose_colour", "colour": "blue"})
    state = play(state, {"type": "choose_colour", "colour": "green"})
    assert game.view(state, None)["panic"]["label"] == {
        "msg": "Move all green tourists by %(distance)s",
        "args": {"distance": 2},
    }


def test_a_5_with_only_one_colour_left_moves_that_colour():
    state = started(phase="panic", tourists={**NONE_LEFT, "red": 2})
    assert play(state, {"type": "roll_panic", "value": 5})["turn"]["panic"]["colour"] == "red"


def test_a_6_is_not_walked_when_colours_are_missing():
    state = started(phase="panic", tourists={**NONE_LEFT, "yellow": 1})
    panic = play(state, {"type": "roll_panic", "value": 6})["turn"]["panic"]
    assert (panic["row"], panic["colour"]) == (6, None)


def test_the_turn_waits_for_the_colour_choice_after_a_5():
    state = play(started(phase="panic"), {"type": "roll_panic", "value": 5})
    with pytest.raises(RuleError, match="colour"):
        play(state, {"type": "next"})


def test_the_panic_die_is_rolled_once_a_turn():
    with pytest.raises(RuleError, match="already"):
        play(started(phase="panic"), {"type": "roll_panic"}, {"type": "roll_panic"}, dice=(2, 3))


@pytest.mark.parametrize(("speed", "distances"), [("slower", [1, 1, 2, 3, 1]), ("faster", [2, 3, 4, 5, 3])])
def test_slower_or_faster_tourists_change_the_panic_distances(speed, distances):
    rows = game.view(started(options={"tourist_speed": speed}), None)["panic_table"]  # H4
    assert [row["label"]["args"]["distance"] for row in rows[:5]] == distances
    assert rows[5]["label"]["args"]["distance"] == 3


# --- game end ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "action"),
    [
        ("hunt", {"type": "eat", "colour": "red"}),
        ("fright", {"type": "tourist_escapes", "colour": "red"}),
        ("panic", {"type": "tourist_dies", "colour": "red"}),
    ],
)
def test_the_game_ends_the_moment_the_last_tourist_leaves_the_board(phase, action):
    state = started(phase=phase, tourists={**NONE_LEFT, "red": 1}, ghosts={"player-1": 1, "player-2": 0, "player-3": 0})
    state = play(state, action)  # ET-24, Q9
    assert state["phase"] == "over"
    assert game.outcome(state) is not None
    with pytest.raises(RuleError, match="over"):
        play(state, {"type": "next"})


def test_the_game_goes_on_while_a_tourist_is_left():
    state = play(started(tourists={**NONE_LEFT, "red": 2}), {"type": "tourist_dies", "colour": "red"})
    assert game.outcome(state) is None


def test_every_tourist_is_eaten_escaped_dead_or_still_on_the_board():
    state = play(
        started(phase="hunt", ghosts={"player-1": 1, "player-2": 0, "player-3": 0}),
        {"type": "eat", "colour": "blue"},
        {"type": "next"},
        {"type": "roll_panic", "value": 4},
        {"type": "tourist_escapes", "colour": "green"},
        {"type": "tourist_dies", "colour": "green"},
    )
    assert sum(state["gone"].values()) + sum(state["tourists"].values()) == 16  # ET-27


# --- events -------------------------------------------------------------------------------------


def test_the_event_deck_is_the_11_cards_shuffled_before_play():
    deck = game.setup({"players": 2}, Rng("seed", 0))["events"]  # ET-25
    assert sorted(deck["deck"]) == list(range(1, 12))
    assert deck["current"] is None and deck["discard"] == []


def sixes(state, count):
    """Let the active player roll a 6 in panic `count` times, staying in the panic phase."""
    for _ in range(count):
        state = play(state, {"type": "roll_panic", "value": 6})
        state["turn"]["panic"] = None
    return state


def test_a_new_event_replaces_the_current_one_which_goes_to_the_discards():
    state = sixes(started(phase="panic"), 2)
    assert state["events"] == {"deck": list(range(3, 12)), "discard": [1], "current": 2}


def test_an_empty_deck_is_rebuilt_from_the_shuffled_discards():
    state = sixes(started(phase="panic"), 11)
    assert state["events"] == {"deck": [], "discard": list(range(1, 11)), "current": 11}
    state = sixes(state, 1)
    assert state["events"] == {"deck": list(range(2, 11)), "discard": [11], "current": 1}


def test_with_restless_times_every_panic_phase_turns_up_an_event():
    state = started(phase="hunt", options={"event_every_panic": True})  # H3
    state = play(state, {"type": "next"})
    assert state["events"]["current"] == 1
    assert state["banner"]["msg"] == "New event: %(event)s"
    state = play(state, {"type": "roll_panic", "value": 6})
    assert (state["events"]["current"], state["events"]["discard"]) == (2, [1])


def test_without_the_house_rule_only_a_6_turns_up_an_event():
    state = play(started(phase="hunt"), {"type": "next"}, {"type": "roll_panic", "value": 5})
    assert state["events"]["current"] is None


def test_typed_event_titles_are_shown_with_their_card():
    options = {"event_titles": "Ghost train\n\nEvent 3"}  # Q11
    state = sixes(started(phase="panic", options=options), 1)
    assert game.view(state, None)["event"]["label"] == {
        "msg": "Event %(number)s: %(title)s",
        "args": {"number": 1, "title": "Ghost train"},
    }
    state = sixes(state, 2)
    assert game.view(state, None)["event"]["label"]["msg"] == "Event %(number)s"


# --- score -------------------------------------------------------------------------------------


def over(scores, players=3):
    seats = [f"player-{k}" for k in range(1, players + 1)]
    return started(
        players,
        phase="over",
        tourists=NONE_LEFT,
        scores={
            seat: {"eaten": eaten, "escapes": escapes} for seat, (eaten, escapes) in zip(seats, scores, strict=True)
        },
    )


def test_the_final_score_is_two_per_tourist_eaten_minus_one_per_escape():
    result = game.outcome(over([(3, 1), (4, 4), (1, 0)]))  # ET-26
    assert result["winners"] == ["player-1"]
    assert [(row["seat"], row["points"], row["place"]) for row in result["ranking"]] == [
        ("player-1", 5, 1),
        ("player-2", 4, 2),
        ("player-3", 2, 3),
    ]
    first = result["summary"]["args"]["ranking"]["args"]["first"]
    assert first["args"] == {
        "place": 1,
        "player": "player-1",
        "points": 5,
        "eaten": 3,
        "escapes": 1,
    }


def test_equal_scores_share_the_win_with_more_eaten_listed_first():
    result = game.outcome(over([(1, 0), (2, 2), (0, 1)]))  # Q9
    assert result["winners"] == ["player-1", "player-2"]
    assert [(row["seat"], row["place"]) for row in result["ranking"]] == [
        ("player-2", 1),
        ("player-1", 1),
        ("player-3", 3),
    ]


def test_ghosts_pushed_on_a_panic_6_eat_for_their_owner_only_with_the_house_rule():
    ghosts = {"player-1": 1, "player-2": 1, "player-3": 0}
    action = {"type": "eat", "colour": "blue", "ghost_of": "player-2"}
    strict = play(started(phase="panic", ghosts=ghosts), {"type": "roll_panic", "value": 6})  # Q7
    with pytest.raises(RuleError, match="hunt"):
        play(strict, action)
    house = started(phase="panic", ghosts=ghosts, options={"forced_moves_eat": True})
    house = play(house, {"type": "roll_panic", "value": 6}, action)
    assert points(house)["player-2"] == 2


# --- screens and history ------------------------------------------------------------------------


def test_the_display_shows_turn_phase_tourists_panic_table_event_score_and_movement():
    view = game.view(started(), None)
    assert {"active", "phase", "tourists", "panic_table", "event", "scoreboard", "movement"} <= set(view)
    assert "your_turn" not in view
    assert view["banner"] == {"msg": "%(player)s starts", "args": {"player": "player-1"}}


def test_a_banner_is_the_news_of_one_action_not_of_the_whole_turn():
    state = play(started(), {"type": "roll_fright", "value": 3})
    assert "banner" not in game.view(state, None)
    state = play(state, {"type": "next"}, {"type": "next"}, {"type": "roll_panic", "value": 6})
    assert game.view(state, None)["banner"]["msg"] == "%(panic)s. %(event)s"


def test_a_seat_sees_the_same_table_and_whether_it_is_its_turn():
    state = started()
    mine, theirs = game.view(state, "player-1"), game.view(state, "player-2")
    assert (mine["your_turn"], theirs["your_turn"]) == (True, False)
    assert theirs["actions"] == [] and "next" in mine["actions"]


def test_history_lines_tell_the_table_what_happened():
    before = started(phase="panic", tourists={**NONE_LEFT, "blue": 1, "green": 2})
    after = play(before, {"type": "roll_panic", "value": 3})
    lines = game.describe(before, after, "player-1", {"type": "roll_panic", "value": 3})
    assert [line["msg"] for line in lines] == [
        "%(player)s rolls %(roll)s for panic",
        "Panic! %(player)s rolled %(roll)s, but that colour has left the castle: %(effect)s",
    ]
    assert lines[1]["args"]["player"] == "player-1"
    assert lines[0]["args"]["roll"] == {"msg": "%(value)s (table die)", "args": {"value": 3}}
    assert all(line["seats"] is None for line in lines)


def test_history_and_banners_name_players_by_seat_so_the_table_shows_their_names():
    from companion.i18n import say

    before = started(phase="hunt", ghosts={"player-1": 1, "player-2": 1, "player-3": 0})
    after = play(before, {"type": "fight", "opponent": "player-2"}, {"type": "fight_roll", "value": 5})
    after = play(after, {"type": "fight_roll", "value": 2}, actor="player-2")
    lines = game.describe(before, after, "player-2", {"type": "fight_roll", "value": 2})
    names = {"player-1": "Anna", "player-2": "Bea", "player-3": "Cyril"}
    assert say(lines[-1], names) == "Anna wins the ghost fight; the ghost of Bea leaves the board"
    final = game.outcome(over([(1, 0), (0, 1), (0, 0)]))["summary"]
    assert "Anna: 2 points" in say(final, names)


def test_both_fighters_may_roll_at_once_from_their_own_phones(service):
    code, _host = service.create("eat-your-tourist", {"players": 3, "starting_player": "player-1"})
    hunt_and_end = ({"type": "next"}, {"type": "enter_ghost"}, {"type": "next"}, {"type": "roll_panic", "value": 1})
    for action in (*hunt_and_end, {"type": "next"}):
        service.act(code, "player-1", action)
    for action in ({"type": "next"}, {"type": "enter_ghost"}, {"type": "fight", "opponent": "player-1"}):
        service.act(code, "player-2", action)
    seen = service.newest(code).seq
    service.act(code, "player-1", {"type": "fight_roll", "value": 2}, seen_seq=seen)
    service.act(code, "player-2", {"type": "fight_roll", "value": 5}, seen_seq=seen)  # ET-16
    assert [g["on_board"] for g in service.view(code, None)["view"]["ghosts"]] == [0, 1, 0]


def test_this_games_czech_and_dutch_catalogues_are_complete():
    from companion import catalogs

    assert [line for line in catalogs.missing() if "eat_your_tourist" in line] == []
