"""A page's socket sends its first frame whole and every later one as the regions that changed (issue 39): a page
that puts a diff's regions in place as static/app.js does shows exactly the frame the server rendered."""

from __future__ import annotations

import pickle
import re

import pytest

from bench.game_scripts import REPLAY_SEED
from companion.web.app import create_app
from companion.web.frame_regions import (
    DIFF_WORD,
    WORTH_SPLITTING,
    SentFrames,
    SplitFrame,
    placeholder,
    split,
    split_frame,
    with_spans,
)
from tests.pages import LONG_NAMES, MOST_SEATS, Device, PlayedTable

LANGUAGES = ("en", "cs", "nl")
STEPS = 150
REGION = re.compile(r'<template data-region="([^"]+)">(.*?)</template>(?=<template data-region=|\Z)', re.S)
NAME = re.compile(r' data-frame="([^"]+)"')
RUN = re.compile(r'<template data-keep-run="([^"]+)" data-from="(\d+)" data-to="(\d+)"></template>')


def one_each(run: re.Match) -> str:
    prefix, first, last = run[1], int(run[2]), int(run[3])
    step = 1 if first <= last else -1
    return "".join(placeholder(f"{prefix}{number}") for number in range(first, last + step, step))


def composed(own: dict[str, str], region: str) -> str:
    """A region's HTML: its own part with each placeholder filled by the region of that id (a run's placeholder, as
    static/app.js does, first made one for each region of the run)."""
    text = RUN.sub(one_each, own[region])
    for inner in re.findall(r'<template data-keep="([^"]+)"></template>', text):
        text = text.replace(placeholder(inner), composed(own, inner))
    return text


def from_worker(frame: str) -> str:
    """The frame as the server has it from the render worker: its regions found there, pickled both ways."""
    return split_frame(*pickle.loads(pickle.dumps(with_spans(frame), pickle.HIGHEST_PROTOCOL)))


def shown_after(shown: str | None, sent: str) -> str:
    """What a page shows after a frame it was sent, put in place as static/app.js puts it (a model of it)."""
    if not sent.startswith(DIFF_WORD + " "):
        return sent
    head, regions = sent.split("\n", 1)
    _word, base, name = head.split(" ")
    assert shown is not None and NAME.search(shown).group(1) == base, "a diff from a frame the page does not show"
    before = split(NAME.sub("", shown, count=1))
    own = {region: before.own(region) for region in before.order}
    own.update(REGION.findall(regions))
    root = next(iter(own))
    return composed(own, root).replace(f'id="{root}"', f'id="{root}" data-frame="{name}"', 1)


@pytest.fixture
def app(tmp_path):
    """The server's randomness seeded too: a Scotland Yard dealt so that Mister X is caught at once gave too few
    diffs now and then."""
    return create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "REPLAY_SEED": REPLAY_SEED, "RENDER_WORKERS": 0})


@pytest.mark.parametrize("game", MOST_SEATS)
def test_through_a_random_game_every_page_put_together_from_its_diffs_is_its_whole_frame(app, game):
    """Every seat (en, cs, nl in turn), the display and the host page, after every random tap of a seeded game with
    the most seats and the longest names: each frame splits into regions, and the page's diffs rebuild it exactly."""
    table = PlayedTable(app, app.test_client(), game, seed=39, options=MOST_SEATS[game], names=LONG_NAMES)
    pages = [
        (Device.of(app, table.code, table.tokens, who, lang=LANGUAGES[number % 3]), view)
        for number, (who, view) in enumerate(
            [("display", "display"), ("host", "host"), *((seat, "seat") for seat in table.tokens if seat != "host")]
        )
    ]
    sent = {id(device): SentFrames() for device, _view in pages}
    shown: dict[int, str | None] = dict.fromkeys(sent)
    diffs = 0
    for _step in range(STEPS):
        for device, view in pages:
            frame = device.browser.get(f"/t/{table.code}/live?view={view}").get_data(as_text=True).strip()
            assert split(frame) is not None, f"{view}: the frame does not split into regions"
            # As the render worker sends it every other time: its regions found there.
            message = sent[id(device)].as_sent(from_worker(frame) if diffs % 2 else frame)
            shown[id(device)] = shown_after(shown[id(device)], message)
            assert NAME.sub("", shown[id(device)], count=1) == frame
            diffs += message.startswith(DIFF_WORD)
        if table.step() is None or 'class="card outcome"' in table.display():
            break
    assert diffs >= len(pages) * 5


