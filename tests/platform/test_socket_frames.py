"""A page's frames read and written by SocketFrames are what wsproto reads and writes.

Seeded random streams of what a phone may send (texts of every length encoding, compressed or not, fragmented
messages, pings, pongs, binary messages, a close, malformed frames), cut into random reads, go to wsproto alone and
to SocketFrames in front of it; both must give the same messages. The server's frames must be wsproto's byte for byte.
"""

from __future__ import annotations

import random
import struct
import tracemalloc
import zlib
from typing import NamedTuple

import pytest
from wsproto import ConnectionState, ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Message,
    Ping,
    Pong,
    Request,
    TextMessage,
)
from wsproto.extensions import PerMessageDeflate

from companion.web.socket_frames import OneMessageDeflate, SocketFrames

SEEDS = range(40)
LARGEST = 50_000  # bytes a message may inflate to: fewer than the longest texts below, so that some are refused
TEXTS = 'ab, žluťoučký kůň, één 🎲 <form> "quoted" \\ \n'


def connected(rng: random.Random, deflate: str) -> tuple[WSConnection, WSConnection, WSConnection]:
    """A phone's connection and two of the server's (one to be read by wsproto alone), all past the handshake.

    deflate "each": the phone offers deflate as browsers do (with its own window sizes, at random), and the server
    accepts it as web/ws.py does, each message on its own and inflated up to LARGEST bytes; "context": the phone may
    deflate a message with the ones before (were web/ws.py ever to allow it); "": no deflate."""
    client, *servers = (
        WSConnection(kind) for kind in (ConnectionType.CLIENT, ConnectionType.SERVER, ConnectionType.SERVER)
    )
    windows = {
        name: rng.choice([None, rng.randint(9, 15)]) for name in ("client_max_window_bits", "server_max_window_bits")
    }
    offer = [PerMessageDeflate(**windows)] if deflate else []
    request = client.send(Request(host="127.0.0.1", target="/t/ABC/ws", extensions=offer))
    for server in servers:
        server.receive_data(request)
        assert isinstance(next(server.events()), Request)
        each, context = OneMessageDeflate(LARGEST), PerMessageDeflate(server_no_context_takeover=True)
        accepted = each if deflate == "each" else context
        accept = server.send(AcceptConnection(extensions=[accepted]))
    client.receive_data(accept)
    list(client.events())
    return client, *servers


LENGTHS = [0, 1, 2, 3, 4, 5, 60, 125, 126, 127, 200, 4095, 4096, 16_000]  # in at most 65,535 bytes: read here


def random_text(rng: random.Random, lengths: list[int] = LENGTHS + [30_000, 65_535, 66_000]) -> str:
    length = rng.choice(lengths)
    return "".join(rng.choice(TEXTS) for _ in range(length))[:length]


def masked_frame(
    rng: random.Random, first: int, payload: bytes, minimal: bool = True, mask: bytes | None = None
) -> bytes:
    """A phone's frame written by hand, for what wsproto's client would never send."""
    mask = rng.randbytes(4) if mask is None else mask
    if len(payload) < 126 and minimal:
        header = struct.pack("!BB", first, 0x80 | len(payload))
    elif len(payload) < 65536:
        header = struct.pack("!BBH", first, 0x80 | 126, len(payload))
    else:
        header = struct.pack("!BBQ", first, 0x80 | 127, len(payload))
    return header + mask + bytes(byte ^ mask[at % 4] for at, byte in enumerate(payload))


def phone_stream(rng: random.Random, client: WSConnection) -> bytes:
    """A phone's frames: mostly the common ones, now and then anything else, perhaps ending in a close or a
    malformed frame (after which wsproto reads nothing more)."""
    stream = b""
    kinds = ["text", "pong"] + ["fragments", "ping", "bytes"] * (rng.random() < 0.5)  # half of them common only
    for _ in range(rng.randint(1, 12)):
        kind = rng.choices(kinds, weights=[12, 3, 1, 1, 1][: len(kinds)])[0]
        if kind == "text":
            stream += client.send(TextMessage(data=random_text(rng)))
        elif kind == "pong":
            stream += client.send(Pong(payload=rng.randbytes(rng.randint(0, 20))))
        elif kind == "fragments":
            stream += client.send(TextMessage(data=random_text(rng), message_finished=False))
            stream += client.send(TextMessage(data=random_text(rng)))
        elif kind == "ping":
            stream += client.send(Ping(payload=rng.randbytes(3)))
        else:
            stream += client.send(BytesMessage(data=rng.randbytes(rng.randint(0, 300))))
    endings = ["none", "close", "bad utf-8", "unmasked", "rsv2", "long-winded length", "compressed pong", "zero mask"]
    ending = rng.choice(endings)
    if ending == "close":
        stream += client.send(CloseConnection(code=1000))
    elif ending == "bad utf-8":
        stream += masked_frame(rng, 0x81, "žluť".encode()[:-1])
    elif ending == "unmasked":
        stream += struct.pack("!BB", 0x81, 2) + b"hi"
    elif ending == "rsv2":
        stream += masked_frame(rng, 0xA1, b"hi")
    elif ending == "long-winded length":
        stream += masked_frame(rng, 0x81, b"hi", minimal=False)
    elif ending == "compressed pong":
        stream += masked_frame(rng, 0xCA, b"")
    elif ending == "zero mask":  # a mask a phone may pick; 70,000's 64-bit length (0x11170) is then valid text too
        stream += masked_frame(rng, 0x81, b"x" * 70_000, mask=bytes(4))
    return stream


