"""Live updates over real WebSockets against a real server process."""

import base64
import json
import os
import re
import socket as sockets
import struct
import zlib

import websocket

from tests.http import call, open_table, post_form, send_form, socket


def frames_until(ws, predicate, limit=20):
    """Read frames until one satisfies the predicate; returns it."""
    for _ in range(limit):
        frame = json.loads(ws.recv())
        if predicate(frame):
            return frame
    raise AssertionError("no such frame arrived")


def test_an_action_of_one_seat_reaches_every_open_page_with_its_own_view(server):
    table = open_table(server.url, seats=("player-1", "player-2"))
    anna, bea = (
        socket(server.url, table["code"], table["player-1"]),
        socket(server.url, table["code"], table["player-2"]),
    )
    display = socket(server.url, table["code"], None)
    for ws in (anna, bea, display):
        assert json.loads(ws.recv())["seq"] == 0
    status, _ = call(
        server.url, "POST", f"/api/tables/{table['code']}/actions", {"type": "write", "note": "n1"}, table["player-1"]
    )
    assert status == 200
    assert frames_until(anna, lambda f: f["seq"] == 1)["view"]["my_note"] == "n1"
    assert frames_until(bea, lambda f: f["seq"] == 1)["view"]["my_note"] is None
    assert frames_until(display, lambda f: f["seq"] == 1)["view"]["written"] == ["player-1"]
    for ws in (anna, bea, display):
        ws.close()


def test_a_page_that_reconnects_catches_up_from_its_last_sequence_number(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))
    for note in ("a", "b"):
        seat = "player-1" if note == "a" else "player-2"
        call(server.url, "POST", f"/api/tables/{table['code']}/actions", {"type": "write", "note": note}, table[seat])
    ws = socket(server.url, table["code"], table["player-1"], query="format=json&since=0")
    frame = json.loads(ws.recv())
    assert frame["seq"] == 2
    assert frame["view"]["revealed"] == [{"player-1": "a", "player-2": "b"}]
    ws.close()


def test_actions_sent_over_the_socket_apply_once_even_when_replayed(server):
    table = open_table(server.url, seats=("player-1", "player-2"))
    ws = socket(server.url, table["code"], table["player-1"])
    json.loads(ws.recv())
    message = json.dumps({"type": "write", "note": "queued", "client_action_id": "offline-1"})
    ws.send(message)
    ws.send(message)  # the htmx socket extension replays its queue on reconnect
    frames_until(ws, lambda f: f["seq"] == 1)
    status, view = call(server.url, "GET", f"/api/tables/{table['code']}/view", token=table["player-1"])
    assert view["seq"] == 1
    ws.close()


def test_a_refused_socket_action_is_answered_on_that_socket_only(server):
    table = open_table(server.url, seats=("player-1",))
    ws = socket(server.url, table["code"], table["player-1"])
    json.loads(ws.recv())
    ws.send(json.dumps({"type": "next_round"}))
    answer = json.loads(ws.recv())
    assert answer["error"]["message"] == "Wait until every note is in."
    ws.close()


def test_html_pages_get_html_fragments_swapped_by_id(server):
    table = open_table(server.url, seats=("player-1",))
    ws = socket(server.url, table["code"], table["player-1"], query="view=seat&since=-1")
    assert 'id="live"' in ws.recv()
    ws.close()


def free_seat(server, table: dict, seat: str) -> None:
    """The host frees a seat, as the host's page does it (cookie and CSRF token)."""
    host_cookie = f"host_{table['code']}={table['host']}"
    assert post_form(server.url, table["code"], host_cookie, f"seats/{seat}/free")[0] == 200


def test_the_old_phone_of_a_freed_seat_receives_nothing_more(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))
    old_phone = socket(server.url, table["code"], table["player-1"])
    json.loads(old_phone.recv())
    free_seat(server, table, "player-1")
    call(
        server.url, "POST", f"/api/tables/{table['code']}/actions", {"type": "write", "note": "new"}, table["player-2"]
    )
    opcode, frame = old_phone.recv_data()  # nothing more for this seat: the server closes the socket
    assert opcode == websocket.ABNF.OPCODE_CLOSE
    assert int.from_bytes(frame[:2], "big") == 1008
    old_phone.shutdown()  # close() does nothing once the server has closed; the socket must still go


