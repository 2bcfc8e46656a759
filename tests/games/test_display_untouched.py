"""The TV needs no touch and speaks to nobody: every game played at random through the forms its phones and its
host page offer, with the display (opened by the host) looked at after every step."""

from __future__ import annotations

import random
import re

import pytest

from companion.web.app import create_app
from tests.pages import Device, Forms, open_table, visible_text

GAMES = ("downforce", "eat-your-tourist", "mice-and-mystics", "scotland-yard")
NAMES = ("Anna", "Bea", "Cyril", "Dana", "Emil", "Franta")
STEPS = 60
# "you" and "your" speak to one reader: a screen the whole table sees names the player instead.
SPEAKS_TO_YOU = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)
# The join QR code opens full size and the host link is the one way to the host page: neither acts on the game.
CONTROL = re.compile(r"<(form|button|input|select|textarea)\b", re.IGNORECASE)


class PlayedTable:
    """A table with every seat of the game's default options taken, played by random taps on the forms that the
    host page and the phones offer."""

    def __init__(self, app, client, game: str, seed: int):
        self.random = random.Random(seed)
        seats = next(each for each in client.get("/api/games").json["games"] if each["id"] == game)["seats"]
        names = dict(zip((seat["id"] for seat in seats), NAMES, strict=False))
        self.code, self.tokens = open_table(client, game, {}, names)
        self.app, self.client = app, client
        self.screens = [Device(app, self.code, host=self.tokens["host"], view="host")] + [
            Device(app, self.code, seat=token) for who, token in self.tokens.items() if who != "host"
        ]

    def step(self) -> None:
        """One tap on a random form of a random screen that offers one (refusals by the rules are part of play);
        mostly on a phone whose turn it is, so that the game moves on rather than changing its mind."""
        screens = self.random.sample(self.screens, len(self.screens))
        for screen in screens:
            screen.refresh()
        if self.random.random() < 0.5:
            screens.sort(key=lambda screen: 'data-your-turn="true"' not in screen.page)
        for screen in screens:
            forms = Forms(screen.page).forms
            if forms:
                break
        else:
            return
        form = self.random.choice(forms)
        data = {**form["hidden"]}
        data |= {name: value or str(self.random.randint(1, 6)) for name, value in form["fields"].items()}
        data |= {name: self.random.choice(each["options"]) for name, each in form["selects"].items() if each["options"]}
        if form["buttons"]:
            pressed = self.random.choice(form["buttons"])
            if pressed["name"]:
                data[pressed["name"]] = pressed["value"]
        answer = screen.post(data)
        assert answer.status_code < 500, answer.get_data(as_text=True)[-600:]

    def display(self) -> str:
        """The table display as the host's TV shows it."""
        return Device(self.app, self.code, host=self.tokens["host"]).page

    def public_lines(self) -> list[str]:
        """The banner and the history lines everyone sees, in English, as the host page shows them."""
        host_page = Device(self.app, self.code, host=self.tokens["host"], view="host", lang="en").page
        banner = re.findall(r'<div class="banner" role="alert">(.*?)</div>', host_page, re.S)
        history = re.findall(r"<li[^>]*>(.*?)</li>", host_page.split('id="history"')[1], re.S)
        return [visible_text(line).strip() for line in banner + history]


@pytest.fixture(scope="module", params=GAMES)
def walk(request, tmp_path_factory):
    """One game played at random for STEPS taps: the display and the public lines after each tap."""
    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("walk")), "TESTING": True})
    table = PlayedTable(app, app.test_client(), request.param, seed=1)
    seen = []
    for _ in range(STEPS):
        table.step()
        seen.append((table.display(), table.public_lines()))
    return table.code, seen


def test_the_display_offers_no_control_but_the_discreet_link_to_the_host_page(walk):
    code, seen = walk
    for display, _lines in seen:
        main = display.split("<main>")[1]
        assert not CONTROL.search(main), main[CONTROL.search(main).start() :][:200]
        corner = main.split('id="table-corner"')[1]
        assert re.findall(r"<a [^>]*href=\"([^\"]+)\"", corner) == [f"/t/{code}/host"]


def test_no_public_banner_or_history_line_speaks_to_you(walk):
    _code, seen = walk
    for _display, lines in seen:
        for line in lines:
            assert not SPEAKS_TO_YOU.search(line), line


def test_the_display_never_speaks_to_you(walk):
    """The TV names the players, and its reminders of the rules speak of a car's owner, not to "you"."""
    _code, seen = walk
    for display, _lines in seen:
        for sentence in re.split(r"(?<=[.!?])\s+|\n", visible_text(display.split("<main>")[1])):
            assert not SPEAKS_TO_YOU.search(sentence), " ".join(sentence.split())
