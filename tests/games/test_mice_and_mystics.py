"""Mice and Mystics companion: one test per rule of ../shared/rules/mice-and-mystics.md the app enforces."""

import copy
import itertools
import random

import pytest

from companion.games.base import HOST, RuleError
from companion.games.mice_and_mystics import game
from companion.games.mice_and_mystics.mice import new_mouse
from companion.games.mice_and_mystics.names import HEROES
from companion.rng import Rng
from tests.games.scripted import ScriptedRng


def table(players=2, **options):
    return game.setup({"players": players, **options}, ScriptedRng())


def card(card_id):
    if card_id in ("collin", "nez", "filch", "tilda", "lily", "maginos"):
        return {"id": f"mouse:{card_id}", "kind": "mouse", "mouse": card_id}
    if card_id.startswith("brodie:"):
        return {"id": card_id, "kind": "minion", "group": "brodie", "face": card_id.removeprefix("brodie:")}
    if "#" in card_id:
        group, number = card_id.split("#")
        return {"id": card_id, "kind": "leader", "group": group, "number": int(number), "wounds": 0}
    return {"id": card_id, "kind": "minion", "group": card_id}


def group(gid, figures=1, life=1, name=""):
    kind = gid.split(":")[0]
    return {"id": gid, "kind": kind, "name": name, "life": life, "figures": [0] * figures, "greedy": False}


def mouse(mouse_id, seat="player-1", life=5, **sheet):
    return {**new_mouse(mouse_id, mouse_id, "", seat, life, "first ability"), **sheet}


def face_up(name, surge="", page=1, minions=(), surge_minions=()):
    """An encounter card face up on the deck, as reveal_encounter leaves it."""
    return {"name": name, "surge": surge, "page": page, "minions": list(minions), "surge_minions": list(surge_minions)}


def arriving(minion, figures, life=1, name=""):
    return {"minion": minion, "name": name, "figures": figures, "life": life, "cards": 2}


def chapter(track, mice=None, groups=(), turn=0, **extra):
    """A chapter in play from a compact literal: the initiative track top to bottom."""
    state = table(**extra.pop("options", {}))
    ids = [c for c in track if card(c)["kind"] == "mouse"]
    state.update(
        phase="playing",
        mice=mice if mice is not None else [mouse(m, seat=f"player-{1 + i % 2}") for i, m in enumerate(ids)],
        track=[card(c) for c in track],
        groups={g["id"]: g for g in groups},
        turn=turn,
        round=1,
        **extra,
    )
    return state


def do(state, *actions, actor=HOST, rng=None):
    rng = rng or ScriptedRng()
    for action in actions:
        state = game.apply(state, actor, action, rng)
    return state


def order(state):
    return [c["id"] for c in state["track"]]


def active(state):
    return state["track"][state["turn"]]["id"]


# --- initiative track -------------------------------------------------------------------------------


def test_cards_act_from_the_top_and_a_new_round_begins_after_the_last():
    state = chapter(["collin", "rats", "nez"], groups=[group("rats", 2)])
    state = do(state, {"type": "next"})
    assert active(state) == "rats"
    state = do(state, {"type": "next"}, {"type": "next"})
    assert active(state) == "mouse:collin"
    assert state["round"] == 2


def test_the_chapter_starts_with_mice_and_minions_shuffled_from_slot_one():
    state = do(
        table(),
        {"type": "add_mouse", "hero": "collin", "life": 5},
        {"type": "add_mouse", "hero": "nez", "life": 6, "seat": "player-2"},
        {"type": "add_minions", "minion": "rats", "figures": 3},
        {"type": "start_chapter"},
        rng=ScriptedRng(shuffle=lambda items: items[::-1]),
    )
    assert order(state) == ["rats", "mouse:nez", "mouse:collin"]
    assert state["phase"] == "playing"
    assert active(state) == "rats"
    assert state["groups"]["rats"]["figures"] == [0, 0, 0]


def test_a_party_has_at_most_the_six_mice_of_the_box():
    heroes = [{"type": "add_mouse", "hero": hero, "life": 5} for hero in ("collin", "nez", "filch", "tilda", "lily")]
    state = do(table(), *heroes, {"type": "add_mouse", "hero": "custom", "name": "Whisker", "life": 4})
    with pytest.raises(RuleError) as refused:
        do(state, {"type": "add_mouse", "hero": "maginos", "life": 5})
    assert refused.value.code == "party_full"
    assert len(state["mice"]) == 6


# Every minion card the box puts on the track: rats, roaches, spiders, the centipede, Brodie's two, a leader's two.
BOX_MINIONS = [
    "rats",
    "roaches",
    "spiders",
    "centipede",
    "brodie:pounce",
    "brodie:chase",
    "leader:Vurst#1",
    "leader:Vurst#3",
]
BOX_GROUPS = [group(g) for g in ("rats", "roaches", "spiders", "centipede", "brodie")]


def full_track(*more):
    """Six mice, the box's eight minion cards and `more`."""
    track = ["collin", "nez", "filch", "maginos", "tilda", "lily", *BOX_MINIONS, *more]
    return chapter(track, groups=[*BOX_GROUPS, group("leader:Vurst", name="Vurst"), *(group(g, name=g) for g in more)])


def test_the_initiative_track_takes_one_minion_card_beyond_the_boxs_eight():
    state = do(full_track(), {"type": "add_minions", "minion": "other", "name": "Frogs", "figures": 2})
    with pytest.raises(RuleError) as refused:
        do(state, {"type": "add_minions", "minion": "other", "name": "Toads", "figures": 2})
    assert refused.value.code == "track_full"
    assert str(refused.value).startswith("The initiative track holds at most 9 minion cards")


def test_a_type_already_on_a_full_track_still_brings_more_figures():
    state = do(full_track("other:Frogs"), {"type": "add_minions", "minion": "rats", "figures": 3})
    assert state["pending"][0]["figures"] == 3


def test_an_encounter_whose_minions_the_full_track_has_no_room_for_is_refused():
    with pytest.raises(RuleError) as refused:
        toads = {"minion": "other", "name": "Toads", "figures": 2}
        do(full_track("other:Frogs"), {**reveal("Bog"), "minions": [toads]})
    assert refused.value.code == "track_full"


def test_a_surge_places_the_types_the_full_track_has_room_for_and_leaves_the_rest_off():
    card = face_up("Bog", surge_minions=[arriving("other", 2, name="Toads"), arriving("rats", 2)])
    state = {**full_track("other:Frogs"), "wheel": 5, "encounter": card}
    state = do(state, {"type": "add_cheese"})  # MM-30: as many as possible
    assert "other:Toads" not in state["groups"]
    assert state["groups"]["rats"]["figures"] == [0, 0, 0]
    assert len(state["track"]) == 15
    assert english(state["banner"]) == "Surge! From the encounter card Bog: 2 × Rats arrive."


