"""The garbage collector of a process that holds thousands of open pages: full collections kept short.

Every open page holds objects the collector tracks (its greenlets' frames, its
request, its socket). With 1,000 tables of six phones and a display, a full
collection walks about a million of them and stops every table, several times a
minute (bench/RESULTS.md, "Figures that were comments"). What survives a full collection is mostly what
stays (open pages, folded tables), so it is frozen: the next full collection walks
only what came since. A frozen object that dies in a reference cycle (a page that
closed) is not freed while it is frozen, so every `thaw_every` seconds everything is
unfrozen, and the full collection after that walks it all once and frees it.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

THAW_EVERY = 3600.0


class FullCollections:
    """A gc callback: freeze what survived each full collection, thaw it all every `thaw_every` seconds."""

    def __init__(self, thaw_every: float = THAW_EVERY, clock: Callable[[], float] = time.monotonic):
        self.thaw_every = thaw_every
        self.clock = clock
        self.thawed_at = clock()

    def __call__(self, phase: str, info: dict) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        if self.clock() - self.thawed_at >= self.thaw_every:
            gc.unfreeze()
            self.thawed_at = self.clock()
        else:
            gc.freeze()


def keep_full_collections_short(thaw_every: float = THAW_EVERY) -> None:
    """Freeze what this process has loaded, collect the young often, and freeze each full collection's survivors.

    With the loaded modules, templates and boards out of reach, the young generation is collected after 100,000
    allocations instead of 700. A young collection walks every page's action in flight (tens of thousands of objects in
    a burst, however few allocations led to it), so fewer of them cost less (bench/RESULTS.md, "Figures that were
    comments").
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 10, 10)
    gc.callbacks.append(FullCollections(thaw_every))
