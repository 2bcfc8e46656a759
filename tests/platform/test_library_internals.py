"""What companion/web/library_internals.py uses of simple-websocket, flask-sock, wsproto and Jinja beyond their public
API still exists and behaves as relied on: an upgrade that moves any of it fails here."""

from __future__ import annotations

import inspect
import random
import re
import socket
import string
import struct
import threading
import zlib
from pathlib import Path

import flask_sock
import jinja2
import pytest
import simple_websocket.ws
from websocket import ABNF
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Pong, Request, TextMessage

from companion.web import library_internals, ws
from companion.web.library_internals import (
    DeflateWithOwnInflater,
    SocketServer,
    accept_deflate_as,
    negotiated_extensions,
    render_shared,
)

HANDSHAKE = {
    "HTTP_HOST": "table.local",
    "HTTP_CONNECTION": "Upgrade",
    "HTTP_UPGRADE": "websocket",
    "HTTP_SEC_WEBSOCKET_KEY": "dGhlIHNhbXBsZSBub25jZQ==",
    "HTTP_SEC_WEBSOCKET_VERSION": "13",
}


class NotedServer(SocketServer):
    """A SocketServer noting what its hooks were handed."""

    def frames(self, connection):
        self.framed = (connection, self.connected, getattr(self, "thread", None))
        return super().frames(connection)

    def reader_ended(self):
        self.ended = True
        super().reader_ended()


@pytest.fixture
def phone_and_server(monkeypatch):
    """A SocketServer over a socket pair, its phone's end, and the deflate extension it accepted."""
    monkeypatch.setattr(simple_websocket.ws, "PerMessageDeflate", simple_websocket.ws.PerMessageDeflate)
    accepted = []
    accept_deflate_as(lambda: accepted.append(OwnInflater()) or accepted[-1])
    server_end, phone = socket.socketpair()
    environ = {**HANDSHAKE, "gunicorn.socket": server_end}
    environ["HTTP_SEC_WEBSOCKET_EXTENSIONS"] = "permessage-deflate; client_max_window_bits"
    server = NotedServer(environ)
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += phone.recv(4096)
    yield phone, server, accepted
    phone.close()
    server.wait_for_reader(5)


def test_simple_websocket_makes_the_deflate_by_the_name_replaced_and_flask_sock_the_server():
    """Both names are read when a socket opens, not bound at import: replacing them is what changes the socket."""
    assert "PerMessageDeflate()" in inspect.getsource(simple_websocket.ws.Base._handle_events)
    assert "ws = Server(request.environ" in inspect.getsource(flask_sock.Sock.route)
    assert flask_sock.Server is ws.PageServer
    assert simple_websocket.ws.PerMessageDeflate.func is ws.OneMessageDeflate


def test_the_server_hands_its_connection_to_frames_after_the_handshake_before_its_reader(phone_and_server):
    phone, server, accepted = phone_and_server
    connection, connected, reader = server.framed
    assert isinstance(connection, WSConnection) and connected and reader is None
    assert server.ws is connection
    # The handshake accepted the deflate made by the name replaced, and wsproto keeps it where the adapter looks.
    assert negotiated_extensions(server.ws) == accepted and accepted[0].enabled()


def test_the_reader_queues_messages_wakes_the_page_and_notes_the_pong(phone_and_server):
    phone, server, _accepted = phone_and_server
    server.forget_wakes()
    assert server.messages_read_ahead() == 0
    phone.sendall(ABNF.create_frame("one", ABNF.OPCODE_TEXT).format())
    phone.sendall(ABNF.create_frame("two", ABNF.OPCODE_TEXT).format())
    waiting = threading.Thread(target=server.wait_to_be_woken)
    waiting.start()
    waiting.join(5)
    assert not waiting.is_alive()
    for _ in range(500):  # the reader takes both in, in its own thread
        if server.messages_read_ahead() == 2:
            break
        threading.Event().wait(0.01)
    assert server.messages_read_ahead() == 2 and server.receive(0) == "one" and server.messages_read_ahead() == 1
    server.expect_pong()
    assert not server.pong_came()
    phone.sendall(ABNF.create_frame(b"", ABNF.OPCODE_PONG).format())
    for _ in range(500):
        if server.pong_came():
            break
        threading.Event().wait(0.01)
    assert server.pong_came()


def test_a_write_goes_out_whole_and_the_end_ends_the_reader(phone_and_server):
    phone, server, _accepted = phone_and_server
    text = "".join(random.Random(38).choices(string.ascii_letters, k=300_000))  # past what one send takes
    writing = threading.Thread(target=server.write, args=(TextMessage(data=text),))
    writing.start()
    received = bytearray()
    while len(received) < 4 or len(received) < frame_length(received):
        received += phone.recv(65536)
    writing.join(5)
    first = received[0]
    assert first & 0x0F == ABNF.OPCODE_TEXT
    payload = bytes(received[frame_length(received) - frame_length(received, header=False) :])
    if first & 0x40:
        payload = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff")
    assert payload.decode() == text
    server.end_connection()
    server.wait_for_reader(5)
    assert server.ended and not server.thread.is_alive() and not server.connected