def test_a_new_encounter_with_no_minion_cards_left_reshuffles_the_whole_track():
    state = chapter(["collin", "nez"], turn=1)
    state = do(
        state,
        {"type": "reveal_encounter", "name": "Roaches", "surge": "2 roaches"},
        {"type": "add_minions", "minion": "roaches", "figures": 2},
        {"type": "place_minions"},
        rng=ScriptedRng(shuffle=lambda items: [items[2], items[0], items[1]]),
    )
    assert order(state) == ["roaches", "mouse:collin", "mouse:nez"]
    assert state["turn"] == 0


def test_late_arrivals_go_to_the_next_free_slots_and_the_active_card_stays_up():
    state = chapter(["collin", "rats", "nez"], groups=[group("rats")], turn=0)
    state = do(
        state,
        {"type": "add_minions", "minion": "spiders", "life": 2},
        {"type": "add_minions", "minion": "centipede", "life": 3},
        {"type": "place_minions"},
        rng=ScriptedRng(shuffle=lambda items: items[::-1]),
    )
    assert order(state) == ["mouse:collin", "rats", "mouse:nez", "centipede", "spiders"]
    assert active(state) == "mouse:collin"


def test_a_minion_type_already_on_the_track_gets_no_second_card():
    state = chapter(["collin", "rats", "nez"], groups=[group("rats", 2)])
    state = do(state, {"type": "add_minions", "minion": "rats", "figures": 3}, {"type": "place_minions"})
    assert order(state) == ["mouse:collin", "rats", "mouse:nez"]
    assert state["groups"]["rats"]["figures"] == [0] * 5


def test_a_leader_adds_two_of_its_cards_drawn_at_random():
    state = do(
        table(),
        {"type": "add_mouse", "hero": "tilda", "life": 5},
        {"type": "add_minions", "minion": "leader", "name": "Captain Vurst", "cards": 4, "life": 3},
        {"type": "start_chapter"},
        rng=ScriptedRng(samples=[[4, 2]]),
    )
    assert order(state) == ["mouse:tilda", "leader:Captain Vurst#2", "leader:Captain Vurst#4"]


def test_brodie_brings_both_his_cards_and_acts_twice_a_round():
    state = chapter(["collin"])
    state = do(state, {"type": "add_minions", "minion": "brodie", "life": 6}, {"type": "place_minions"})
    assert sorted(order(state)) == ["brodie:chase", "brodie:pounce", "mouse:collin"]


def test_a_late_leader_goes_to_the_bottom_and_rolls_for_its_first_card_only():
    state = chapter(["collin", "rats", "nez"], groups=[group("rats")])
    state = do(
        state,
        {"type": "add_minions", "minion": "leader", "name": "Vurst", "cards": 2, "life": 3},
        {"type": "place_minions"},
        rng=ScriptedRng(rolls=[2]),
    )
    assert order(state) == ["mouse:collin", "leader:Vurst#1", "rats", "mouse:nez", "leader:Vurst#2"]


def test_an_ambush_moves_each_new_minion_card_up_by_its_roll_never_above_slot_one():
    state = do(
        table(),
        {"type": "add_mouse", "hero": "collin", "life": 5},
        {"type": "add_mouse", "hero": "nez", "life": 5},
        {"type": "add_minions", "minion": "rats"},
        {"type": "add_minions", "minion": "spiders", "life": 2},
        {"type": "start_chapter", "ambush": True},
        rng=ScriptedRng(rolls=[3, 1]),
    )
    # Laid out collin, nez, rats, spiders; rats roll 3 (stops at slot 1), then spiders roll 1.
    assert order(state) == ["rats", "mouse:collin", "spiders", "mouse:nez"]
    assert active(state) == "rats"
    assert state["wheel"] == 0


def test_an_ambush_can_take_the_physical_rolls():
    state = chapter(["collin", "nez", "rats"], groups=[group("rats")], turn=1)
    state = do(
        state, {"type": "add_minions", "minion": "roaches"}, {"type": "place_minions", "ambush": True, "rolls": [2]}
    )
    assert order(state) == ["mouse:collin", "roaches", "mouse:nez", "rats"]
    assert active(state) == "mouse:nez"


def test_defeating_the_last_figure_removes_the_card_and_closes_the_gap():
    state = chapter(["rats", "collin", "roaches"], groups=[group("rats", 2), group("roaches")], turn=1)
    state = do(state, {"type": "defeat_minion", "card": "rats"})
    assert order(state) == ["rats", "mouse:collin", "roaches"]
    state = do(state, {"type": "defeat_minion", "card": "rats"})
    assert order(state) == ["mouse:collin", "roaches"]
    assert active(state) == "mouse:collin"
    assert "rats" not in state["groups"]


def test_wounds_stay_on_a_figure_until_they_reach_its_life():
    state = chapter(["collin", "spiders"], groups=[group("spiders", 2, life=2)])
    state = do(state, {"type": "wound_minion", "card": "spiders", "figure": 2, "count": 1})
    assert state["groups"]["spiders"]["figures"] == [0, 1]
    state = do(state, {"type": "wound_minion", "card": "spiders", "figure": 2, "count": 1})
    assert state["groups"]["spiders"]["figures"] == [0]


def test_a_leader_is_defeated_only_when_its_last_card_is_removed():
    vurst = group("leader:Vurst", life=2, name="Vurst")
    state = chapter(["collin", "leader:Vurst#1", "leader:Vurst#3"], groups=[vurst])
    state = do(state, {"type": "wound_minion", "card": "leader:Vurst#3", "count": 2})
    assert order(state) == ["mouse:collin", "leader:Vurst#1"]
    assert "leader:Vurst" in state["groups"]
    state = do(state, {"type": "wound_minion", "card": "leader:Vurst#1", "count": 1})
    assert state["track"][1]["wounds"] == 1
    state = do(state, {"type": "defeat_minion", "card": "leader:Vurst#1"})
    assert order(state) == ["mouse:collin"]
    assert state["groups"] == {}


def test_a_captured_mouse_keeps_its_card_and_is_skipped_while_minions_are_on_the_board():
    state = chapter(["collin", "nez", "rats"], groups=[group("rats")])
    state["mice"][1]["captured"] = True
    state = do(state, {"type": "next"})
    assert active(state) == "rats"
    assert "mouse:nez" in order(state)


def test_a_captured_mouse_is_rescued_at_its_turn_when_no_minions_are_on_the_board():
    state = chapter(["collin", "nez"])
    state["mice"][1]["captured"] = True
    state = do(state, {"type": "next"})
    assert active(state) == "mouse:nez"
    assert state["mice"][1]["captured"] is False


