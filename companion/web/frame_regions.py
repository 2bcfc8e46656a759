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

import os
import re
from dataclasses import dataclass

# An end tag (its name), or a start tag (its name and attributes): the templates' values are escaped, none holds ">".
TAG = re.compile(r"</([a-z][a-z0-9-]*)\s*>|<([a-z][a-z0-9-]*)([^>]*)>")
ID = re.compile(r"""\sid="([^"]+)\"""")
VOID = frozenset(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"])
# Text that is not HTML, whose "tags" are not elements: a frame with any is sent whole (the live part has none).
NOT_ELEMENTS = ("<!--", "<script", "<style", "<![CDATA[")

# A diff frame's first line: this word, the base frame's name and the new frame's, each after a space.
DIFF_WORD = "diff"
# What a page sends over its socket to be sent its next frame whole: its live part is not the base a diff named.
WHOLE_TEXT = "whole"


def placeholder(region: str) -> str:
    return f'<template data-keep="{region}"></template>'


@dataclass(frozen=True)
class Regions:
    """A frame's regions in document order, each with its own part."""

    order: tuple[str, ...]
    own: dict[str, str]
    keys: frozenset[int]  # one per region, its id and own part: a base's regions, compared without their text

    def changed_since(self, base_keys: frozenset[int]) -> list[str]:
        return [region for region in self.order if hash((region, self.own[region])) not in base_keys]


# Where a frame's regions lie: region -> (start, end), and region (None: the frame) -> the regions right inside it.
Spans = tuple[dict[str, tuple[int, int]], dict[str | None, list[str]]]


class SplitFrame(str):
    """A frame with its regions' spans, found where it was rendered (in the render worker, on the other core)."""

    spans: Spans | None


def with_spans(frame: str) -> SplitFrame:
    found = SplitFrame(frame)
    found.spans = spans_of(frame)
    return found


def split(frame: str) -> Regions | None:
    """The frame's regions (by the spans found with it, else found now); None when its elements do not nest as
    written or an id is given twice."""
    found = frame.spans if isinstance(frame, SplitFrame) else spans_of(frame)
    if found is None:
        return None
    spans, inside = found
    own = {region: _own_part(frame, spans, region, inside.get(region, ())) for region in spans}
    keys = frozenset(hash((region, part)) for region, part in own.items())
    return Regions(tuple(spans), own, keys)  # spans are kept in document order


def spans_of(frame: str) -> Spans | None:
    """Where the frame's regions lie; None when its elements do not nest as written or an id is given twice."""
    if any(text in frame for text in NOT_ELEMENTS):
        return None
    spans: dict[str, tuple[int, int]] = {}
    inside: dict[str, list[str]] = {None: []}  # region (None: the frame) -> the regions right inside it
    open_elements: list[tuple[str, str | None]] = []  # tag, and the id of a region it opens
    regions_open: list[str | None] = [None]
    # One pass over every tag of a frame of thousands: each step as short as it can be.
    for match in TAG.finditer(frame):
        closed, tag, attributes = match.groups()
        if closed:
            if not open_elements:
                return None
            tag, region = open_elements.pop()
            if tag != closed:
                return None
            if region is not None:
                spans[region] = (spans[region][0], match.end())
                regions_open.pop()
            continue
        found = ' id="' in attributes and ID.search(attributes)  # a test before the search: most tags have no id
        region = found[1] if found else None  # an empty id (id="") is no region
        if region is not None:
            if region in spans:
                return None
            inside[regions_open[-1]].append(region)
            spans[region] = (match.start(), match.end())
        if tag in VOID or attributes.endswith("/"):
            continue
        open_elements.append((tag, region))
        if region is not None:
            inside[region] = []
            regions_open.append(region)
    return None if open_elements else (spans, inside)


def _own_part(frame: str, spans: dict[str, tuple[int, int]], region: str, children: list[str]) -> str:
    start, end = spans[region]
    parts, at = [], start
    for child in children:
        child_start, child_end = spans[child]
        parts += [frame[at:child_start], placeholder(child)]
        at = child_end
    parts.append(frame[at:end])
    return "".join(parts)


def named(frame: str, regions: Regions, name: str) -> str:
    """The whole frame, its first region (the live part's root) carrying the frame's name, for a later diff to name as
    its base."""
    root = regions.order[0]
    return frame.replace(f'id="{root}"', f'id="{root}" data-frame="{name}"', 1)


def diff(base: str, base_keys: frozenset[int], new: Regions, name: str) -> str:
    """The diff frame from the frame named `base` (its regions' keys) to `new`, named `name`: each changed region's
    own part."""
    head = f"{DIFF_WORD} {base} {name}\n"
    return head + "".join(
        f'<template data-region="{region}">{new.own[region]}</template>' for region in new.changed_since(base_keys)
    )


class SentFrames:
    """What one page's socket has sent: its HTML frames, the first whole, each after it as a diff from the last."""

    def __init__(self):
        self._last: tuple[str, frozenset[int]] | None = None  # the last frame sent: its name, its regions' keys

    def forget(self) -> None:
        """Send the next frame whole: the page does not show the frame the last diff was made from."""
        self._last = None

    def as_sent(self, frame: str) -> str:
        """The frame as it is sent: whole the first time (and when it cannot be split), after that the regions that
        changed since the last one sent."""
        regions = split(frame)
        if regions is None:
            self._last = None
            return frame
        # Random: no count that tells a page of other tables' frames, and no name a page's last socket gave already.
        last, name = self._last, os.urandom(6).hex()
        self._last = (name, regions.keys)
        return named(frame, regions, name) if last is None else diff(*last, regions, name)
