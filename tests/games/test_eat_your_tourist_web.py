"""Sežer svého turistu! in the browser's words: the seat pages and the display, and a turn through the forms."""

from __future__ import annotations

import html
import re
from functools import cache
from html.parser import HTMLParser

import pytest
from babel.messages.mofile import read_mo

from companion import catalogs

GAME = "eat-your-tourist"
NAMES = {"player-1": "Anna", "player-2": "Bea", "player-3": "Cyril"}
HX = {"HX-Request": "true"}


# --- a table through the JSON API ---------------------------------------------------------------


def open_table(client, **options):
    """A table for three with Anna to start; returns the code, the host token and the seat tokens."""
    answer = client.post("/api/tables", json={"game": GAME, "options": {"starting_player": "player-1", **options}})
    assert answer.status_code == 201, answer.json
    code, host = answer.json["code"], answer.json["host_token"]
    tokens = {}
    for seat, name in NAMES.items():
        claimed = client.post(f"/api/tables/{code}/seats", json={"seat": seat, "name": name})
        assert claimed.status_code == 201, claimed.json
        tokens[seat] = claimed.json["token"]
    return code, host, tokens


def act(client, code, token, **action):
    answer = client.post(f"/api/tables/{code}/actions", json=action, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.json
    return answer.json["view"]


def device(app, code, seat_token=None, host_token=None):
    """A phone (with a seat cookie) or the display (with the host cookie): its own test client."""
    browser = app.test_client()
    if seat_token:
        browser.set_cookie(f"seat_{code}", seat_token)
    if host_token:
        browser.set_cookie(f"host_{code}", host_token)
    return browser


def visible_text(page: str) -> list[str]:
    """The text nodes a player reads (no attributes, no scripts)."""
    body = page.split("<main>", 1)[-1]
    return [html.unescape(t).strip() for t in re.findall(r">([^<>]+)<", body) if t.strip()]


# --- the states the screens are checked in ------------------------------------------------------


def in_fright(client, code, host, tokens):
    act(client, code, host, type="roll_fright", value=4)
    act(client, code, host, type="roll_fright")
    act(client, code, host, type="tourist_escapes", colour="blue")


def in_a_fight(client, code, host, tokens):
    for action in ({"type": "next"}, {"type": "enter_ghost"}, {"type": "next"}, {"type": "roll_panic", "value": 1}):
        act(client, code, host, **action)
    act(client, code, host, type="next")
    act(client, code, host, type="next")
    act(client, code, host, type="enter_ghost")
    act(client, code, host, type="fight", opponent="player-1", steps=2)


def in_panic_with_a_fallback(client, code, host, tokens):
    act(client, code, host, type="next")
    act(client, code, host, type="enter_ghost")
    act(client, code, host, type="eat", colour="green", steps=1)
    act(client, code, host, type="next")
    for _ in range(4):
        act(client, code, host, type="tourist_escapes", colour="red")
    act(client, code, host, type="roll_panic", value=3)


def over(client, code, host, tokens):
    for colour in ["blue"] * 4 + ["yellow"] * 4 + ["red"] * 4 + ["green"] * 3:
        act(client, code, host, type="tourist_escapes", colour=colour)
    act(client, code, host, type="next")
    act(client, code, host, type="enter_ghost")
    act(client, code, host, type="eat", colour="green")


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
    devices = {seat: (device(app, code, seat_token=token), "seat") for seat, token in tokens.items()}
    devices["display"] = (device(app, code, host_token=host), "display")
    devices["guest display"] = (device(app, code), "display")
    for lang in ("en", "cs", "nl"):
        phrases = english_phrases() if lang != "en" else frozenset()
        for who, (browser, page_name) in devices.items():
            answer = browser.get(f"/t/{code}/{page_name}?lang={lang}")
            assert answer.status_code == 200, (lang, who)
            page = answer.get_data(as_text=True)
            assert 'id="eyt-score"' in page and 'id="eyt-tourists"' in page, (lang, who)
            assert "%(" not in page and "{{" not in page, (lang, who)
            assert all(name in page for name in NAMES.values()), (lang, who)
            text = visible_text(page)
            leftovers = {p for p in phrases for line in text if p == line or (len(p) >= 12 and p in line)}
            assert not leftovers, (lang, who, leftovers)


def test_only_the_seat_on_turn_gets_buttons_and_the_others_wait(client, app):
    code, host, tokens = open_table(client)
    anna = device(app, code, seat_token=tokens["player-1"]).get(f"/t/{code}/seat").get_data(as_text=True)
    bea = device(app, code, seat_token=tokens["player-2"]).get(f"/t/{code}/seat").get_data(as_text=True)
    guest = device(app, code).get(f"/t/{code}/display").get_data(as_text=True)
    assert 'data-action="roll_fright"' in anna and 'data-action="next"' in anna
    assert "Your turn" in anna
    assert "data-action=" not in bea and "Anna is playing" in bea
    assert "data-action=" not in guest and "Anna is on turn" in guest


def test_the_panic_table_marks_the_rolled_row_and_highlights_the_fallback(client, app):
    code, host, tokens = open_table(client)
    in_panic_with_a_fallback(client, code, host, tokens)
    page = device(app, code).get(f"/t/{code}/display").get_data(as_text=True)
    rows = re.findall(r'<tr class="([^"]*)"[^>]*>\s*<th scope="row"><span class="eyt-die">(\d)</span>', page)
    classes = {int(roll): set(kind.split()) for kind, roll in rows}
    assert "eyt-highlight" in classes[1] and "eyt-rolled" in classes[3] and "eyt-gone" in classes[3]
    assert "walked up from 1" in page


def test_the_final_ranking_shows_each_players_breakdown_by_name(client, app):
    code, host, tokens = open_table(client)
    over(client, code, host, tokens)
    page = device(app, code).get(f"/t/{code}/display").get_data(as_text=True)
    assert "Final ranking" in page
    assert "1 eaten × 2 = 2; 0 escaped × −1 = 0" in page
    assert "0 eaten × 2 = 0; 15 escaped × −1 = -15" in page
    assert re.search(r"Anna</span>\s*<span class=\"eyt-tag eyt-tag-now\">wins", page)
    assert "Anna: 2 points" in page  # the platform's summary names players too


# --- a turn through the HTML forms ---------------------------------------------------------------


class Forms(HTMLParser):
    """The action forms of a page: type, hidden fields, selects and submit buttons."""

    def __init__(self, page: str):
        super().__init__()
        self.forms: list[dict] = []
        self._form = None
        self._button = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and "data-action" in attrs:
            self._form = {"action": attrs["data-action"], "hidden": {}, "selects": [], "buttons": []}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input" and attrs.get("type") == "hidden":
            self._form["hidden"][attrs["name"]] = attrs.get("value", "")
        elif tag == "select":
            self._form["selects"].append(attrs["name"])
        elif tag == "button":
            self._button = {"name": attrs.get("name"), "value": attrs.get("value"), "text": ""}
            self._form["buttons"].append(self._button)

    def handle_data(self, data):
        if self._button is not None:
            self._button["text"] += data

    def handle_endtag(self, tag):
        if tag == "button" and self._button is not None:
            self._button["text"] = " ".join(self._button["text"].split())
            self._button = None
        elif tag == "form":
            self._form = None


class Phone:
    """A seat's phone that only sends what its page offers, the way htmx does."""

    def __init__(self, app, code, token):
        self.code, self.browser = code, device(app, code, seat_token=token)
        self.page = self.browser.get(f"/t/{code}/seat").get_data(as_text=True)

    def offers(self, action: str) -> list[dict]:
        return [form for form in Forms(self.page).forms if form["action"] == action]

    def tap(self, action: str, button: str | None = None, status: int = 200, **fields) -> str:
        """Submit the form of `action` whose hidden fields match, pressing the button labelled `button`."""
        wanted = {k: str(v) for k, v in fields.items()}
        candidates = [
            form
            for form in self.offers(action)
            if all(form["hidden"].get(k) == v for k, v in wanted.items() if k not in form["selects"])
            and (button is None or any(b["text"] == button for b in form["buttons"]))
        ]
        assert candidates, f"the page offers no {action} form with {fields} / {button}: {self.offers(action)}"
        form = candidates[0]
        data = {**form["hidden"], **{k: v for k, v in wanted.items() if k in form["selects"]}}
        pressed = next((b for b in form["buttons"] if button is None or b["text"] == button), None)
        if pressed and pressed["name"]:
            data[pressed["name"]] = pressed["value"]
        csrf = re.search(r'data-csrf="([^"]+)"', self.page).group(1)
        answer = self.browser.post(f"/t/{self.code}/act", data=data, headers={**HX, "X-CSRF-Token": csrf})
        assert answer.status_code == status, answer.get_data(as_text=True)[-600:]
        self.refresh()
        return answer.get_data(as_text=True)

    def refresh(self) -> None:
        self.page = self.browser.get(f"/t/{self.code}/seat").get_data(as_text=True)


def scores(app, code) -> dict[str, int]:
    page = device(app, code).get(f"/t/{code}/display").get_data(as_text=True)
    found = re.findall(r'<span class="eyt-name">([^<]+)</span>.*?eyt-points">(-?\d+)<', page, flags=re.S)
    return {name: int(points) for name, points in found}


def test_a_turn_and_a_ghost_fight_through_the_forms_of_the_seat_pages(client, app):
    code, host, tokens = open_table(client)
    anna, bea, cyril = (Phone(app, code, tokens[seat]) for seat in NAMES)

    # Anna's fright: a table die of 4, the tourist runs off the board: Bea, on her left, pays.
    anna.tap("roll_fright", value=4)
    assert re.search(r'Rolled this turn:\s*<span class="eyt-die eyt-die-small">4</span>', anna.page)
    anna.tap("tourist_escapes", button="Escaped", colour="blue")
    anna.tap("next", button="Go on to the hunt")

    # Hunt: a ghost comes in, walks 2, then 1 more onto a red tourist: 2 of 5 points left.
    anna.tap("enter_ghost")
    assert not anna.offers("enter_ghost")  # one ghost a turn
    anna.tap("move_ghost", steps=2)
    anna.tap("eat", button="Red", steps=1)
    assert '<span class="eyt-movement-left">2</span>' in anna.page
    anna.tap("next", button="Go on to the panic")

    # Panic: a 6 moves the opponents' ghosts and turns up an event.
    anna.tap("roll_panic", value=6)
    assert "New event: Event" in anna.page and "eyt-event-number" in anna.page
    assert not anna.offers("roll_panic")
    cyril.refresh()
    refused = cyril.browser.post(
        f"/t/{code}/act",
        data={"type": "next"},
        headers={**HX, "X-CSRF-Token": re.search(r'data-csrf="([^"]+)"', cyril.page).group(1)},
    )
    assert refused.status_code == 422 and "It is not your turn." in refused.get_data(as_text=True)
    anna.tap("next", button="End the turn")
    assert scores(app, code) == {"Anna": 2, "Cyril": 0, "Bea": -1}

    # Bea's turn: her ghost attacks Anna's; each rolls on their own phone, and Bea wins 5 to 2.
    bea.refresh()
    assert "Your turn" in bea.page and "Turn 2" in bea.page
    bea.tap("next", button="Go on to the hunt")
    bea.tap("enter_ghost")
    bea.tap("fight", button="Anna's ghost", steps=0)
    anna.refresh()
    assert "Your ghost is attacked: roll for it!" in anna.page
    anna.tap("fight_roll", seat="player-1", value=2)
    bea.tap("fight_roll", seat="player-2", value=5)
    assert "(Bea wins)" in bea.page
    assert "ghosts on the board 0/2" in bea.page  # Anna's ghost was knocked off
    bea.tap("next", button="Go on to the panic")
    bea.tap("roll_panic", value=5)
    bea.tap("choose_colour", colour="yellow")
    bea.tap("next", button="End the turn")
    cyril.refresh()
    assert "Your turn" in cyril.page and 'data-action="roll_fright"' in cyril.page
