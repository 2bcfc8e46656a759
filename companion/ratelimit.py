"""A small in-process rate limit for table creation and seat claims."""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque


class RateLimit:
    """At most `limit` hits per `window` seconds for each key (e.g. a client address)."""

    def __init__(self, limit: int, window: float, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._hits: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = self.clock()
        with self._lock:
            hits = self._hits[key]
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            return True