def test_a_captured_mouse_below_the_last_minion_defeated_on_its_turn_is_rescued_at_once():
    state = chapter(["rats", "lily", "filch"], groups=[group("rats")], turn=0)  # MM-36 with MM-7
    state["mice"][0]["captured"] = True
    state = do(state, {"type": "defeat_minion", "card": "rats"})
    assert active(state) == "mouse:lily"
    assert state["mice"][0]["captured"] is False


def test_a_captured_mouse_below_a_defeated_active_minion_misses_its_turn_while_minions_remain():
    state = chapter(["rats", "lily", "filch", "roaches"], groups=[group("rats"), group("roaches")])  # MM-36
    state["mice"][0]["captured"] = True
    state = do(state, {"type": "defeat_minion", "card": "rats"})
    assert active(state) == "mouse:filch"
    assert state["mice"][0]["captured"] is True


def test_a_defeated_active_minion_in_the_last_slot_hands_the_turn_to_the_top_of_a_new_round():
    state = chapter(["collin", "nez", "rats"], groups=[group("rats")], turn=2)  # MM-7 with MM-1
    state = do(state, {"type": "defeat_minion", "card": "rats"})
    assert (active(state), state["round"]) == ("mouse:collin", 2)
    assert game.view(state, "player-1")["your_turn"] is True
    assert game.view(state, None)["active"] == "mouse:collin"


def test_a_leader_wounded_off_its_last_card_while_active_hands_the_turn_on():
    vurst = group("leader:Vurst", life=1, name="Vurst")
    state = chapter(["collin", "leader:Vurst#2"], groups=[vurst], turn=1)  # MM-19 with MM-7
    state = do(state, {"type": "wound_minion", "card": "leader:Vurst#2", "count": 1})
    assert (active(state), state["round"]) == ("mouse:collin", 2)


def test_the_minions_are_run_by_the_lowest_mouse_and_defended_by_the_player_to_the_left():
    state = chapter(["collin", "rats", "nez"], groups=[group("rats")], turn=0)
    view = game.view(state, None)
    assert view["minions_player"] == "player-2"
    assert view["defence_roller"] == "player-2"
    view = game.view(do(state, {"type": "next"}), None)
    assert view["defence_roller"] == "player-1"


def test_the_table_waits_on_the_player_who_runs_the_minions_while_their_card_is_active():
    state = do(chapter(["collin", "rats", "nez"], groups=[group("rats")], turn=0), {"type": "next"})  # MM-40
    assert [game.view(state, seat)["your_turn"] for seat in ("player-1", "player-2")] == [False, True]
    state = do(state, {"type": "next"})
    assert [game.view(state, seat)["your_turn"] for seat in ("player-1", "player-2")] == [False, True]  # nez's own


@pytest.mark.parametrize(
    ("lang", "once", "twice"),
    [
        ("en", "Bea runs the minions and rolls their defence.", "Bea runs the minions; Anna rolls their defence."),
        ("cs", "Nohsledy hraje Bea a hází i jejich obranu.", "Nohsledy hraje Bea; jejich obranu hází Anna."),
        (
            "nl",
            "Bea speelt de handlangers en gooit ook hun verdediging.",
            "Bea speelt de handlangers; Anna gooit hun verdediging.",
        ),
    ],
)
def test_the_player_who_runs_the_minions_and_rolls_their_defence_is_named_once(lang, once, twice):
    from babel.support import Translations

    from companion.i18n import say, translation_dirs

    translations = Translations()
    for directory in translation_dirs({game.id: game}).split(";"):
        translations.merge(Translations.load(directory, [lang]))
    names = {"player-1": "Anna", "player-2": "Bea"}
    state = chapter(["collin", "rats", "nez"], groups=[group("rats")], turn=0)
    assert say(game.view(state, None)["minions_line"], names, translations) == once
    after = do(state, {"type": "next"})
    assert say(game.view(after, None)["minions_line"], names, translations) == twice


# --- cheese wheel and surges ------------------------------------------------------------------------


def test_each_cheese_a_minion_rolls_goes_on_the_wheel():
    state = do(chapter(["collin", "rats"], groups=[group("rats")]), {"type": "add_cheese", "count": 2})
    assert state["wheel"] == 2


def test_brodies_cheese_never_goes_on_the_wheel():
    with pytest.raises(RuleError):
        do(chapter(["collin", "brodie:pounce"]), {"type": "add_cheese", "minion": "brodie"})


def test_a_greedy_roach_puts_stolen_cheese_on_the_wheel():
    state = chapter(["collin", "roaches"], groups=[{**group("roaches"), "greedy": True}], wheel=1)
    state["mice"][0]["cheese"] = 2
    state = do(state, {"type": "steal_cheese", "mouse": "collin", "count": 3})
    assert state["mice"][0]["cheese"] == 0
    assert state["wheel"] == 3


@pytest.mark.parametrize(
    ("roaches", "code"), [([], "no_roaches"), ([group("roaches")], "not_greedy")], ids=["no roach", "not greedy"]
)
def test_only_greedy_roaches_in_play_steal_cheese(roaches, code):
    state = chapter(["collin", "roaches"] if roaches else ["collin"], groups=roaches)  # MM-27
    state["mice"][0]["cheese"] = 2
    with pytest.raises(RuleError) as refused:
        do(state, {"type": "steal_cheese", "mouse": "collin"})
    assert refused.value.code == code


def test_time_running_out_adds_a_cheese_after_the_last_mouse_when_no_minions_are_on_the_board():
    state = do(chapter(["collin", "nez"], turn=1), {"type": "next"})
    assert state["wheel"] == 1
    assert active(state) == "mouse:collin"


def test_time_running_out_adds_nothing_while_minions_are_on_the_board():
    state = do(chapter(["collin", "nez", "rats"], groups=[group("rats")], turn=1), {"type": "next"})
    assert state["wheel"] == 0


def test_time_running_out_waits_for_the_last_mouse_not_the_first():
    state = do(chapter(["collin", "nez"], turn=0), {"type": "next"})
    assert state["wheel"] == 0


@pytest.mark.parametrize("cheese", [1, 2])
def test_a_surge_comes_at_six_or_more_cheese_and_empties_the_wheel(cheese):
    state = chapter(["collin", "rats"], groups=[group("rats")], wheel=5, hourglass=2, end_page=6)
    state = do(state, {"type": "add_cheese", "count": cheese})
    assert state["wheel"] == cheese - 1
    assert state["hourglass"] == 3
    assert state["banner"]["msg"].startswith("Surge!")


def test_cheese_beyond_six_stays_on_the_wheel_after_a_surge():
    state = chapter(["collin", "rats"], groups=[group("rats")], hourglass=1, end_page=9)  # MM-30, Q7
    state = do(state, {"type": "add_cheese", "count": 5}, {"type": "add_cheese", "count": 3})
    assert (state["hourglass"], state["wheel"]) == (2, 2)


