"""Every reach into a library's insides, in one place: what of simple-websocket (flask-sock's socket), flask-sock,
wsproto and Jinja the project uses beyond their public API, and why.

pyproject.toml pins these libraries to the versions the suite has run; tests/platform/test_library_internals.py
checks each name used here, so an upgrade that moves one fails there, not under a page.
"""

from __future__ import annotations

import socket

import flask_sock
import simple_websocket.ws
from jinja2 import Template
from wsproto import WSConnection
from wsproto.extensions import Extension, PerMessageDeflate

from companion.web.socket_writes import send_whole

# simple-websocket and flask-sock


def accept_deflate_as(make_extension) -> None:
    """The permessage-deflate every page's socket accepts: simple-websocket makes it by this name, and only here."""
    simple_websocket.ws.PerMessageDeflate = make_extension


def serve_sockets_with(server_class: type[simple_websocket.Server]) -> None:
    """The server of every socket a flask-sock route opens: flask-sock makes it by the name it imported."""
    flask_sock.Server = server_class


class SocketServer(simple_websocket.Server):
    """simple-websocket's server of one socket, with what of its insides a page uses given names here: the event that
    wakes the page, the messages read ahead, the pong, the reader thread, the raw socket and the wsproto connection.

    `frames(connection)` may wrap the wsproto connection once the handshake is done (before the reader starts), and
    `reader_ended()` is called when the reader's thread ends.
    """

    def handshake(self) -> None:
        super().handshake()
        if self.connected:
            self.ws = self.frames(self.ws)

    def frames(self, connection: WSConnection):
        """What reads and writes the socket's frames after the handshake: wsproto's connection unless overridden."""
        return connection

    def _thread(self) -> None:
        try:
            super()._thread()
        finally:
            self.reader_ended()

    def reader_ended(self) -> None:
        """The reader's end wakes the page: simple-websocket wakes it before it marks the socket closed on a message
        too big, and the page could look in between and wait on, until its next ping."""
        self.event.set()

    def wake(self) -> None:
        """Wake whoever waits for the page's next message (the reader wakes it too, for a message or a close)."""
        self.event.set()

    def forget_wakes(self) -> None:
        self.event.clear()

    def wait_to_be_woken(self) -> None:
        self.event.wait()

    def messages_read_ahead(self) -> int:
        """Messages the reader has taken in that the page has not received yet."""
        return len(self.input_buffer)

    def pong_came(self) -> bool:
        """Whether the phone answered the last ping (the reader notes the pong)."""
        return self.pong_received

    def expect_pong(self) -> None:
        self.pong_received = False

    def write(self, event) -> None:
        """The event's frame, whole: simple-websocket's own send writes once, and under gevent a write takes only what
        the kernel has room for."""
        send_whole(self.sock, self.ws.send(event))

    def wait_for_reader(self, seconds: float) -> None:
        self.thread.join(seconds)

    def end_connection(self) -> None:
        """Shut the connection down both ways: a stuck send fails and the reader sees the end."""
        self.sock.shutdown(socket.SHUT_RDWR)


# wsproto


def negotiated_extensions(connection: WSConnection) -> list[Extension] | None:
    """The extensions the handshake agreed on (wsproto names them nowhere public); None if wsproto keeps them
    elsewhere."""
    return getattr(getattr(connection.connection, "_proto", None), "extensions", None)


class DeflateWithOwnInflater(PerMessageDeflate):
    """wsproto's permessage-deflate, inflating each message with the one `inflater()` makes."""

    def inflater(self):
        raise NotImplementedError

    def frame_inbound_header(self, proto, opcode, rsv, payload_length):
        answer = super().frame_inbound_header(proto, opcode, rsv, payload_length)
        # wsproto makes each message's inflater here, under a name of its own: it is replaced at once.
        made = getattr(self, "_decompressor", None)
        if made is not None and made is not getattr(self, "_own_inflater", None):
            self._decompressor = self._own_inflater = self.inflater()
        return answer


# Jinja


def render_shared(template: Template, frame: dict) -> str:
    """Template.render with a frame that already holds the globals: neither is copied again."""
    try:
        return template.environment.concat(template.root_render_func(template.new_context(frame, shared=True)))
    except Exception:
        template.environment.handle_exception()
