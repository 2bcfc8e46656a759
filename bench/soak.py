"""Many tables played long in one process: the memory a table keeps per action, and undo still working (issue 37).

    .venv/bin/python -m bench.soak --tables 100 --actions 200
    .venv/bin/python -m bench.soak --tables 2000 --actions 500 --appended

Every table plays Mice and Mystics with two mice, the endless turn of bench/long_game.py, on a SQLite file in a
temporary directory, all tables a few actions at a time in turn, so that they grow together. By default each action
goes through `Tables.act` with its client action id (a durable commit each). `--appended`: each table's next 50
actions are appended to its log in one commit and folded in the way another process's appends are (`Tables.newest`:
each one through the game, described, its id kept), the same fold without a commit per action, which 2,000 x 500
actions would otherwise wait on for hours. Memory: the process's resident size once the tables are open and in
memory, and at the end; the bytes per action are the difference over the actions played. At the end the host undoes
the last action of `--sample` tables, each checked against a fresh service's fold of the log (a restart's).
Prints one JSON line.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import tempfile
import time
from pathlib import Path

from bench.long_game import GAME, SETUP, TURN
from companion.games import load
from companion.store import Event
from companion.store.sqlite import SqliteStore
from companion.tables import Tables

APPENDED_AT_ONCE = 50


def resident_bytes() -> int:
    """The process's resident set size, as the kernel counts it."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def nth_action(n: int) -> tuple[str, dict]:
    """The table's n-th action (from 0): the mice and the chapter set up, then the endless turn."""
    return SETUP[n] if n < len(SETUP) else TURN[(n - len(SETUP)) % len(TURN)]


def play(service: Tables, code: str, start: int, count: int, appended: bool) -> None:
    """The table's actions from `start` on, `count` of them."""
    if not appended:
        for n in range(start, start + count):
            seat, action = nth_action(n)
            sent = json.loads(json.dumps(action))  # a request's own, as its body is parsed: nothing shared
            service.act(code, seat, sent, client_action_id=f"tap-{n}")
        return
    seq = service.newest(code).seq
    events = [
        Event(seq + 1 + offset, "action", *nth_action(n), f"tap-{n}", time.time())
        for offset, n in enumerate(range(start, start + count))
    ]
    service.store.append(code, *events)
    service.newest(code)


def undo_works(service: Tables, code: str) -> bool:
    """The host undoes the last action, and the table is what a restart folds from the log."""
    seq = service.undo(code).seq
    return Tables(service.store, service.games).view(code, None) == service.view(code, None) and seq > 0


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--actions", type=int, default=200, help="actions per table")
    parser.add_argument("--appended", action="store_true", help="append 50 actions at a time and fold them in")
    parser.add_argument("--sample", type=int, default=40, help="tables whose last action is undone at the end")
    args = parser.parse_args(argv)
    step = APPENDED_AT_ONCE if args.appended else 1
    with tempfile.TemporaryDirectory(prefix="companion-soak-") as data:
        store = SqliteStore(str(Path(data) / "companion.sqlite3"))
        service = Tables(store, load([]), keep_in_memory=args.tables, idle_seconds=float("inf"))
        codes = [service.create(GAME, {"players": 2})[0] for _ in range(args.tables)]
        for code in codes:
            service.newest(code)
        gc.collect()
        opened = resident_bytes()
        started = time.monotonic()
        for start in range(0, args.actions, step):
            for code in codes:
                play(service, code, start, min(step, args.actions - start), args.appended)
        gc.collect()
        played = resident_bytes()
        sample = random.Random(37).sample(codes, min(args.sample, len(codes)))
        undone = sum(undo_works(service, code) for code in sample)
        result = {
            "tables": args.tables,
            "actions_per_table": args.actions,
            "appended": args.appended,
            "tables_in_memory": service.tables_in_memory,
            "rss_opened_mb": round(opened / 2**20, 1),
            "rss_end_mb": round(played / 2**20, 1),
            "bytes_per_action": round((played - opened) / (args.tables * args.actions)),
            "undo_ok": f"{undone}/{len(sample)}",
            "seconds": round(time.monotonic() - started),
        }
        store.close()
    print(json.dumps(result), flush=True)
    return result


if __name__ == "__main__":
    main()