def test_twelve_cheese_from_an_empty_wheel_are_two_surges():
    state = chapter(["collin", "rats"], groups=[group("rats")], hourglass=1, end_page=9)  # MM-30, Q7
    state = do(state, {"type": "add_cheese", "count": 12})
    assert (state["hourglass"], state["wheel"]) == (3, 0)


def test_cheese_after_the_surge_that_loses_the_chapter_is_not_counted():
    state = chapter(["collin", "rats"], groups=[group("rats")], hourglass=5, end_page=6)  # MM-31, Q5
    state = do(state, {"type": "add_cheese", "count": 12})
    assert (state["phase"], state["hourglass"]) == ("lost", 6)
    assert state["banner"]["msg"].startswith("The hourglass has reached")


def test_five_cheese_is_no_surge():
    state = do(chapter(["collin", "rats"], groups=[group("rats")], wheel=4), {"type": "add_cheese"})
    assert state["wheel"] == 5
    assert state["surge"] is None


def test_the_chapters_special_surge_wins_over_the_encounter_card():
    encounter = face_up("Spiders", "1 spider")
    state = chapter(["collin"], wheel=5, special_surge="Two rats from the drain", encounter=encounter)
    state = do(state, {"type": "add_cheese"})
    assert state["surge"]["source"] == "special"
    assert state["surge"]["text"] == "Two rats from the drain"
    assert state["encounter"] == encounter


def test_the_face_up_encounter_card_surges_once_and_is_then_discarded():
    state = chapter(["collin"], wheel=5, encounter=face_up("Spiders", "1 spider"))
    state = do(state, {"type": "add_cheese"})
    assert state["surge"]["source"] == "encounter"
    assert state["surge"]["text"] == "1 spider"
    assert state["encounter"] is None
    state = do(state, {"type": "add_cheese", "count": 6})
    assert state["surge"]["source"] == "none"
    assert state["hourglass"] == 3


# --- summoning: an encounter card's row and surge, recorded once ----------------------------------------


def english(message):
    """A message as the English screens say it."""
    args = {name: english(value) if isinstance(value, dict) else value for name, value in message["args"].items()}
    return message["msg"] % args


def reveal(name, *minions, **fields):
    """reveal_encounter with quick picks: (minion, now, at the surge, hit points) per type."""
    rows = [{"minion": m, "figures": now, "surge_figures": later, "life": life} for m, now, later, life in minions]
    return {"type": "reveal_encounter", "name": name, "minions": rows, **fields}


def test_a_revealed_encounter_places_its_rows_minions_and_keeps_its_surges_for_later():
    state = chapter(["collin", "nez"], hourglass=2, end_page=8)  # MM-25, MM-26, MM-3
    state = do(state, reveal("Rat patrol", ("rats", 3, 2, 1), ("spiders", 0, 1, 2)))
    assert sorted(order(state)) == ["mouse:collin", "mouse:nez", "rats"]
    assert state["groups"]["rats"]["figures"] == [0, 0, 0]
    card = state["encounter"]
    assert (card["name"], card["page"]) == ("Rat patrol", 2)
    assert card["surge_minions"] == [arriving("rats", 2), arriving("spiders", 1, life=2)]
    assert english(state["banner"]) == "New encounter Rat patrol: 3 × Rats arrive."
    assert english(game.view(state, "player-1")["encounter"]["surge_minions"]) == "2 × Rats, 1 × Spiders"


def test_a_surge_summons_the_face_up_cards_minions_onto_the_initiative_track():
    card = face_up("Rat patrol", surge_minions=[arriving("rats", 2), arriving("spiders", 1, life=2)])
    state = chapter(["collin", "rats", "nez"], groups=[group("rats")], wheel=5, hourglass=1, encounter=card)
    state = do(state, {"type": "add_cheese"})  # MM-30 step 3, MM-26 step 4
    assert order(state) == ["mouse:collin", "rats", "mouse:nez", "spiders"]  # MM-4: rats keep their one card
    assert state["groups"]["rats"]["figures"] == [0, 0, 0]
    assert state["groups"]["spiders"]["life"] == 2
    assert (active(state), state["hourglass"], state["wheel"], state["encounter"]) == ("mouse:collin", 2, 0, None)
    assert english(state["banner"]) == "Surge! From the encounter card Rat patrol: 2 × Rats, 1 × Spiders arrive."
    assert english(game.view(state, None)["surge"]["arrivals"]) == "2 × Rats, 1 × Spiders"


def test_a_later_surge_in_the_same_room_brings_no_minions_but_moves_the_hourglass():
    card = face_up("Rat patrol", surge_minions=[arriving("rats", 2)])
    state = chapter(["collin", "rats"], groups=[group("rats")], wheel=5, hourglass=1, end_page=9, encounter=card)
    state = do(state, {"type": "add_cheese"}, {"type": "add_cheese", "count": 6})  # Q7
    assert state["groups"]["rats"]["figures"] == [0, 0, 0]
    assert (state["hourglass"], state["surge"]["source"]) == (3, "none")
    assert english(state["banner"]) == "Surge! No minions appear, but the hourglass moves on."


def test_the_rooms_special_surge_summons_its_minions_every_time_instead_of_the_cards():
    card = face_up("Spider nest", surge_minions=[arriving("spiders", 1, life=2)])
    state = chapter(["collin", "rats"], groups=[group("rats")], hourglass=1, end_page=9, encounter=card)
    special = {"type": "set_special_surge", "minions": [{"minion": "roaches", "figures": 2, "life": 1}]}
    state = do(state, special, {"type": "add_cheese", "count": 6})  # MM-30 step 2
    assert order(state) == ["mouse:collin", "rats", "roaches"]
    assert state["encounter"] == card
    assert english(state["banner"]) == "Surge! The room's special surge: 2 × Roaches arrive."
    state = do(state, {"type": "add_cheese", "count": 6})
    assert state["groups"]["roaches"]["figures"] == [0] * 4


def test_a_surge_with_no_minions_on_the_board_lays_the_track_out_again_from_the_top():
    card = face_up("Roaches", surge_minions=[arriving("roaches", 2)])
    state = chapter(["collin", "nez"], turn=1, wheel=5, hourglass=1, encounter=card)
    rng = ScriptedRng(shuffle=lambda items: items[::-1])
    state = do(state, {"type": "next"}, rng=rng)  # MM-29 time is short, MM-30, MM-3
    assert order(state) == ["roaches", "mouse:nez", "mouse:collin"]
    assert (active(state), state["round"], state["wheel"]) == ("roaches", 2, 0)


