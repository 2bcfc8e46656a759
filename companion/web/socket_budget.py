"""What one page's socket may send: a hand's taps, its page's heartbeat, and what happens past that."""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.games.base import N_

# A browser cannot see the WebSocket-level pings, so a page whose Wi-Fi died without the socket closing would
# not know; it sends this text now and then and takes a missing answer as a lost connection.
PING_TEXT, PONG_TEXT = "ping", "pong"

# A socket's budget: the fastest hand taps about ten times at once, and a few times a second after that
# (COMPANION_SOCKET_RATE); past it each message is refused, and a socket that goes on past ten refusals at once, or one
# a second after, is closed (1008: the page reconnects as from any lost socket).
TAPS_AT_ONCE = 10
REFUSALS_AT_ONCE, REFUSALS_PER_SECOND = 10, 1.0
# A socket that went on past its refusals is held this long, read no more, before it is closed: a client that opens
# another at once waits, not the server (each new socket costs the server its handshake and its budget's messages).
FLOODER_HELD = 2.0
# A page pings every 10 s (static/app.js): a ping this long after the last goes outside the budget, so a hand's burst
# of taps never has its page's heartbeat refused.
FREE_PING_SPACING = 5.0
TAPS_PAST_BUDGET = N_("Too many taps at once; wait a moment, then tap again.")


class Allowance:
    """A token bucket: `size` at once, refilled at `rate` a second."""

    def __init__(self, size: int, rate: float, now: float):
        self.size, self.rate = size, rate
        self._left, self._at = float(size), now

    def take(self, now: float) -> bool:
        self._left = min(self.size, self._left + (now - self._at) * self.rate)
        self._at = now
        if self._left < 1:
            return False
        self._left -= 1
        return True


class SocketBudget:
    """What one socket may send: TAPS_AT_ONCE messages at once and `rate` a second after, its page's ping besides."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._taps = Allowance(TAPS_AT_ONCE, rate, clock())
        self._refusals = Allowance(REFUSALS_AT_ONCE, REFUSALS_PER_SECOND, clock())
        self._free_ping_at = clock() - FREE_PING_SPACING

    def admits(self, message: str) -> bool:
        now = self._clock()
        if message == PING_TEXT and now - self._free_ping_at >= FREE_PING_SPACING:
            self._free_ping_at = now
            return True
        return self._taps.take(now)

    def may_refuse(self) -> bool:
        """Whether a message past the budget is refused with an answer (True) or the socket is closed (False)."""
        return self._refusals.take(self._clock())
