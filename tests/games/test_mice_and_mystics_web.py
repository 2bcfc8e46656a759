"""Mice and Mystics screens: every seat and the display render in every language, and a chapter runs on the forms."""

from __future__ import annotations

import functools
import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from companion import catalogs

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates" / "games" / "mice-and-mystics"
SEATS = ("player-1", "player-2")


# --- helpers: the JSON API for setting up, the HTML forms for playing --------------------------------


def api(client, path, token=None, **body):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = client.post(path, json=body, headers=headers)
    assert answer.status_code in (200, 201), answer.get_json()
    return answer.get_json()


def open_table(client, **options):
    """A table with both seats taken: {"code", "host", seat id: token}."""
    created = api(client, "/api/tables", game="mice-and-mystics", options={"players": 2, **options})
    table = {"code": created["code"], "host": created["host_token"]}
    for seat, name in zip(SEATS, ("Anna", "Bea"), strict=True):
        table[seat] = api(client, f"/api/tables/{table['code']}/seats", seat=seat, name=name)["token"]
    return table


def act(client, table, who, **action):
    return api(client, f"/api/tables/{table['code']}/actions", table[who], **action)["view"]


def device(app, table, who):
    """A browser of its own: a seat's phone, or the host's display."""
    browser = app.test_client()
    cookie = "host_" if who == "host" else "seat_"
    browser.set_cookie(cookie + table["code"], table[who])
    return browser


def page(browser, table, who, lang="en"):
    path = "display" if who in ("host", None) else "seat"
    answer = browser.get(f"/t/{table['code']}/{path}?lang={lang}")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


class Forms(HTMLParser):
    """The action forms of a page: their action type and fields (hidden, typed, chosen)."""

    def __init__(self, text):
        super().__init__()
        self.forms, self.form, self.select = [], None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and "data-action" in attrs:
            self.form = {"action": attrs["data-action"], "fields": {}, "options": {}}
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag == "input" and attrs.get("name"):
            if attrs.get("type") != "checkbox":
                self.form["fields"].setdefault(attrs["name"], attrs.get("value", ""))
        elif tag == "textarea" and attrs.get("name"):
            self.form["fields"][attrs["name"]] = ""
        elif tag == "select":
            self.select = attrs["name"]
        elif tag == "option" and self.select:
            self.form["options"].setdefault(self.select, []).append(attrs["value"])
            if self.select not in self.form["fields"] or "selected" in attrs:
                self.form["fields"][self.select] = attrs["value"]

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None


def submit(browser, table, who, action, match=None, **fill):
    """Post the page's form for `action` (the first whose hidden fields match) with some fields filled in."""
    text = page(browser, table, who)
    candidates = [f for f in Forms(text).forms if f["action"] == action]
    chosen = [f for f in candidates if all(f["fields"].get(k) == str(v) for k, v in (match or {}).items())]
    assert chosen, f"no {action} form matching {match} on the page of {who}"
    form = chosen[0]
    for name, value in fill.items():
        assert name in form["fields"] or name in form["options"], f"{action} has no field {name}"
        if name in form["options"]:
            assert str(value) in form["options"][name], f"{value} is not offered for {name}"
        form["fields"][name] = value if isinstance(value, list) else str(value)
    token = re.search(r'data-csrf="([^"]+)"', text).group(1)
    answer = browser.post(
        f"/t/{table['code']}/act", data=form["fields"], headers={"X-CSRF-Token": token, "HX-Request": "true"}
    )
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200, body
    assert "notice-error" not in body, body
    return body


def view(client, table, who="host"):
    answer = client.get(f"/api/tables/{table['code']}/view", headers={"Authorization": f"Bearer {table[who]}"})
    return answer.get_json()["view"]


# --- every screen in every language ----------------------------------------------------------------


@functools.cache
def template_messages() -> tuple[str, ...]:
    found = set()
    for path in sorted(TEMPLATES.glob("*.html")):
        for _line, message, _comments, _context in extract_from_file(
            "jinja2", str(path), keywords=catalogs.KEYWORDS, options={"extensions": "jinja2.ext.i18n"}
        ):
            found.add(message)
    return tuple(sorted(found))