def frame_length(received: bytearray, header: bool = True) -> int:
    """A server frame's whole length by its header (its payload's alone if not `header`): 0 until it is read."""
    length, start = received[1] & 0x7F, 2
    if length >= 126:
        start = 4 if length == 126 else 10
        if len(received) < start:
            return 0
        (length,) = struct.unpack_from("!H" if start == 4 else "!Q", received, 2)
    return start + length if header else length


class OwnInflater(DeflateWithOwnInflater):
    """Counts the inflaters it makes."""

    def inflater(self):
        self.made = getattr(self, "made", 0) + 1
        return zlib.decompressobj(-self.client_max_window_bits)


def deflated_frames(text: str, parts: int) -> bytes:
    """A phone's message deflated on its own, in `parts` masked frames."""
    deflate = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    payload = (deflate.compress(text.encode()) + deflate.flush(zlib.Z_SYNC_FLUSH))[:-4]
    cut = len(payload) // parts
    pieces = [payload[i * cut : (i + 1) * cut if i < parts - 1 else None] for i in range(parts)]
    frames = b""
    for number, piece in enumerate(pieces):
        opcode = ABNF.OPCODE_TEXT if number == 0 else ABNF.OPCODE_CONT
        frame = ABNF(fin=int(number == parts - 1), rsv1=int(number == 0), opcode=opcode, data=piece)
        frames += frame.format()
    return frames


def test_wsproto_inflates_each_message_with_the_inflater_made_for_it():
    """One inflater per message, kept for its every frame (a new one would lose the message's first part)."""
    deflate = OwnInflater(client_no_context_takeover=True, server_no_context_takeover=True)
    server = WSConnection(ConnectionType.SERVER)
    server.receive_data(
        b"GET / HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n"
    )
    assert isinstance(next(server.events()), Request)
    server.send(AcceptConnection(extensions=[deflate]))
    assert negotiated_extensions(server) == [deflate]
    texts = ["a pass " * 200, "a bid of three"]
    server.receive_data(deflated_frames(texts[0], parts=3) + deflated_frames(texts[1], parts=1))
    server.receive_data(ABNF.create_frame(b"", ABNF.OPCODE_PONG).format())
    events = list(server.events())
    assert "".join(event.data for event in events[:-2]) == texts[0] and events[-2].data == texts[1]
    assert isinstance(events[-1], Pong)
    assert deflate.made == 2


def test_a_frame_that_holds_the_globals_renders_as_template_render_does():
    environment = jinja2.Environment(autoescape=True)
    environment.globals["table"] = "ABC234"
    template = environment.from_string("{{ table }} {{ seat }}{% if fail %}{{ 1 // 0 }}{% endif %}")
    frame = {**template.globals, "seat": "<Anna>", "fail": False}
    assert render_shared(template, frame) == template.render(seat="<Anna>") == "ABC234 &lt;Anna&gt;"
    with pytest.raises(ZeroDivisionError) as raised:
        render_shared(template, {**frame, "fail": True})
    assert "<template>" in {entry.path for entry in raised.traceback}  # Jinja's traceback, with the template's line


def test_the_adapter_is_the_one_module_that_reaches_in():
    """No other module of companion/ names what the adapter reaches for."""
    reaches = re.compile(
        r"\b(_proto|_decompressor|_make_new_ngettext|root_render_func|environment\.concat|input_buffer|pong_received"
        r"|ws\.event|flask_sock\.Server|simple_websocket\.ws\.PerMessageDeflate)\b"
    )
    package = Path(inspect.getfile(library_internals)).parent.parent
    found = {
        (str(path.relative_to(package)), reach)
        for path in package.rglob("*.py")
        if path.name != "library_internals.py"
        for reach in reaches.findall(path.read_text())
    }
    assert found == set()
    assert len(reaches.findall(Path(inspect.getfile(library_internals)).read_text())) >= 8


def test_a_page_done_by_an_error_with_messages_unread_leaves_no_reader_waiting():
    """The reader waits while READ_AHEAD messages are unread; a page that ends by an error (a stuck send cut off, a
    render that failed) leaves the socket marked open, and its reader must end all the same, not wait for good."""
    server_end, phone = socket.socketpair()
    server = ws.PageServer({**HANDSHAKE, "gunicorn.socket": server_end})
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += phone.recv(4096)
    for number in range(ws.READ_AHEAD + 4):
        phone.sendall(ABNF.create_frame(f"tap {number}", ABNF.OPCODE_TEXT).format())
    for _ in range(500):
        if server.messages_read_ahead() == ws.READ_AHEAD:
            break
        threading.Event().wait(0.01)
    assert server.messages_read_ahead() == ws.READ_AHEAD and server.connected
    server.finish()
    server.wait_for_reader(5)
    assert not server.thread.is_alive()
    phone.close()
