#!/usr/bin/env bash
# The peer (boardgame.io) and this server under the same Node load generator, interleaved in one session as
# WORKLOAD.md asks: for each run, each TABLES:ROUNDS size, first the peer, then ours (bench/node.sh, CONFIG as set).
#   PEER_BENCH=/tmp/bench/peer-boardgameio NODE_BENCH=/tmp/bench/ours-node RUNS=5 \
#     bash bench/compare.sh 1:200 50:20 200:5 >> runs.jsonl
#   .venv/bin/python -m bench.medians runs.jsonl
# Each output line is the generator's JSON line with "server": "peer" or "ours", after one "server": "box" line.
# FRAMES_TO_COMPARE="json html html:page" runs ours once per kind of frame after the peer ("server": "ours",
# "ours-html": the pages' own HTML frames, bench/load.js), a kind:ACTIONS with those actions ("ours-html-page": bids
# sent as a phone's page sends them); default json.
# PROCESSES_TO_COMPARE="1 2" CONFIG=postgres-redis instead compares this server with 1 and with 2 processes
# ("server": "ours-1", "ours-2"), no peer; an entry N-nginx runs N processes behind nginx (PROXY=nginx, bench/node.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PEER_BENCH=${PEER_BENCH:-}
export NODE_BENCH=${NODE_BENCH:?set NODE_BENCH to the scratch copy of ours-node}
export WARMUP_ROUNDS=${WARMUP_ROUNDS:-2}
# First line: the interpreter, the libraries and the processor of this set (bench/box.py).
(cd "$here/.." && .venv/bin/python -m bench.box)
tag() { python3 -c 'import json,sys; line=json.loads(sys.stdin.readlines()[-1]); print(json.dumps({"server": sys.argv[1], **line}))' "$1"; }
for run in $(seq 1 "${RUNS:-5}"); do
  for size in "$@"; do
    export TABLES=${size%%:*} ROUNDS=${size##*:}
    echo "run $run: $TABLES tables x $ROUNDS rounds" >&2
    if [ -n "${PROCESSES_TO_COMPARE:-}" ]; then
      for processes in $PROCESSES_TO_COMPARE; do
        PROCESSES=${processes%%-*} PROXY=$([ "$processes" = "${processes%-nginx}" ] || echo nginx) \
          bash "$here/node.sh" 2>/dev/null | tag "ours-$processes"
      done
    else
      (cd "$PEER_BENCH" && bash run.sh 2>/dev/null) | tag peer
      for kind in ${FRAMES_TO_COMPARE:-json}; do
        frames=${kind%%:*} actions=$([ "$kind" = "${kind%%:*}" ] && echo socket || echo "${kind#*:}")
        FRAMES=$frames ACTIONS=$actions bash "$here/node.sh" 2>/dev/null |
          tag "ours$([ "$frames" = json ] || echo "-$frames")$([ "$actions" = socket ] || echo "-$actions")"
      done
    fi
  done
done