def test_a_minion_type_keeps_the_hit_points_this_table_gave_it_last():
    state = do(chapter(["collin", "nez"]), reveal("Spiders", ("spiders", 1, 1, 3)))  # Q13
    state = do(state, {"type": "defeat_minion", "card": "spiders"}, reveal("More spiders", ("spiders", 0, 2, 3)))
    assert game.view(state, None)["minion_life"] == {"spiders": 3}
    state = do(state, {"type": "reveal_encounter", "name": "Web", "minions": [{"minion": "spiders", "figures": 1}]})
    assert state["groups"]["spiders"]["life"] == 3


def test_time_running_out_can_trigger_a_surge():
    state = do(chapter(["collin", "nez"], turn=1, wheel=5), {"type": "next"})
    assert state["surge"]["source"] == "none"
    assert state["wheel"] == 0


# --- story track ------------------------------------------------------------------------------------


def test_the_chapter_is_lost_when_the_hourglass_reaches_the_chapter_end_marker():
    state = chapter(["collin", "rats"], groups=[group("rats")], wheel=5, hourglass=5, end_page=6)
    state = do(state, {"type": "add_cheese"})
    assert state["phase"] == "lost"
    assert game.outcome(state)["winners"] == []
    with pytest.raises(RuleError):
        do(state, {"type": "next"})


def test_the_hourglass_one_page_before_the_end_is_not_yet_lost():
    state = do(chapter(["collin"], hourglass=4, end_page=6), {"type": "move_hourglass", "pages": 1})
    assert state["phase"] == "playing"
    assert game.outcome(state) is None


def test_the_chapter_is_won_when_the_players_mark_its_goals_done():
    state = do(chapter(["collin", "nez"]), {"type": "goals_done"})
    assert game.outcome(state)["winners"] == ["player-1", "player-2"]


def test_the_hourglass_and_end_marker_start_where_the_chapter_says():
    state = do(table(), {"type": "set_chapter", "chapter": 3, "hourglass_page": 2, "end_page": 8})
    assert (state["chapter"], state["hourglass"], state["end_page"]) == (3, 2, 8)
    with pytest.raises(RuleError):
        do(table(), {"type": "set_chapter", "hourglass_page": 6, "end_page": 6})


# --- mouse sheets -----------------------------------------------------------------------------------


def test_a_mouse_is_captured_when_its_wounds_reach_its_life():
    state = chapter(["collin", "rats"], groups=[group("rats")], hourglass=2)
    state["mice"][0].update(cheese=4, statuses=["webbed"], poison=1)
    state = do(state, {"type": "wound_mouse", "mouse": "collin", "count": 4})
    sheet = state["mice"][0]
    assert sheet["captured"] is True
    assert (sheet["cheese"], sheet["wounds"], sheet["poison"], sheet["statuses"]) == (0, 0, 0, [])
    assert state["hourglass"] == 3
    assert "mouse:collin" in order(state)


def test_normal_healing_leaves_poison_wounds():
    state = chapter(["collin"])
    state["mice"][0].update(wounds=2, poison=1)
    state = do(state, {"type": "heal_mouse", "mouse": "collin", "count": 3})
    assert (state["mice"][0]["wounds"], state["mice"][0]["poison"]) == (0, 1)


def test_levelling_up_costs_six_cheese():
    state = chapter(["collin"])
    state["mice"][0]["cheese"] = 7
    state = do(state, {"type": "level_up", "mouse": "collin", "ability": "Shield Bash"})
    assert state["mice"][0]["cheese"] == 1
    assert state["mice"][0]["abilities"] == ["first ability", "Shield Bash"]
    with pytest.raises(RuleError):
        do(state, {"type": "level_up", "mouse": "collin", "ability": "Another"})


def take(card, place="pack", mouse="collin", slot=None):
    return {"type": "take_card", "mouse": mouse, "card": card, "place": place, **({"slot": slot} if slot else {})}


def test_a_backpack_holds_at_most_three_cards_besides_tricks():
    state = do(chapter(["collin"]), take("Rope"), take("Cheese Knife"), take("Map"), take("Feint", "trick"))  # MM-23
    assert game.view(state, "player-1")["my_mice"][0]["backpack"] == 3
    with pytest.raises(RuleError, match="at most 3"):
        do(state, take("Lantern"))
    state = do(state, take("Lantern", "equipped", slot="paw"), take("Map", "equipped", slot="paw"), take("Lantern"))
    assert [(c["name"], c["place"]) for c in state["mice"][0]["cards"]][-2:] == [
        ("Map", "equipped"),
        ("Lantern", "pack"),
    ]


def test_a_mouse_equips_one_card_per_slot_and_two_in_its_paws():
    state = do(chapter(["collin"]), take("Sword", "equipped", slot="paw"), take("Shield", "equipped", slot="paw"))
    state = do(state, take("Breastplate", "equipped", slot="body"))  # MM-23
    for card, slot, refusal in (
        ("Bow", "paws", "no free paw"),
        ("Dagger", "paw", "no free paw"),
        ("Cloak", "body", "Breastplate"),
    ):
        with pytest.raises(RuleError, match=refusal) as refused:
            do(state, take(card, "equipped", slot=slot))
        assert refused.value.code == "slot_full"
    state = do(state, take("Shield"), take("Dagger", "equipped", slot="paw"), take("Sword", "equipped", slot="paw"))
    equipped = [(card["name"], card["slot"]) for card in state["mice"][0]["cards"] if card["place"] == "equipped"]
    assert equipped == [("Breastplate", "body"), ("Dagger", "paw"), ("Sword", "paw")]
    with pytest.raises(RuleError, match="Choose the slot"):
        do(state, take("Helmet", "equipped"))


def test_each_mouse_searches_a_room_successfully_only_once():
    state = do(chapter(["collin", "nez"]), {"type": "searched", "mouse": "collin", "room": "Kitchen"})  # MM-20
    with pytest.raises(RuleError, match="already searched"):
        do(state, {"type": "searched", "mouse": "collin", "room": "kitchen"})
    state = do(state, {"type": "searched", "mouse": "nez", "room": "Kitchen"}, actor="player-2")
    assert game.view(state, None)["rooms_searched"] == ["Kitchen"]
    with pytest.raises(RuleError, match="Only the player running"):
        do(state, {"type": "searched", "mouse": "collin", "room": "Cellar"}, actor="player-2")


def test_a_captured_mouse_loses_its_equipped_search_cards_but_keeps_its_backpack():
    state = do(
        chapter(["collin", "rats"], groups=[group("rats")]), take("Sword", "equipped", slot="paw"), take("Rope")
    )  # MM-35
    state = do(state, {"type": "capture_mouse", "mouse": "collin"})
    assert state["mice"][0]["cards"] == [{"name": "Rope", "place": "pack"}]


