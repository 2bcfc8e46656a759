"""Live updates across processes and machines: every accepted action is announced on Redis pub/sub.

Each process announces its tables' changes and listens for the others'. On
hearing one it reads the newer events from the shared store and pushes fresh
views to the pages it holds. Redis carries only "table X is at seq n"; the
store stays the truth, so a lost announcement costs latency, never an action:
while Redis is away the listener catches the watched tables up by sequence
number every `poll_interval` seconds, and reconnects by itself.

A Redis that hangs (it accepts connections and never answers) is away too: every
call has a short timeout, an announcement that times out marks Redis lost, and the
listener pings it and gives up on a pong that does not come. While it is away no
seat is trusted from memory for long, and once it is back every seat is read
again and the changes this process could not announce are announced.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from companion.live import Hub, Page

log = logging.getLogger(__name__)

# Enough to cover a burst at every table; small enough that pushes never wait long behind reading.
ANNOUNCEMENT_BATCH = 1000
# An action's answer waits for its announcement: a Redis that takes longer than this counts as away.
REDIS_TIMEOUT = 0.25
# The listener pings Redis when it heard nothing for this long, and counts it hung after twice as long.
HEARTBEAT = 0.5


def quick_client(url: str) -> redis.Redis:
    """A client that gives up after REDIS_TIMEOUT, without silent retries (each would wait as long again)."""
    return redis.Redis.from_url(
        url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT, retry=Retry(NoBackoff(), 0)
    )


class RedisHub(Hub):
    """The open pages of this process, kept in step with every other process through Redis."""

    def __init__(
        self,
        url: str,
        render: Callable[[str, list[Page]], dict],
        tables: Callable[[], object],
        prefix: str = "companion",
        poll_interval: float = 1.0,
    ):
        super().__init__(render)
        self.tables = tables  # the Tables service, looked up late: it is built after the hub
        self.channel = f"{prefix}:tables"
        self.origin = secrets.token_hex(8)
        self.poll_interval = poll_interval
        self.connected = threading.Event()
        self._announcer = quick_client(url)
        # No silent retries for the listener either: every reconnect must be followed by a catch-up.
        self._listener_client = quick_client(url)
        self._reconnect = threading.Event()  # an announcement failed: the listener's connection is suspect too
        self._unannounced: dict[str, tuple[int, bool]] = {}  # code -> (seq, seats changed) while Redis was away
        self._unannounced_lock = threading.Lock()
        self._caught_up: dict[str, int] = {}  # code -> seq of the watched tables at the listener's last catch-up
        self._stopping = threading.Event()
        self._listener = threading.Thread(target=self._listen, name="redis-fanout", daemon=True)
        self._listener.start()

    def publish(self, code: str, seq: int, seats_changed: bool = False) -> None:
        """Announce the change to the other processes first (they render in parallel), then wake the pages here."""
        announced = False
        if self.connected.is_set():
            try:
                self._announce(code, seq, seats_changed)
                announced = True
            except redis.RedisError as error:
                log.warning("could not announce %s at seq %s on Redis (%s); the others will catch up", code, seq, error)
                self.connected.clear()  # the next answers do not wait on it too
                self._reconnect.set()
        if not announced:
            with self._unannounced_lock:
                _seq, seats_before = self._unannounced.get(code, (seq, False))
                self._unannounced[code] = (seq, seats_before or seats_changed)
        self.deliver(code)

    def _announce(self, code: str, seq: int, seats_changed: bool) -> None:
        self._announcer.publish(self.channel, f"{self.origin} {code} {seq} {int(seats_changed)}")

    def _announce_missed(self) -> None:
        """What changed here while Redis was away, for the processes that kept listening and heard nothing."""
        with self._unannounced_lock:
            missed, self._unannounced = self._unannounced, {}
        for code, (seq, seats_changed) in missed.items():
            self._announce(code, seq, seats_changed)

    def close(self) -> None:
        self._stopping.set()
        self._listener.join(5)
        self._announcer.close()
        self._listener_client.close()

    def _listen(self) -> None:
        while not self._stopping.is_set():
            try:
                # The fallback while Redis is away: seats read again, tables caught up by sequence number.
                self._forget_seats()
                self._catch_up_watched()
                self._hear_announcements()
            except (redis.RedisError, OSError) as error:
                if self.connected.is_set():
                    log.warning("lost Redis (%s); catching tables up by sequence number until it is back", error)
            except Exception:  # noqa: BLE001 - the listener must outlive any one bad table or announcement
                log.exception("the Redis listener failed; starting it again")
            self.connected.clear()
            self._stopping.wait(self.poll_interval)

    def _hear_announcements(self) -> None:
        with self._listener_client.pubsub() as pubsub:
            pubsub.subscribe(self.channel)
            self._await_subscription(pubsub)
            self._reconnect.clear()
            self.connected.set()
            self._forget_seats()  # a seat claimed or freed elsewhere meanwhile was not announced
            self._announce_missed()
            self._catch_up_watched()  # what the others announced while this process was not listening
            heard = time.monotonic()
            while not self._stopping.is_set():
                if self._reconnect.is_set():
                    raise redis.ConnectionError("an announcement failed")
                message = pubsub.get_message(timeout=HEARTBEAT)
                if message is None:
                    if time.monotonic() - heard > 2 * HEARTBEAT:
                        raise redis.TimeoutError("Redis stopped answering")
                    pubsub.ping()  # a pong (or an announcement) within HEARTBEAT shows Redis is still there
                    continue
                heard = time.monotonic()
                messages = [message, *self._already_received(pubsub)]
                announcements = [message for message in messages if message["type"] == "message"]
                if announcements:
                    self._heard(announcements)

    @staticmethod
    def _await_subscription(pubsub) -> None:
        """Redis confirms the subscription, or it counts as away (a hung Redis accepts the connection)."""
        deadline = time.monotonic() + 2 * HEARTBEAT
        while (remaining := deadline - time.monotonic()) > 0:
            message = pubsub.get_message(timeout=remaining)
            if message is not None and message["type"] == "subscribe":
                return
        raise redis.TimeoutError("Redis did not confirm the subscription")

    def _forget_seats(self) -> None:
        """Read every table's seats again when next asked (the service may not exist yet at start)."""
        service = self.tables()
        if service is not None:
            service.forget_seats()

    @staticmethod
    def _already_received(pubsub) -> list:
        """The announcements waiting behind the first: a listener that fell behind handles them together."""
        messages = []
        while len(messages) < ANNOUNCEMENT_BATCH and (message := pubsub.get_message(timeout=0)) is not None:
            messages.append(message)
        return messages

    def _heard(self, messages: list) -> None:
        """Catch each announced table up once and wake its pages, however many actions it announced."""
        announced = [message["data"].decode().split(" ") for message in messages]
        theirs = [(code, seats == "1") for origin, code, _seq, seats in announced if origin != self.origin]
        for code in {code for code, seats_changed in theirs if seats_changed}:
            self.tables().seats_changed(code)
        for code in dict.fromkeys(code for code, _ in theirs):
            if self.pages(code):
                self.tables().newest(code)
                self.deliver(code)

    def _catch_up_watched(self) -> None:
        """Read every watched table's newer events and push the tables that moved on since the last catch-up.

        Compared with the last catch-up, not with the table in memory: a request here may have read the
        newer events first (a view), and its pages must still hear of them.
        """
        codes = self.watched()
        service = self.tables() if codes else None  # no pages yet: the service may not exist yet either
        caught_up, self._caught_up = self._caught_up, {}
        for code in codes:
            self._caught_up[code] = service.newest(code).seq
            if self._caught_up[code] != caught_up.get(code):
                self.deliver(code)

    def watched(self) -> list[str]:
        with self._lock:
            return list(self._pages)
