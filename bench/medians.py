"""Medians of interleaved benchmark runs (bench/compare.sh's JSON lines), one markdown row per server and size.

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
SANITY = ("incomplete_actions", "disconnects", "bad_final_views", "secrecy_leaks")


def rows(lines: list[str]) -> list[str]:
    runs = defaultdict(list)
    for line in lines:
        run = json.loads(line) if line.strip() else {}
        if "actions_per_s" in run:  # a run that timed out or failed printed no figures
            # The server's CPU per bid: on a machine busy with other work, steadier than the rate or the latency.
            run["server_cpu_ms_per_action"] = 10 * run["server_cpu_pct"] / run["actions_per_s"]
            runs[(run["tables"], run["server"])].append(run)
    table = [
        "| server | tables | runs | " + " | ".join(COLUMNS) + " | p99 ms / actions/s of each run | sanity |",
        "|---|---:|---:|" + "---:|" * len(COLUMNS) + "---|---|",
    ]
    for (tables, server), found in sorted(runs.items()):
        medians = [f"{statistics.median(run[key] for run in found):.4g}" for key in COLUMNS]
        each = ", ".join(f"{run['p99_ms']:.4g}/{run['actions_per_s']:.0f}" for run in found)
        broken = sum(int(run.get(key) or 0) for run in found for key in (*SANITY, "timed_out"))
        table.append(f"| {server} | {tables} | {len(found)} | " + " | ".join(medians) + f" | {each} | {broken} |")
    return table


if __name__ == "__main__":
    with open(sys.argv[1]) as runs:
        print("\n".join(rows(runs.readlines())))
