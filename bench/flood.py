"""One socket floods the server while another table plays: that table's action p99 and the server's memory.

    .venv/bin/python -m bench.flood                               # both servers, every kind of flood, 10 s each
    .venv/bin/python -m bench.flood --worker gevent --kinds 60kb --seconds 5

For each server (gunicorn's gevent worker and `companion serve`, both on SQLite with their render worker): a table of
six phones plays sealed bids as phones do (HTML pages, each tap a form over the page's socket, 20 taps a second in
all), first alone (quiet), then while one socket of another table sends as fast as it can (flood), once per kind of
message: actions the rules refuse, valid actions, a page's forms, and 60 KB messages. The flooding client opens its
socket again whenever the server closes it, as a hostile one would. A tap's latency runs from its send to its answer.
The server's memory is the resident size of its process and its render worker, sampled through the flood.

Prints one JSON line per server and kind (and the quiet figures), then the table for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import math
import multiprocessing
import os
import socket
import struct
import tempfile
import threading
import time
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path

import websocket

from bench.run import call, cpu_seconds
from bench.servers import Server

TEXT, CLOSE = 0x1, 0x8
KINDS = ("refused", "valid", "forms", "60kb", "60kb-deflated")
TAPS_PER_SECOND = 20  # the quiet table's taps in all: each of its six phones taps about three times a second
SEATS = 6
TAP_TIMEOUT = 10.0  # seconds a phone waits for a tap's answer (static/app.js: 15) before it counts it unanswered


def frame(text: str | bytes, deflated: bool = False) -> bytes:
    """A client's text frame, masked with a zero key (the payload goes as it is, so a flood costs its sender nothing),
    deflated on its own if asked (permessage-deflate, as browsers send it)."""
    payload, first = (text.encode() if isinstance(text, str) else text), 0x80 | TEXT
    if deflated:
        deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
        payload, first = (deflate.compress(payload) + deflate.flush(zlib.Z_SYNC_FLUSH))[:-4], first | 0x40
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", first, 0x80 | length)
    elif length < 65536:
        header = struct.pack("!BBH", first, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", first, 0x80 | 127, length)
    return header + b"\0\0\0\0" + payload


class RawSocket:
    """A table's WebSocket driven byte by byte, as a hostile client would, from the source address it picks."""

    def __init__(
        self, base: str, path: str, token: str | None = None, source: str = "127.0.0.1", deflate: bool = False
    ):
        host, port = base.removeprefix("http://").split(":")
        self.raw = socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        credentials = f"Authorization: Bearer {token}\r\n" if token else ""
        if deflate:
            credentials += "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
        self.raw.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{credentials}\r\n"
            ).encode()
        )
        self.unread = b""
        while b"\r\n\r\n" not in self.unread:
            self._fill()
        head, self.unread = self.unread.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.decode(errors="replace"))

    def _fill(self) -> None:
        received = self.raw.recv(65536)
        if not received:
            raise EOFError("the server closed the connection")
        self.unread += received

    def read_frame(self) -> tuple[int, bytes]:
        """The next frame the server sent: its opcode and payload (EOFError at the end of the stream)."""
        while len(self.unread) < 2:
            self._fill()
        length, start = self.unread[1] & 0x7F, 2
        if length >= 126:
            start = 4 if length == 126 else 10
            while len(self.unread) < start:
                self._fill()
            (length,) = struct.unpack_from("!H" if start == 4 else "!Q", self.unread, 2)
        while len(self.unread) < start + length:
            self._fill()
        opcode, payload = self.unread[0] & 0x0F, self.unread[start : start + length]
        self.unread = self.unread[start + length :]
        return opcode, payload

    def rest(self) -> bytes:
        """Every byte the server sends until it ends the connection (TimeoutError if it keeps it open)."""
        try:
            while True:
                self._fill()
        except (EOFError, ConnectionResetError):
            rest, self.unread = self.unread, b""
            return rest
        except TimeoutError:
            raise TimeoutError(f"the connection stays open, after {self.unread[:300]!r}") from None

    def close(self) -> None:
        self.raw.close()


