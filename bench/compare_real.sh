#!/usr/bin/env bash
# The real games at a human pace (bench/real_games.py) interleaved with the bench game's paced run (bench/run.py), so
# that both sets of figures come from the same minutes of the box (issue 39): for each run, each size (tables) and
# each game, the game's run, then the bench game's with as many tables for as long.
#   RUNS=3 GAMES="mice-and-mystics scotland-yard downforce eat-your-tourist" bash bench/compare_real.sh 100 200 >> runs.jsonl
#   .venv/bin/python -m bench.medians runs.jsonl
# The first line is the box (bench/box.py); then each run's JSON line with "server": "real-GAME" or "bench-game" and
# the commit. PACE (5 s), DURATION (60 s), CONFIG (sqlite) and REAL_OPTIONS (more bench.real_games flags) as set.
set -uo pipefail
cd "$(dirname "$0")/.."
PACE=${PACE:-5}
DURATION=${DURATION:-60}
CONFIG=${CONFIG:-sqlite}
GAMES=${GAMES:-mice-and-mystics scotland-yard downforce eat-your-tourist}
commit=$(git rev-parse --short HEAD)
# The bench game's paced tables bid in turn, six seats a round: rounds enough for DURATION at PACE.
rounds=$(python3 -c "import math; print(max(1, math.ceil($DURATION / (6 * $PACE))))")
.venv/bin/python -m bench.box
tag() {
  python3 -c '
import json, sys
for line in sys.stdin:
    run = json.loads(line)
    print(json.dumps({"server": "bench-game", "commit": sys.argv[1], **run}))
' "$commit"
}
for run in $(seq 1 "${RUNS:-3}"); do
  for tables in "$@"; do
    for game in $GAMES; do
      echo "run $run: $tables tables of $game, then of the bench game" >&2
      # shellcheck disable=SC2086 # REAL_OPTIONS: one word per flag
      .venv/bin/python -m bench.real_games --game "$game" --tables "$tables" --pace "$PACE" --duration "$DURATION" \
        --config "$CONFIG" ${REAL_OPTIONS:-} | tag
      .venv/bin/python -m bench.run --tables "$tables" --rounds "$rounds" --warmup 0 --pace "$PACE" --config "$CONFIG" |
        tag
    done
  done
done
