"""A frame as regions, and the regions that changed since another frame: what a page's socket sends after its first
frame (a push costs what changed on the wire and in the phone, not the whole live part).

Every element of a frame with an id is a region. A region's own part is its HTML with each region inside it left as a
placeholder, `<template data-keep="ID"></template>`: a change deep inside the page changes that region's own part
alone. A page that holds the frame a change's diff names as its base puts the diff's regions in place by id
(static/app.js), filling each placeholder with the region of that id: the diff's, or the one it already shows.

No Flask and no I/O: a frame is split as a string. The live part's templates close every element they open and give
each id once; a frame that does not (`split` returns None) is sent whole.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from dataclasses import dataclass

# A region's start tag: `<name …` with this attribute in it. The templates' values are escaped: none holds ">", "<"
# or a quote.
ID_ATTRIBUTE = ' id="'
TAG_NAME = re.compile(r"<([a-z][a-z0-9-]*)")
VOID = frozenset(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"])
# Text that is not HTML, whose "tags" are not elements (comments, CDATA, scripts, styles): a frame with any is sent
# whole (the live part has none). One search: four `in` tests took a fifth of the time of finding the regions.
NOT_ELEMENTS = re.compile("<(?:!|script|style)")

# A frame shorter than this (characters) is sent whole: finding its regions and what changed costs the server more
# than the bytes a diff saves (the bench game's frames of 1.2 KB: 6,000 bids/s whole, 4,800 as diffs).
WORTH_SPLITTING = 4096
# A diff frame's first line: this word, the base frame's name and the new frame's, each after a space.
DIFF_WORD = "diff"
# What a page sends over its socket to be sent its next frame whole: its live part is not the base a diff named.
WHOLE_TEXT = "whole"


def placeholder(region: str) -> str:
    return f'<template data-keep="{region}"></template>'


def run_placeholder(prefix: str, first: int, last: int) -> str:
    """The placeholder of a run of regions side by side numbered in turn, `prefix` and `first` to `last` (the history's
    lines): one instead of one each, as the run shifts by one with every push (static/app.js makes them one each)."""
    return f'<template data-keep-run="{prefix}" data-from="{first}" data-to="{last}"></template>'


# A region numbered in a run: its id's prefix and its number (without leading zeros, so that the page can spell it).
NUMBERED = re.compile(r"(.*\D)([1-9][0-9]*|0)")
# Regions in a run shorter than this keep a placeholder each.
SHORTEST_RUN = 3


# Where a frame's regions lie: region -> (start, end), and region (None: the frame) -> the regions right inside it.
Spans = tuple[dict[str, tuple[int, int]], dict[str | None, list[str]]]
# Each region's key: a digest of its id and its own part, the same in every process (regions compared without their
# text, the base's with the new frame's whichever process split them).
Keys = dict[str, bytes]


@dataclass(frozen=True)
class Regions:
    """A frame's regions in document order, each with the key of its own part."""

    frame: str
    spans: Spans
    keys: Keys

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(self.keys)

    def own(self, region: str) -> str:
        """The region's own part: its HTML with each region inside it left as a placeholder."""
        spans, inside = self.spans
        return _own_part(self.frame, spans, region, inside.get(region, ()))

    def changed_since(self, base_keys: frozenset[bytes]) -> list[str]:
        return [region for region, key in self.keys.items() if key not in base_keys]


class SplitFrame(str):
    """A frame with its regions' spans and keys, found where it was rendered (in the render worker, on the other
    core: the server only compares the keys and slices the regions that changed)."""

    found: tuple[Spans, Keys] | None


# A frame as the render worker sends it: its text, and its regions' spans and keys (None: not found, or not worth
# finding). Plain data: a str subclass with attributes is pickled through copyreg, with its text copied, 5x slower
# (a Mice and Mystics change's five frames: 349 -> 66 µs, bench/RESULTS.md).
FoundFrame = tuple[str, tuple[Spans, Keys] | None]


