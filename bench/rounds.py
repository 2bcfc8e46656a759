"""Latency percentiles of each round of one run, from bench/load.js's BIDS file: where a burst's p99 comes from.

BIDS=/tmp/bids.json NODE_BENCH=... FRAMES=html ACTIONS=page TABLES=200 ROUNDS=5 bash bench/node.sh
.venv/bin/python -m bench.rounds /tmp/bids.json
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict

from bench.run import nearest_rank


def report(bids: list[list]) -> list[str]:
    by_round = defaultdict(list)
    for _table, round_, _seat, latency in bids:
        by_round[round_].append(latency)
    lines = ["| round | bids | p10 ms | p50 ms | p90 ms | p99 ms | max ms |", "|---:|---:|---:|---:|---:|---:|---:|"]
    for round_, latencies in sorted(by_round.items()) + [("all", [bid[3] for bid in bids])]:
        values = sorted(latencies)
        shown = [nearest_rank(values, share) for share in (0.1, 0.5, 0.9, 0.99)] + [values[-1]]
        lines.append(f"| {round_} | {len(values)} | " + " | ".join(f"{value:.1f}" for value in shown) + " |")
    return lines


if __name__ == "__main__":
    with open(sys.argv[1]) as bids:
        print("\n".join(report(json.load(bids))))
