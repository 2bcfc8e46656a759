"""A frame to a phone whose connection is full goes out whole, as it does under gunicorn's gevent worker.

Under gevent a socket's send writes what the kernel takes at that moment and returns; simple-websocket's own send
does not send the rest, so a frame larger than the room left was cut short and the phone's stream garbled. The
scenario runs in an interpreter of its own: gevent's patching is process-wide.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCENARIO = """
from gevent import monkey

monkey.patch_all()

import socket
import struct

import gevent
import simple_websocket

from companion.web.ws import PageSocket

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
page = PageSocket(
    None, None, False, "en", "http://table.local/", True, ws=simple_websocket.Server(environ), ping_interval=60
)
frame = "".join(chr(ord("a") + n % 26) for n in range(200_000))
sending = gevent.spawn(page.send, frame)


def read(size):
    data = b""
    while len(data) < size:
        with gevent.Timeout(5):
            data += phone.recv(size - len(data))
    return data


reply = b""
while not reply.endswith(b"\\r\\n\\r\\n"):  # the handshake's answer
    reply += read(1)
first, length = read(2)
if length & 0x7F == 127:
    (length,) = struct.unpack("!Q", read(8))
print(first == 0x81, length == len(frame.encode()))
try:
    print(read(length).decode() == frame)
except gevent.Timeout:
    print("cut short")
sending.join(5)
phone.close()  # simple-websocket's reader sees the end and stops, and so can this interpreter
page.ws.thread.join(5)
"""


def test_a_frame_bigger_than_the_room_in_the_phones_connection_arrives_whole():
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(SCENARIO)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True"]
