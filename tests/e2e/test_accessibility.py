"""Everyone at the table: axe-core finds no WCAG 2.x A/AA or best-practice violation on the lobby, the join page and
a game's first state on the phone of each kind of seat, the host page and the display; on a phone every control is a
thumb's tap; and colour is never the only cue (a ride's letter, wound and poison, who is connected)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.games import load
from tests.conftest import ServerProcess
from tests.e2e.accessibility import PHONE, SMALLEST_TARGET, axe_violations, small_targets
from tests.e2e.walk import TV_SCREENS, options_for
from tests.http import call, open_table

GAMES = ("scotland-yard", "downforce", "mice-and-mystics", "eat-your-tourist")
RIDES = ("taxi", "bus", "underground")
# What tells a pip apart besides its colour: its outline and how it is turned.
FILL = "(dot) => getComputedStyle(dot).backgroundColor"
SHAPE = "(pip) => { const style = getComputedStyle(pip); return `${style.borderRadius} ${style.transform}`; }"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = ServerProcess(tmp_path_factory.mktemp("axe") / "data", env={"COMPANION_REPLAY_SEED": "axe"}).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def tables(server):
    """One table of each game, every seat taken (the walk's options for seed 0), opened once for the module."""
    opened = {}

    def table(game_id: str) -> dict:
        if game_id not in opened:
            options = options_for(game_id, 0)
            seats = [spec.id for spec in load([])[game_id].seats(options)]
            opened[game_id] = open_table(server.url, game_id, options, seats)
            opened[game_id]["seats"] = seats
        return opened[game_id]

    return table


@pytest.fixture
def screen(browser, server):
    """A page of the table in a context of its own: as a seat, as the host or as a passer-by, in a language, in the
    device's light or dark colours."""
    contexts = []

    def open_screen(path: str, cookie: tuple[str, str] | None = None, lang: str = "en", viewport=PHONE, scheme="light"):
        context = browser.new_context(viewport=viewport, color_scheme=scheme)
        contexts.append(context)
        cookies = [{"name": "lang", "value": lang, "url": server.url}]
        if cookie:
            cookies.append({"name": cookie[0], "value": cookie[1], "url": server.url})
        context.add_cookies(cookies)
        page = context.new_page()
        page.goto(server.url + path)
        expect(page.locator("h1")).to_have_count(1)
        return page

    yield open_screen
    for context in contexts:
        context.close()


def pages_of(table: dict, game_id: str):
    """(what the page is, its path, its cookie, its viewport) for a seat of each kind (Mister X, a detective; the
    walk looks at every seat), the host page and the display."""
    code = table["code"]
    for seat in {seat.rsplit("-", 1)[0]: seat for seat in table["seats"]}.values():
        yield f"{game_id} {seat}'s phone", f"/t/{code}/seat", (f"seat_{code}", table[seat]), PHONE
    yield f"{game_id} host page", f"/t/{code}/host", (f"host_{code}", table["host"]), PHONE
    yield f"{game_id} display", f"/t/{code}/display", (f"host_{code}", table["host"]), TV_SCREENS[1]


def assert_none(found: dict[str, list[str]], what: str) -> None:
    """Nothing found on any page; else, page by page, what was."""
    lines = [f"{page}: {each}" for page, each_found in found.items() for each in each_found]
    assert not lines, f"{what}:\n  " + "\n  ".join(lines)


@pytest.mark.parametrize("lang", ["en", "cs", "nl"])
def test_the_lobby_and_the_join_page_have_no_axe_violations(server, screen, lang):
    status, created = call(server.url, "POST", "/api/tables", {"game": "scotland-yard", "options": {}})
    assert status == 201, created
    found = {"lobby": axe_violations(screen("/", lang=lang))}
    found["join page"] = axe_violations(screen(f"/t/{created['code']}", lang=lang))
    assert_none(found, f"axe's violations ({lang})")


@pytest.mark.parametrize("lang", ["en", "cs", "nl"])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_page_of_a_game_s_first_state_has_no_axe_violations(tables, screen, game_id, lang):
    found = {}
    for what, path, cookie, viewport in pages_of(tables(game_id), game_id):
        found[what] = axe_violations(screen(path, cookie, lang, viewport))
    assert_none(found, f"axe's violations ({lang})")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_page_of_a_game_s_first_state_has_no_axe_violations_in_dark_colours(tables, screen, game_id):
    """A phone set to dark colours gets the stylesheet's dark scheme: its contrasts are checked too (in Czech, whose
    words run longest)."""
    found = {}
    for what, path, cookie, viewport in pages_of(tables(game_id), game_id):
        page = screen(path, cookie, "cs", viewport, scheme="dark")
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        found[what] = axe_violations(page)
    assert_none(found, "axe's violations in dark colours")


# Opens the first closed <details> of each kind (by its classes) in turn, each alone: a station's sheet of tickets, a
# confirm question, a fold, the history; what each showed, for axe to look at while it is open.
OPEN_NEXT_KIND = """(opened) => {
  for (const details of document.querySelectorAll("details:not([open])")) {
    if (opened.includes(details.className)) { continue; }
    document.querySelectorAll("details[open]").forEach((open) => { open.open = false; });
    details.open = true;
    return details.className;
  }
  return null;
}"""


@pytest.mark.parametrize("game_id", GAMES)
def test_what_a_page_folds_away_has_no_axe_violations_once_opened(tables, screen, game_id):
    """The walk taps no summary, so axe sees a station's sheet, a confirm question or a fold only here."""
    found = {}
    for what, path, cookie, viewport in pages_of(tables(game_id), game_id):
        page, opened = screen(path, cookie, "en", viewport), []
        while (kind := page.evaluate(OPEN_NEXT_KIND, opened)) is not None:
            opened.append(kind)
            found[f"{what}, its {kind or 'details'} open"] = axe_violations(page)
    assert found, "the pages fold something away"
    assert_none(found, "axe's violations with a fold open")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_control_on_a_phone_page_is_a_thumb_s_tap(server, tables, screen, game_id):
    small = {}
    for what, path, cookie, viewport in pages_of(tables(game_id), game_id):
        if viewport is PHONE:
            small[what] = small_targets(screen(path, cookie))
    small["lobby"] = small_targets(screen("/"))
    small["join page"] = small_targets(screen(f"/t/{tables(game_id)['code']}"))
    assert_none(small, f"targets under {SMALLEST_TARGET} px")


def test_each_ride_under_a_station_shows_its_letter_and_a_screen_reader_hears_its_name(tables, screen):
    table = tables("scotland-yard")
    code = table["code"]
    rides = {"en": ("Taxi", "Bus", "Underground"), "cs": ("Taxi", "Autobus", "Metro"), "nl": ("Taxi", "Bus", "Metro")}
    for lang, names in rides.items():
        mister_x = screen(f"/t/{code}/seat", (f"seat_{code}", table["mister-x"]), lang)
        bars = mister_x.locator(".station-grid .rides i")
        expect(bars.first).to_be_visible()
        letters = {f"t-{kind}": name[0] for kind, name in zip(RIDES, names, strict=True)} | {"t-black": "◆"}
        assert len(set(letters.values())) == len(letters), f"two rides share a letter in {lang}"
        for bar in bars.all():
            assert bar.inner_text() == letters[bar.get_attribute("class")]
        for station in mister_x.locator(".station-grid summary").all()[:4]:
            for kind, name in zip(RIDES, names, strict=True):
                if station.locator(f".rides i.t-{kind}").count():
                    expect(station).to_have_accessible_name(re.compile(rf"\b{name}\b"))


def test_wound_and_poison_differ_in_shape_and_say_so_and_connected_is_filled_and_said(server, screen):
    table = open_table(server.url, "mice-and-mystics", {"players": 1}, ["player-1"])
    code, token = table["code"], table["player-1"]
    for action in (
        {"type": "add_mouse", "hero": "collin", "life": 5},
        {"type": "start_chapter"},
        {"type": "wound_mouse", "mouse": "collin", "count": 2},
        {"type": "wound_mouse", "mouse": "collin", "count": 1, "poison": True},
    ):
        status, body = call(server.url, "POST", f"/api/tables/{code}/actions", action, token)
        assert status == 200, (action, body)
    phone = screen(f"/t/{code}/seat", (f"seat_{code}", token))
    pips = phone.locator(".mm-life")
    expect(pips).to_have_attribute("role", "img")
    expect(pips).to_have_accessible_name("2 wounds and 1 poison wounds of 5 hit points")
    wound, poison = pips.locator(".mm-pip.wound").first, pips.locator(".mm-pip.poison").first
    assert wound.evaluate(SHAPE) != poison.evaluate(SHAPE)

    host = screen(f"/t/{code}/host", (f"host_{code}", table["host"]))
    dot = host.locator("#host-panel .presence").first
    expect(dot).to_have_accessible_name("connected")  # the phone above is open
    assert dot.evaluate(FILL) != "rgba(0, 0, 0, 0)"
    phone.context.close()
    expect(dot).to_have_accessible_name("not connected")
    assert dot.evaluate(FILL) == "rgba(0, 0, 0, 0)"  # a ring
