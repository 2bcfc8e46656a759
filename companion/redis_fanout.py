"""Live updates across processes and machines: every accepted action is announced on Redis pub/sub.

Each process announces its tables' changes and listens for the others'. On
hearing one it reads the newer events from the shared store and pushes fresh
views to the pages it holds. Redis carries only "table X is at seq n"; the
store stays the truth, so a lost announcement costs latency, never an action:
while Redis is away the listener catches the watched tables up by sequence
number every `poll_interval` seconds, and reconnects by itself.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from companion.live import Hub, Page

log = logging.getLogger(__name__)

# Enough to cover a burst at every table; small enough that pushes never wait long behind reading.
ANNOUNCEMENT_BATCH = 1000


class RedisHub(Hub):
    """The open pages of this process, kept in step with every other process through Redis."""

    def __init__(
        self,
        url: str,
        render: Callable[[str, Page], str | None],
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
        self._announcer = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        # No silent retries for the listener: every reconnect must be followed by a catch-up.
        self._listener_client = redis.Redis.from_url(
            url, socket_connect_timeout=1, health_check_interval=5, retry=Retry(NoBackoff(), 0)
        )
        self._stopping = threading.Event()
        self._listener = threading.Thread(target=self._listen, name="redis-fanout", daemon=True)
        self._listener.start()

    def publish(self, code: str, seq: int, seats_changed: bool = False) -> None:
        """Announce the change to the other processes first (they render in parallel), then wake the pages here."""
        if self.connected.is_set():
            try:
                self._announcer.publish(self.channel, f"{self.origin} {code} {seq} {int(seats_changed)}")
            except redis.RedisError as error:
                log.warning("could not announce %s at seq %s on Redis (%s); the others will catch up", code, seq, error)
        self.deliver(code)

    def close(self) -> None:
        self._stopping.set()
        self._listener.join(5)
        self._announcer.close()
        self._listener_client.close()

    def _listen(self) -> None:
        while not self._stopping.is_set():
            try:
                self._catch_up_watched()  # the fallback while Redis is away: catch up by sequence number
                self._hear_announcements()
            except (redis.RedisError, OSError) as error:
                if self.connected.is_set():
                    log.warning("lost Redis (%s); catching tables up by sequence number until it is back", error)
            except Exception:  # noqa: BLE001 - the listener must outlive any one bad table or announcement
                log.exception("the Redis listener failed; starting it again")
            self.connected.clear()
            self._stopping.wait(self.poll_interval)

    def _hear_announcements(self) -> None:
        with self._listener_client.pubsub(ignore_subscribe_messages=True) as pubsub:
            pubsub.subscribe(self.channel)
            self.connected.set()
            self._catch_up_watched()  # what the others announced while this process was not listening
            while not self._stopping.is_set():
                message = pubsub.get_message(timeout=1.0)
                if message is not None:
                    self._heard([message, *self._already_received(pubsub)])

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
                self.tables().live(code)
                self.deliver(code)

    def _catch_up_watched(self) -> None:
        """Read every watched table's newer events and push the tables that moved on."""
        codes = self.watched()
        service = self.tables() if codes else None  # no pages yet: the service may not exist yet either
        for code in codes:
            service.seats_changed(code)  # a seat claimed or freed elsewhere was not announced either
            pushed = service.cached(code).seq
            if service.live(code).seq > pushed:
                self.deliver(code)

    def watched(self) -> list[str]:
        with self._lock:
            return list(self._pages)
