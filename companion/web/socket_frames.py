"""A page's WebSocket frames: the common ones read and written here, every other by wsproto.

wsproto parses and builds each frame in general Python, a large share of a busy server's thread (bench/RESULTS.md,
"Figures that were comments"). What a page sends is nearly always a whole message in one frame: its form or "ping" as
text, plain or deflated on its own, and the pong to the server's ping. Those are read here, and every text message
the server sends is written here. The first frame of any other kind (a fragment, a close, a ping, a binary message,
a long one, anything malformed) and all that follows it go to wsproto, which has seen nothing before that frame and
so reads on from the start of a message, answering and refusing exactly as it always did; from then on it writes
the socket's frames too.

Frames are read one at a time, as their events are asked for, and the socket's owner may hold back the next message
until its page has room for it (`room_for_a_message`): what a phone sends past that stays unread in the kernel, whose
full window slows the phone, not the server's memory.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Iterator

from wsproto import ConnectionState, WSConnection
from wsproto.events import Event, Message, Pong, TextMessage
from wsproto.extensions import PerMessageDeflate

from companion.web.library_internals import DeflateWithOwnInflater, negotiated_extensions

FIN = 0x80
COMPRESSED = 0x40  # RSV1: the message is deflated (permessage-deflate)
TEXT_OPCODE, PONG_OPCODE = 0x1, 0xA
MASKED = 0x80
LONGEST_READ_HERE = 65535  # a longer frame (a 64-bit length) is wsproto's
DEFLATE_TAIL = b"\x00\x00\xff\xff"  # what a sender strips off a deflated message's end (RFC 7692)


class OneMessageDeflate(DeflateWithOwnInflater):
    """permessage-deflate as pages get it: each message deflated on its own (zlib's memory lives for one message, not
    for the page's whole life) and inflated only up to `largest` bytes.

    A small frame of deflated zeros inflates a thousandfold (bench/RESULTS.md, "Figures that were comments"):
    unbounded, one phone could hold up every table. A message that would inflate further is refused as wsproto
    refuses a bad deflate stream (the socket is closed with 1007), having cost at most `largest` bytes.
    """

    def __init__(self, largest: int):
        super().__init__(client_no_context_takeover=True, server_no_context_takeover=True)
        self.largest = largest

    def inflater(self) -> BoundedInflate:
        """A fresh inflater for one message."""
        return BoundedInflate(zlib.decompressobj(-self.client_max_window_bits), self.largest)


class BoundedInflate:
    """zlib's inflater of one message, raising zlib.error (as a bad stream does) past `largest` bytes of output."""

    def __init__(self, inflate, largest: int):
        self._inflate = inflate
        self._left = largest

    def decompress(self, data: bytes) -> bytes:
        return self._counted(self._inflate.decompress(data, self._left + 1))

    def flush(self) -> bytes:
        return self._counted(self._inflate.flush())  # what zlib holds back: the input is all taken by now

    def _counted(self, out: bytes) -> bytes:
        self._left -= len(out)
        if self._left < 0:
            raise zlib.error("the message inflates past the largest a page may send")
        return out


class SocketFrames:
    """The socket's wsproto connection (after its handshake), with the common frames read and written here.

    simple-websocket calls it as it calls wsproto: receive_data, events and send. `room_for_a_message` is called
    before each message is handed on, and may wait.
    """

    def __init__(self, connection: WSConnection, room_for_a_message: Callable[[], None] = lambda: None):
        self._connection = connection
        self._room_for_a_message = room_for_a_message
        # A wsproto that keeps the negotiated extensions elsewhere reads and writes every frame itself.
        extensions = negotiated_extensions(connection)
        # permessage-deflate as negotiated (web/ws.py: without context takeover, each message deflated on its own)
        self._deflate: PerMessageDeflate | None = next(
            (
                extension
                for extension in extensions or ()
                if isinstance(extension, PerMessageDeflate) and extension.enabled()
            ),
            None,
        )
        # A phone's message is inflated here only if it was deflated on its own, and only as far as the extension
        # lets wsproto inflate one; else wsproto keeps the context.
        self._inflate_each = isinstance(self._deflate, OneMessageDeflate) and self._deflate.client_no_context_takeover
        self._unread = bytearray()
        self.handed_over = extensions is None  # the rest of the stream, both ways, is wsproto's

    @property
    def state(self) -> ConnectionState:
        return self._connection.state

    def receive_data(self, data: bytes | None) -> None:
        """What the socket read; None at the end of its stream."""
        if data is None:
            self._hand_over()
        if self.handed_over:
            self._connection.receive_data(data)
        else:
            self._unread += data

    def events(self) -> Iterator[Event]:
        """The events of the frames received so far, each message once there is room for it."""
        for event in self._events():
            if isinstance(event, Message):
                self._room_for_a_message()
            yield event

    def _events(self) -> Iterator[Event]:
        while not self.handed_over and (event := self._next_event()) is not None:
            yield event
        if self.handed_over:
            yield from self._connection.events()

    def send(self, event: Event) -> bytes:
        if (
            not self.handed_over
            and type(event) is TextMessage
            and event.message_finished
            and self.state is ConnectionState.OPEN
        ):
            return self._text_frame(event.data)
        return self._connection.send(event)

    def _next_event(self) -> Event | None:
        """The event of the next frame if it is whole and a common one; None when it is not whole yet, or once the
        rest is handed over to wsproto."""
        unread = self._unread
        if len(unread) < 2:
            return None
        first, second = unread[0], unread[1]
        length, start = second & 0x7F, 2
        if length == 126:
            if len(unread) < 4:
                return None
            (length,), start = struct.unpack_from("!H", unread, 2), 4
        common = (
            second & MASKED
            # A 7-bit length (127 announces a 64-bit one: wsproto's), or a 16-bit one that needed its 16 bits (wsproto
            # refuses a length written longer than it needed).
            and (length < 126 if start == 2 else length >= 126)
            and length <= LONGEST_READ_HERE
            and (
                first == FIN | TEXT_OPCODE
                or (first == FIN | COMPRESSED | TEXT_OPCODE and self._inflate_each)
                or (first == FIN | PONG_OPCODE and length <= 125)
            )
        )
        if not common:
            return self._hand_over()
        end = start + 4 + length
        if len(unread) < end:
            return None
        payload = unmasked(unread[start + 4 : end], unread[start : start + 4])
        if first & 0x0F == PONG_OPCODE:
            event: Event = Pong(payload=payload)
        else:
            try:
                event = TextMessage(data=self._text(payload, compressed=bool(first & COMPRESSED)))
            except (UnicodeDecodeError, zlib.error):
                return self._hand_over()  # wsproto closes the socket with the code the error calls for
        del unread[:end]
        return event

    def _text(self, payload: bytes, compressed: bool) -> str:
        if compressed:
            inflate = self._deflate.inflater()
            payload = inflate.decompress(payload + DEFLATE_TAIL) + inflate.flush()
        return payload.decode()

    def _hand_over(self) -> None:
        """From here on wsproto reads, starting with what is unread here."""
        if not self.handed_over:
            self.handed_over = True
            if self._unread:
                self._connection.receive_data(bytes(self._unread))
                self._unread.clear()

    def _text_frame(self, text: str) -> bytes:
        """One unmasked frame, as wsproto would write it (deflated, on its own, if the page asked for that)."""
        payload, first = text.encode(), FIN | TEXT_OPCODE
        if self._deflate:
            deflate = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -self._deflate.server_max_window_bits)
            payload = (deflate.compress(payload) + deflate.flush(zlib.Z_SYNC_FLUSH))[: -len(DEFLATE_TAIL)]
            first |= COMPRESSED
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", first, length)
        elif length < 65536:
            header = struct.pack("!BBH", first, 126, length)
        else:
            header = struct.pack("!BBQ", first, 127, length)
        return header + payload


def unmasked(payload: bytearray, mask: bytearray) -> bytes:
    """A client's payload without its mask (each byte XORed with the mask's bytes in turn), all at once."""
    length = len(payload)
    if not length:
        return b""
    key = (bytes(mask) * (length // 4 + 1))[:length]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(length, "big")