def close_code(payload: bytes) -> int | None:
    return int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None


@dataclass
class FloodTally:
    """What the flooding client sent and heard."""

    sockets: int = 0
    sent: int = 0
    frames: int = 0
    refusals: dict = field(default_factory=dict)  # error code or answer status -> count
    closes: dict = field(default_factory=dict)  # close code -> count

    def heard(self, opcode: int, payload: bytes) -> None:
        self.frames += 1
        if opcode == CLOSE:
            code = str(close_code(payload))
            self.closes[code] = self.closes.get(code, 0) + 1
        elif payload.startswith(b"{"):
            line = json.loads(payload.split(b"\n", 1)[0])
            key = line["error"]["code"] if "error" in line else str(line.get("status"))
            self.refusals[key] = self.refusals.get(key, 0) + 1


def flood(base: str, path: str, token: str, kind: str, seconds: float) -> FloodTally:
    """Send a kind of message as fast as the server takes them for `seconds`, opening the socket again whenever the
    server closes it; what came back is counted (the 60 KB messages come from a client that never reads: the server's
    answers cannot hold it back)."""
    reads, deflated = not kind.startswith("60kb"), kind.endswith("deflated")
    frames = flood_frames(kind)
    tally = FloodTally()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            page = RawSocket(base, path, token, deflate=deflated)
        except (OSError, EOFError):
            time.sleep(0.05)  # refused: a hostile client tries again at once, nearly
            continue
        tally.sockets += 1
        page.raw.settimeout(1)  # a send held this long: the server has stopped reading this socket, open another
        reader = threading.Thread(target=_count_frames, args=(page, tally), daemon=True)
        if reads:
            reader.start()
        with contextlib.suppress(OSError):  # the server ended the connection (a client that never reads sees it so)
            while time.monotonic() < deadline and (reader.is_alive() or not reads):
                page.raw.sendall(next(frames))
                tally.sent += 1
        with contextlib.suppress(OSError):
            page.raw.shutdown(socket.SHUT_RDWR)
        if reads:
            reader.join(5)
        page.close()
    return tally


def _count_frames(page: RawSocket, tally: FloodTally) -> None:
    with contextlib.suppress(OSError, EOFError):
        while True:
            opcode, payload = page.read_frame()
            tally.heard(opcode, payload)
            if opcode == CLOSE:
                return


def flood_frames(kind: str):
    """The frames of one kind of flood, from the host of a secret-notes table (tests/secret_notes.py)."""
    count = 0
    refused, big = frame('{"type": "write", "note": "x"}'), frame(json.dumps({"type": "write", "note": "x" * 60_000}))
    big_deflated = frame(json.dumps({"type": "write", "note": "x" * 60_000}), deflated=True)
    while True:
        count += 1
        if kind == "refused":
            yield refused  # the host has no note to write
        elif kind == "valid":
            yield frame(json.dumps({"type": "roll", "client_action_id": f"roll-{count}"}))
        elif kind == "forms":
            yield frame(json.dumps({"form": {"type": ["roll"], "as": ["host"], "client_action_id": [f"tap-{count}"]}}))
        else:
            yield big_deflated if kind == "60kb-deflated" else big


def process_tree(pid: int) -> list[int]:
    """The process and all its descendants."""
    tree, at = [pid], 0
    while at < len(tree):
        children = Path(f"/proc/{tree[at]}/task/{tree[at]}/children")
        with contextlib.suppress(OSError):
            tree += [int(child) for child in children.read_text().split()]
        at += 1
    return tree