@functools.cache
def game_catalog(lang: str):
    po = ROOT / "companion/games/mice_and_mystics/translations" / lang / "LC_MESSAGES/messages.po"
    with po.open("rb") as handle:
        return read_po(handle, locale=lang)


def visible_text(page_html: str) -> str:
    body = re.sub(r"<(head|script|style)\b.*?</\1>", " ", page_html, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def english_left_over(page_html: str, lang: str) -> list[str]:
    """The template strings that show up in English on a page that should be in `lang`."""
    text = " ".join(visible_text(page_html).split())
    catalog = game_catalog(lang)
    left = []
    for message in template_messages():
        entry = catalog.get(message)
        if entry is not None and entry.string == message:
            continue  # a name that reads the same in this language
        parts = [re.escape(part) for part in re.split(r"%\(\w+\)s", message) if part.strip()]
        if not parts:
            continue
        pattern = r"(?<!\w)" + r".{0,80}?".join(parts) + (r"(?!\w)" if message[-1].isalnum() else "")
        if re.search(pattern, text):
            left.append(message)
    return left


def playing_table(client):
    """A chapter in full swing: a leader, rats, Brodie, wounds, poison, a surge, dice, an achievement."""
    table = open_table(client, achievements=True, dice_helper=True, campaign=True)
    act(client, table, "player-1", type="add_mouse", hero="collin", life=5, ability="Shield Bash")
    act(client, table, "player-2", type="add_mouse", hero="custom", name="Pip", life=4)
    act(client, table, "player-1", type="set_chapter", end_page=8, special_surge="")
    act(client, table, "player-1", type="add_minions", minion="rats", figures=3, life=1)
    act(client, table, "player-1", type="add_minions", minion="leader", name="Vurst", life=3, cards=4)
    act(client, table, "player-2", type="start_chapter")
    act(client, table, "player-2", type="add_minions", minion="brodie", life=4)
    act(client, table, "player-2", type="place_minions")
    act(client, table, "player-1", type="reveal_encounter", name="Rat swarm", surge="2 rats")
    act(client, table, "player-1", type="add_cheese", count=6)
    act(client, table, "player-1", type="wound_mouse", mouse="collin", count=1, poison=True)
    act(client, table, "player-1", type="wound_mouse", mouse="collin", count=1)
    act(client, table, "player-1", type="set_status", mouse="collin", status="webbed")
    act(client, table, "player-1", type="mouse_cheese", mouse="collin", count=7)
    act(client, table, "player-1", type="award", mouse="collin", achievement="cheese_master")
    act(client, table, "player-2", type="roll_dice", count=3)
    act(client, table, "player-2", type="capture_mouse", mouse="mouse-1")
    act(client, table, "player-1", type="add_cheese", count=2)
    return table


def ended_table(client):
    table = open_table(client, campaign=True)
    act(client, table, "player-1", type="add_mouse", hero="lily", life=4)
    act(client, table, "player-1", type="start_chapter")
    act(client, table, "player-1", type="goals_done")
    return table


def setup_table(client):
    table = open_table(client, dice_helper=True)
    act(client, table, "player-1", type="add_mouse", hero="filch", life=4)
    act(client, table, "player-2", type="add_minions", minion="spiders", figures=2, life=1)
    return table


@pytest.mark.parametrize("lang", ["en", "cs", "nl"])
@pytest.mark.parametrize("phase", [setup_table, playing_table, ended_table])
def test_every_seat_and_the_display_render_without_untranslated_strings(app, client, phase, lang):
    table = phase(client)
    for who in ("host", *SEATS):
        text = page(device(app, table, who), table, who, lang)
        assert 'class="mm mm-' in text
        if lang != "en":
            assert english_left_over(text, lang) == [], who
    plain = app.test_client().get(f"/t/{table['code']}/display?lang={lang}").get_data(as_text=True)
    assert 'class="mm mm-display' in plain
    assert 'data-action="' not in plain  # a display that is not the host's only shows


def test_the_game_catalogues_have_every_string_of_the_screens():
    assert [line for line in catalogs.missing() if "mice_and_mystics" in line] == []


def test_the_display_shows_the_track_the_wheel_the_story_and_one_big_next_button(app, client):
    table = playing_table(client)
    text = page(device(app, table, "host"), table, "host")
    assert text.count('data-action="next"') == 1
    assert 'aria-current="step"' in text
    assert re.findall(r"mm-slot-\d (filled|empty)", text)[:6] == ["filled"] * 2 + ["empty"] * 4
    assert "Vurst (card" in text and "Brodie: Pounce" in text
    assert "Cheese Master" in text
    assert "mm-hourglass-marker" in text and "mm-end-marker" in text


def test_a_phone_shows_its_own_mouse_sheet_and_the_other_seats_mice_only_at_a_glance(app, client):
    table = playing_table(client)
    anna = page(device(app, table, "player-1"), table, "player-1")
    bea = page(device(app, table, "player-2"), table, "player-2")
    assert 'id="mm-sheet-collin"' in anna and 'id="mm-sheet-mouse-1"' not in anna
    assert 'id="mm-sheet-mouse-1"' in bea and "Captured" in bea
    assert 'data-action="level_up"' in anna  # 7 cheese: enough to level up
    assert 'data-action="level_up"' not in bea


# --- a whole chapter through the forms -------------------------------------------------------------


def test_a_whole_short_chapter_is_played_on_the_phones_and_the_display(app, client):
    table = open_table(client)
    anna, bea, host = (device(app, table, who) for who in ("player-1", "player-2", "host"))

    submit(anna, table, "player-1", "add_mouse", hero="collin", life=5, ability="Shield Bash")
    submit(bea, table, "player-2", "add_mouse", hero="custom", name="Pip", life=2)
    submit(host, table, "host", "set_chapter", hourglass_page=1, end_page=4, special_surge="Rats come out of the walls")
    submit(anna, table, "player-1", "add_minions", minion="rats", figures=2, life=1)
    submit(bea, table, "player-2", "start_chapter")
    state = view(client, table)
    assert state["phase"] == "playing" and len(state["track"]) == 3

    for _ in range(3):  # the display's one big Next button, round and round
        submit(host, table, "host", "next")
    assert view(client, table)["round"] == 2

    for _ in range(4):
        submit(anna, table, "player-1", "add_cheese", match={"count": 1})
    submit(bea, table, "player-2", "add_cheese", match={"count": 2})
    state = view(client, table)
    assert state["cheese_wheel"]["cheese"] == 0 and state["story"]["hourglass"] == 2
    assert state["surge"]["text"] == "Rats come out of the walls"

    submit(bea, table, "player-2", "defeat_minion", match={"card": "rats", "figure": 2})
    submit(anna, table, "player-1", "defeat_minion", match={"card": "rats", "figure": 1})
    assert [card["kind"] for card in view(client, table)["track"]] == ["mouse", "mouse"]

    submit(anna, table, "player-1", "mouse_cheese", match={"count": 1})
    submit(anna, table, "player-1", "set_status", match={"status": "stunned"})
    submit(anna, table, "player-1", "set_backpack", match={"count": 2})
    submit(bea, table, "player-2", "wound_mouse", match={"poison": "true"})
    submit(bea, table, "player-2", "wound_mouse", match={"count": 1})
    mice = {mouse["id"]: mouse for mouse in view(client, table)["mice"]}
    assert mice["collin"]["cheese"] == 1 and mice["collin"]["backpack"] == 2
    assert mice["mouse-1"]["captured"] and view(client, table)["story"]["hourglass"] == 3

    submit(anna, table, "player-1", "goals_done")
    assert view(client, table)["phase"] == "won"
    assert "The mice completed chapter 1!" in page(anna, table, "player-1")
