"""The four real games at a human pace (issue 39): every page of every table open, actions sent as pages send them.

    .venv/bin/python -m bench.real_games --game mice-and-mystics --tables 100 --pace 5 --duration 60
    .venv/bin/python -m bench.real_games --game all --tables 200     # each game in turn, on a server of its own

Starts its own server on 127.0.0.1 (gunicorn + gevent with its render worker, as in production; SQLite, or
PostgreSQL + Redis), having opened the tables first: each with the most players, its seats taken, and brought to its
own point of a recorded random game of its options (bench/game_scripts.py), so that the run sees every stage of a
game. Then it opens every seat page's socket and the display's with the cookies the phone and the TV hold (the
tables' languages in turn: en, cs, nl), permessage-deflate offered as browsers offer it, and each page says "ping"
every 10 s as static/app.js does. Each table sends the next action of its game as the page that shows its form sends
it (a seat's over its socket; the host's, `as=host`, over the display's, which holds the host's cookie), one at a
time, the next a random 0-2 x pace seconds after the last was sent. An action's latency runs from just before it is
sent to the moment the last page of its table holds a frame that includes it. Every phase has a time limit; what
does not arrive within it is counted, not waited for. One JSON line per game.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import math
import os
import random
import re
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, PerMessageDeflate
from websockets.frames import CTRL_OPCODES
from websockets.protocol import State

from bench.game_scripts import CACHE, REPLAY_SEED, Script, scripts
from bench.run import (
    CONNECTING_AT_ONCE,
    latency_figures,
    loop_delays,
    machine_ticks,
    memory_mb,
    nearest_rank,
    own_cpu_seconds,
    percentile,
)
from bench.servers import running
from companion.games import load
from companion.games.base import HOST
from companion.store import Event
from companion.store.opening import open_store
from companion.tables import Tables
from companion.web.frame_regions import DIFF_WORD
from tests.e2e.walk import LANGUAGES

GAMES = ("mice-and-mystics", "scotland-yard", "downforce", "eat-your-tourist")
HEARTBEAT = 10.0  # seconds between a page's pings (static/app.js)
HEARTBEAT_TICK = 0.1  # the pages ping in turn, a share of them every tick
# What the servers' log says of a run, counted: the render worker stopped (companion/web/render_worker.py), and
# gunicorn killed a worker that did not tell it it was alive for `timeout` seconds (deploy/gunicorn.conf.py).
LOGGED = {
    "render_worker_stops": "the render worker stopped",
    "render_worker_ended_stuck": "the render worker is stuck",
    "server_worker_timeouts": "WORKER TIMEOUT",
}


# -- What a received message tells: the one place that reads a frame (whole, or the regions that changed); all else
# -- reads a frame through it.
LIVE_SEQ = re.compile(rb'id="live"[^>]*?data-seq="(\d+)"')


def heard(message: bytes, held: int) -> tuple[int | None, int | None]:
    """What a message tells a page that holds the table as of seq `held`: (the status of the answer it brings to a
    form the page sent; the table's seq the page holds once it has applied the frame the message brings), each None
    when it brings none (a "pong" brings neither).

    The answer's JSON line first when there is one ({"answer": id, "status": 200}), then a frame: whole, its
    `<div id="live" … data-seq="N">` holding the table as of its seq N (every action up to N), whatever `held` is; or
    a diff (companion/web/frame_regions.py), whose live root, when it changed, says N, and which otherwise leaves the
    page at `held`."""
    status = None
    if message[:1] == b"{":
        line, _, message = message.partition(b"\n")
        status = json.loads(line).get("status", 0)  # {"error": …} alone: a refusal
    found = LIVE_SEQ.search(message)
    if found:
        return status, int(found[1])
    return status, held if message.startswith(DIFF_WORD.encode()) else None


class WireSizes(ClientPerMessageDeflateFactory):
    """permessage-deflate offered as browsers offer it (`client_max_window_bits`), the size each message received had
    on the wire noted in `sizes`."""

    def __init__(self, sizes: collections.deque):
        super().__init__()
        self.sizes = sizes

    def process_response_params(self, params, accepted_extensions) -> Extension:
        return CountedDeflate(super().process_response_params(params, accepted_extensions), self.sizes)


class CountedDeflate(Extension):
    """The negotiated permessage-deflate, noting each data message's payload before it is inflated."""

    name = PerMessageDeflate.name

    def __init__(self, deflate: PerMessageDeflate, sizes: collections.deque):
        self.deflate, self.sizes, self.size = deflate, sizes, 0

    def decode(self, frame, *, max_size=None):
        if frame.opcode not in CTRL_OPCODES:
            self.size += len(frame.data)
            if frame.fin:
                self.sizes.append(self.size)
                self.size = 0
        return self.deflate.decode(frame, max_size=max_size)

    def encode(self, frame):
        return self.deflate.encode(frame)


@dataclass
class Tally:
    """What a run counted, over all its tables."""

    latencies: list = field(default_factory=list)
    frames: list = field(default_factory=list)  # (page kind, raw bytes, bytes on the wire) of each frame measured
    sent: int = 0
    refused: int = 0
    disconnects: int = 0
    not_opened: int = 0
    measuring: bool = False


@dataclass(eq=False)
class Page:
    """One open page of a table: a seat's phone or the display, its socket and the newest seq it holds."""

    table: Table
    kind: str  # "seat" or "display"
    url: str
    cookie: str
    seq: int = -1
    socket: object = None
    wire: collections.deque = field(default_factory=collections.deque)  # on-the-wire sizes of messages not yet read
    synced: asyncio.Event = field(default_factory=asyncio.Event)

    def received(self, message: bytes) -> None:
        wire = self.wire.popleft() if self.wire else len(message)
        status, seq = heard(message, self.seq)
        if seq is not None:
            self.seq = max(self.seq, seq)
            if self.table.tally.measuring:
                self.table.tally.frames.append((self.kind, len(message), wire))
            if self.seq >= self.table.start_seq:
                self.synced.set()
        self.table.heard(status)


class Table:
    """A table replaying its script from `start`: its pages (the seats', then the display) and its action in flight."""

    def __init__(self, code: str, script: Script, start: int, pages: dict[str, Page], tally: Tally):
        self.code, self.script, self.position, self.tally = code, script, start, tally
        self.start_seq = script.steps[start - 1].seq if start else 0
        self.pages = pages  # by who sends from it: the seats, and HOST for the display
        self.in_flight: tuple[int, float] | None = None  # (the seq the action makes, when it was sent)
        self.seen = asyncio.Event()
        self.stopped = False

    async def send_next(self) -> float:
        """Send the script's next action from its page; returns when it was sent."""
        step = self.script.steps[self.position]
        self.position += 1
        form = {**step.fields, "client_action_id": [secrets.token_hex(16)]}
        self.seen.clear()
        started = time.perf_counter()
        self.in_flight = (step.seq, started)
        self.tally.sent += 1
        await self.pages[step.who].socket.send(json.dumps({"form": form}))
        return started

    def heard(self, status: int | None) -> None:
        """A page heard something: the action in flight is done once every page holds it, or refused."""
        if self.in_flight is None:
            return
        if status is not None and status != 200:
            self.tally.refused += 1  # the replay left the script: this table stops
            self.in_flight, self.stopped = None, True
            self.seen.set()
            return
        seq, started = self.in_flight
        if all(page.seq >= seq for page in self.pages.values()):
            self.in_flight = None
            if self.tally.measuring:
                self.tally.latencies.append(time.perf_counter() - started)
            self.seen.set()

    async def play(self, rng: random.Random, pace: float, until: float) -> None:
        """Act at a human pace until `until` (time.perf_counter), the end of the script, or a refusal."""
        next_at = time.perf_counter() + rng.uniform(0, 2 * pace)
        while next_at < until and self.position < len(self.script.steps) and not self.stopped:
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            try:
                next_at = await self.send_next() + rng.uniform(0, 2 * pace)
            except ConnectionClosed:
                return  # its action stays in flight, counted as incomplete
            await self.seen.wait()

    def is_open(self) -> bool:
        return all(page.synced.is_set() for page in self.pages.values())


def open_tables(env: dict, data_dir: Path, game: str, plays: list[Script], count: int, needed: int, seed: int):
    """Tables of recorded games in the servers' store before they start: seats taken, each brought to a random point
    of its game from where `needed` actions remain (where there are): (code, host token, seat tokens, start) of each."""
    store = open_store(env.get("COMPANION_DATABASE_URL"), str(data_dir))
    service = Tables(store, load([]), replay_seed=REPLAY_SEED)  # the recorded games' dice and cards
    rng = random.Random(seed)
    opened = []
    for index in range(count):
        script = plays[index % len(plays)]
        start = rng.randint(0, max(0, len(script.steps) - needed))
        code, host_token = service.create(game, script.options)
        tokens = {seat: service.claim(code, seat, name) for seat, name in script.names.items()}
        now = time.time()
        events = [Event(step.seq, "action", step.who, step.action, None, now) for step in script.steps[:start]]
        if events:
            store.append(code, *events)
        opened.append((code, host_token, tokens, start))
    store.close()
    return opened


def tables_of(opened, plays: list[Script], urls: list[str], tally: Tally) -> list[Table]:
    """The tables with their pages: each seat's with the seat's cookie, and the display with the host's."""
    tables = []
    for index, (code, host_token, tokens, start) in enumerate(opened):
        lang = f"lang={LANGUAGES[index % len(LANGUAGES)]}"
        table = Table(code, plays[index % len(plays)], start, {}, tally)
        who = [*tokens, HOST]
        for number, seat in enumerate(who):
            base = urls[number % len(urls)].replace("http", "ws", 1) + f"/t/{code}/ws?since=-1&view="
            if seat == HOST:
                table.pages[seat] = Page(table, "display", base + "display", f"host_{code}={host_token}; {lang}")
            else:
                table.pages[seat] = Page(table, "seat", base + "seat", f"seat_{code}={tokens[seat]}; {lang}")
        tables.append(table)
    return tables


async def listen(page: Page, gate: asyncio.Semaphore, tally: Tally) -> None:
    async with gate:
        try:
            page.socket = await connect(
                page.url,
                additional_headers={"Cookie": page.cookie},
                compression=None,
                extensions=[WireSizes(page.wire)],
                ping_interval=None,
                max_size=None,
                open_timeout=60,
            )
        except Exception:  # noqa: BLE001 - counted, not fatal: its table does not act
            tally.not_opened += 1
            return
    try:
        while True:
            page.received(await page.socket.recv(decode=False))
    except ConnectionClosed:
        if tally.measuring:
            tally.disconnects += 1


async def heartbeats(pages: list[Page], every: float) -> None:
    """Each page says "ping" every `every` seconds, as static/app.js does; the pages take turns."""
    ticks = max(1, round(every / HEARTBEAT_TICK))
    tick = 0
    while True:
        for page in pages[tick % ticks :: ticks]:
            if page.socket is not None and page.socket.state is State.OPEN:
                await page.socket.send("ping")
        tick += 1
        await asyncio.sleep(HEARTBEAT_TICK)


def cpu_of(servers) -> tuple[list[int], float, float]:
    """The processes that serve, and CPU seconds so far of them and of their render workers."""
    times = [server.cpu_seconds() for server in servers]
    pids = [pid for server in servers for pid in server.pids]
    return pids, sum(serving for serving, _ in times), sum(rendering for _, rendering in times)


def cpu_since(servers, before: tuple[list[int], float, float]) -> tuple[float | None, float | None]:
    """CPU seconds of the processes that serve and of their render workers since `before`; None when a process that
    served then serves no more (gunicorn restarted it, and its time is lost)."""
    pids, serving, rendering = cpu_of(servers)
    return (serving - before[1], rendering - before[2]) if pids == before[0] else (None, None)


async def play(tables: list[Table], args, servers) -> dict:
    tally = tables[0].tally
    pages = [page for table in tables for page in table.pages.values()]
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
    listeners = [asyncio.create_task(listen(page, gate, tally)) for page in pages]
    with contextlib.suppress(TimeoutError):  # the tables whose pages did not all open do not act
        await asyncio.wait_for(asyncio.gather(*(page.synced.wait() for page in pages)), args.timeout)
    beating = asyncio.create_task(heartbeats(pages, args.heartbeat)) if args.heartbeat else None
    await asyncio.sleep(0.5)
    delays, stop = [], asyncio.Event()
    watcher = asyncio.create_task(loop_delays(delays, stop))
    rng = random.Random(args.seed)
    tally.measuring = True
    cpu, own_cpu = cpu_of(servers), own_cpu_seconds()
    ticks, start = machine_ticks(), time.perf_counter()
    until = start + args.duration
    players = [table.play(random.Random(rng.random()), args.pace, until) for table in tables if table.is_open()]
    with contextlib.suppress(TimeoutError):  # the actions still in flight are counted as incomplete
        await asyncio.wait_for(asyncio.gather(*players), args.duration + args.drain)
    wall = time.perf_counter() - start
    tally.measuring = False
    server_pids = [pid for server in servers for pid in server.pids]
    worker_pids = [pid for server in servers for pid in server.render_pids]
    logs = "".join(server.log.read_text() for server in servers)
    measured = {
        "cpu": cpu_since(servers, cpu),
        "logged": {name: logs.count(phrase) for name, phrase in LOGGED.items()},
        "client_cpu": own_cpu_seconds() - own_cpu,
        "ticks": [b - a for a, b in zip(ticks, machine_ticks(), strict=True)],
        "server_rss": memory_mb(server_pids, "VmRSS"),
        "server_rss_peak": memory_mb(server_pids, "VmHWM"),
        "worker_rss": memory_mb(worker_pids, "VmRSS"),
        "wall": wall,
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "loop_delay_p99_ms": percentile(delays, 0.99),
    }
    stop.set()
    for task in (watcher, beating, *listeners):
        if task:
            task.cancel()
    await asyncio.gather(*(page.socket.close() for page in pages if page.socket), return_exceptions=True)
    await asyncio.gather(*listeners, return_exceptions=True)
    return measured


def frame_figures(frames: list[tuple[str, int, int]]) -> dict:
    """Bytes per frame, raw and on the wire, median and p90: of every page's frames, the seats' and the display's."""
    figures = {"frames": len(frames)}
    for kind in ("all", "seat", "display"):
        chosen = [frame for frame in frames if kind in ("all", frame[0])]
        for index, measure in ((1, "raw"), (2, "wire")):
            sizes = sorted(frame[index] for frame in chosen)
            prefix = "frame" if kind == "all" else f"{kind}_frame"
            for share in (50, 90):
                figures[f"{prefix}_{measure}_p{share}"] = nearest_rank(sizes, share / 100) if sizes else None
    return figures


def cpu_figures(serving: float | None, rendering: float | None, actions: int, wall: float) -> dict:
    """CPU per action of the server and its render worker, and each one's share of a core; None when not known."""
    if serving is None:
        return dict.fromkeys(("server_cpu_ms_per_action", "server_cpu_pct", "render_worker_cpu_pct"))
    return {
        "server_cpu_ms_per_action": round(1000 * (serving + rendering) / max(1, actions), 2),
        "server_cpu_pct": round(100 * serving / wall, 1),
        "render_worker_cpu_pct": round(100 * rendering / wall, 1),
    }


def report(args, game: str, tables: list[Table], measured: dict) -> dict:
    tally, wall, ticks = tables[0].tally, measured["wall"], measured["ticks"]
    actions = len(tally.latencies)
    return {
        "server": f"real-{game}",  # as bench.medians groups the runs
        "game": game,
        "tables": len(tables),
        "pages_per_table": len(tables[0].pages),
        "actions_sent": tally.sent,
        "actions": actions,
        **latency_figures(tally.latencies),
        "actions_per_s": round(actions / wall, 1),
        "offered_per_s": round(len(tables) / args.pace, 1),
        **cpu_figures(*measured["cpu"], actions, wall),
        "client_cpu_pct": round(100 * measured["client_cpu"] / wall, 1),
        "machine_idle_pct": round(100 * ticks[3] / max(1, sum(ticks)), 1),
        "load_average": measured["load_average"],
        **frame_figures(tally.frames),
        "server_rss_mb": measured["server_rss"],
        "server_rss_peak_mb": measured["server_rss_peak"],
        "render_worker_rss_mb": measured["worker_rss"],
        "incomplete_actions": sum(table.in_flight is not None for table in tables),
        "refused_actions": tally.refused,
        "disconnects": tally.disconnects,
        **measured["logged"],
        "pages_not_opened": tally.not_opened,
        "tables_not_open": sum(not table.is_open() for table in tables),
        "tables_at_the_end": sum(table.position == len(table.script.steps) for table in tables),
        "client_loop_delay_p99_ms": measured["loop_delay_p99_ms"],
        "wall_s": round(wall, 2),
        "pace_s": args.pace,
        "duration_s": args.duration,
        "heartbeat_s": args.heartbeat,
        "games_recorded": sorted({table.script.seed for table in tables}),
        "config": args.config,
        "worker": args.worker,
    }


def run_game(args, game: str) -> dict:
    needed = math.ceil(2 * args.duration / args.pace) + 1  # more than a table acts in the run, but by a freak
    plays = scripts(game, args.scripts, needed, args.script_limit, Path(args.cache))
    tally, opened = Tally(), []

    def prepare(env: dict) -> None:
        opened.extend(open_tables(env, Path(data_dir), game, plays, args.tables, needed, args.seed))

    with (
        tempfile.TemporaryDirectory(prefix="companion-bench-") as data_dir,
        running(args.config, args.worker, Path(data_dir), prepare) as servers,
    ):
        tables = tables_of(opened, plays, [server.url for server in servers], tally)
        measured = asyncio.run(play(tables, args, servers))
    return report(args, game, tables, measured)


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(prog="bench.real_games", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=(*GAMES, "all"), default="mice-and-mystics")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--pace", type=float, default=5.0, help="seconds between a table's actions, on average")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of acting measured")
    parser.add_argument("--config", choices=("sqlite", "postgres-redis"), default="sqlite")
    parser.add_argument("--worker", choices=("gthread", "gevent"), default="gevent")
    parser.add_argument("--timeout", type=float, default=300, help="seconds allowed for every page to open")
    parser.add_argument("--drain", type=float, default=30, help="seconds allowed after the last action was sent")
    parser.add_argument("--heartbeat", type=float, default=HEARTBEAT, help="seconds between a page's pings (0: none)")
    parser.add_argument("--scripts", type=int, default=4, help="recorded games per game, the tables' in turn")
    parser.add_argument("--script-limit", type=int, default=400, help="the most actions recorded of a game")
    parser.add_argument("--cache", default=str(CACHE), help="where recorded games are kept")
    parser.add_argument("--seed", type=int, default=7, help="of the tables' starting points and pace")
    args = parser.parse_args(argv)
    results = []
    for game in GAMES if args.game == "all" else (args.game,):
        results.append(run_game(args, game))
        print(json.dumps(results[-1]), flush=True)
    return results


if __name__ == "__main__":
    main()