def test_an_empty_id_is_no_region():
    frame = '<div id="live"><p id="">1</p><p id="a">2</p></div>'
    assert split(frame).order == ("live", "a")


def test_regions_nested_in_regions_of_their_own_tag_and_of_others_end_where_their_elements_close():
    """A region's scan steps over the regions inside it: the elements around and between them still count."""
    frame = (
        '<div id="live"><div><div id="a"><div>x</div><ul id="l"><li id="l1"><div>y</div></li><li>z</li></ul>'
        '<div></div></div></div><div id="b"><div></div></div><input id="i"><br/></div>'
    )
    regions = split(frame)
    assert regions.order == ("live", "a", "l", "l1", "b", "i")
    inside = {None: ["live"], "live": ["a", "b", "i"], "a": ["l"], "l": ["l1"], "l1": [], "b": [], "i": []}
    assert regions.spans[1] == inside
    assert regions.own("live") == (
        f'<div id="live"><div>{placeholder("a")}</div>{placeholder("b")}{placeholder("i")}<br/></div>'
    )
    assert regions.own("a") == f'<div id="a"><div>x</div>{placeholder("l")}<div></div></div>'
    assert regions.own("l") == f'<ul id="l">{placeholder("l1")}<li>z</li></ul>'
    assert regions.own("b") == '<div id="b"><div></div></div>'


def test_regions_side_by_side_numbered_in_turn_have_one_placeholder_for_the_run():
    lines = "".join(f'<li id="line-{number}">{number}</li>' for number in range(12, 9, -1))
    others = '<p id="a-1">1</p> <p id="a-2">2</p><p id="b-07">7</p><p id="b-08">8</p><p id="b-09">9</p>'
    apart = '<i id="c-1"></i><i id="c-2"></i><i id="c-2x"></i><i id="c-3"></i><i id="c-4"></i>'
    regions = split(f'<div id="live"><ol>{lines}</ol>{others}<div id="z">{apart}</div></div>')
    assert regions is not None
    own = regions.own("live")
    assert '<ol><template data-keep-run="line-" data-from="12" data-to="10"></template></ol>' in own
    # Two of a run, a gap between them, and numbers written with a leading zero keep a placeholder each.
    assert "".join(placeholder(region) for region in ["b-07", "b-08", "b-09"]) in own
    assert f"{placeholder('a-1')} {placeholder('a-2')}" in own
    apart_each = map(placeholder, ["c-1", "c-2", "c-2x", "c-3", "c-4"])
    assert regions.own("z") == "".join(['<div id="z">', *apart_each, "</div>"])
    assert composed({region: regions.own(region) for region in regions.order}, "live") == regions.frame


def test_a_frame_sent_again_is_a_diff_of_no_region_and_the_page_that_asks_is_sent_it_whole():
    text = "x" * WORTH_SPLITTING
    frame = f'<div id="live" data-seq="1"><section id="game"><p id="a">{text}</p><p id="b">2</p></section></div>'
    sent = SentFrames()
    whole = sent.as_sent(frame)
    assert NAME.sub("", whole) == frame
    again = sent.as_sent(frame)
    assert again.startswith(DIFF_WORD) and "data-region" not in again
    changed = sent.as_sent(frame.replace(">2<", ">3<"))
    assert REGION.findall(changed.split("\n", 1)[1]) == [("b", '<p id="b">3</p>')]
    sent.forget()
    assert NAME.sub("", sent.as_sent(frame)) == frame


def test_a_frame_too_short_to_be_worth_splitting_is_sent_whole_every_time():
    frame = '<div id="live" data-seq="1"><section id="game"><p id="a">1</p><p id="b">2</p></section></div>'
    sent = SentFrames()
    assert sent.as_sent(frame) == frame and sent.as_sent(frame) == frame
    assert from_worker(frame) == frame and not isinstance(from_worker(frame), SplitFrame)


@pytest.mark.parametrize(
    "frame",
    [
        '<div id="live"><p id="a">1</div>',  # an element left open
        '<div id="live"><p id="a">1</p><p id="a">2</p></div>',  # an id given twice
        '<div id="live"><section id="game"></div></section>',  # elements closed out of order
        '<div id="live"><!-- <p id="a"> --></div>',  # a comment: text that is not elements
    ],
)
def test_a_frame_that_does_not_split_as_written_is_sent_whole_every_time(frame):
    sent = SentFrames()
    assert split(frame) is None
    assert sent.as_sent(frame) == frame
    assert sent.as_sent(frame) == frame
