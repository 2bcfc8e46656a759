"""The render worker's process (`python -m companion.web.render_process`, started by render_worker.RenderWorker): the
pages' templates, languages and URLs and nothing else, rendering each frame the server sends it."""

from __future__ import annotations

import json
import signal
import socket
import sys
import time

from companion.web.app import render_app
from companion.web.frame_regions import with_spans
from companion.web.frames import renderer
from companion.web.render_worker import READY, receive, send


def serve_frames(settings: dict, channel: socket.socket) -> None:
    """The worker: render each frame the server sends, until the server's end closes."""
    # Ctrl-C in `make run` reaches the whole terminal; the worker ends when the server's end of the socket closes.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    app, installed = render_app(settings)
    channel.setblocking(True)  # a gevent server's end is non-blocking, and so was this one when it was passed on
    frames = channel.makefile("rb")
    send(channel, (READY, None, None, 0.0))
    while (message := receive(frames)) is not None:
        number, batch = message
        started = time.perf_counter()
        html, errors = [], []
        for locale, base_url, game_id, context in batch:
            try:
                # Its regions found here too, on this core: the server's socket sends only those that changed.
                html.append(with_spans(renderer(app, locale, base_url).render(installed[game_id], context)))
            except Exception as failure:  # noqa: BLE001 - the server renders this frame itself and meets the error there
                html.append(None)
                errors.append(repr(failure))
        send(channel, (number, html, errors, time.perf_counter() - started))


if __name__ == "__main__":
    serve_frames(json.loads(sys.argv[1]), socket.socket(fileno=int(sys.argv[2])))
