"""Parts of pages already rendered, by what they were rendered from: a push renders only the parts whose inputs changed.

A part is a `{% call memo(name, inputs…) %}` block of a live part's template (web/frames.py, Renderer.memo): its HTML
is kept under a digest of its name, its inputs and what every part of its page depends on (the language, the address,
the kind of page, the table and its names). The next push of any page that shows the part from the same inputs (the
same page after a change elsewhere, or the next seat's page of the same change) takes it from here instead of
rendering it again.

The parts are kept up to a budget of bytes (COMPANION_RENDERED_PARTS_MB), the least recently used dropped first, so
that the memory stays bounded whatever clients ask for. A change of a table touches parts of 40-100 KB (all its pages
in one language, bench/RESULTS.md): a budget below that times the tables that play at once keeps a part only until
the other tables have pushed past it, and every page is rendered whole again. No Flask and no I/O.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import threading
from collections import OrderedDict

from jinja2 import Undefined
from markupsafe import Markup

# What an entry costs besides its part: its key and its place in the dict, in bytes.
ENTRY_BYTES = 150


def part_key(page: str, name: str, inputs: tuple) -> bytes:
    """The key of a part: its page's (`page`, as page_of() gives it), its name and its inputs, which must be plain
    data (anything else raises TypeError, so an input whose text would not tell it apart is never taken for the same).

    The inputs are marshalled (version 2: the same bytes for equal values, however shared or interned; a Mice and
    Mystics seat page's keys 165 -> 48 µs, bench/RESULTS.md). What marshal refuses, a template's missing value
    (jinja's Undefined) or what is not plain data, is told apart as JSON, or refused there."""
    try:
        data = b"m" + marshal.dumps((page, name, inputs), 2)
    except ValueError:
        data = b"j" + f"{page}\0{name}\0{plain_text(inputs)}".encode()
    return hashlib.blake2b(data, digest_size=16).digest()


def undefined(value: object) -> str:
    """What a template's missing value (`view.surge` of a view without it) stands for in a key: a text no plain input
    holds."""
    if isinstance(value, Undefined):
        return "\0undefined"
    raise TypeError(f"a part's input must be plain data, not {type(value).__name__}")


def plain_text(value) -> str:
    """Plain data as text (JSON), each value told apart."""
    return ENCODER.encode(value)


def page_of(locale: str, base_url: str, context: dict) -> str:
    """What every part of a page depends on besides its own inputs: the language, the address (its links), the kind
    of page (a seat's, the display, the host page: their forms differ), whether the host holds it, the table and who
    sits where."""
    return plain_text([locale, base_url, context["page"], context["is_host"], context["code"], context["names"]])


# One encoder for every key: json.dumps with options makes one per call.
ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=undefined)


class RenderedParts:
    """The parts rendered in this process, as UTF-8 (half a Czech part's size as a string), the least recently used
    dropped past `budget` bytes."""

    def __init__(self, budget: float):
        self.budget = budget
        self._parts: OrderedDict[bytes, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()  # pages render in threads of their own

    def get(self, key: bytes) -> Markup | None:
        with self._lock:
            found = self._parts.get(key)
            if found is None:
                return None
            self._parts.move_to_end(key)
        return Markup(found.decode())

    def keep(self, key: bytes, part: Markup) -> None:
        kept = part.encode()
        with self._lock:
            if key in self._parts:
                return
            self._parts[key] = kept
            self._size += len(kept) + ENTRY_BYTES
            while self._size > self.budget:
                _key, dropped = self._parts.popitem(last=False)
                self._size -= len(dropped) + ENTRY_BYTES

    @property
    def size(self) -> int:
        """Bytes kept, with what each entry costs besides its part."""
        return self._size

    def __len__(self) -> int:
        return len(self._parts)
