"""Seeded random full games of every game, every screen measured after every action (see tests/e2e/walk.py).

The suite plays a few seeds chosen to cover each game's variants and house rules; COMPANION_WALK_SEEDS=50 plays
seeds 0-49 of every game instead. Each check is its own test over the same walk, which is played once.
"""

from __future__ import annotations

import os

import pytest

from companion.forms import parse_options
from companion.games import load
from tests.conftest import ServerProcess
from tests.e2e.walk import CHECKS, LANGUAGES, SCHEMES, Plan, Walk, options_for

PLANS = {
    "downforce": Plan(
        "downforce",
        waits_on={
            "bid": False,
            "forced_bid": False,
            "keep_power": False,
            "bet": False,
            "finish": True,
            "end_race": False,
        },
        weights={"bid": 3.0},
    ),
    "scotland-yard": Plan("scotland-yard", waits_on={"move": True, "double_move": True}),
    "mice-and-mystics": Plan(
        "mice-and-mystics",
        waits_on={"next": False, "start_chapter": False},
        weights={"next": 8.0, "add_mouse": 4.0, "start_chapter": 2.0, "remove_mouse": 0.2, "set_notes": 0.2},
        endings=frozenset({"goals_done", "chapter_lost", "next_chapter", "end_campaign"}),
        budget=90,
    ),
    "eat-your-tourist": Plan(
        "eat-your-tourist",
        waits_on={"roll_fright": True, "roll_panic": True, "choose_colour": True, "fight_roll": True, "next": False},
        weights={"next": 3.0, "move_ghost": 2.0, "eat": 2.0},
    ),
}

# The suite's walks, (game, seed, options beside the seed's, the most actions): every game with the most seats it
# allows, the language turning with the seed (en, cs, nl: each of them at least once) and the colours (odd seeds:
# dark); Downforce and Scotland Yard play whole games, the longer games the first part of one. Scotland Yard twice:
# five detective players (seed 1, in Czech, whose long ticket words made the display's travel log the tallest), and
# one who runs two detectives and both bobbies (seed 8, see options_for).
SUITE = (
    ("downforce", 1, {"variant": "standard", "car_for_everyone": False}, 400),
    ("scotland-yard", 1, {}, 400),
    ("scotland-yard", 8, {}, 60),
    ("mice-and-mystics", 6, {}, 50),
    ("eat-your-tourist", 5, {}, 400),
)

# What the walk finds on main today, check by check: strict, so a fix without removing its mark turns red.
KNOWN: dict[tuple[str, str], str] = {}


def cases() -> list[tuple[str, int, dict, int]]:
    many = int(os.environ.get("COMPANION_WALK_SEEDS", "0"))
    if many:
        return [(game, seed, {}, 1500) for game in PLANS for seed in range(many)]
    return list(SUITE)


def marked(game: str, seed: int, options: dict, limit: int, check: str):
    reason = KNOWN.get((game, check))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(game, seed, options, limit, check, marks=marks, id=f"{game}-{seed}-{check}")


@pytest.fixture(scope="module")
def walks(tmp_path_factory, browser):
    """The walks played so far in this module, each played once for all its checks."""
    server = ServerProcess(tmp_path_factory.mktemp("walk") / "data", env={"COMPANION_REPLAY_SEED": "walk"}).start()
    played = {}

    def walk(game: str, seed: int, options: dict, limit: int):
        if (game, seed) not in played:
            table = Walk(server.url, browser, PLANS[game], seed, {**options_for(game, seed), **options})
            try:
                played[game, seed] = table.play(limit)
            finally:
                table.close()
        return played[game, seed]

    yield walk
    server.stop()


@pytest.mark.parametrize(
    ("game", "seed", "options", "limit", "check"), [marked(*case, c) for case in cases() for c in CHECKS]
)
def test_every_state_of_a_random_game_passes_the_screen_check(walks, game, seed, options, limit, check):
    findings = walks(game, seed, options, limit)
    # A game may end in a few actions (Downforce's beginner race: the first car home with an owner wins), but a
    # walk that stops short of the end found nothing it could take.
    stopped = not findings.ends and findings.actions < min(limit, 30)
    assert not stopped, f"the walk stopped early: {findings.actions} actions"
    assert not findings.checks[check], f"{check}: {findings.summary(check)}"


def test_every_walk_runs_axe_on_every_seat_s_phone_the_host_page_and_the_display(walks):
    """With the suite's walks speaking every language (below), each page kind is axe-checked in en, cs and nl."""
    for game_id, seed, options, limit in SUITE:
        findings = walks(game_id, seed, options, limit)
        seats = {spec.id for spec in load([])[game_id].seats({**options_for(game_id, seed), **options})}
        assert findings.axed == seats | {"host", "display"}, (game_id, seed)


def test_the_suite_s_walks_speak_every_language_in_both_colours_and_seat_the_most_players_every_game_allows():
    assert {LANGUAGES[seed % len(LANGUAGES)] for _game, seed, _options, _limit in SUITE} == set(LANGUAGES)
    assert {SCHEMES[seed % len(SCHEMES)] for _game, seed, _options, _limit in SUITE} == set(SCHEMES)
    for game_id in PLANS:
        game = load([])[game_id]
        players = game.options[0]  # each game's first option is its number of players
        most = len(game.seats(parse_options(game, {players.name: players.max}, from_form=False)))
        walked = [{**options_for(game_id, seed), **options} for name, seed, options, _limit in SUITE if name == game_id]
        assert max(len(game.seats(options)) for options in walked) == most, game_id
