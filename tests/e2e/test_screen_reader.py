"""What a player with a screen reader hears of a table, and the cues of "your turn" that need no vibration: real
pages of a Scotland Yard table in Chromium, in English, Czech and Dutch, each push read back as the page said it and
from the accessibility tree."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import ServerProcess
from tests.http import call, open_table

SEED = 36
SEATS = {"mister-x": "Xena", "detective-1": "Dora", "detective-2": "Dirk"}
STEPS = 13  # two rounds and Mister X's third move (a reveal, with its banner), one of them undone by the host
YOUR_TURN = {"en": "Your turn", "cs": "Jste na tahu", "nl": "Jij bent aan de beurt"}

# Every announcement the page makes: the live region it went to, the table's seq then and its lines. Vibrations and
# tones are counted (headless Chromium has neither a motor nor a speaker to ask).
RECORD = """
  window.said = [];
  window.vibrations = 0;
  window.tones = 0;
  const vibrate = () => { window.vibrations += 1; return true; };
  Object.defineProperty(Navigator.prototype, "vibrate", {configurable: true, value: vibrate});
  const createOscillator = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () { window.tones += 1; return createOscillator.call(this); };
  document.addEventListener("DOMContentLoaded", () => {
    for (const region of document.querySelectorAll("#news, #turn-news")) {
      new MutationObserver(() => {
        if (!region.children.length) { return; }
        const seq = Number(document.getElementById("live").dataset.seq);
        window.said.push({region: region.id, seq, lines: [...region.children].map((line) => line.textContent)});
      }).observe(region, {childList: true});
    }
  });
"""

# The lines of one action in the page's own history (the display's is hidden), oldest first, as the page shows them.
LINES_OF = """(seq) => [...document.querySelectorAll("#live .history-lines > li")]
  .filter((line) => line.dataset.seq === String(seq)).reverse()
  .map((line) => line.textContent.replace(/\\s+/g, " ").trim())"""


@pytest.fixture
def server(tmp_path):
    """The table's dice and cards follow from the seed, so the walk below replays the same game."""
    running = ServerProcess(tmp_path / "data", env={"COMPANION_REPLAY_SEED": str(SEED)}).start()
    yield running
    running.stop()


class Screen:
    """One open page of the table: a seat's phone, the display or the host page, in one language."""

    def __init__(self, page, server, table: dict, who: str, lang: str, path: str):
        self.page, self.who, self.lang = page, who, lang
        self.code, self.token = table["code"], table[who]
        cookie = f"host_{self.code}" if who == "host" else f"seat_{self.code}"
        page.context.add_cookies([{"name": cookie, "value": self.token, "url": server.url}])
        page.add_init_script(RECORD)
        page.goto(f"{server.url}/t/{self.code}/{path}?lang={lang}")
        self.base = server.url
        self.your_turn = self.api_view()["view"].get("your_turn", False)

    def api_view(self) -> dict:
        """The same seat's view through the JSON API (the host token alone: the display's): the test's oracle."""
        status, view = call(self.base, "GET", f"/api/tables/{self.code}/view", token=self.token)
        assert status == 200, view
        return view

    def said(self, seq: int) -> list[dict]:
        return [entry for entry in self.page.evaluate("window.said") if entry["seq"] == seq]

    def banner(self) -> str:
        banner = self.page.locator("#live .banner")
        return banner.inner_text().strip() if banner.count() else ""


def seat_screen(phones, server, table, seat, lang):
    return Screen(phones(locale=lang), server, table, seat, lang, "seat")


def tap_a_random_move(phone, choose: random.Random, avoid: str | None = None) -> None:
    """A station of one of the phone's figures still to move, then one of its tickets: two taps, as a player does."""
    picks = [pick for pick in phone.locator("#sy-moves details.pick").all() if pick.get_attribute("data-to") != avoid]
    pick = choose.choice(picks)
    pick.locator("summary").click()
    tickets = pick.locator("button.go")
    tickets.nth(choose.randrange(tickets.count())).click()