def test_the_old_phone_of_a_freed_seat_cannot_act_through_a_socket_showing_the_display(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))
    old_phone = socket(server.url, table["code"], table["player-1"], query="format=json&view=display")
    json.loads(old_phone.recv())
    free_seat(server, table, "player-1")
    old_phone.send(json.dumps({"type": "write", "note": "still mine?"}))
    refusal = frames_until(old_phone, lambda f: "error" in f)
    assert refusal["error"] == {"code": "forbidden", "message": "This token does not open a seat at this table."}
    status, view = call(server.url, "GET", f"/api/tables/{table['code']}/view", token=table["host"])
    assert view["seq"] == 0 and view["view"]["written"] == []
    old_phone.close()


def test_a_client_action_id_is_one_actors_another_seat_may_use_the_same(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))

    def write(seat, note):
        body = {"type": "write", "note": note, "client_action_id": "x1"}
        return call(server.url, "POST", f"/api/tables/{table['code']}/actions", body, table[seat])

    first, second = write("player-1", "a"), write("player-2", "b")
    assert first[0] == second[0] == 200
    assert second[1]["repeated"] is False and second[1]["view"]["my_note"] == "b"
    again = write("player-2", "c")
    assert again[1]["repeated"] is True and again[1]["applied_seq"] == 2


def test_a_hostile_socket_frame_is_refused_on_that_socket_and_the_table_goes_on(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))
    ws = socket(server.url, table["code"], table["player-1"])
    json.loads(ws.recv())
    for frame in ("[" * 20000 + "]" * 20000, '{"type": "write", "note": "M\\udfffM"}', '{"amount": 1e400}'):
        ws.send(frame)
        assert frames_until(ws, lambda f: "error" in f)["error"]["code"] == "bad_request"
    ws.send(json.dumps({"type": "write", "note": "fine"}))
    assert frames_until(ws, lambda f: f.get("seq") == 1)["view"]["my_note"] == "fine"
    ws.close()


def test_a_page_that_sends_ping_is_answered_pong_and_nothing_is_applied(server):
    table = open_table(server.url, seats=("player-1",))
    ws = socket(server.url, table["code"], table["player-1"], query="view=seat&since=0")
    ws.send("ping")
    assert ws.recv() == "pong"
    status, view = call(server.url, "GET", f"/api/tables/{table['code']}/view", token=table["player-1"])
    assert view["seq"] == 0
    ws.close()


