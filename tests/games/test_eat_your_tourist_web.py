"""Sežer svého turistu! in the browser's words: the seat pages and the display, and a turn through the forms."""

from __future__ import annotations

import html
import re
from functools import cache

import pytest
from babel.messages.mofile import read_mo

from companion import catalogs
from tests import pages
from tests.pages import Device, api

GAME = "eat-your-tourist"
NAMES = {"player-1": "Anna", "player-2": "Bea", "player-3": "Cyril"}


# --- a table through the JSON API ---------------------------------------------------------------


def open_table(client, **options):
    """A table for three with Anna to start; returns the code, the host token and the seat tokens."""
    code, tokens = pages.open_table(client, GAME, {"starting_player": "player-1", **options}, NAMES)
    return code, tokens.pop("host"), tokens


def text_nodes(page: str) -> list[str]:
    """The text nodes a player reads (no attributes, no scripts), each on its own."""
    body = page.split("<main>", 1)[-1]
    return [html.unescape(t).strip() for t in re.findall(r">([^<>]+)<", body) if t.strip()]


# --- the states the screens are checked in ------------------------------------------------------


def in_fright(client, code, host, tokens):
    api(client, code, host, type="roll_fright", value=4)
    api(client, code, host, type="roll_fright")
    api(client, code, host, type="tourist_escapes", colour="blue")


def in_a_fight(client, code, host, tokens):
    for action in ({"type": "next"}, {"type": "enter_ghost"}, {"type": "next"}, {"type": "roll_panic", "value": 1}):
        api(client, code, host, **action)
    api(client, code, host, type="next")
    api(client, code, host, type="next")
    api(client, code, host, type="enter_ghost")
    api(client, code, host, type="fight", opponent="player-1", steps=2)


def in_panic_with_a_fallback(client, code, host, tokens):
    api(client, code, host, type="next")
    api(client, code, host, type="enter_ghost")
    api(client, code, host, type="eat", colour="green", steps=1)
    api(client, code, host, type="next")
    for _ in range(4):
        api(client, code, host, type="tourist_escapes", colour="red")
    api(client, code, host, type="roll_panic", value=3)


def over(client, code, host, tokens):
    for colour in ["blue"] * 4 + ["yellow"] * 4 + ["red"] * 4 + ["green"] * 3:
        api(client, code, host, type="tourist_escapes", colour=colour)
    api(client, code, host, type="next")
    api(client, code, host, type="enter_ghost")
    api(client, code, host, type="eat", colour="green")


STATES = {"fright": in_fright, "fight": in_a_fight, "panic": in_panic_with_a_fallback, "over": over}


