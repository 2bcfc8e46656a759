"""Writing to a socket, whole: a page's WebSocket and the render worker's socket pair both write this way."""

from __future__ import annotations

import socket


def send_whole(channel: socket.socket, data: bytes) -> None:
    """All of the data, however little the socket takes at a time (under gevent, what the kernel has room for)."""
    unsent = memoryview(data)
    while unsent:  # not sendall: gevent's asks the kernel for the socket's buffer size on every call
        unsent = unsent[channel.send(unsent) :]