def resident_mb(pids: list[int]) -> float:
    """The resident size of the processes, in MB."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


class PeakMemory:
    """The largest resident size of the processes while the block runs, sampled every 0.05 s (`peak`, in MB)."""

    def __init__(self, pids: list[int]):
        self.pids, self.peak = pids, 0.0
        self._done = threading.Event()
        self._sampler = threading.Thread(target=self._sample)

    def _sample(self) -> None:
        while not self._done.wait(0.05):
            self.peak = max(self.peak, resident_mb(self.pids))

    def __enter__(self) -> PeakMemory:
        self._sampler.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._sampler.join()


class QuietTable:
    """Six phones at a sealed-bid table, each tapping its bid over its page's socket in turn."""

    def __init__(self, base: str):
        self.base = base
        self.code = call(base, "/api/tables", {"game": "sealed-bid", "options": {"players": SEATS}})["code"]
        self.tokens = [
            call(base, f"/api/tables/{self.code}/seats", {"seat": f"seat-{index}", "name": f"Seat {index}"})["token"]
            for index in range(SEATS)
        ]
        self.pages: list[websocket.WebSocket | None] = [self._open(token) for token in self.tokens]
        self.taps = self.unanswered = 0

    def _open(self, token: str) -> websocket.WebSocket:
        url = self.base.replace("http", "ws", 1) + f"/t/{self.code}/ws?view=seat&since=-1"
        return websocket.create_connection(url, header=[f"Authorization: Bearer {token}"], timeout=TAP_TIMEOUT)

    def tap(self) -> float:
        """One phone's bid, the next in turn; seconds from its send to its answer (TAP_TIMEOUT when none came: the
        phone then opens its page again, as static/app.js does)."""
        seat = self.taps % SEATS
        self.taps += 1
        tap = {"type": ["bid"], "amount": [str(1 + self.taps % 1000)], "client_action_id": [f"bid-{self.taps}"]}
        started = time.perf_counter()
        try:
            self.pages[seat] = self.pages[seat] or self._open(self.tokens[seat])
            self.pages[seat].send(json.dumps({"form": tap}))
            while not (answer := self.pages[seat].recv()).startswith("{"):
                pass  # a view pushed before the answer (another phone's bid)
        except (OSError, websocket.WebSocketException):
            self.unanswered += 1
            if self.pages[seat]:
                self.pages[seat].close()
            self.pages[seat] = None  # opened again at the seat's next tap
            return TAP_TIMEOUT
        elapsed = time.perf_counter() - started
        if json.loads(answer.split("\n", 1)[0])["status"] != 200:
            raise RuntimeError(f"the quiet table's tap was refused: {answer[:300]}")
        return elapsed

    def play(self, seconds: float) -> list[float]:
        """Tap at TAPS_PER_SECOND for `seconds`; every tap's latency."""
        latencies, started = [], time.perf_counter()
        next_tap = started
        while time.perf_counter() - started < seconds:
            latencies.append(self.tap())
            # After a slow answer the next tap comes at once, but no hand catches up on the ones it missed.
            next_tap = max(next_tap + 1 / TAPS_PER_SECOND, time.perf_counter())
            time.sleep(max(0.0, next_tap - time.perf_counter()))
        return latencies

    def close(self) -> None:
        for page in filter(None, self.pages):
            page.close()


