"""The push-latency benchmark of ../shared/bench/WORKLOAD.md: T tables x 6 seats bidding in sealed rounds.

    .venv/bin/python -m bench.run --config sqlite --tables 50 --rounds 20
    .venv/bin/python -m bench.run --tables 334 --rounds 1 --warmup 0 --pace 5   # 2,004 mostly idle sockets

Starts its own servers on 127.0.0.1, opens one WebSocket per seat, plays the
rounds and prints one JSON line; it stops by itself (every phase has a time
limit) and stops its servers. Latency of a bid = from just before it is sent
to the moment the last of the table's seats holds a view that includes it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import resource
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect

from bench.servers import Server, running

CONNECTING_AT_ONCE = 50


@dataclass
class Seat:
    """One phone: its socket and the public part of the last view it received."""

    index: int
    seat_id: str
    token: str
    url: str
    round: int = 0
    bidders: frozenset = frozenset()
    socket: object = None
    first_view: asyncio.Event = field(default_factory=asyncio.Event)

    def has_seen(self, bid_round: int, seat_id: str) -> bool:
        return self.round > bid_round or (self.round == bid_round and seat_id in self.bidders)


@dataclass
class Tally:
    latencies: list = field(default_factory=list)
    errors: int = 0
    leaks: int = 0
    disconnects: int = 0


class Table:
    """A table of seats playing rounds; `heard` resolves the bids every seat has now seen."""

    def __init__(self, code: str, seats: list[Seat], tally: Tally):
        self.code, self.seats, self.tally = code, seats, tally
        self.pending: dict[int, tuple[float, set]] = {}  # seat index -> (sent at, seats still to see it)
        self.round = 0
        self.sending = False
        self.measured = False
        self.done = asyncio.Event()

    async def play_round(self, rng: random.Random, measured: bool) -> None:
        self.round += 1
        self.measured, self.sending = measured, True
        self.done.clear()
        for seat in self.seats:
            amount = rng.randint(1, 1000)
            self.pending[seat.index] = (time.perf_counter(), {s.index for s in self.seats})
            await seat.socket.send(
                json.dumps({"type": "bid", "amount": amount, "client_action_id": f"{self.round}-{seat.index}"})
            )
        self.sending = False
        self.resolve()
        await self.done.wait()

    async def play_paced_round(self, rng: random.Random, pace: float) -> None:
        """One round as a quiet table plays it: one bid every `pace` seconds, each seen by all before the next."""
        self.round += 1
        self.measured = True
        for seat in self.seats:
            started = time.perf_counter()
            self.sending = True
            self.done.clear()
            self.pending[seat.index] = (started, {s.index for s in self.seats})
            amount = rng.randint(1, 1000)
            await seat.socket.send(
                json.dumps({"type": "bid", "amount": amount, "client_action_id": f"{self.round}-{seat.index}"})
            )
            self.sending = False
            self.resolve()
            await self.done.wait()
            await asyncio.sleep(max(0.0, started + pace - time.perf_counter()))

    def heard(self, seat: Seat, frame: dict) -> None:
        if "error" in frame:
            self.tally.errors += 1
            return
        view = frame["view"]
        seat.round, seat.bidders = view["round"], frozenset(view["bidders"])
        revealed = view["revealed"]
        if revealed and revealed["round"] >= seat.round:
            self.tally.leaks += 1  # bids of a round shown before the round is over
        self.resolve()

    def resolve(self) -> None:
        now = time.perf_counter()
        for index, (sent, waiting) in list(self.pending.items()):
            bidder = self.seats[index].seat_id
            waiting -= {seat.index for seat in self.seats if seat.has_seen(self.round, bidder)}
            if not waiting:
                del self.pending[index]
                if self.measured:
                    self.tally.latencies.append(now - sent)
        if not self.pending and not self.sending:
            self.done.set()


def call(base: str, path: str, body: dict, token: str | None = None) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def open_tables(servers: list[Server], count: int, seats: int, tally: Tally) -> list[Table]:
    """Tables with every seat claimed; seat i of a table talks to server i mod len(servers)."""
    tables = []
    for _ in range(count):
        code = call(servers[0].url, "/api/tables", {"game": "sealed-bid", "options": {"players": seats}})["code"]
        table_seats = []
        for index in range(seats):
            seat_id = f"seat-{index}"
            token = call(servers[0].url, f"/api/tables/{code}/seats", {"seat": seat_id, "name": seat_id})["token"]
            ws_url = servers[index % len(servers)].url.replace("http", "ws", 1) + f"/t/{code}/ws?format=json"
            table_seats.append(Seat(index, seat_id, token, ws_url))
        tables.append(Table(code, table_seats, tally))
    return tables


async def listen(table: Table, seat: Seat, gate: asyncio.Semaphore) -> None:
    async with gate:
        seat.socket = await connect(
            seat.url,
            additional_headers={"Authorization": f"Bearer {seat.token}"},
            compression=None,
            ping_interval=None,
            max_size=None,
            open_timeout=30,
        )
    try:
        async for message in seat.socket:
            table.heard(seat, json.loads(message))
            seat.first_view.set()
    except Exception:  # noqa: BLE001 - counted, not fatal: the report says how many sockets dropped
        table.tally.disconnects += 1


async def loop_delays(delays: list, stop: asyncio.Event) -> None:
    """How late this process wakes up: a busy load generator measures itself."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        delays.append(time.perf_counter() - start - 0.01)


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    return total / 100


def memory_mb(pids: list[int], key: str) -> float:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                total += int(line.split()[1])
    return round(total / 1024, 1)