def with_spans(frame: str) -> FoundFrame:
    """The frame with its regions' spans and keys, found now (in the render worker), when it is worth splitting."""
    return frame, _spans_and_keys(frame) if len(frame) >= WORTH_SPLITTING else None


def split_frame(frame: str, found: tuple[Spans, Keys] | None) -> SplitFrame | str:
    """The frame as with_spans() found it; as it is when nothing was found (too short to be worth splitting, or not
    splitting as written: the socket that sends it finds the same)."""
    if found is None:
        return frame
    with_found = SplitFrame(frame)
    with_found.found = found
    return with_found


def split(frame: str) -> Regions | None:
    """The frame's regions (as found with it, else found now); None when its elements do not nest as written or an id
    is given twice."""
    found = frame.found if isinstance(frame, SplitFrame) else _spans_and_keys(frame)
    return found and Regions(frame, *found)


def _spans_and_keys(frame: str) -> tuple[Spans, Keys] | None:
    found = spans_of(frame)
    if found is None:
        return None
    spans, inside = found
    keys = {}
    for region in spans:  # in document order
        own = _own_part(frame, spans, region, inside.get(region, ()))
        keys[region] = hashlib.blake2b(f"{region}\0{own}".encode(), digest_size=8).digest()
    return found, keys


def spans_of(frame: str) -> Spans | None:
    """Where the frame's regions lie; None when a region is not closed, overlaps another or has the id of another.

    Only the regions' own tags are followed, and a region's scan steps over the regions inside it, found first (the
    last region first): the live part's root does not walk again through every element of the page. A frame's
    thousands of other tags cost a search in C, not a step of Python each.
    """
    if NOT_ELEMENTS.search(frame):
        return None
    found = list(_starts_with_id(frame))
    starts = [start for start, _tag, _region, _after in found]
    ends = [0] * len(found)
    # For each region, the next region that is not inside it (len(found): none), so that a scan skips its insides.
    beyond = [len(found)] * len(found)
    for index in range(len(found) - 1, -1, -1):
        _start, tag, _region, after = found[index]
        if tag in VOID or frame[after - 2] == "/":
            end = after
        elif (end := _end_of(frame, tag, after, index, starts, ends, beyond)) is None:
            return None
        ends[index] = end
        following = index + 1
        while following < len(found) and starts[following] < end:
            following = beyond[following]
        beyond[index] = following
    spans: dict[str, tuple[int, int]] = {}
    inside: dict[str | None, list[str]] = {None: []}  # region (None: the frame) -> the regions right inside it
    enclosing: list[tuple[str, int]] = []  # the regions open at this point of the frame, and where each ends
    for (start, _tag, region, _after), end in zip(found, ends, strict=True):  # in document order
        if region in spans:
            return None
        spans[region] = (start, end)
        while enclosing and enclosing[-1][1] <= start:
            enclosing.pop()
        if enclosing and end > enclosing[-1][1]:
            return None
        inside[enclosing[-1][0] if enclosing else None].append(region)
        inside[region] = []
        enclosing.append((region, end))
    return spans, inside


def _starts_with_id(frame: str):
    """Each start tag with an id, in document order: where it starts, its name, the id, and where it ends. An empty
    id (id="") is no region."""
    at = frame.find(ID_ATTRIBUTE)
    while at != -1:
        start = frame.rfind("<", 0, at)
        value = at + len(ID_ATTRIBUTE)
        quote = frame.find('"', value)
        after = frame.find(">", quote) + 1
        tag = TAG_NAME.match(frame, start)
        if tag and quote > value and frame.find(">", start) > at:  # an id given in the tag, not text after it
            yield start, tag[1], frame[value:quote], after
        at = frame.find(ID_ATTRIBUTE, value)


