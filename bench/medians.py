"""Medians of interleaved benchmark runs (bench/compare.sh's or bench/compare_real.sh's JSON lines), one markdown row
per server and size; the real games' runs in a table of their own.

.venv/bin/python -m bench.medians runs.jsonl
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict

COLUMNS = (
    "p50_ms",
    "p90_ms",
    "p99_ms",
    "max_ms",
    "actions_per_s",
    "server_rss_mb",
    "server_cpu_pct",
    "machine_idle_pct",
    "server_cpu_ms_per_action",
)
# The real games' runs (bench/real_games.py): the rate offered, the render worker, and the frames' bytes.
REAL_COLUMNS = (
    "p50_ms",
    "p99_ms",
    "actions_per_s",
    "offered_per_s",
    "server_cpu_ms_per_action",
    "server_cpu_pct",
    "render_worker_cpu_pct",
    "seat_frame_raw_p50",
    "seat_frame_wire_p50",
    "display_frame_raw_p50",
    "display_frame_wire_p50",
    "server_rss_mb",
    "render_worker_rss_mb",
    "machine_idle_pct",
)
SANITY = ("incomplete_actions", "disconnects", "bad_final_views", "secrecy_leaks", "refused_actions")


def rows(lines: list[str]) -> list[str]:
    runs = defaultdict(list)
    for line in lines:
        run = json.loads(line) if line.strip() else {}
        if "actions_per_s" in run:  # a run that timed out or failed printed no figures
            # The server's CPU per bid: on a machine busy with other work, steadier than the rate or the latency.
            run.setdefault("server_cpu_ms_per_action", 10 * run["server_cpu_pct"] / run["actions_per_s"])
            runs[(run["tables"], run["server"])].append(run)
    plain = {key: found for key, found in runs.items() if "game" not in found[0]}
    real = {key: found for key, found in runs.items() if "game" in found[0]}
    return table(plain, COLUMNS) + ([""] + table(real, REAL_COLUMNS) if real else [])


def table(runs: dict, columns: tuple[str, ...]) -> list[str]:
    lines = [
        "| server | tables | runs | " + " | ".join(columns) + " | p99 ms / actions/s of each run | sanity |",
        "|---|---:|---:|" + "---:|" * len(columns) + "---|---|",
    ]
    for (tables, server), found in sorted(runs.items()):
        medians = [median(run.get(key) for run in found) for key in columns]
        each = ", ".join(f"{figure(run['p99_ms'])}/{run['actions_per_s']:.0f}" for run in found)
        broken = sum(int(run.get(key) or 0) for run in found for key in (*SANITY, "timed_out"))
        lines.append(f"| {server} | {tables} | {len(found)} | " + " | ".join(medians) + f" | {each} | {broken} |")
    return lines


def median(values) -> str:
    """The median of the runs that have a figure (a run without frames has no frame bytes), or "-"."""
    found = [value for value in values if value is not None]
    return figure(statistics.median(found)) if found else "-"


def figure(value: float) -> str:
    return f"{value:.4g}" if abs(value) < 10_000 else f"{value:.0f}"  # 38600 bytes, not 3.86e+04


if __name__ == "__main__":
    with open(sys.argv[1]) as runs:
        print("\n".join(rows(runs.readlines())))
