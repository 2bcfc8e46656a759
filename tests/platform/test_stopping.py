"""Stopping the server (SIGTERM, as systemd and docker do) is quick even with pages open: they do not hold it."""

from __future__ import annotations

import signal
import time

import pytest

from bench.servers import Server
from tests.conftest import TEST_GAMES
from tests.http import open_table, socket

# Long enough that no busy box takes half of it to stop a worker that let its pages go (on a quiet box it takes a
# second); a worker held by its open pages would take all of it.
GRACEFUL_TIMEOUT = 60


def test_gunicorn_stops_with_pages_open_without_waiting_out_its_graceful_timeout(tmp_path):
    pytest.importorskip("gevent")
    env = {"COMPANION_EXTRA_GAMES": TEST_GAMES, "GUNICORN_CMD_ARGS": f"--graceful-timeout {GRACEFUL_TIMEOUT}"}
    server = Server("gevent", tmp_path / "data", env)
    server.wait_ready()
    try:
        table = open_table(server.url, seats=["player-1", "player-2"])
        pages = [socket(server.url, table["code"], table[seat]) for seat in ("player-1", "player-2", "host")]
        for page in pages:
            page.recv()
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(2 * GRACEFUL_TIMEOUT)
        took = time.monotonic() - started
        assert took < GRACEFUL_TIMEOUT / 2, f"the server took {took:.1f} s to stop: its open pages held it"
        for page in pages:
            page.close()
    finally:
        server.stop()
