"""Stopping the server (SIGTERM, as systemd and docker do) is quick even with pages open."""

from __future__ import annotations

import signal
import time

import pytest

from bench.servers import Server
from tests.conftest import TEST_GAMES
from tests.http import open_table, socket


def test_gunicorn_stops_within_two_seconds_of_sigterm_with_pages_open(tmp_path):
    pytest.importorskip("gevent")
    server = Server("gevent", tmp_path / "data", {"COMPANION_EXTRA_GAMES": TEST_GAMES})
    server.wait_ready()
    try:
        table = open_table(server.url, seats=["player-1", "player-2"])
        pages = [socket(server.url, table["code"], table[seat]) for seat in ("player-1", "player-2", "host")]
        for page in pages:
            page.recv()
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(20)
        took = time.monotonic() - started
        assert took < 2.5, f"the server took {took:.1f} s to stop"
        for page in pages:
            page.close()
    finally:
        server.stop()