class DeflatingPhone:
    """A browser's WebSocket as the server sees it: it offers permessage-deflate, and reads the display's frames."""

    def __init__(self, base: str, code: str):
        host, port = base.removeprefix("http://").split(":")
        self.raw = sockets.create_connection((host, int(port)), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.raw.sendall(
            (
                f"GET /t/{code}/ws?since=-1 HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        head = self._read_until(b"\r\n\r\n").decode()
        assert head.startswith("HTTP/1.1 101"), head
        self.extensions = re.search(r"(?im)^sec-websocket-extensions:(.*)$", head).group(1).strip()

    def _read_until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            self._fill()
        found, self.buffer = self.buffer.split(end, 1)
        return found

    def _read(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self._fill()
        found, self.buffer = self.buffer[:size], self.buffer[size:]
        return found

    def _fill(self) -> None:
        received = self.raw.recv(65536)
        assert received, "the server closed the socket"
        self.buffer += received

    def frame(self) -> tuple[bool, str]:
        """The next text frame: whether it came compressed, and its text, inflated with a decompressor of its own
        (one that has not seen the frames before: what a server without context takeover must allow)."""
        first, second = self._read(2)
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", self._read(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", self._read(8))
        payload = self._read(size)
        compressed = bool(first & 0x40)
        if compressed:
            payload = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff")
        return compressed, payload.decode()


def test_a_browser_offering_deflate_gets_each_frame_compressed_on_its_own(server):
    """Without context takeover the server keeps no zlib state between messages (about 120 KB per open page)."""
    table = open_table(server.url, seats=("player-1",))
    phone = DeflatingPhone(server.url, table["code"])
    assert {part.strip() for part in phone.extensions.split(";")} >= {
        "permessage-deflate",
        "server_no_context_takeover",
        "client_no_context_takeover",
    }
    compressed, first = phone.frame()
    assert compressed and 'id="live"' in first
    call(server.url, "POST", f"/api/tables/{table['code']}/seats", {"seat": "player-2", "name": "Šárka"})
    compressed, second = phone.frame()  # nearly the first again: with context takeover it would point back into it
    assert compressed and "Šárka" in second
    phone.raw.close()


def test_a_pages_form_sent_over_its_socket_is_answered_as_a_post_and_applied_once(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))
    page = socket(server.url, table["code"], table["player-1"], query="view=seat&since=0")
    note = dict(type="write", note="over the socket", seen_seq=0, client_action_id="tap-1")
    answer, frame = send_form(page, **note)
    assert answer == {"answer": "tap-1", "status": 200}  # no notice: the fresh view clears the last one away
    assert 'data-seq="1"' in frame and "over the socket" in frame
    # Sent again after a lost answer: answered the same, applied once (no fresh view comes).
    assert send_form(page, **note) == (answer, "")
    status, view = call(server.url, "GET", f"/api/tables/{table['code']}/view", token=table["player-1"])
    assert view["seq"] == 1 and view["view"]["my_note"] == "over the socket"
    page.close()


# An action type no installed game has is bad input (400: the API's document lists every game's types); one of
# another game's is well formed and this table's rules refuse it (422).
ACTION_TYPES = {"fly": (400, "bad_request"), "bid": (422, "illegal_action"), "move": (422, "illegal_action")}


def test_an_action_type_no_game_has_is_a_400_and_another_game_s_a_422_on_every_channel(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))
    code, token = table["code"], table["player-1"]
    program, page = socket(server.url, code, token), socket(server.url, code, token, query="view=seat&since=0")
    json.loads(program.recv())
    for kind, (status, error) in ACTION_TYPES.items():
        assert call(server.url, "POST", f"/api/tables/{code}/actions", {"type": kind}, token) == (
            status,
            {"error": {"code": error, "message": f"This game has no action {kind}."}},
        ), kind
        program.send(json.dumps({"type": kind}))
        assert json.loads(program.recv())["error"]["code"] == error, kind
        assert send_form(page, type=kind, client_action_id=kind)[0]["status"] == status, kind
        assert post_form(server.url, code, f"seat_{code}={token}", "act", {"type": kind})[0] == status, kind
    assert call(server.url, "GET", f"/api/tables/{code}/view", token=table["host"])[1]["seq"] == 0
    program.close()
    page.close()


def test_a_refused_form_over_a_socket_is_answered_with_its_status_and_notice(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))
    page = socket(server.url, table["code"], table["player-1"], query="view=seat&since=0")
    too_early, _ = send_form(page, type="next_round", seen_seq=0, client_action_id="tap-1")
    assert too_early["answer"] == "tap-1" and too_early["status"] == 422
    assert "notice-error" in too_early["notice"] and "Wait until every note is in." in too_early["notice"]
    czech = socket(server.url, table["code"], table["player-1"], query="view=seat&since=0&lang=cs")
    as_host, _ = send_form(czech, type="write", note="x", client_action_id="tap-2", **{"as": "host"})
    assert as_host["status"] == 403 and "To může udělat jen hostitel." in as_host["notice"]  # in the page's language
    czech.close()
    for hostile in (
        {"form": {"type": "write"}},  # not a form's fields
        {"form": {"type": ["write"], "note": ["M\udfffM"]}},  # text no store can keep
        {"form": {"type": ["write"], "note\u0000": ["x"]}},
        {"form": {"type": ["write"], "note": ["x" * 4001]}},
    ):
        page.send(json.dumps(hostile))  # refused as any bad frame is
        assert json.loads(page.recv())["error"]["code"] == "bad_request"
    status, view = call(server.url, "GET", f"/api/tables/{table['code']}/view", token=table["host"])
    assert view["seq"] == 0
    page.close()


def test_the_host_pages_socket_sends_the_hosts_forms_though_the_host_plays_a_seat_too(server):
    table = open_table(server.url, options={"players": 2}, seats=("player-1", "player-2"))
    code = table["code"]
    both = f"seat_{code}={table['player-1']}; host_{code}={table['host']}"
    pages = {
        view: websocket.create_connection(
            server.url.replace("http", "ws", 1) + f"/t/{code}/ws?view={view}&since=0", cookie=both, timeout=10
        )
        for view in ("host", "seat")
    }
    answer, _ = send_form(pages["host"], type="roll", client_action_id="host-1", **{"as": "host"})
    assert answer == {"answer": "host-1", "status": 200}
    as_host, _ = send_form(pages["seat"], type="roll", client_action_id="seat-1", **{"as": "host"})
    assert as_host["status"] == 403  # the seat page's socket speaks for the seat
    status, view = call(server.url, "GET", f"/api/tables/{code}/view", token=table["host"])
    assert [line["args"]["seat"] for line in view["history"]] == ["host"]
    for page in pages.values():
        page.close()