def p99_ms(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return round(1000 * ordered[max(0, math.ceil(len(ordered) * 0.99) - 1)], 1)


def _flood_process(base: str, path: str, token: str, kind: str, seconds: float, results) -> None:
    results.put(asdict(flood(base, path, token, kind, seconds)))


def measure(worker: str, kinds: list[str], seconds: float, data_dir: Path) -> list[dict]:
    """The quiet table's p99 alone and under each kind of flood, and the server's memory through each flood."""
    env = {"COMPANION_EXTRA_GAMES": "bench.sealed_bid,tests.secret_notes"}
    server = Server(worker, data_dir, env)
    try:
        server.wait_ready()
        pids = process_tree(server.pids[0] if worker != "werkzeug" else server.process.pid)
        quiet = QuietTable(server.url)
        quiet.play(2)  # warm-up: the templates, the render worker
        cpu, started = cpu_seconds(pids), time.perf_counter()
        alone = quiet.play(seconds)
        quiet_p99, quiet_cpu = p99_ms(alone), cpu_share(pids, cpu, started)
        rows = [{"worker": worker, "kind": "quiet", "p99_ms": quiet_p99, "taps": len(alone), "cpu_pct": quiet_cpu}]
        for kind in kinds:
            flooded = call(server.url, "/api/tables", {"game": "secret-notes", "options": {"players": 2}})
            path = f"/t/{flooded['code']}/ws?view=host&since=0" + ("" if kind == "forms" else "&format=json")
            results = multiprocessing.get_context("fork").Queue()
            flooder = multiprocessing.get_context("fork").Process(
                target=_flood_process, args=(server.url, path, flooded["host_token"], kind, seconds, results)
            )
            quiet.unanswered = 0
            before, cpu, started = resident_mb(pids), cpu_seconds(pids), time.perf_counter()
            flooder.start()
            with PeakMemory(pids) as memory:
                latencies = quiet.play(seconds)
                tally = results.get(timeout=seconds + 30)
                flooder.join(10)
            flood_cpu = cpu_share(pids, cpu, started)
            p99 = p99_ms(latencies)
            rows.append(
                {
                    "worker": worker,
                    "kind": kind,
                    "p99_ms": p99,
                    "quiet_p99_ms": quiet_p99,
                    "target_ms": round(2 * quiet_p99 + 100, 1),
                    "met": p99 <= 2 * quiet_p99 + 100,
                    "taps": len(latencies),
                    "unanswered_taps": quiet.unanswered,
                    "rss_before_mb": round(before, 1),
                    "rss_growth_mb": round(max(0.0, memory.peak - before), 1),
                    "cpu_pct": flood_cpu,
                    "quiet_cpu_pct": quiet_cpu,
                    "flood": tally,
                }
            )
            time.sleep(1)  # the last flooding socket's close settles
        quiet.close()
        return rows
    finally:
        server.stop()


def cpu_share(pids: list[int], cpu_before: float, started: float) -> float:
    """The processes' CPU since `started`, in % of one core."""
    return round(100 * (cpu_seconds(pids) - cpu_before) / (time.perf_counter() - started), 1)


def table(rows: list[dict]) -> str:
    """The rows as bench/RESULTS.md's table."""
    lines = [
        "| server | flood | p99 quiet | p99 flood | target | taps unanswered | RSS growth | server CPU quiet / flood | "
        "flooding sockets, refusals, closes |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        if row["kind"] == "quiet":
            continue
        tally = row["flood"]
        lines.append(
            f"| {row['worker']} | {row['kind']} | {row['quiet_p99_ms']} ms | **{row['p99_ms']} ms** | "
            f"{row['target_ms']} ms | {row['unanswered_taps']} of {row['taps']} | **{row['rss_growth_mb']} MB** | "
            f"{row['quiet_cpu_pct']} / {row['cpu_pct']} % | "
            f"{tally['sockets']}, {tally['refusals']}, {tally['closes']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(prog="bench.flood", description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", choices=("gevent", "werkzeug", "both"), default="both")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--seconds", type=float, default=10, help="each phase's length")
    args = parser.parse_args(argv)
    kinds = [kind for kind in args.kinds.split(",") if kind]
    rows = []
    for worker in ("gevent", "werkzeug") if args.worker == "both" else (args.worker,):
        with tempfile.TemporaryDirectory(prefix="companion-flood-") as data_dir:
            for row in measure(worker, kinds, args.seconds, Path(data_dir)):
                print(json.dumps(row), flush=True)
                rows.append(row)
    print(table(rows))
    return rows


if __name__ == "__main__":
    main()