@cache
def english_phrases() -> frozenset[str]:
    """Every phrase of this game's catalogue that Czech and Dutch say differently, split at the placeholders."""
    source = next(s for s in catalogs.sources() if s.translations.parent.name == "eat_your_tourist")
    phrases = set()
    for message in source.messages():
        if not message.id or not isinstance(message.id, str):
            continue
        for chunk in re.split(r"%\(\w+\)s", message.id):
            chunk = chunk.strip(" .:;,·()")
            if len(chunk) >= 5 and re.search(r"[a-z]{3}", chunk):
                phrases.add(chunk)
    for locale in catalogs.LOCALES:
        with (source.translations / locale / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
            translated = {m.id: m.string for m in read_mo(handle) if m.id}
        phrases -= {chunk for chunk in phrases if translated.get(chunk) == chunk}
    return frozenset(phrases)


@pytest.mark.parametrize("state", list(STATES))
def test_every_seat_and_the_display_render_in_each_language_with_nothing_left_in_english(client, app, state):
    code, host, tokens = open_table(client)
    STATES[state](client, code, host, tokens)
    devices = {seat: Device(app, code, seat=token) for seat, token in tokens.items()}
    devices["display"] = Device(app, code, host=host)
    devices["guest display"] = Device(app, code)
    for lang in ("en", "cs", "nl"):
        phrases = english_phrases() if lang != "en" else frozenset()
        for who, device in devices.items():
            page = device.refresh(lang)
            # Once the castle is empty the display shows the final ranking alone.
            final_display = state == "over" and who.endswith("display")
            assert 'id="eyt-score"' in page and ('id="eyt-tourists"' in page) != final_display, (lang, who)
            assert "%(" not in page and "{{" not in page, (lang, who)
            assert all(name in page for name in NAMES.values()), (lang, who)
            text = text_nodes(page)
            leftovers = {p for p in phrases for line in text if p == line or (len(p) >= 12 and p in line)}
            assert not leftovers, (lang, who, leftovers)


def test_only_the_seat_on_turn_gets_buttons_and_the_others_wait(client, app):
    code, host, tokens = open_table(client)
    anna = Device(app, code, seat=tokens["player-1"]).page
    bea = Device(app, code, seat=tokens["player-2"]).page
    guest = Device(app, code).page
    assert 'data-action="roll_fright"' in anna and 'data-action="next"' in anna
    assert "Your turn" in anna
    assert "data-action=" not in bea and "Anna is playing" in bea
    assert "data-action=" not in guest and "Anna is on turn" in guest


def test_the_panic_table_marks_the_rolled_row_and_highlights_the_fallback(client, app):
    code, host, tokens = open_table(client)
    in_panic_with_a_fallback(client, code, host, tokens)
    page = Device(app, code).page
    rows = re.findall(r'<tr class="([^"]*)"[^>]*>\s*<th scope="row"><span class="eyt-die">(\d)</span>', page)
    classes = {int(roll): set(kind.split()) for kind, roll in rows}
    assert "eyt-highlight" in classes[1] and "eyt-rolled" in classes[3] and "eyt-gone" in classes[3]
    # The TV says why another row applies once, in the banner; the phones and the host page under the table.
    assert "that colour has left the castle" in page and "walked up from 1" not in page
    assert "walked up from 1" in Device(app, code, host=host, view="host").page


def test_the_final_ranking_shows_each_players_breakdown_by_name(client, app):
    code, host, tokens = open_table(client)
    over(client, code, host, tokens)
    page = Device(app, code).page
    assert "Final ranking" in page
    assert "1 eaten × 2 = 2; 0 escaped × −1 = 0" in page
    assert "0 eaten × 2 = 0; 15 escaped × −1 = -15" in page
    assert re.search(r"Anna</span>\s*<span class=\"eyt-tag eyt-tag-now\">wins", page)
    assert "Anna: 2 points" in page  # the platform's summary names players too


# --- a turn through the HTML forms ---------------------------------------------------------------


def scores(app, code) -> dict[str, int]:
    page = Device(app, code).page
    found = re.findall(r'<span class="eyt-name[^"]*"[^>]*>([^<]+)</span>.*?eyt-points">(-?\d+)<', page, flags=re.S)
    return {name: int(points) for name, points in found}


def test_a_turn_and_a_ghost_fight_through_the_forms_of_the_seat_pages(client, app):
    code, host, tokens = open_table(client)
    anna, bea, cyril = (Device(app, code, seat=tokens[seat], live=False) for seat in NAMES)

    # Anna's fright: a table die of 4, the tourist runs off the board: Bea, on her left, pays.
    anna.submit("roll_fright", value=4)
    assert re.search(r'Rolled this turn:\s*<span class="eyt-die eyt-die-small">4</span>', anna.page)
    anna.submit("tourist_escapes", "Escaped", colour="blue")
    anna.submit("next", "Go on to the hunt")

    # Hunt: a ghost comes in, walks 2, then 1 more onto a red tourist: 2 of 5 points left.
    anna.submit("enter_ghost")
    assert not anna.offers("enter_ghost")  # one ghost a turn
    anna.submit("move_ghost", steps=2)
    anna.submit("move_ghost", steps=1)
    anna.submit("eat", "Red")
    assert '<span class="eyt-movement-left">2</span>' in anna.page
    anna.submit("next", "Go on to the panic")

    # Panic: a 6 moves the opponents' ghosts and turns up an event.
    anna.submit("roll_panic", value=6)
    assert "New event: Event" in anna.page and "eyt-event-number" in anna.page
    assert not anna.offers("roll_panic")
    cyril.refresh()
    refused = cyril.post({"type": "next"})
    assert refused.status_code == 422 and "It is not your turn." in refused.get_data(as_text=True)
    anna.submit("next", "End the turn")
    assert scores(app, code) == {"Anna": 2, "Cyril": 0, "Bea": -1}

    # Bea's turn: her ghost attacks Anna's; each rolls on their own phone, and Bea wins 5 to 2.
    bea.refresh()
    assert "Your turn" in bea.page and "Turn 2" in bea.page
    bea.submit("next", "Go on to the hunt")
    bea.submit("enter_ghost")
    bea.submit("fight", "Anna's ghost")
    anna.refresh()
    assert "Your ghost is attacked: roll for it!" in anna.page
    anna.submit("fight_roll", seat="player-1", value=2)
    bea.submit("fight_roll", seat="player-2", value=5)
    assert "(Bea wins)" in bea.page
    assert "ghosts on the board 0/2" in bea.page  # Anna's ghost was knocked off
    bea.submit("next", "Go on to the panic")
    bea.submit("roll_panic", value=5)
    bea.submit("choose_colour", colour="yellow")
    bea.submit("next", "End the turn")
    cyril.refresh()
    assert "Your turn" in cyril.page and 'data-action="roll_fright"' in cyril.page


def test_a_phone_asks_which_ghost_only_when_more_than_one_can_act(client, app):
    code, host, tokens = open_table(client)
    quiet_turn = ({"type": "next"}, {"type": "next"}, {"type": "roll_panic", "value": 1}, {"type": "next"})
    api(client, code, host, type="next")
    api(client, code, host, type="enter_ghost")
    for action in quiet_turn[1:]:
        api(client, code, host, **action)
    for _seat in ("player-2", "player-3"):
        for action in quiet_turn:
            api(client, code, host, **action)
    api(client, code, host, type="next")
    anna = Device(app, code, seat=tokens["player-1"], live=False)
    anna.submit("enter_ghost")  # ET-12: off the board ghosts are alike, so no choice

    # ET-17: two ghosts on the board, each with its own row of one-tap buttons.
    assert {form["hidden"]["ghost"] for form in anna.offers("move_ghost")} == {"1", "2"}
    assert "Move ghost 2 (squares)" in anna.page and "Ghost 1 vanishes instead of moving" in anna.page
    anna.submit("move_ghost", ghost=1, steps=2)
    assert [form["hidden"]["ghost"] for form in anna.offers("vanish")] == ["2"]
    assert "A ghost vanishes instead of moving" in anna.page  # only ghost 2 can: no choice shown
    anna.submit("eat", "Red", ghost=1)
    assert {form["hidden"]["ghost"] for form in anna.offers("move_ghost")} == {"2"}
    assert "Move a ghost (squares)" in anna.page and "Move ghost 2" not in anna.page
    anna.submit("vanish", ghost=2)
    assert "Anna makes ghost 2 vanish" in anna.page
