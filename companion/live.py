"""Live updates: which open pages watch which table, and waking them to fetch their fresh views.

A change never writes to a socket. It only marks the table's pages as behind
and wakes them; each page's own thread (or greenlet) renders its newest view
and sends it. A page that cannot keep up simply skips the views it missed,
and a page that stops reading is cut off by the watchdog (it reconnects and
catches up by `since`). So no phone, however slow or silent, can hold up an
action or another page.

In one process the hub wakes its pages directly; with Redis configured
(companion.redis_fanout) every process hears every table's changes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)

# A send that has not finished after this long means the phone stopped reading.
SEND_TIMEOUT = 5.0
WATCHDOG_INTERVAL = 1.0
# Seconds a table's frames are kept after their rendering began (and at least until it ended: a busy server's pages
# that ask meanwhile wait for it, not render them again), unless every page they were rendered for took its own
# before: long enough for its pages' sends and the answer to the form that changed it; then a page that asks again
# (it reconnected, say) renders its own. Kept until the next change instead, they were half the server's memory (a
# Mice and Mystics table's five frames: 0.4 MB); kept FRAMES_KEPT after every page took its own, 150 MB of a
# server's 550 at 800 tables (bench/RESULTS.md).
FRAMES_KEPT = 3.0


class Page(Protocol):
    """An open page of a table (one WebSocket)."""

    seat: str | None  # the seat whose view it shows; None: the public display
    is_host: bool
    render_key: tuple  # pages with equal keys receive the same frame

    def wake(self) -> None:
        """Mark the page behind and wake its thread; never blocks."""

    def is_behind(self) -> bool:
        """Woken, and not yet looking for its frame."""

    def sending_since(self) -> float | None:
        """When the send under way started (time.monotonic), None when idle."""

    def cut_off(self) -> None:
        """Close the connection under a stuck send; never blocks."""

    def remind(self, now: float) -> None:
        """Wake the page's thread if its ping is due (time.monotonic); never blocks."""


class Rendering:
    """The frames of one table version that one page is rendering for all of its pages."""

    def __init__(self):
        self._frames: dict | None = None
        self._done = threading.Event()

    def render(self, frames: Callable[[], dict]) -> None:
        try:
            self._frames = frames()
        except Exception:  # noqa: BLE001 - not this page's error alone: each page, this one too, renders its own
            log.exception("rendering a change's frames together failed; each page renders its own")
        finally:
            self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self) -> bool:
        """Wait for the frames; False when their rendering failed."""
        self._done.wait()
        return self._frames is not None

    def result(self, key: tuple) -> str | None | Exception:
        return self._frames[key]


class KeptFrames:
    """The frames of one version of a table: each render key's Rendering, and the pages still to take theirs."""

    def __init__(self, version: int):
        self.version = version
        self.frames: dict[tuple, Rendering] = {}
        self.since = time.monotonic()
        self.owed: set[Page] = set()  # the pages they were rendered for that have not asked for theirs yet

    def let_go(self, now: float) -> bool:
        """Whether they may go: rendered, and asked for by every page they were rendered for, or kept FRAMES_KEPT."""
        rendered = all(rendering.done for rendering in self.frames.values())
        return rendered and (not self.owed or self.since < now - FRAMES_KEPT)


