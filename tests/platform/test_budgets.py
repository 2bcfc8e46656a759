"""No client can hurt the server: a socket's budget, an address's connections, and nothing after a close frame.

Real servers (`companion serve` and gunicorn's gevent worker, one of each for the module) and raw sockets on
127.0.0.1; a second client address is 127.0.0.2, which loopback also answers.
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple

import pytest

from bench.flood import CLOSE, PeakMemory, RawSocket, close_code, flood, frame, process_tree, resident_mb
from bench.servers import Server
from tests.conftest import TEST_GAMES, ServerProcess
from tests.http import open_table

PER_ADDRESS = 10  # the servers' budget of connections per client address, under their bound of all connections
ALL = 30


class Running(NamedTuple):
    url: str
    pid: int  # the process that serves (gunicorn's worker); its render worker is its child


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    env = {"COMPANION_MAX_CONNECTIONS": str(ALL), "COMPANION_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS)}
    running = ServerProcess(tmp_path_factory.mktemp("serve") / "data", env=env).start()
    yield Running(running.url, running.process.pid)
    running.stop()


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    pytest.importorskip("gevent")
    env = {
        "COMPANION_WORKER_CONNECTIONS": str(ALL),
        "COMPANION_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS),
        "COMPANION_EXTRA_GAMES": TEST_GAMES,
    }
    running = Server("gevent", tmp_path_factory.mktemp("gunicorn") / "data", env)
    running.wait_ready()
    yield Running(running.url, running.pids[0])
    running.stop()


@pytest.fixture(params=["serve", "gunicorn"])
def server(request) -> Running:
    return request.getfixturevalue(request.param)


def test_a_flood_of_60_kb_messages_does_not_grow_the_server(server):
    """Deflated, each is a few hundred bytes on the wire: read without a bound, 3 s of them took hundreds of MB."""
    table = open_table(server.url, seats=("player-1", "player-2"))
    pids = process_tree(server.pid)
    before = resident_mb(pids)
    with PeakMemory(pids) as memory:
        tally = flood(server.url, f"/t/{table['code']}/ws?format=json&since=0", table["host"], "60kb-deflated", 3)
    assert tally.sent > 100
    assert memory.peak - before < 50


def test_nothing_follows_the_servers_close_frame(server):
    """A message over 64 KiB is refused with 1009; under `companion serve` an HTTP answer used to follow the close."""
    table = open_table(server.url, seats=("player-1",))
    page = RawSocket(server.url, f"/t/{table['code']}/ws?format=json&since=0", table["player-1"])
    with contextlib.suppress(OSError):
        page.raw.sendall(frame("x" * 70_000))
    opcode, payload = page.read_frame()
    assert (opcode, close_code(payload)) == (CLOSE, 1009)
    assert page.rest() == b""
    page.close()
