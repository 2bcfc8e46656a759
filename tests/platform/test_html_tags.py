"""The tests' tag reader (tests/html_tags.py) reads every page of random games as html.parser reads it."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from bench.game_scripts import REPLAY_SEED, Recording
from companion.games.base import HOST
from companion.web.app import create_app
from tests.e2e.walk import options_for
from tests.html_tags import TagReader
from tests.pages import MOST_SEATS

# Actions played of each game; after each, every seat's page, the host page and the display are read.
STEPS = 25
LANGUAGES = ("en", "cs", "nl")


class Events:
    """What a reader reports: each tag with its attributes, and the text after it (scripts' and styles' left out)."""

    def __init__(self):
        self.events: list[list] = [["", {}, ""]]

    def handle_starttag(self, tag, attrs):
        self.events.append([tag, dict(attrs), ""])

    def handle_endtag(self, tag):
        self.events.append(["/" + tag, {}, ""])

    def handle_data(self, data):
        if self.events[-1][0] not in ("script", "style"):
            self.events[-1][2] += data


class ByHtmlParser(Events, HTMLParser):
    def __init__(self):
        Events.__init__(self)
        HTMLParser.__init__(self)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)  # `<input … />`: no end tag, as in an HTML page


class ByTagReader(Events, TagReader):
    pass


def read(reader: Events, page: str) -> list[list]:
    reader.feed(page)
    return reader.events


@pytest.mark.parametrize(
    "page",
    [
        '<p class="a" hidden data-x=\'1 > 0\' title="A &amp; B" DATA-Y=bare>Tom &amp; Jerry</P>',
        '<!-- <form data-action="x"><input name="a"></form> --><form data-action="y"><input name="b"/></form>',
        '<script>if (a < b) { document.write("<form>") }</script><style>p > a {}</style><b>after</b>',
        '<input value=""><input value><input name="a" name="b">',
    ],
)
def test_tags_as_html_parser_reads_them(page):
    assert read(ByTagReader(), page) == read(ByHtmlParser(), page)


@pytest.mark.parametrize("game", MOST_SEATS)
def test_every_page_of_a_random_game_is_read_as_html_parser_reads_it(tmp_path, game):
    app = create_app({"DATA_DIR": str(tmp_path), "REPLAY_SEED": REPLAY_SEED, "RENDER_WORKERS": 0})
    table = Recording(app, game, 1, {**options_for(game, 1), **MOST_SEATS[game]})
    for step in range(STEPS):
        query = f"?lang={LANGUAGES[step % len(LANGUAGES)]}"
        display = table.client.get(f"/t/{table.code}/display{query}").get_data(as_text=True)
        for who, page in [*((who, table.page(who, query)) for who in [*table.names, HOST]), ("display", display)]:
            assert read(ByTagReader(), page) == read(ByHtmlParser(), page), (step, who)
        if not table.step():
            break