def test_statuses_go_on_and_off_and_a_charm_wears_off_at_the_end_of_the_turn():
    state = chapter(["collin", "nez", "rats"], groups=[group("rats")])
    state = do(
        state,
        {"type": "set_status", "mouse": "collin", "status": "webbed"},
        {"type": "set_status", "mouse": "collin", "status": "charmed"},
    )
    assert state["mice"][0]["statuses"] == ["webbed", "charmed"]
    state = do(state, {"type": "next"})
    assert state["mice"][0]["statuses"] == ["webbed"]


def test_a_player_acts_only_for_their_own_mice_but_anyone_can_act_for_the_minions():
    state = chapter(["collin", "nez", "rats"], groups=[group("rats")])
    with pytest.raises(RuleError):
        do(state, {"type": "mouse_cheese", "mouse": "nez", "count": 1}, actor="player-1")
    state = do(state, {"type": "mouse_cheese", "mouse": "collin", "count": 2}, actor="player-1")
    state = do(state, {"type": "add_cheese"}, {"type": "next"}, actor="player-2")
    assert (state["mice"][0]["cheese"], state["wheel"], active(state)) == (2, 1, "mouse:nez")


# --- individual achievements ------------------------------------------------------------------------


def achievers(track=("collin", "nez", "rats"), **extra):
    return chapter(list(track), groups=[group("rats")], options={"achievements": True}, **extra)


def test_achievements_are_off_unless_the_table_plays_them():
    with pytest.raises(RuleError):
        do(chapter(["collin"]), {"type": "award", "mouse": "collin", "achievement": "cheese_master"})


@pytest.mark.parametrize(
    ("achievement", "end_page"),
    [("cheese_master", 7), ("roach_slayer", 7), ("cat_tamer", 6), ("poison_resistance", 6)],
)
def test_achievements_move_the_chapter_end_marker_where_the_digest_says(achievement, end_page):
    state = do(achievers(end_page=6), {"type": "award", "mouse": "collin", "achievement": achievement})
    assert state["end_page"] == end_page
    assert state["achievements"] == {achievement: "collin"}


def test_three_cheese_in_one_roll_earn_cheese_master_automatically():
    state = achievers(end_page=6)
    state = do(state, {"type": "mouse_cheese", "mouse": "collin", "count": 2, "rolled": True})  # MM-39
    assert state["achievements"] == {}
    state = do(state, {"type": "mouse_cheese", "mouse": "collin", "count": 3})
    assert state["achievements"] == {}
    state = do(state, {"type": "mouse_cheese", "mouse": "collin", "count": 3, "rolled": True})
    assert (state["achievements"], state["end_page"], state["mice"][0]["cheese"]) == ({"cheese_master": "collin"}, 7, 8)


def test_four_roaches_defeated_by_one_mouse_in_one_encounter_earn_roach_slayer_automatically():
    roaches = [group("roaches", 6)]
    state = chapter(["collin", "nez", "roaches"], groups=roaches, options={"achievements": True}, end_page=6)
    state = do(state, *[{"type": "defeat_minion", "card": "roaches"}] * 3)  # MM-39
    state = do(state, {"type": "next"}, {"type": "defeat_minion", "card": "roaches"})
    assert state["achievements"] == {}
    state = do(state, {"type": "next"}, {"type": "next"}, {"type": "defeat_minion", "card": "roaches"})
    assert (state["achievements"], state["end_page"]) == ({"roach_slayer": "collin"}, 7)


def test_roaches_count_towards_roach_slayer_only_during_one_encounter_card():
    state = chapter(["collin", "roaches"], groups=[group("roaches", 6)], options={"achievements": True})
    state = do(state, *[{"type": "defeat_minion", "card": "roaches"}] * 3)  # MM-39
    state = do(
        state, {"type": "reveal_encounter", "name": "More roaches"}, {"type": "defeat_minion", "card": "roaches"}
    )
    assert state["achievements"] == {}


def test_a_greedy_roaches_encounter_marks_the_roaches_in_play_greedy():
    state = chapter(["collin", "roaches"], groups=[group("roaches", 2)])  # MM-27
    state = do(state, {"type": "greedy_roaches"})
    assert game.view(state, None)["minions"][0]["greedy"] is True
    with pytest.raises(RuleError, match="No roaches"):
        do(chapter(["collin"]), {"type": "greedy_roaches"})


def test_each_achievement_goes_only_to_the_first_mouse():
    state = do(achievers(), {"type": "award", "mouse": "collin", "achievement": "cheese_master"})
    with pytest.raises(RuleError):
        do(state, {"type": "award", "mouse": "nez", "achievement": "cheese_master"})


def test_a_second_capture_earns_prisoner_and_a_third_is_rescued_at_once():
    state = achievers(hourglass=1, end_page=9)
    state["mice"][0]["captures"] = 1
    state = do(state, {"type": "capture_mouse", "mouse": "collin"})
    assert state["achievements"] == {"prisoner": "collin"}
    assert (state["hourglass"], state["end_page"]) == (2, 10)
    state["mice"][0]["captured"] = False
    state = do(state, {"type": "capture_mouse", "mouse": "collin"})
    assert state["mice"][0]["captured"] is False
    assert state["hourglass"] == 3


def test_a_mouse_captured_with_poison_earns_poison_resistance_and_its_poison_then_counts_as_wounds():
    state = achievers()
    state["mice"][0]["poison"] = 1
    state = do(state, {"type": "wound_mouse", "mouse": "collin", "count": 4})
    assert state["achievements"] == {"poison_resistance": "collin"}
    state["mice"][0]["captured"] = False
    state = do(state, {"type": "wound_mouse", "mouse": "collin", "count": 1, "poison": True})
    assert (state["mice"][0]["wounds"], state["mice"][0]["poison"]) == (1, 0)


# --- campaign ---------------------------------------------------------------------------------------


def test_the_campaign_carries_abilities_and_one_search_card_into_the_next_chapter():
    state = chapter(["collin", "nez"], options={"campaign": True, "achievements": True})
    state["mice"][0].update(cheese=5, wounds=2, statuses=["stunned"], abilities=["A", "B"])
    state = do(state, take("Rope"), {"type": "searched", "mouse": "collin", "room": "Kitchen"})
    state = do(
        state,
        {"type": "award", "mouse": "collin", "achievement": "cat_tamer"},
        {"type": "carry_card", "mouse": "collin", "card": "Lucky Charm"},
        {"type": "goals_done"},
    )
    assert game.outcome(state) is None
    state = do(state, {"type": "next_chapter"})
    sheet = state["mice"][0]
    assert sheet["abilities"] == ["A", "B"]
    assert sheet["cards"] == [{"name": "Lucky Charm", "place": "pack"}]
    assert (sheet["cheese"], sheet["wounds"], sheet["statuses"], sheet["search_card"]) == (0, 0, [], None)
    assert sheet["rooms_searched"] == []
    assert state["achievements"] == {}
    assert (state["phase"], state["chapter"], state["chapters"]) == ("setup", 2, [{"chapter": 1, "result": "won"}])
    state = do(state, {"type": "start_chapter"})
    assert sorted(order(state)) == ["mouse:collin", "mouse:nez"]