def test_every_push_is_said_once_on_every_page_as_it_may_see_it_and_your_turn_only_to_the_seat_waited_on(
    server, phones
):
    table = open_table(server.url, "scotland-yard", {"detectives": 2}, SEATS)
    xena = seat_screen(phones, server, table, "mister-x", "en")
    dora = seat_screen(phones, server, table, "detective-1", "en")
    dirk = seat_screen(phones, server, table, "detective-2", "cs")
    display = Screen(phones(1280, 800, locale="nl"), server, table, "host", "nl", "display")
    host = Screen(phones(locale="cs"), server, table, "host", "cs", "host")
    screens, seats = [xena, dora, dirk, display, host], [xena, dora, dirk]
    choose = random.Random(SEED)
    undo_at = choose.randrange(3, STEPS)
    for seq in range(1, STEPS + 1):
        banners = {screen: screen.banner() for screen in screens}
        mister_x_moves = seq != undo_at and xena.page.locator("#sy-moves details.pick").count() > 0
        if seq == undo_at:
            host.page.locator("#host-panel > details.confirm > summary").click()
            host.page.locator("#host-panel form[hx-post$='/undo'] button").click()  # posted: its answer brings the part
        elif mister_x_moves:
            tap_a_random_move(xena.page, choose)
        else:
            hideout = xena.page.locator(".my-station .secret-station").inner_text()
            hunters = [phone for phone in (dora, dirk) if phone.page.locator("#sy-moves details.pick").count()]
            tap_a_random_move(choose.choice(hunters).page, choose, avoid=hideout)  # the hunt goes on
        for screen in screens:
            expect(screen.page.locator("#live")).to_have_attribute("data-seq", str(seq))
        for screen in screens:
            screen.page.wait_for_function("(seq) => window.said.some((entry) => entry.seq === seq)", arg=seq)
            api = screen.api_view()
            lines = screen.page.evaluate(LINES_OF, seq)
            assert len(lines) == sum(line["seq"] == seq for line in api["history"]) > 0, (screen.who, seq)
            banner = screen.banner()
            if banner and banner != banners[screen] and banner not in lines:
                lines.append(banner)
            your_turn = api["view"].get("your_turn", False)
            became = your_turn and not screen.your_turn
            screen.your_turn = your_turn
            [entry] = screen.said(seq)  # once
            assert entry["lines"] == lines + [YOUR_TURN[screen.lang]] * became, (screen.who, seq)
            assert entry["region"] == ("turn-news" if became else "news"), (screen.who, seq)
            heard = screen.page.locator(f"#{entry['region']}").aria_snapshot()
            assert all(line in heard for line in entry["lines"]), heard
        for screen in seats:  # and seen: the title of a tab in the background, the badge at a glance
            assert screen.page.title().startswith(YOUR_TURN[screen.lang] + " · ") == screen.your_turn, screen.who
            assert screen.page.locator(".your-turn-cue").count() == screen.your_turn, screen.who
        if mister_x_moves:  # his station is his alone: a detective hears the rest of what he hears
            xena_heard, dora_heard = (set(phone.said(seq)[0]["lines"]) - {YOUR_TURN["en"]} for phone in (xena, dora))
            [secret] = xena_heard - dora_heard
            assert dora_heard < xena_heard and re.fullmatch(r"You (took|used) .* station \d+ \(move \d+\)\.", secret)
    assert display.page.locator("#turn-news").count() == 0
    for screen in screens:
        said = screen.page.evaluate("window.said")
        assert [entry["seq"] for entry in said] == list(range(1, STEPS + 1)), screen.who  # each push once, none missed
    for screen in seats:
        turns = sum(YOUR_TURN[screen.lang] in entry["lines"] for entry in screen.page.evaluate("window.said"))
        assert screen.page.evaluate("window.vibrations") == turns > 0, screen.who


def api_move(server, table: dict, seat: str, figure: str | None = None, avoid=()) -> None:
    """A legal move of one of the seat's figures (the first that can move, by default) through the JSON API."""
    status, seen = call(server.url, "GET", f"/api/tables/{table['code']}/view", token=table[seat])
    assert status == 200, seen
    stations = seen["view"]["stations"]
    if seat != "mister-x":
        figure = figure or next(figure for figure, targets in stations.items() if targets)
        stations = stations[figure]
    target = next(target for target in stations if str(target["to"]) not in avoid)
    move = {"type": "move", "to": target["to"], "ticket": target["tickets"][0]} | ({"piece": figure} if figure else {})
    status, answer = call(server.url, "POST", f"/api/tables/{table['code']}/actions", move, table[seat])
    assert status == 200, answer


