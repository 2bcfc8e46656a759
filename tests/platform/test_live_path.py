"""The live path: no open page, however slow or silent, can hold up an action or another page."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket as sockets
import time

import pytest
import websocket

from tests.conftest import ServerProcess
from tests.http import call, open_table, socket

ROLL = {"type": "roll"}


def silent_socket(base: str, code: str) -> sockets.socket:
    """A WebSocket handshake with no credentials and a tiny receive buffer, and then never a read."""
    host, port = base.removeprefix("http://").split(":")
    raw = sockets.socket()
    raw.setsockopt(sockets.SOL_SOCKET, sockets.SO_RCVBUF, 4096)
    raw.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /t/{code}/ws?since=-1 HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    return raw


def closed_by_server(raw: sockets.socket, within: float) -> bool:
    """Read what the server had sent until it closes the connection (True) or `within` seconds pass."""
    raw.settimeout(1)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if raw.recv(65536) == b"":
                return True
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True
    return False


def test_a_page_that_never_reads_cannot_delay_the_seats_actions_and_is_cut_off(server):
    table = open_table(server.url, seats=("player-1", "player-2"))
    silent = silent_socket(server.url, table["code"])
    slowest = 0.0
    for _ in range(500):
        started = time.monotonic()
        status, answer = call(server.url, "POST", f"/api/tables/{table['code']}/actions", ROLL, table["host"])
        slowest = max(slowest, time.monotonic() - started)
        assert status == 200, answer
    assert slowest < 1.0
    assert closed_by_server(silent, within=30)
    silent.close()
    display = socket(server.url, table["code"], None, query="format=json&since=0")  # a page that reads
    assert json.loads(display.recv())["seq"] == 500
    display.close()


def test_a_page_that_stops_reading_for_a_while_gets_the_newest_view_when_it_reads_again(server):
    table = open_table(server.url, seats=("player-1", "player-2"))
    anna = socket(server.url, table["code"], table["player-1"])
    assert json.loads(anna.recv())["seq"] == 0
    for _ in range(30):  # anna reads nothing meanwhile
        call(server.url, "POST", f"/api/tables/{table['code']}/actions", {"type": "roll"}, table["host"])
    frames = [json.loads(anna.recv())]
    while frames[-1]["seq"] < 30:
        frames.append(json.loads(anna.recv()))
    assert frames[-1]["seq"] == 30 and len(frames[-1]["view"]["dice"]) == 30
    assert [f["seq"] for f in frames] == sorted(f["seq"] for f in frames)  # never an older view after a newer
    anna.close()


def test_a_socket_from_another_site_is_refused(server):
    table = open_table(server.url, seats=("player-1",))
    url = server.url.replace("http", "ws", 1) + f"/t/{table['code']}/ws?format=json"
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        websocket.create_connection(
            url, header=[f"Authorization: Bearer {table['player-1']}"], origin="http://evil.example", timeout=5
        )
    assert refused.value.status_code == 403
    ws = socket(server.url, table["code"], table["player-1"])  # no Origin (an app) and the server's own still work
    assert json.loads(ws.recv())["seq"] == 0
    ws.close()


def test_a_phone_gone_without_closing_its_socket_is_let_go_within_thirty_seconds(server):
    """Nothing happens at the table, so nothing is stuck: the server's pings go unanswered."""
    table = open_table(server.url, seats=("player-1",))
    silent = silent_socket(server.url, table["code"])
    started = time.monotonic()
    assert closed_by_server(silent, within=30)
    assert time.monotonic() - started > 10  # by the missed pongs, not at the handshake
    silent.close()


def test_a_phone_that_answers_the_pings_stays_and_one_that_does_not_is_let_go(tmp_path):
    server = ServerProcess(tmp_path / "data", env={"COMPANION_PING_INTERVAL": "0.5"}).start()
    try:
        table = open_table(server.url, seats=("player-1",))
        answering = socket(server.url, table["code"], table["player-1"])
        silent = silent_socket(server.url, table["code"])
        answering.settimeout(0.2)
        deadline = time.monotonic() + 3  # six pings: websocket-client answers each while it reads
        while time.monotonic() < deadline:
            with contextlib.suppress(websocket.WebSocketTimeoutException):
                answering.recv()
        assert closed_by_server(silent, within=1)  # gone after its second missed pong, within ~1 s
        answering.settimeout(5)
        answering.send("ping")
        assert answering.recv() == "pong"  # the server's own app heartbeat: this socket is still served
        answering.close()
        silent.close()
    finally:
        server.stop()


def test_displays_reached_by_different_addresses_each_get_the_join_link_of_their_own(app, service):
    """Equal pages share a frame; an HTML frame holds the absolute join link, so the address is part of equal.

    (Behind gunicorn with no COMPANION_PUBLIC_URL the link follows the address the page came by.)
    """
    from companion.web.ws import PageSocket

    code, _host_token = service.create("secret-notes", {"players": 2})
    hub = app.extensions["companion.hub"]
    for base in ("http://127.0.0.1:8000/", "http://localhost:8000/"):
        page = PageSocket(None, None, False, "en", base, as_json=False, ws=None, ping_interval=12)
        assert f'class="url">{base}t/{code}<' in hub.frame(code, page)
