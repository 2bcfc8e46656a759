"""The TV needs no touch and speaks to nobody: every game played at random through the forms its phones and its
host page offer, with the display (opened by the host) looked at after every step."""

from __future__ import annotations

import re

import pytest

from companion.web.app import create_app
from tests.pages import PlayedTable, visible_text

GAMES = ("downforce", "eat-your-tourist", "mice-and-mystics", "scotland-yard")
STEPS = 60
# "you" and "your" speak to one reader: a screen the whole table sees names the player instead.
SPEAKS_TO_YOU = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)
# The join QR code opens full size and the host link is the one way to the host page: neither acts on the game.
CONTROL = re.compile(r"<(form|button|input|select|textarea)\b", re.IGNORECASE)


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
        # Its heading names the game, which may be "Eat your tourist!": a name, not a sentence to a player.
        main = re.sub(r"<h1\b.*?</h1>", "", display.split("<main>")[1], flags=re.S)
        for sentence in re.split(r"(?<=[.!?])\s+|\n", visible_text(main)):
            assert not SPEAKS_TO_YOU.search(sentence), " ".join(sentence.split())