# The focused element after a push: whether it is a fresh one (the old was marked), and what it is.
FOCUSED = """() => {
  const element = document.activeElement;
  return {tag: element.tagName, id: element.id, fresh: !element.wasShown, text: element.textContent.trim(),
          data: Object.assign({}, element.parentElement.dataset)};
}"""


def focus(page, control) -> None:
    control.focus()
    control.evaluate("element => { element.wasShown = true; }")


def test_a_push_keeps_the_focus_on_the_same_control_or_puts_it_on_the_heading_never_on_the_body(server, phones):
    table = open_table(server.url, "scotland-yard", {"detectives": 2}, SEATS)
    dora = seat_screen(phones, server, table, "detective-1", "en").page
    host = Screen(phones(), server, table, "host", "en", "host").page
    live = {page: 0 for page in (dora, host)}

    def pushed():
        for page in live:
            live[page] += 1
            expect(page.locator("#live")).to_have_attribute("data-seq", str(live[page]))

    api_move(server, table, "mister-x")
    pushed()
    hideout = str(
        call(server.url, "GET", f"/api/tables/{table['code']}/view", token=table["mister-x"])[1]["view"]["station"]
    )
    station = dora.locator("#sy-moves details.pick").first
    where = {"to": station.get_attribute("data-to"), "piece": station.get_attribute("data-piece")}
    focus(dora, station.locator("summary"))
    api_move(server, table, "detective-2", "detective-2", avoid=(where["to"], hideout))
    pushed()
    assert dora.evaluate(FOCUSED) | {"text": ""} == {
        "tag": "SUMMARY",
        "id": "",
        "fresh": True,
        "text": "",
        "data": where,
    }

    focus(dora, dora.locator("#history > summary"))
    focus(host, host.locator("#host-panel > form button"))  # a plain button: no id, no game's form
    api_move(server, table, "detective-2", avoid=(hideout,))
    pushed()
    assert dora.evaluate(FOCUSED) | {"data": {}} == {
        "tag": "SUMMARY",
        "id": "",
        "fresh": True,
        "text": "History",
        "data": {},
    }
    # The host panel did not change: the push's diff left it in place, and the focus on its very button.
    assert host.evaluate(FOCUSED) | {"data": {}} == {
        "tag": "BUTTON",
        "id": "",
        "fresh": False,
        "text": "Run the table from a phone…",
        "data": {},
    }

    focus(host, host.locator("#host-panel > details.confirm > summary"))
    station = dora.locator("#sy-moves details.pick").first  # her own move: the station's sheet goes with it
    station.locator("summary").click()
    station.locator("button.go").first.click()
    pushed()
    assert dora.evaluate(FOCUSED)["id"] == "live-heading"
    assert host.evaluate(FOCUSED) | {"data": {}} == {
        "tag": "SUMMARY",
        "id": "",
        "fresh": False,  # the host panel again unchanged
        "text": "Undo the last action…",
        "data": {},
    }


def test_your_turn_shows_in_the_title_and_a_still_badge_and_sounds_where_the_phone_switched_its_tone_on(server, phones):
    table = open_table(server.url, "scotland-yard", {"detectives": 2}, SEATS)
    dora = seat_screen(phones, server, table, "detective-1", "nl").page
    title = dora.title()
    sound = dora.locator("#turn-sound")
    expect(sound).not_to_be_checked()
    dora.locator("label.turn-sound").click()
    expect(sound).to_be_checked()
    assert dora.evaluate("window.tones") == 1  # how it will sound; the tap lets the page make sounds
    assert dora.locator("label.turn-sound").bounding_box()["height"] >= 44
    expect(dora.locator(".your-turn-cue")).to_have_count(0)

    api_move(server, table, "mister-x")
    cue = dora.locator(".your-turn-cue")
    expect(cue).to_have_text("Jij bent aan de beurt")
    expect(dora).to_have_title(f"Jij bent aan de beurt · {title}")
    assert cue.evaluate("cue => [getComputedStyle(cue).animationName, getComputedStyle(cue).transitionDuration]") == [
        "none",
        "0s",
    ]
    assert dora.evaluate("[window.tones, window.vibrations]") == [2, 1]
    expect(sound).to_be_checked()  # in the fresh live part too

    dora.reload()
    expect(sound).to_be_checked()  # remembered on this phone
    expect(dora).to_have_title(f"Jij bent aan de beurt · {title}")
    sound.uncheck()
    dora.reload()
    expect(sound).not_to_be_checked()
