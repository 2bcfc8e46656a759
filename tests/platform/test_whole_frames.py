"""Frames to a phone whose connection is full go out whole and in order, as under gunicorn's gevent worker.

Under gevent a socket's send writes what the kernel takes at that moment and returns; simple-websocket's own send
does not send the rest, so a frame larger than the room left was cut short and the phone's stream garbled. A seeded
run of frames of every length encoding (7-bit, 16-bit, 64-bit; the boundaries and random sizes up to 300 KB) goes to
a phone that reads in random bites, plain and compressed as browsers ask. The scenario runs in an interpreter of its
own: gevent's patching is process-wide.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCENARIO = """
import sys

from gevent import monkey

monkey.patch_all()

import random
import socket
import string
import struct
import zlib

import gevent

from companion.web.ws import PageServer, PageSocket

deflate = sys.argv[1] == "deflate"
rng = random.Random(20)
server_end, phone = socket.socketpair()
server_end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)  # room for a few KB, as over a phone's Wi-Fi
environ = {
    "gunicorn.socket": server_end,
    "HTTP_HOST": "table.local",
    "HTTP_CONNECTION": "Upgrade",
    "HTTP_UPGRADE": "websocket",
    "HTTP_SEC_WEBSOCKET_KEY": "dGhlIHNhbXBsZSBub25jZQ==",
    "HTTP_SEC_WEBSOCKET_VERSION": "13",
}
if deflate:
    environ["HTTP_SEC_WEBSOCKET_EXTENSIONS"] = "permessage-deflate; client_max_window_bits"
page = PageSocket(
    None, None, False, "en", "http://table.local/", True, ws=PageServer(environ), ping_interval=60
)
sizes = [0, 1, 125, 126, 127, 65535, 65536, 65537] + [rng.randint(1, 300_000) for _ in range(12)]
rng.shuffle(sizes)
frames = ["".join(rng.choices(string.ascii_letters, k=size)) for size in sizes]
sending = gevent.spawn(lambda: [page.send(frame) for frame in frames])
stream = bytearray()


def read(size):
    while len(stream) < size:
        with gevent.Timeout(5):
            bite = phone.recv(rng.randint(1, 65536))
        assert bite, "the server closed the connection"
        stream.extend(bite)
        if rng.random() < 0.2:
            gevent.sleep(0.001)  # a phone that reads slowly now and then
    data = bytes(stream[:size])
    del stream[:size]
    return data


while b"\\r\\n\\r\\n" not in stream:  # the handshake's answer
    read(len(stream) + 1)
del stream[: stream.index(b"\\r\\n\\r\\n") + 4]
received = []
try:
    for _ in frames:
        first, second = read(2)
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", read(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", read(8))
        if length > 300_000:  # no frame is this long: the stream is garbled
            received.append("garbled")
            break
        payload = read(length)
        if first & 0x40:  # compressed on its own (no context takeover)
            payload = zlib.decompressobj(-15).decompress(payload + b"\\x00\\x00\\xff\\xff")
        received.append((first & 0x8F, payload.decode()))
except (gevent.Timeout, UnicodeDecodeError, zlib.error):  # a frame cut short, or the next read as its rest
    received.append("garbled")
print(received == [(0x81, frame) for frame in frames], len(received), len(frames))
sending.join(5)
phone.close()  # simple-websocket's reader sees the end and stops, and so can this interpreter
page.ws.thread.join(5)
"""


@pytest.mark.parametrize("compression", ["plain", "deflate"])
def test_frames_bigger_than_the_room_in_the_phones_connection_arrive_whole_and_in_order(compression):
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCENARIO), compression], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "20", "20"]
