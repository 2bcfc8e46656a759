"""Clients that send slowly or hold connections open must not take the table down.

A request's headers and its body must each arrive within `REQUEST_TIMEOUT`
seconds (COMPANION_REQUEST_TIMEOUT): a client that opens requests and sends a
byte now and then would otherwise hold a connection for as long as it likes
(a greenlet under gunicorn, a thread under `companion serve`) until none is left
for the tables. A late client's socket is shut down; its reads end at once.
gunicorn bounds the headers itself (its keep-alive timeout covers them, see
deploy/gunicorn.conf.py); `companion serve` also bounds its connections.

And however fast it opens them, one client address holds at most its budget of
connections (COMPANION_CONNECTIONS_PER_ADDRESS): under `companion serve` here, under
gunicorn in companion/gevent_worker.py; the ones past it are closed as they are accepted.
"""

from __future__ import annotations

import contextlib
import io
import socket
import threading
import time
from collections import Counter

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

# How often the watch looks for late sockets: a late client is cut off within this much of its deadline.
WATCH_INTERVAL = 0.25


class Deadlines:
    """Sockets that must finish sending by a moment; the late ones are shut down."""

    def __init__(self):
        self._due: dict[object, tuple[float, socket.socket]] = {}
        self._lock = threading.Lock()
        self._watch: threading.Thread | None = None

    def start(self, key: object, connection: socket.socket, seconds: float) -> None:
        with self._lock:
            self._due[key] = (time.monotonic() + seconds, connection)
            if self._watch is None:
                self._watch = threading.Thread(target=self._cut_off_late, name="slow-clients", daemon=True)
                self._watch.start()

    def stop(self, key: object) -> None:
        with self._lock:
            self._due.pop(key, None)

    def _cut_off_late(self) -> None:
        while True:
            time.sleep(WATCH_INTERVAL)
            now = time.monotonic()
            with self._lock:
                late = [key for key, (due, _connection) in self._due.items() if due < now]
                connections = [self._due.pop(key)[1] for key in late]
            for connection in connections:
                with contextlib.suppress(OSError):  # closed already
                    connection.shutdown(socket.SHUT_RDWR)


DEADLINES = Deadlines()


class BodyDeadline:
    """WSGI middleware: the request's body is read whole, within the deadline, before the app sees the request.

    A body longer than the app takes (a chunked one included) is read only one byte
    past the limit: the app answers 413 from the length alone.
    """

    def __init__(self, app, seconds: float, limit: int):
        self.app = app
        self.seconds = seconds
        self.limit = limit

    def __call__(self, environ, start_response):
        length = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not chunked and (not length.isdigit() or int(length) == 0 or int(length) > self.limit):
            return self.app(environ, start_response)  # nothing to read, or refused by its length alone
        expected = self.limit + 1 if chunked else int(length)
        body = self._read(environ, expected)
        if body is None or (not chunked and len(body) < expected):
            start_response("408 Request Timeout", [("Content-Type", "text/plain"), ("Connection", "close")])
            return [b"The request's body did not arrive in time.\n"]
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["wsgi.input_terminated"] = False
        return self.app(environ, start_response)

    def _read(self, environ, expected: int) -> bytes | None:
        """Up to `expected` bytes of the body; None if the client was cut off or went away meanwhile."""
        connection = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
        key = object()
        if connection is not None:
            DEADLINES.start(key, connection, self.seconds)
        try:
            chunks, received = [], 0
            while received < expected:
                chunk = environ["wsgi.input"].read(min(65536, expected - received))
                if not chunk:
                    break
                chunks.append(chunk)
                received += len(chunk)
            return b"".join(chunks)
        except Exception:  # noqa: BLE001 - whatever the server raises for a body cut short
            return None
        finally:
            DEADLINES.stop(key)


class LanRequestHandler(WSGIRequestHandler):
    """`companion serve`'s requests: the request line and headers must arrive within the deadline."""

    request_timeout = 10.0

    def handle_one_request(self) -> None:
        # Also bounds a kept-alive connection's wait for its next request.
        DEADLINES.start(self, self.connection, self.request_timeout)
        try:
            super().handle_one_request()
        finally:
            DEADLINES.stop(self)

    def parse_request(self) -> bool:
        parsed = super().parse_request()  # reads the headers
        DEADLINES.stop(self)  # they are in: a socket page may now stay open for the whole game
        return parsed


class ConnectionBudget:
    """Connections open at once: at most `total` in all and `per_address` from any one client address (None: no
    bound), so that one device, or one NAT's devices, can never hold every connection."""

    def __init__(self, total: int | None, per_address: int | None):
        self.total, self.per_address = total, per_address
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, address: str) -> bool:
        """Whether a connection from the address fits; if it does, it counts until given back."""
        with self._lock:
            if (self.total is not None and self._open.total() >= self.total) or (
                self.per_address is not None and self._open[address] >= self.per_address
            ):
                return False
            self._open[address] += 1
            return True

    def give_back(self, address: str) -> None:
        with self._lock:
            self._open[address] -= 1
            if not self._open[address]:
                del self._open[address]


def connection_budget(config, total: int | None = None) -> ConnectionBudget:
    """The app's budget of connections; behind a trusted proxy every connection comes from the proxy's address, and the
    budget per address is the proxy's (deploy/nginx.conf: limit_conn)."""
    per_address = None if config["TRUSTED_PROXIES"] else config["CONNECTIONS_PER_ADDRESS"] or None
    return ConnectionBudget(total, per_address)


class LanServer(ThreadedWSGIServer):
    """Werkzeug's threaded server with a budget of connections (a thread each): one misbehaving device opening
    thousands of requests is refused the ones past it, instead of freezing the box or starving the other devices."""

    def __init__(self, *args, connections: ConnectionBudget, **kwargs):
        super().__init__(*args, **kwargs)
        self.connections = connections

    def process_request(self, request, client_address) -> None:
        if not self.connections.take(client_address[0]):
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.connections.give_back(client_address[0])