def machine_ticks() -> list[int]:
    return [int(n) for n in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def nearest_rank(ordered: list[float], share: float) -> float:
    """The value at `share` of sorted values, by nearest rank (as the peer's load.js reports its percentiles)."""
    return ordered[max(0, math.ceil(len(ordered) * share) - 1)]


def percentile(values: list[float], share: float) -> float:
    """Nearest rank of seconds, in milliseconds."""
    ordered = sorted(values)
    return round(nearest_rank(ordered, share) * 1000, 2) if ordered else 0.0


def latency_figures(latencies: list[float]) -> dict[str, float]:
    """p50, p90, p99 and the slowest, in milliseconds."""
    return {f"p{share}_ms": percentile(latencies, share / 100) for share in (50, 90, 99)} | {
        "max_ms": percentile(latencies, 1.0)
    }


async def play(tables: list[Table], rounds: int, warmup: int, timeout: float, pids: list[int], pace: float) -> dict:
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
    listeners = [asyncio.create_task(listen(t, s, gate)) for t in tables for s in t.seats]
    await asyncio.wait_for(asyncio.gather(*(s.first_view.wait() for t in tables for s in t.seats)), timeout)
    await asyncio.sleep(0.5)
    rng = random.Random(7)

    async def rounds_at(table: Table, count: int, measured: bool) -> None:
        if pace and measured:
            await asyncio.sleep(rng.uniform(0, pace))  # quiet tables do not all act at the same moment
        for _ in range(count):
            await (table.play_paced_round(rng, pace) if pace and measured else table.play_round(rng, measured))

    if warmup:
        await asyncio.wait_for(asyncio.gather(*(rounds_at(t, warmup, False) for t in tables)), timeout)
        await asyncio.sleep(0.2)
    delays, stop = [], asyncio.Event()
    watcher = asyncio.create_task(loop_delays(delays, stop))
    server_cpu, own_cpu, ticks, start = cpu_seconds(pids), own_cpu_seconds(), machine_ticks(), time.perf_counter()
    timed_out = False
    try:
        await asyncio.wait_for(asyncio.gather(*(rounds_at(t, rounds, True) for t in tables)), timeout)
    except TimeoutError:
        timed_out = True
    wall = time.perf_counter() - start
    measured = {
        "server_cpu": cpu_seconds(pids) - server_cpu,
        "client_cpu": own_cpu_seconds() - own_cpu,
        "ticks": [b - a for a, b in zip(ticks, machine_ticks(), strict=True)],
        "rss": memory_mb(pids, "VmRSS"),
        "rss_peak": memory_mb(pids, "VmHWM"),
        "wall": wall,
        "timed_out": timed_out,
        "loop_delay_p99_ms": percentile(delays, 0.99),
    }
    stop.set()
    watcher.cancel()
    for table in tables:
        for seat in table.seats:
            await seat.socket.close()
    await asyncio.gather(*listeners, return_exceptions=True)
    return measured


def report(args, tables: list[Table], tally: Tally, measured: dict) -> dict:
    wall, actions, ticks = measured["wall"], len(tally.latencies), measured["ticks"]
    final_round = args.warmup + args.rounds + 1
    return {
        "tables": args.tables,
        "seats": args.seats,
        "actions": actions,
        **latency_figures(tally.latencies),
        "actions_per_s": round(actions / wall, 1),
        "server_rss_mb": measured["rss"],
        "server_rss_peak_mb": measured["rss_peak"],
        "pushes_per_s": round(actions * args.seats / wall, 1),
        "server_cpu_pct": round(100 * measured["server_cpu"] / wall, 1),
        "client_cpu_pct": round(100 * measured["client_cpu"] / wall, 1),
        "machine_idle_pct": round(100 * ticks[3] / max(1, sum(ticks)), 1),
        "machine_steal_pct": round(100 * ticks[7] / max(1, sum(ticks)), 1),
        "client_loop_delay_p99_ms": measured["loop_delay_p99_ms"],
        "incomplete_actions": args.tables * args.seats * args.rounds - actions,
        "timed_out": measured["timed_out"],
        "disconnects": tally.disconnects,
        "errors": tally.errors,
        "bad_final_views": sum(s.round != final_round or bool(s.bidders) for t in tables for s in t.seats),
        "secrecy_leaks": tally.leaks,
        "mean_ms": round(1000 * sum(tally.latencies) / max(1, actions), 2),
        "wall_s": round(wall, 2),
        "rounds": args.rounds,
        "warmup_rounds": args.warmup,
        "mode": f"paced {args.pace} s" if args.pace else "burst",
        "config": args.config,
        "worker": args.worker,
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="bench.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", choices=("sqlite", "postgres-redis"), default="sqlite")
    parser.add_argument("--worker", choices=("gthread", "gevent", "werkzeug"), default="gevent")
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120, help="seconds allowed for each phase")
    parser.add_argument(
        "--pace", type=float, default=0, help="seconds between one table's bids (0: burst, all seats at once)"
    )
    args = parser.parse_args(argv)
    tally = Tally()
    with (
        tempfile.TemporaryDirectory(prefix="companion-bench-") as data_dir,
        running(args.config, args.worker, Path(data_dir)) as servers,
    ):
        tables = open_tables(servers, args.tables, args.seats, tally)
        pids = [pid for server in servers for pid in server.pids]
        measured = asyncio.run(play(tables, args.rounds, args.warmup, args.timeout, pids, args.pace))
    result = report(args, tables, tally, measured)
    print(json.dumps(result), flush=True)
    return result


if __name__ == "__main__":
    main()
