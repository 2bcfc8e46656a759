"""No client can hurt the server: a socket's budget, an address's connections, and nothing after a close frame.

Real servers (`companion serve` and gunicorn's gevent worker, one of each for the module) and raw sockets on
127.0.0.1; a second client address is 127.0.0.2, which loopback also answers.
"""

from __future__ import annotations

import contextlib
import json
from typing import NamedTuple

import pytest

from bench.flood import CLOSE, PeakMemory, RawSocket, close_code, flood, frame, process_tree, resident_mb
from bench.servers import Server
from companion.slow_clients import connection_budget
from companion.web.socket_budget import PING_TEXT, SocketBudget
from tests.conftest import TEST_GAMES, ServerProcess
from tests.http import call, open_table
from tests.http import socket as page_socket

PER_ADDRESS = 10  # the servers' budget of connections per client address, under their bound of all connections
ALL = 30
# The pages here take JSON frames: no render worker, whose start after the server's would count as its growth.
NO_RENDER_WORKER = {"COMPANION_RENDER_WORKERS": "0"}


class Running(NamedTuple):
    url: str
    pid: int  # the process that serves (gunicorn's worker); its render worker is its child


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    env = {
        **NO_RENDER_WORKER,
        "COMPANION_MAX_CONNECTIONS": str(ALL),
        "COMPANION_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS),
    }
    running = ServerProcess(tmp_path_factory.mktemp("serve") / "data", env=env).start()
    yield Running(running.url, running.process.pid)
    running.stop()


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    pytest.importorskip("gevent")
    env = {
        **NO_RENDER_WORKER,
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


def test_a_flooding_socket_is_refused_then_closed_while_another_tables_page_gets_its_frames(server):
    flooded, other = (open_table(server.url, seats=("player-1", "player-2")) for _ in range(2))
    watching = page_socket(server.url, other["code"], other["player-1"], query="format=json&since=0")
    page = RawSocket(server.url, f"/t/{flooded['code']}/ws?view=seat&since=0&lang=nl", flooded["player-1"])
    taps = [json.dumps({"form": {"type": ["next_round"], "client_action_id": [f"tap-{n}"]}}) for n in range(100)]
    actions = [json.dumps({"type": "next_round"})] * 100  # as a program sends them
    with contextlib.suppress(OSError):  # the server may close the socket before it has read them all
        page.raw.sendall(b"".join(frame(message) for pair in zip(taps, actions, strict=True) for message in pair))
    answers, refusals = [], []
    while (heard := page.read_frame())[0] != CLOSE:
        line = json.loads(heard[1].split(b"\n", 1)[0])
        (answers if "answer" in line else refusals).append(line)
    assert close_code(heard[1]) == 1008
    assert page.rest() == b""
    page.close()
    statuses = [answer["status"] for answer in answers]
    assert statuses[0] == 422 and 429 in statuses  # the rules' refusal while within the budget; then the budget's
    assert all("Te veel tikken" in answer["notice"] for answer in answers if answer["status"] == 429)
    assert {refusal["error"]["code"] for refusal in refusals} == {"illegal_action", "too_many_requests"}
    assert len(answers) + len(refusals) < 100  # closed long before the end of the flood
    status, _ = call(server.url, "POST", f"/api/tables/{other['code']}/actions", {"type": "roll"}, other["host"])
    assert status == 200
    assert json.loads(watching.recv())["seq"] == 1
    watching.close()


def test_a_hands_burst_of_ten_taps_and_the_pages_ping_are_answered_as_ever(server):
    table = open_table(server.url, seats=("player-1", "player-2"))
    page = page_socket(server.url, table["code"], table["player-1"], query="view=seat&since=0")
    for tap in range(10):
        page.send(json.dumps({"form": {"type": ["next_round"], "client_action_id": [f"tap-{tap}"]}}))
    page.send("ping")  # the page's heartbeat, every 10 s, may come at any moment
    heard = [page.recv() for _ in range(11)]
    assert [json.loads(line)["status"] for line in heard[:10]] == [422] * 10
    assert heard[10] == "pong"
    page.close()


def test_a_sockets_budget_lets_ten_taps_through_then_its_pages_ping_then_ten_refusals():
    """On a clock that stands still, nothing refills: the budget's own steps show however slow the box is."""
    budget = SocketBudget(rate=5, clock=lambda: 1000.0)
    assert [budget.admits(json.dumps({"form": {}})) for _ in range(11)] == [True] * 10 + [False]
    assert budget.admits(PING_TEXT)  # the page's heartbeat, past the taps
    assert not budget.admits(PING_TEXT)  # not a second one at once: a flood of pings is a flood
    assert [budget.may_refuse() for _ in range(11)] == [True] * 10 + [False]


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


def test_behind_a_trusted_proxy_the_app_counts_no_address_the_proxy_does():
    """Every connection comes from the proxy's address: deploy/nginx.conf holds the budget (tests/scale)."""
    assert connection_budget({"TRUSTED_PROXIES": 1, "CONNECTIONS_PER_ADDRESS": 100}).per_address is None
    assert connection_budget({"TRUSTED_PROXIES": 0, "CONNECTIONS_PER_ADDRESS": 100}).per_address == 100
