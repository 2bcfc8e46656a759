"""Clients that send slowly or hold connections open do not starve the tables (raw sockets on 127.0.0.1)."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.request

import pytest

from bench.servers import Server
from tests.conftest import TEST_GAMES, ServerProcess

# The deadline the servers under test get for a request's headers and for its body (the default is 10 s).
DEADLINE = 1.0
QUICK = {"COMPANION_REQUEST_TIMEOUT": str(DEADLINE)}


# A longer deadline, where a test must tell "at once" apart from "at the deadline" on a crowded box (closing ten
# sockets at once took over half a second there).
PATIENT = 5.0


@pytest.fixture
def lan_server(tmp_path, request):
    """`companion serve` (what `make run` starts), with a short deadline (or the one a test asks for, indirectly) and
    room for 30 connections."""
    deadline = getattr(request, "param", DEADLINE)
    env = {"COMPANION_REQUEST_TIMEOUT": str(deadline), "COMPANION_MAX_CONNECTIONS": "30"}
    running = ServerProcess(tmp_path / "data", env=env).start()
    yield running
    running.stop()


@pytest.fixture
def gunicorn_server(tmp_path):
    """gunicorn's gevent worker with room for only 20 connections, so that slow clients could take them all."""
    pytest.importorskip("gevent")
    running = Server(
        "gevent", tmp_path / "data", QUICK | {"COMPANION_WORKER_CONNECTIONS": "20", "COMPANION_EXTRA_GAMES": TEST_GAMES}
    )
    running.wait_ready()
    yield running
    running.stop()


@contextlib.contextmanager
def slow_clients(url: str, count: int, opening: bytes):
    """`count` connections that send `opening` and then nothing more, as a client sending a byte now and then."""
    port = int(url.rsplit(":", 1)[1])
    sockets = []
    try:
        for _ in range(count):
            client = socket.create_connection(("127.0.0.1", port), timeout=5)
            client.sendall(opening)
            sockets.append(client)
        yield sockets
    finally:
        for client in sockets:
            client.close()


def cut_off_within(sockets, seconds: float) -> list[bytes]:
    """What each socket received before the server closed it; fails if one is still open after `seconds`."""
    deadline = time.monotonic() + seconds
    received = []
    for client in sockets:
        client.settimeout(max(0.01, deadline - time.monotonic()))
        data = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := client.recv(4096):
                data += chunk
        received.append(data)
    return received


def answer_time(url: str) -> float:
    started = time.monotonic()
    urllib.request.urlopen(url + "/healthz", timeout=10).read()
    return time.monotonic() - started


SLOW_HEADERS = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
SLOW_BODY = (
    b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b'Content-Length: 60000\r\n\r\n{"game": "'
)


def test_companion_serve_cuts_off_requests_whose_headers_trickle_in(lan_server):
    with slow_clients(lan_server.url, 20, SLOW_HEADERS) as sockets:
        assert answer_time(lan_server.url) < DEADLINE
        assert cut_off_within(sockets, DEADLINE + 2) == [b""] * 20


def test_companion_serve_cuts_off_bodies_that_trickle_in(lan_server):
    with slow_clients(lan_server.url, 20, SLOW_BODY) as sockets:
        assert answer_time(lan_server.url) < DEADLINE
        for received in cut_off_within(sockets, DEADLINE + 2):
            assert received == b"" or received.startswith(b"HTTP/1.1 408")


@pytest.mark.parametrize("lan_server", [PATIENT], indirect=True)
def test_companion_serve_refuses_connections_past_its_bound_and_answers_once_the_slow_ones_are_cut_off(lan_server):
    with slow_clients(lan_server.url, 40, SLOW_HEADERS) as sockets:
        assert cut_off_within(sockets[30:], PATIENT / 2) == [b""] * 10  # past the bound of 30: closed at once
        started = time.monotonic()
        while True:  # a phone's browser tries again; a place frees once the slow ones are cut off
            with contextlib.suppress(OSError):
                answer_time(lan_server.url)
                break
            assert time.monotonic() - started < PATIENT + 1.5
            time.sleep(0.1)


def test_gunicorn_cuts_off_bodies_that_trickle_in_so_that_other_tables_get_connections(gunicorn_server):
    with slow_clients(gunicorn_server.url, 20, SLOW_BODY) as sockets:  # every connection the worker has
        assert answer_time(gunicorn_server.url) < DEADLINE + 1
        for received in cut_off_within(sockets, 2):
            assert received == b"" or received.startswith(b"HTTP/1.1 408")


def test_a_chunked_body_over_64_kib_is_refused_as_too_large(lan_server):
    port = int(lan_server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        client.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * 16384
        for _ in range(5):
            client.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        client.sendall(b"0\r\n\r\n")
        assert client.recv(4096).startswith(b"HTTP/1.1 413")