def test_a_search_card_carried_into_the_next_chapter_shows_equipped_or_packed_as_it_was():
    state = chapter(["collin", "nez"], options={"campaign": True})  # MM-38
    state = do(
        state,
        take("Rope", place="equipped", slot="paws"),
        take("Cheese Knife"),
        {"type": "carry_card", "mouse": "collin", "card": "Rope"},
        {"type": "carry_card", "mouse": "nez", "card": "Torch", "place": "trick"},
        {"type": "goals_done"},
        {"type": "next_chapter"},
    )
    sheets = {
        sheet["id"]: sheet
        for sheet in game.view(state, "player-1")["my_mice"] + game.view(state, "player-2")["my_mice"]
    }
    assert [(card["name"], english(card["place_label"])) for card in sheets["collin"]["cards"]] == [
        ("Rope", "Equipped: Both paws")
    ]
    assert [(card["name"], card["place"]) for card in sheets["nez"]["cards"]] == [("Torch", "trick")]
    assert sheets["collin"]["search_card"] is None


def test_the_chapter_end_marker_does_not_carry_its_moves_into_the_next_chapter():
    state = do(
        table(campaign=True, achievements=True, end_page=6),
        {"type": "add_mouse", "hero": "collin", "life": 5},
        {"type": "start_chapter"},
        {"type": "award", "mouse": "collin", "achievement": "cheese_master"},
        {"type": "move_end_marker", "pages": 1},
    )
    assert state["end_page"] == 8
    state = do(state, {"type": "goals_done"}, {"type": "next_chapter"})  # MM-38: individual achievements reset
    assert (state["chapter"], state["end_page"]) == (2, 6)


def test_the_next_chapter_starts_from_the_end_page_its_setup_gave_the_chapter_before():
    state = do(
        table(campaign=True),
        {"type": "set_chapter", "end_page": 9},
        {"type": "add_mouse", "hero": "collin", "life": 5},
        {"type": "start_chapter"},
        {"type": "move_end_marker", "pages": 2},
        {"type": "chapter_lost"},
        {"type": "next_chapter"},
    )
    assert state["end_page"] == 9


def test_story_achievements_and_notes_carry_into_the_next_chapter_but_the_party_stash_does_not():
    state = do(
        chapter(["collin"], options={"campaign": True}),
        {"type": "story_achievement", "text": "Freed the prisoner"},
        {"type": "story_achievement", "text": "Lost the map"},
        {"type": "story_achievement", "text": "Lost the map", "on": False},
        {"type": "stash", "item": "grape", "change": 1},
        {"type": "set_notes", "text": "Lily owes Nez two cheese"},
        {"type": "goals_done"},
        {"type": "next_chapter"},
    )  # MM-38, MM-43
    view = game.view(state, None)
    assert view["story_achievements"] == ["Freed the prisoner"]
    assert view["notes"] == "Lily owes Nez two cheese"
    assert all(item["count"] == 0 for item in view["stash"])


def test_the_party_stash_holds_the_party_items_and_an_item_cannot_be_taken_from_an_empty_stash():
    state = do(
        chapter(["collin"]), {"type": "stash", "item": "fork", "change": 1}, {"type": "stash", "item": "fork"}
    )  # MM-43
    assert state["stash"]["fork"] == 2
    state = do(state, *[{"type": "stash", "item": "fork", "change": -1}] * 2)
    assert state["stash"]["fork"] == 0
    with pytest.raises(RuleError) as refused:
        do(state, {"type": "stash", "item": "fork", "change": -1})
    assert refused.value.code == "empty_stash"
    assert refused.value.message["args"]["item"]["msg"] == "Dinner Fork"


def test_a_party_token_left_in_a_room_leaves_the_board_when_the_mice_leave_it():
    token = {"type": "party_token", "item": "fork"}
    state = do(chapter(["collin"]), {"type": "stash", "item": "fork"}, {"type": "stash", "item": "grape"})  # MM-43
    state = do(state, {**token, "to": "room"}, {"type": "party_token", "item": "grape", "to": "room"})
    assert (state["stash"]["fork"], state["room_items"]["fork"]) == (0, 1)
    state = do(state, {"type": "party_token", "item": "grape", "to": "stash"})
    after = do(state, reveal("Rat patrol"))
    assert after["room_items"]["fork"] == 0 and after["stash"] == {**state["stash"], "grape": 1}
    assert any(line["msg"].startswith("%(item)s stays behind") for line in after["events"])
    assert do(state, {"type": "leave_room"})["room_items"]["fork"] == 0
    assert do(state, {**token, "to": "discard"})["room_items"]["fork"] == 0


@pytest.mark.parametrize(
    ("to", "code"), [("room", "empty_stash"), ("stash", "not_in_room"), ("discard", "not_in_room")]
)
def test_a_party_token_moves_only_from_where_it_is(to, code):
    with pytest.raises(RuleError) as refused:
        do(chapter(["collin"]), {"type": "party_token", "item": "disguises", "to": to})  # MM-43
    assert refused.value.code == code


def test_a_single_chapter_table_has_no_next_chapter():
    with pytest.raises(RuleError):
        do(do(chapter(["collin"]), {"type": "goals_done"}), {"type": "next_chapter"})


# --- platform contract ------------------------------------------------------------------------------


def test_apply_does_not_change_the_state_it_was_given():
    state = chapter(["collin", "rats"], groups=[group("rats")], wheel=5)
    frozen = copy.deepcopy(state)
    do(state, {"type": "add_cheese"}, {"type": "next"})
    assert state == frozen


def test_next_is_refused_when_stale_and_one_tap_counters_are_concurrent():
    assert "next" not in game.concurrent
    assert "add_cheese" in game.concurrent


def test_undo_across_a_surge_restores_the_wheel_and_hourglass_and_replays_the_same():
    state = chapter(["collin", "rats"], groups=[group("rats")], wheel=4, encounter=face_up("Rats", "3 rats"))
    before = state
    after = game.apply(before, HOST, {"type": "add_cheese", "count": 3}, Rng("seed", 7))
    restored = game.undo(before, after, {"type": "add_cheese", "count": 3})
    assert (restored["wheel"], restored["hourglass"], restored["encounter"]) == (4, 1, before["encounter"])
    again = game.apply(restored, HOST, {"type": "add_cheese", "count": 3}, Rng("seed", 7))
    assert again == after


