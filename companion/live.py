"""Live updates: which open pages watch which table, and pushing them fresh views.

In one process the hub calls its watchers directly; with Redis configured
(companion.redis_fanout) every process hears every table's changes.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable
from typing import Protocol


class Watcher(Protocol):
    """An open page of a table (one WebSocket)."""

    seat: str | None  # the seat whose view it shows; None: the public display
    is_host: bool
    render_key: tuple  # watchers with equal keys receive the same frame

    def send(self, frame: str) -> None: ...

    def close(self) -> None: ...


class Hub:
    """The open pages of every table in this process."""

    def __init__(self, render: Callable[[str, Watcher], str | None] | None = None):
        self.render = render
        self._watchers: dict[str, set] = defaultdict(set)
        self._lock = threading.Lock()

    def watch(self, code: str, watcher: Watcher) -> None:
        with self._lock:
            self._watchers[code].add(watcher)
        self.deliver(code, presence=True)

    def unwatch(self, code: str, watcher: Watcher) -> None:
        with self._lock:
            self._watchers[code].discard(watcher)
            if not self._watchers[code]:
                del self._watchers[code]
        self.deliver(code, presence=True)

    def present(self, code: str) -> dict[str, int]:
        """Who has a page of this table open here: seat id (or "display") -> pages."""
        counts: dict[str, int] = defaultdict(int)
        for watcher in self.watchers(code):
            counts[watcher.seat or "display"] += 1
        return dict(counts)

    def watchers(self, code: str) -> list:
        with self._lock:
            return list(self._watchers.get(code, ()))

    def publish(self, code: str, seq: int) -> None:
        """A table changed: tell every open page (in every process, where fanned out)."""
        self.deliver(code)

    def deliver(self, code: str, presence: bool = False) -> None:
        """Push every open page of the table here its own fresh view, rendered once per distinct view."""
        frames: dict[tuple, str] = {}
        for watcher in self.watchers(code):
            if presence and not (watcher.is_host or watcher.seat is None):
                continue
            if watcher.render_key not in frames:
                frames[watcher.render_key] = self.render(code, watcher)
            try:
                if frames[watcher.render_key] is None:  # the page may no longer see this table
                    self.unwatch_quietly(code, watcher)
                    watcher.close()
                else:
                    watcher.send(frames[watcher.render_key])
            except Exception:  # noqa: BLE001 - a dead socket must not stop the others' updates
                self.unwatch_quietly(code, watcher)

    def unwatch_quietly(self, code: str, watcher: Watcher) -> None:
        with self._lock:
            self._watchers.get(code, set()).discard(watcher)
