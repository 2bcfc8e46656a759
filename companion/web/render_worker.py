"""The pushed frames rendered in other processes, so that a box's cores all render: the server's side.

One process serves every table (the store's one writer, the in-process hub). Most of its CPU under load goes on
rendering each open page's HTML frame (Jinja; bench/RESULTS.md). A render worker (render_process.py) is a fresh
interpreter with the pages' templates, languages and URLs and nothing
else (no store, no tables): the server sends it a frame's plain data (web.frames.live_context, built from the one
seat's view) and gets the HTML back, the same HTML it would have rendered itself. The frames one change of a table
brings (each page's of it) go in one message and come back in one: a round trip costs the server more than a frame's
data.

The worker helps and is never waited for: while it starts, when it has more than BACKLOG of frames ahead of it
(BUSY_BACKLOG while the server is busy itself, SHARED_BACKLOG when there is a worker for every core), when it has
died or answers late, the server renders the frame itself. A frame it cannot render is rendered by the
server too, so its error is raised where it would have been without a worker, in that page's own thread.
"""

from __future__ import annotations

import itertools
import json
import logging
import pickle
import select
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable

from flask import Flask

from companion.web.frame_regions import FoundFrame, split_frame
from companion.web.socket_writes import send_whole

log = logging.getLogger(__name__)

# Seconds of rendering the worker may have ahead of it before the server renders the next frame itself: enough to keep
# it busy through a burst of small frames, little enough that a frame never waits long behind the largest seat pages.
BACKLOG = 0.05
# A server that is busy itself leaves the frames to the worker up to this much of a backlog: rendering there would take
# from the actions and the pushes of every table, which only this process can do.
BUSY_BACKLOG = 0.5
# A server using this much of one core of late is busy (its own rendering included).
BUSY = 0.8
# With a worker for every core the server has no core of its own to spare: it renders a frame itself only past this
# backlog (seconds). A frame it renders holds every other table's push meanwhile (Mice and Mystics, 700 tables of
# two workers: p99 5.6 s with BACKLOG and BUSY_BACKLOG, 0.87 s with this; bench/RESULTS.md).
SHARED_BACKLOG = 2.0
# Seconds between two looks at the server's CPU.
BUSY_SAMPLE = 0.25
# Seconds a frame may take in the worker before the server renders it itself (a worker this slow is stuck).
PATIENCE = 2.0
# Seconds a worker that uses CPU may answer nothing at all while a frame waits, before it is taken for stuck.
LONGEST_SILENCE = 5 * PATIENCE
# Seconds between a worker's death and the next start, so that a worker that cannot start is not started forever.
RESTART_AFTER = 5.0
HEADER = struct.Struct("!I")
READY = -1
# What the worker is sent of a frame: the page's language, its address, the game's id and live_context()'s data.
Frame = tuple[str, str, str, dict]


def render_settings(app: Flask) -> dict:
    """What a worker's pages must share with the server's: the games, the address phones are given, the language,
    the build; and how much it keeps of what it rendered."""
    keys = ("DATA_DIR", "EXTRA_GAMES", "PUBLIC_URL", "BABEL_DEFAULT_LOCALE", "BUILD", "RENDERED_PARTS_MB")
    return {key: app.config[key] for key in keys}


