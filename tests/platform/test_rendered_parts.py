"""Parts of pages kept by their inputs (companion/web/rendered_parts.py): a page is the same whether its parts were
rendered now or kept from an earlier push, through whole random games."""

from __future__ import annotations

import itertools

import pytest
from jinja2 import Undefined
from markupsafe import Markup

from bench.game_scripts import REPLAY_SEED, Recording
from companion.web.app import create_app
from companion.web.frames import live_context, renderer
from companion.web.rendered_parts import ENTRY_BYTES, RenderedParts, part_key
from tests.e2e.walk import options_for
from tests.pages import MOST_SEATS

LANGUAGES = ("en", "cs", "nl")
BASE_URL = "http://127.0.0.1:8000/"
# Actions played of each game, in as many whole games as that takes.
ACTIONS = 120


def test_the_least_recently_used_parts_go_first_past_the_budget():
    parts = RenderedParts(budget=2 * (ENTRY_BYTES + 4))
    parts.keep(b"a", Markup("aaaa"))
    parts.keep(b"b", Markup("bbbb"))
    assert parts.get(b"a") == "aaaa"  # used: now the newest
    parts.keep(b"c", Markup("cccc"))
    assert (parts.get(b"a"), parts.get(b"b"), parts.get(b"c")) == ("aaaa", None, "cccc")
    assert parts.size == 2 * (ENTRY_BYTES + 4) and len(parts) == 2


def test_a_part_is_counted_by_its_bytes_and_given_back_as_it_was_kept():
    parts = RenderedParts(budget=10_000)
    parts.keep(b"a", Markup("<b>Přemysl</b>"))
    assert parts.size == ENTRY_BYTES + len("<b>Přemysl</b>".encode())
    found = parts.get(b"a")
    assert found == "<b>Přemysl</b>" and isinstance(found, Markup)


def test_a_part_larger_than_the_budget_is_not_kept():
    parts = RenderedParts(budget=ENTRY_BYTES + 3)
    parts.keep(b"a", Markup("aaaa"))
    assert parts.get(b"a") is None and parts.size == 0


def test_inputs_that_differ_in_type_or_presence_have_different_keys():
    keys = {part_key("page", "part", inputs) for inputs in [(None,), (Undefined(),), ("",), (0,), (False,), ()]}
    assert len(keys) == 6
    assert part_key("page", "part", (1, "a")) == part_key("page", "part", (1, "a"))
    assert part_key("page", "part", (1,)) != part_key("other page", "part", (1,))
    # Alike as JSON, not as data: a template renders them differently (a Markup is not escaped again).
    alike_as_json = [
        ([1],),
        ((1,),),
        ({1: "a"},),
        ({"1": "a"},),
        ("<b>",),
        (Markup("<b>"),),
        ([Undefined()],),
        ([None],),
    ]
    assert len({part_key("page", "part", inputs) for inputs in alike_as_json}) == len(alike_as_json)


def test_equal_inputs_have_one_key_however_their_values_are_shared_or_interned():
    name = "".join(["mouse:", "nez"])  # not interned, unlike the literal
    card = {"id": "mouse:nez", "wounds": 1.5}
    assert part_key("page", "part", ([card, card],)) == part_key(
        "page", "part", ([{"id": name, "wounds": 1.5}, {"id": "mouse:nez", "wounds": 1.5}],)
    )


def test_an_input_that_is_not_plain_data_is_refused():
    """Its text (an address in memory, say) could be the same for another value: such a part is never kept."""
    with pytest.raises(TypeError, match="plain data"):
        part_key("page", "part", (object(),))


@pytest.mark.parametrize("game", MOST_SEATS)
def test_through_random_games_every_page_is_the_same_with_its_parts_kept(app, game):
    """Seeded random games, each played to its end as the walk plays (bench/game_scripts.py) with the walk's options
    of its seed, until ACTIONS were played. After every action each page, rendered with the parts kept from all the
    pages and actions before, is the page rendered afresh: each seat's phone (one of them the host's), the display and
    the host page, in the three languages in turn."""
    actions = 0
    for seed in itertools.count():
        table = Recording(app, game, seed, {**options_for(game, seed), **MOST_SEATS[game]})
        actions += check_every_page(app, table)
        if actions >= ACTIONS:
            break
    assert len(renderer(app, "en", BASE_URL).parts), "the game's pages have parts kept by their inputs"


def check_every_page(app, table: Recording) -> int:
    """Every page after every action of the table's game, to its end: the actions played."""
    seats = list(table.names)
    for step in itertools.count():
        # Every other action all phones in one language (seats alike but for the seat may share a part: they must not
        # share what tells them apart), in between each its own. The host's phone is the last seat's: the host's
        # key differs, and the first seats (Mister X's, at the start of his empty log) must meet the others alike.
        pages = [
            (seat, LANGUAGES[(step + number * (step % 2)) % 3], number == len(seats) - 1, False)
            for number, seat in enumerate(seats)
        ]
        pages += [(None, LANGUAGES[step % 3], False, False), (None, LANGUAGES[(step + 1) % 3], True, True)]
        for seat, locale, is_host, host_page in pages:
            render = renderer(app, locale, BASE_URL)
            game, context = live_context(table.code, seat, is_host, False, host_page, render)
            assert render.render(game, context) == render.render(game, context, memo=False), (step, seat, locale)
        if table.service.view(table.code, None)["outcome"] is not None or not table.step():
            return step


def test_in_a_ghost_fight_each_fighter_s_phone_shows_its_own_turn_when_all_phones_speak_one_language(tmp_path):
    """The attacker's and the defender's phones differ in whose turn they say and who is to roll: a part of their turn
    that left the seat out would be shared between them. Seed 3 of the walk's player, with the recorded games' dice,
    meets a ghost at its 53rd action (the random games above, with dice of their own, seldom do where every phone
    speaks one language)."""
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "REPLAY_SEED": REPLAY_SEED, "RENDER_WORKERS": 0})
    game = "eat-your-tourist"
    table = Recording(app, game, 3, {**options_for(game, 3), **MOST_SEATS[game]})
    for _ in range(100):
        if table.service.view(table.code, None)["view"]["fight"] or not table.step():
            break
    fight = table.service.view(table.code, None)["view"]["fight"]
    assert fight, "the walk's player met no ghost"
    for locale in LANGUAGES:
        render = renderer(app, locale, BASE_URL)
        for seat in (fight["attacker"], fight["defender"], *table.names):
            game_of, context = live_context(table.code, seat, False, False, False, render)
            assert render.render(game_of, context) == render.render(game_of, context, memo=False), (seat, locale)