class Phone(NamedTuple):
    """A seeded random source, a phone's connection, and two of the server's: one to be read by wsproto alone, one
    to be put behind SocketFrames."""

    rng: random.Random
    client: WSConnection
    alone: WSConnection
    server: WSConnection


def messages(events: list) -> list[tuple]:
    """Events as whole messages: wsproto hands a long frame over in parts as they arrive."""
    whole, parts = [], []
    for event in events:
        if isinstance(event, Message):
            parts.append(event.data)
            if event.message_finished:
                whole.append((type(event).__name__, type(parts[0])().join(parts)))
                parts = []
        elif isinstance(event, CloseConnection):
            whole.append(("CloseConnection", event.code))
        else:
            whole.append((type(event).__name__, event.payload))
    return whole


@pytest.fixture(
    params=[(seed, deflate) for deflate in ("", "each", "context") for seed in SEEDS],
    ids=lambda param: f"{param[1] or 'plain'}-{param[0]}",
)
def phone(request) -> Phone:
    seed, deflate = request.param
    rng = random.Random(seed)
    return Phone(rng, *connected(rng, deflate))


def test_a_phones_frames_read_in_random_bites_give_wsprotos_messages(phone):
    rng, client, alone, frames = phone.rng, phone.client, phone.alone, SocketFrames(phone.server)
    stream = phone_stream(rng, client)
    by_wsproto, by_frames = [], []
    at = 0
    while at < len(stream):
        bite = stream[at : at + rng.choice([1, 2, 7, 100, 4096, 70_000])]
        at += len(bite)
        alone.receive_data(bite)
        by_wsproto += alone.events()
        frames.receive_data(bite)
        by_frames += frames.events()
    assert messages(by_frames) == messages(by_wsproto)


def test_the_common_frames_never_reach_wsproto():
    rng = random.Random(7)
    for deflate in ("", "each"):
        client, _alone, server = connected(rng, deflate)
        frames = SocketFrames(server)
        sent = [random_text(rng, LENGTHS) for _ in range(30)]
        stream = b"".join(client.send(TextMessage(data=text)) for text in sent) + client.send(Pong(payload=b"1"))
        frames.receive_data(stream)
        assert messages(list(frames.events())) == [("TextMessage", text) for text in sent] + [("Pong", b"1")]
        assert not frames.handed_over


def test_the_servers_frames_are_wsprotos_byte_for_byte(phone):
    rng, client, alone, frames = phone.rng, phone.client, phone.alone, SocketFrames(phone.server)
    for _ in range(5):
        text = random_text(rng)
        written = frames.send(TextMessage(data=text))
        assert written == alone.send(TextMessage(data=text))
        client.receive_data(written)
        assert messages(list(client.events())) == [("TextMessage", text)]
    assert frames.send(Ping(payload=b"x")) == alone.send(Ping(payload=b"x"))  # anything else: wsproto's own


class ExtensionsElsewhere:
    """A wsproto connection that names its negotiated extensions where SocketFrames does not look."""

    def __init__(self, connection: WSConnection):
        self._real = connection
        self.connection = object()

    def __getattr__(self, name: str):
        return getattr(self._real, name)


def test_a_wsproto_that_keeps_its_extensions_elsewhere_reads_and_writes_every_frame(phone):
    rng, client, alone, frames = phone.rng, phone.client, phone.alone, SocketFrames(ExtensionsElsewhere(phone.server))
    assert frames.handed_over
    stream = phone_stream(rng, client)
    alone.receive_data(stream)
    frames.receive_data(stream)
    assert messages(list(frames.events())) == messages(list(alone.events()))
    text = random_text(rng)
    if alone.state is ConnectionState.OPEN:
        assert frames.send(TextMessage(data=text)) == alone.send(TextMessage(data=text))


def zeros_deflated(length: int) -> bytes:
    """A message of `length` zero bytes as a phone would deflate it: a few KB on the wire."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    return (deflate.compress(bytes(length)) + deflate.flush(zlib.Z_SYNC_FLUSH))[:-4]


@pytest.mark.parametrize("frames", [1, 8], ids=["one frame, read here", "fragments, read by wsproto"])
def test_a_deflated_message_that_would_inflate_past_the_largest_is_refused_having_cost_little(frames):
    """67 MB of zeros fit a 65 KB frame: inflated whole, one phone could hold up every table for a fifth of a second a
    message. Read here or by wsproto, it is refused as a bad stream (1007) with at most LARGEST bytes inflated."""
    _client, _alone, server = connected(random.Random(1), "each")
    frames_read = SocketFrames(server)
    payload = zeros_deflated(67_000_000)
    parts = [payload[at : at + len(payload) // frames + 1] for at in range(0, len(payload), len(payload) // frames + 1)]
    stream = b"".join(
        masked_frame(random.Random(at), (0x80 if at == len(parts) - 1 else 0) | (0x41 if at == 0 else 0), part)
        for at, part in enumerate(parts)
    )
    tracemalloc.start()
    frames_read.receive_data(stream)
    events = list(frames_read.events())
    _size, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert messages(events) == [("CloseConnection", 1007)]
    assert peak < 1_000_000  # the frame's few copies on the way, not the 67 MB
