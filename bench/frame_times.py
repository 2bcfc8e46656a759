"""What one push costs to render, per page: the display's frame and a seat's, of bench.long_game's table.

    .venv/bin/python -m bench.frame_times [--at 20] [--renders 200]

Mice and Mystics with two mice, played `--at` actions in; prints one JSON line: the best of 5 runs of `--renders`
frames each (process time per frame, in microseconds, live_context and the render), and each frame's bytes.
To hold two commits against each other, run it in a copy of each, alternating (bench/RESULTS.md has the commands).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time

from bench.long_game import SEATS, LongGame
from companion.web.app import create_app


def best_time(render, renders: int) -> float:
    """The best of 5 runs: microseconds of process time per frame."""
    best = float("inf")
    for _ in range(5):
        started = time.process_time()
        for _ in range(renders):
            render()
        best = min(best, (time.process_time() - started) / renders * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--at", type=int, default=20, help="actions played before the frames are timed")
    parser.add_argument("--renders", type=int, default=200, help="frames rendered in each of the 5 runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        game = LongGame(create_app({"DATA_DIR": data, "RENDER_WORKERS": 0}))
        game.fast_forward(args.at)
        found = {"actions": game.actions}
        for name, seat in (("display", None), ("seat", SEATS[0])):
            found[f"{name}_frame_us"] = round(best_time(lambda seat=seat: game.frame(seat), args.renders))
            found[f"{name}_frame_bytes"] = len(game.frame(seat))
        print(json.dumps(found), flush=True)


if __name__ == "__main__":
    main()