def test_the_display_shows_the_track_wheel_story_and_mice_and_a_seat_sees_its_own_turn():
    state = chapter(["collin", "rats", "nez"], groups=[group("rats")], wheel=3, hourglass=2, end_page=6)
    display = game.view(state, None)
    assert [entry["active"] for entry in display["track"]] == [True, False, False]
    assert display["cheese_wheel"] == {"cheese": 3, "surge_at": 6}
    assert display["story"] == {"hourglass": 2, "end_page": 6, "pages_left": 4}
    assert [m["id"] for m in display["mice"]] == ["collin", "nez"]
    first, second = game.view(state, "player-1"), game.view(state, "player-2")
    assert (first["your_turn"], second["your_turn"]) == (True, False)
    assert [m["id"] for m in first["my_mice"]] == ["collin"]
    assert game.view(do(state, {"type": "next"}), "player-2")["up_next"] is True


def test_history_lines_speak_the_players_words():
    state = chapter(["collin", "rats"], groups=[group("rats")], wheel=5)
    after = do(state, {"type": "add_cheese"}, actor="player-1")
    lines = game.describe(state, after, "player-1", {"type": "add_cheese"})
    assert lines[0]["msg"] == "%(actor)s adds %(count)s cheese to the cheese wheel."
    assert any(line["msg"].startswith("Surge!") for line in lines)
    assert all(line["seats"] is None for line in lines)


# --- dice helper ------------------------------------------------------------------------------------


def test_the_dice_helper_shows_a_symbol_and_a_movement_number_per_die():
    state = chapter(["collin"], options={"dice_helper": True})
    state = do(state, {"type": "roll_dice", "count": 3}, rng=Rng("dice", 1))
    faces = game.view(state, None)["dice"]["faces"]
    assert len(faces) == 3
    assert all(f["symbol"] in {"sword", "bow", "shield", "cheese", "star"} and 1 <= f["move"] <= 3 for f in faces)


def test_the_dice_helper_is_off_unless_the_table_wants_it():
    with pytest.raises(RuleError):
        do(chapter(["collin"]), {"type": "roll_dice", "count": 1})


# --- a whole chapter --------------------------------------------------------------------------------


def test_a_whole_scripted_chapter():
    rng = ScriptedRng()
    state = do(
        table(players=2),
        {"type": "set_chapter", "chapter": 1, "hourglass_page": 1, "end_page": 6},
        {"type": "add_mouse", "hero": "collin", "life": 5},
        {"type": "add_mouse", "hero": "custom", "name": "Whisker", "life": 4, "seat": "player-2"},
        {"type": "add_minions", "minion": "rats", "figures": 2},
        {"type": "start_chapter"},
        rng=rng,
    )
    assert order(state) == ["mouse:collin", "mouse:mouse-1", "rats"]
    # Round 1: Collin fights, rats roll cheese; a rat falls.
    state = do(state, {"type": "mouse_cheese", "mouse": "collin", "count": 1}, actor="player-1")
    state = do(state, {"type": "defeat_minion", "card": "rats"}, {"type": "next"}, {"type": "next"}, actor="player-2")
    state = do(state, {"type": "add_cheese", "count": 5}, {"type": "next"}, actor="player-2")
    assert (state["round"], active(state), state["wheel"]) == (2, "mouse:collin", 5)
    # Round 2: the last rat falls; time runs out after Whisker and the wheel surges.
    state = do(state, {"type": "defeat_minion", "card": "rats"}, {"type": "next"}, {"type": "next"})
    assert state["hourglass"] == 2
    assert state["surge"]["source"] == "none"
    # A new room: roaches ambush.
    state = do(
        state,
        {"type": "reveal_encounter", "name": "Roaches", "surge": "2 roaches"},
        {"type": "add_minions", "minion": "roaches", "figures": 2},
        {"type": "place_minions", "ambush": True, "rolls": [3]},
    )
    assert order(state) == ["roaches", "mouse:collin", "mouse:mouse-1"]
    state = do(state, {"type": "add_cheese", "count": 6})
    assert (state["hourglass"], state["encounter"], state["surge"]["text"]) == (3, None, "2 roaches")
    state = do(state, {"type": "defeat_minion", "card": "roaches"}, {"type": "defeat_minion", "card": "roaches"})
    state = do(state, {"type": "goals_done"})
    assert game.outcome(state)["winners"] == ["player-1", "player-2"]


# --- translations -----------------------------------------------------------------------------------


def test_czech_and_dutch_strings_are_complete():
    from companion.catalogs import missing

    assert [line for line in missing() if "mice_and_mystics" in line] == []


@pytest.mark.parametrize("achievements", [True, False])
def test_the_screens_know_whether_individual_achievements_are_in_play(achievements):
    state = table(achievements=achievements)
    assert game.view(state, None)["achievements_in_play"] is achievements
    assert game.view(state, "player-1")["achievements_in_play"] is achievements


def on_turn(view: dict) -> str:
    """The player a screen shows on turn: the active mouse's, or for a minion card the one who runs them (MM-40)."""
    active = next(card for card in view["track"] if card["active"])
    return active["seat"] if active["kind"] == "mouse" else view["minions_player"]


@pytest.mark.parametrize("seed", range(16))
def test_the_start_player_is_who_played_the_first_card_of_the_first_chapter(seed):
    """BG Stats' start player began the play: whoever the screens showed on turn when the first chapter began,
    however the track was shuffled, minions first or not, through a random campaign of up to four players."""
    chooser = random.Random(seed)
    state = game.setup({"players": chooser.randint(1, 4), "campaign": chooser.random() < 0.5}, Rng(str(seed), 0))
    seqs = itertools.count(1)

    def act(**action) -> None:
        nonlocal state
        state = game.apply(state, HOST, action, Rng(str(seed), next(seqs)))

    for hero in chooser.sample(sorted(HEROES), chooser.randint(1, 4)):
        act(type="add_mouse", hero=hero, life=4, seat=chooser.choice(state["seats"]))
    began = None
    for chapter_number in range(chooser.randint(1, 3) if state["options"]["campaign"] else 1):
        if chapter_number:
            act(type="next_chapter")
        for minion in chooser.sample(["rats", "roaches", "spiders", "centipede"], chooser.randint(0, 2)):
            act(type="add_minions", minion=minion, figures=2)
        act(type="start_chapter", ambush=chooser.random() < 0.3)
        began = began or on_turn(game.view(state, None))
        for _turn in range(chooser.randint(0, 6)):
            act(type="next")
        act(type=chooser.choice(["goals_done", "chapter_lost"]))
    if state["options"]["campaign"]:
        act(type="end_campaign")
    assert game.outcome(state)["start_player"] == began