def _end_of(frame: str, tag: str, at: int, index: int, starts: list[int], ends: list[int], beyond: list[int]):
    """Where the element of `tag` opened just before `at` (region `index`) ends: past its end tag; None when it is not
    closed. Each region inside it (found already: `ends`, `beyond`) is stepped over whole."""
    tags = _tags_named(tag)
    depth, inner = 1, index + 1
    while True:
        match = tags.search(frame, at, starts[inner] if inner < len(starts) else len(frame))
        if match is None:  # none before the next region: it lies inside this one (still open), and is stepped over
            if inner >= len(starts):
                return None
            at, inner = ends[inner], beyond[inner]
            continue
        at = frame.find(">", match.end() - 1) + 1
        if match[1]:
            depth -= 1
            if depth == 0:
                return at
        elif frame[at - 2] != "/":
            depth += 1


@functools.cache
def _tags_named(tag: str) -> re.Pattern:
    return re.compile(rf"<(/?){tag}[\s/>]")


def _own_part(frame: str, spans: dict[str, tuple[int, int]], region: str, children: list[str]) -> str:
    start, end = spans[region]
    parts, at = [], start
    for run in _runs(spans, children):
        first, last = run[0], run[-1]
        if len(run) < SHORTEST_RUN:
            for child in run:
                parts += [frame[at : spans[child][0]], placeholder(child)]
                at = spans[child][1]
            continue
        (prefix, number), (_prefix, upto) = _numbered(first), _numbered(last)
        parts += [frame[at : spans[first][0]], run_placeholder(prefix, number, upto)]
        at = spans[last][1]
    parts.append(frame[at:end])
    return "".join(parts)


def _runs(spans: dict[str, tuple[int, int]], children: list[str]) -> list[list[str]]:
    """The regions inside one in runs: each run of regions side by side (nothing between them) whose ids count up or
    down by one with the same prefix, in order; every other region a run of its own."""
    runs: list[list[str]] = []
    for child in children:
        run = runs[-1] if runs else None
        if run and spans[run[-1]][1] == spans[child][0] and _numbers_on(run, child):
            run.append(child)
        else:
            runs.append([child])
    return runs


def _numbers_on(run: list[str], region: str) -> bool:
    """Whether the region's id numbers on from the run's: the same prefix, one more or one less, as the run goes."""
    this, last = _numbered(region), _numbered(run[-1])
    if this is None or last is None or this[0] != last[0]:
        return False
    step = this[1] - last[1]
    return step in (1, -1) if len(run) == 1 else step == last[1] - _numbered(run[-2])[1]


@functools.lru_cache(maxsize=4096)
def _numbered(region: str) -> tuple[str, int] | None:
    """A numbered region's prefix and number; None for any other."""
    match = NUMBERED.fullmatch(region)
    return match and (match[1], int(match[2]))


def named(frame: str, regions: Regions, name: str) -> str:
    """The whole frame, its first region (the live part's root) carrying the frame's name, for a later diff to name as
    its base."""
    root = regions.order[0]
    return frame.replace(f'id="{root}"', f'id="{root}" data-frame="{name}"', 1)


def diff(base: str, base_keys: frozenset[bytes], new: Regions, name: str) -> str:
    """The diff frame from the frame named `base` (its regions' keys) to `new`, named `name`: each changed region's
    own part."""
    head = f"{DIFF_WORD} {base} {name}\n"
    return head + "".join(
        f'<template data-region="{region}">{new.own(region)}</template>' for region in new.changed_since(base_keys)
    )


class SentFrames:
    """What one page's socket has sent: its HTML frames, the first whole, each after it as a diff from the last."""

    def __init__(self):
        self._last: tuple[str, frozenset[bytes]] | None = None  # the last frame sent: its name, its regions' keys

    def forget(self) -> None:
        """Send the next frame whole: the page does not show the frame the last diff was made from."""
        self._last = None

    def as_sent(self, frame: str) -> str:
        """The frame as it is sent: whole the first time (and when it cannot be split), after that the regions that
        changed since the last one sent."""
        regions = split(frame) if len(frame) >= WORTH_SPLITTING else None
        if regions is None:
            self._last = None
            return frame
        # Random: no count that tells a page of other tables' frames, and no name a page's last socket gave already.
        last, name = self._last, os.urandom(6).hex()
        self._last = (name, frozenset(regions.keys.values()))
        return named(frame, regions, name) if last is None else diff(*last, regions, name)