class Hub:
    """The open pages of every table in this process, and one rendered frame per distinct view."""

    def __init__(self, render: Callable[[str, list[Page]], dict] | None = None):
        self.render = render
        self._pages: dict[str, set] = defaultdict(set)
        self._lock = threading.Lock()
        self._versions: dict[str, int] = defaultdict(int)  # bumped by every change a page may show
        self._frames: dict[str, KeptFrames] = {}
        self._watchdog: threading.Thread | None = None

    def watch(self, code: str, page: Page) -> None:
        with self._lock:
            self._pages[code].add(page)
            self._start_watchdog()
        self.deliver(code, presence=True)

    def unwatch(self, code: str, page: Page) -> None:
        with self._lock:
            pages = self._pages.get(code)
            if pages is not None:
                pages.discard(page)
                if not pages:
                    del self._pages[code]
                    self._versions.pop(code, None)
                    self._frames.pop(code, None)
        self.deliver(code, presence=True)

    def present(self, code: str) -> dict[str, int]:
        """Who has a page of this table open here: seat id (or "display") -> pages."""
        counts: dict[str, int] = defaultdict(int)
        for page in self.pages(code):
            counts[page.seat or "display"] += 1
        return dict(counts)

    def pages(self, code: str) -> list:
        with self._lock:
            return list(self._pages.get(code, ()))

    def publish(self, code: str, seq: int, seats_changed: bool = False) -> None:
        """A table changed: wake every open page (in every process, where fanned out)."""
        self.deliver(code)

    def deliver(self, code: str, presence: bool = False) -> None:
        """Wake the table's pages here (presence: only the pages that show who is connected)."""
        with self._lock:
            pages = list(self._pages.get(code, ()))
            if pages:  # a table nobody watches here has no frames to keep apart
                self._versions[code] += 1
        for page in pages:
            if not presence or page.seat is None:  # a seat's page, the host's too, does not show who is connected
                page.wake()

    def let_go(self) -> None:
        """Close every open page's connection (the server is stopping): each reconnects and catches up by `since`,
        instead of holding the stopping server for its whole graceful timeout."""
        with self._lock:
            pages = [page for pages in self._pages.values() for page in pages]
        for page in pages:
            page.cut_off()

    def frame(self, code: str, page: Page) -> str | None:
        """The page's newest frame, rendered once per distinct view and version of the table.

        The first page of a table to ask after a change renders the frames of all the table's pages at once (the
        render worker is sent them in one message); the others wait for theirs. None when the page may no longer see
        this table (its seat was freed).
        """
        frame, to_render = self._cached_frame(code, page)
        if to_render:
            frame.render(lambda: self.render(code, to_render))
        if isinstance(frame, Rendering):
            frame = frame.result(page.render_key) if frame.wait() else self.render(code, [page])[page.render_key]
        if isinstance(frame, Exception):
            raise frame  # in the thread of the page whose frame it is
        return frame

    def _cached_frame(self, code: str, page: Page) -> tuple[str | None | Exception | Rendering, list[Page]]:
        """The page's frame of the table's version or its rendering, and the pages this page is to render for."""
        with self._lock:
            version = self._versions.get(code, 0)
            kept = self._frames.get(code)
            if kept is None or kept.version != version:
                kept = KeptFrames(version)
                if code in self._pages:  # kept while a page may ask again (a form's answer may come from no page)
                    self._frames[code] = kept
            frames = kept.frames
            if page.render_key in frames:
                kept.owed.discard(page)
                return frames[page.render_key], []
            # The pages a change woke; a presence change does not wake a seat's page, which would not show it.
            woken = [other for other in self._pages.get(code, ()) if other is not page and other.is_behind()]
            to_render = {other.render_key: other for other in (page, *woken) if other.render_key not in frames}
            kept.owed.update(other for other in woken if other.render_key in to_render)  # each will ask for its own
            rendering = Rendering()
            frames.update(dict.fromkeys(to_render, rendering))
        return rendering, list(to_render.values())

    def _start_watchdog(self) -> None:
        if self._watchdog is None:
            self._watchdog = threading.Thread(target=self._watch_sends, name="page-watchdog", daemon=True)
            self._watchdog.start()

    def _watch_sends(self) -> None:
        """Cut off the pages whose phone stopped reading (their send has been stuck too long), wake those whose ping
        is due (a page then waits for its socket without a timeout of its own, which cost a timer per wait), and let
        go of the tables' frames kept past FRAMES_KEPT."""
        while True:
            time.sleep(WATCHDOG_INTERVAL)
            now = time.monotonic()
            stuck_before = now - SEND_TIMEOUT
            with self._lock:
                pages = [page for pages in self._pages.values() for page in pages]
                for code, kept in list(self._frames.items()):
                    if kept.let_go(now):
                        del self._frames[code]
            for page in pages:
                page.remind(now)
                started = page.sending_since()
                if started is not None and started < stuck_before:
                    log.info("cutting off a page that stopped reading (%s)", page.seat or "display")
                    page.cut_off()