class RenderWorker:
    """The server's end of one render worker process."""

    def __init__(
        self,
        settings: dict,
        load: Callable[[], float] | None = None,
        backlog: tuple[float, float] = (BACKLOG, BUSY_BACKLOG),
    ):
        """load: how much of one core the server uses of late (CpuShare; a test passes its own); backlog: the seconds
        of frames ahead past which the server renders the next itself, when it is not busy and when it is."""
        self.settings = settings
        self._lock = threading.Lock()  # the state below; never held while waiting on the socket
        self._sending = threading.Lock()  # one frame at a time on the socket
        self._socket: socket.socket | None = None
        self._answered_at = 0.0  # time.monotonic() of the worker's last answer
        self._process: subprocess.Popen | None = None
        self._ready = False
        self._waiting: dict[int, Answer] = {}
        self._frames_ahead = 0  # in the messages waiting for their answer (kept: summing them on every send costs)
        self._numbers = itertools.count()
        self._frame_seconds = 0.001  # what a frame takes the worker, on average of late
        self._next_start = 0.0
        self._load = load or CpuShare()
        self._backlog, self._busy_backlog = backlog

    def start(self) -> None:
        """Start the worker now (a server does, so that it is ready for the first frames); else on the first frame."""
        with self._lock:
            self._start()

    @property
    def pid(self) -> int | None:
        """The worker's process id; None while none runs."""
        process = self._process
        return process and process.pid

    def render(self, frames: list[Frame]) -> list[str | None]:
        """Each frame's HTML, or None for each the server renders itself (all of them when the worker cannot)."""
        answer = self._send(frames) if frames else None
        if answer is None:
            return [None] * len(frames)
        sent, worked = time.monotonic(), self._worker_cpu()
        while not answer.wait(PATIENCE):
            # A busy server's reader gets its turn late: a worker that answered, or worked since, is not stuck.
            # Ending it for that left the busy server every frame to render itself (bench/RESULTS.md). But one that
            # works and answers nothing at all for LONGEST_SILENCE is (a render that never ends): no page waits on.
            now = self._worker_cpu()
            if self._answer_unread():
                continue
            silent = time.monotonic() - max(sent, self._answered_at) > LONGEST_SILENCE
            if now is None or now == worked or silent:
                log.warning(
                    "the render worker is stuck (idle %s s, or silent %s s): it is ended", PATIENCE, LONGEST_SILENCE
                )
                self.stop()  # stuck: no other frame is to wait for it, and the next start is a fresh one
                break
            worked = now
        # A None where it failed or for all when it died: the server renders them (and meets any error).
        return [found and split_frame(*found) for found in answer.html]

    def _answer_unread(self) -> bool:
        """Whether the worker's answer waits on its socket, not read yet by this process."""
        channel = self._socket
        try:
            return channel is not None and bool(select.select([channel], [], [], 0)[0])
        except (OSError, ValueError):  # closed: the worker is gone
            return False

    def _worker_cpu(self) -> int | None:
        """The worker's CPU time so far, in clock ticks (Linux's /proc); None when it cannot be read."""
        pid = self.pid
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError, TypeError):
            return None
        return int(fields[11]) + int(fields[12])  # utime and stime: the 14th and 15th fields of the line

    def _send(self, frames: list[Frame]) -> Answer | None:
        with self._lock:
            if not self._ready:
                self._start()
                return None
            backlog = self._frames_ahead * self._frame_seconds
            # Answers waiting unread: this process is behind, not the worker, whose frames ahead are done already.
            if backlog > (self._busy_backlog if self._load() > BUSY else self._backlog) and not self._answer_unread():
                return None
            number = next(self._numbers)
            answer = self._waiting[number] = Answer(len(frames))
            self._frames_ahead += len(frames)
            channel = self._socket
        try:
            with self._sending:
                send(channel, (number, frames))
        except OSError:
            with self._lock:
                if self._waiting.pop(number, None) is not None:
                    self._frames_ahead -= len(frames)
            return None
        return answer

    def _start(self) -> None:
        """Start the worker, unless one is starting or died too recently (under the lock)."""
        if self._process is not None or time.monotonic() < self._next_start:
            return
        ours, theirs = socket.socketpair()
        command = [
            sys.executable,
            "-m",
            "companion.web.render_process",
            json.dumps(self.settings),
            str(theirs.fileno()),
        ]
        self._process = subprocess.Popen(command, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        self._socket = ours
        threading.Thread(target=self._read, args=(ours,), name="render-worker", daemon=True).start()

    def _read(self, ours: socket.socket) -> None:
        """Hand each answer to the frame that waits for it, until the worker's end closes."""
        answers = ours.makefile("rb")
        try:
            while (answer := receive(answers)) is not None:
                self._answered(*answer)
        except OSError:
            pass
        self._lost(ours)

    def _answered(self, number: int, html: list[FoundFrame | None], errors: list[str], seconds: float) -> None:
        with self._lock:
            if number == READY:
                self._ready = True
                return
            self._answered_at = time.monotonic()
            answer = self._waiting.pop(number, None)
            if answer is None:
                return  # given up on already
            self._frames_ahead -= len(html)
            self._frame_seconds += (seconds / len(html) - self._frame_seconds) / 16
        for error in errors:
            log.warning("the render worker could not render a frame (%s); the server renders it", error)
        answer.set(html)

    def _lost(self, ours: socket.socket) -> None:
        log.warning("the render worker stopped; the server renders the frames until it starts again")
        with self._lock:
            self._ready = False
            waiting, self._waiting = self._waiting, {}
            self._frames_ahead = 0
            process = self._process
        ours.close()
        for answer in waiting.values():
            answer.set(answer.html)  # still all None: the server renders them
        process.kill()  # its end of the socket may still be open: it is stuck, not gone
        process.wait()
        with self._lock:
            self._process = None
            self._next_start = time.monotonic() + RESTART_AFTER

    def stop(self) -> None:
        """End the worker now (it also ends by itself with the server's process); the frames it had are rendered by
        the server, and the next frame after RESTART_AFTER starts a new one."""
        with self._lock:
            if self._process is not None:
                self._process.kill()


class RenderWorkers:
    """A server process's render workers (config.render_workers: one per core), each table's frames rendered by the
    same one (its parts are kept there: a table's next push finds them, bench/RESULTS.md)."""

    def __init__(self, settings: dict, count: int):
        backlog = (BACKLOG, BUSY_BACKLOG) if count == 1 else (SHARED_BACKLOG, SHARED_BACKLOG)
        self.workers = [RenderWorker(settings, backlog=backlog) for _ in range(count)]

    def start(self) -> None:
        for worker in self.workers:
            worker.start()

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()

    def render(self, frames: list[Frame], table: str) -> list[str | None]:
        """RenderWorker.render() by the worker of this table."""
        return self.workers[zlib.crc32(table.encode()) % len(self.workers)].render(frames)


class CpuShare:
    """How much of one core this process (all its threads) has used of late, looked at every BUSY_SAMPLE seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, cpu: Callable[[], float] = time.process_time):
        self._clock, self._cpu_time = clock, cpu
        self._at, self._cpu = clock(), cpu()
        self._share = 0.0

    def __call__(self) -> float:
        now = self._clock()
        if now - self._at >= BUSY_SAMPLE:
            cpu = self._cpu_time()
            self._share = (cpu - self._cpu) / (now - self._at)
            self._at, self._cpu = now, cpu
        return self._share


class Answer:
    """The worker's answer to one message: each frame as it found it (frame_regions.with_spans), None where it
    failed."""

    def __init__(self, frames: int):
        self.html: list[FoundFrame | None] = [None] * frames
        self._given = threading.Event()  # gevent's own under gevent (looked up now: patched after this import too)

    def set(self, html: list[FoundFrame | None]) -> None:
        self.html = html
        self._given.set()

    def wait(self, seconds: float) -> bool:
        return self._given.wait(seconds)


def send(channel: socket.socket, message) -> None:
    payload = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    send_whole(channel, HEADER.pack(len(payload)) + payload)


def receive(stream) -> object | None:
    """The next message from a socket's buffered reader, or None once the other end has closed."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    payload = stream.read(size)
    return pickle.loads(payload) if len(payload) == size else None
