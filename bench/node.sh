#!/usr/bin/env bash
# The peer's Node load generator (shared/bench/ours-node/load.js) against this server in either
# configuration, so that every figure in RESULTS.md comes from the same generator:
#   CONFIG=sqlite          one gunicorn worker on SQLite (what ours-node/run.sh does)
#   CONFIG=postgres-redis  gunicorn workers on one port sharing PostgreSQL and Redis (PROCESSES, default 2)
#   PROXY=nginx            deploy/nginx.conf (plain HTTP, bench/nginx.py) in front of PROCESSES separate servers of one
#                          worker each, every table routed to one of them; nginx's CPU counts with the servers'
#   FRAMES=html            each seat's socket is a phone's page (seat cookie, language cookie LANGS): HTML frames
#   MODE=paced DISPLAY=1   a real table's pace: one bid per table every PACE_S s on average for DURATION_S s, and a
#                          display page per table beside the seats (bench/load.js)
#   DEFLATE=1              every socket offers permessage-deflate, as browsers do (bench/load.js)
#   ACTIONS=page or form   with FRAMES=html: each bid as a phone's page sends it, over its socket or posted (bench/load.js)
# NODE_BENCH is the scratch copy of shared/bench/ours-node (beside its peer-boardgameio with node_modules).
#   NODE_BENCH=/tmp/bench/ours-node CONFIG=postgres-redis TABLES=50 ROUNDS=20 WARMUP_ROUNDS=2 bash bench/node.sh
set -euo pipefail
project=$(cd "$(dirname "$0")/.." && pwd)
NODE_BENCH=${NODE_BENCH:?set NODE_BENCH to the scratch copy of ours-node}
CONFIG=${CONFIG:-sqlite}
WORKER=${WORKER:-gevent}
PROXY=${PROXY:-}
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
port=$(free_port)
data=$(mktemp -d /tmp/companion-bench.XXXXXX)
workers=1
database=""
if [ "$CONFIG" = postgres-redis ]; then
  workers=${PROCESSES:-2}
  database=companion_bench_$$
  psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $database" postgres
  export COMPANION_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/$database
  export COMPANION_REDIS_URL=redis://127.0.0.1:6379/0 COMPANION_REDIS_PREFIX=companion-bench-$$
fi
cd "$project"
masters=""
# The load generator is one client address with thousands of sockets: no budget of connections per address or
# connections at once (the server's defaults let one address open 100).
serve() {  # serve PORT WORKERS: one gunicorn with that many workers on 127.0.0.1:PORT
  COMPANION_EXTRA_GAMES=bench.sealed_bid COMPANION_RATE_LIMIT_TABLES=1000000 COMPANION_RATE_LIMIT_SEATS=1000000 \
  COMPANION_SOCKET_RATE=1000000 COMPANION_CONNECTIONS_PER_ADDRESS=100000 COMPANION_MAX_CONNECTIONS=100000 \
  COMPANION_BIND=127.0.0.1:$1 COMPANION_WORKER_CLASS=$WORKER COMPANION_WORKERS=$2 COMPANION_DATA_DIR=$data \
  PYTHONPATH=$project .venv/bin/python -m gunicorn -c deploy/gunicorn.conf.py 'companion.web.app:create_app()' \
    >"$data/server-$1.log" 2>&1 &
  masters="$masters $!"
}
cleanup() {
  for master in $masters; do kill "$master" 2>/dev/null; wait "$master" 2>/dev/null; done
  [ -n "$database" ] && psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" postgres
  rm -rf "$data"
}
trap cleanup EXIT
ready() { for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$1/healthz" >/dev/null && return; sleep 0.2; done; }
if [ "$PROXY" = nginx ]; then
  upstreams=""
  for _ in $(seq 1 "$workers"); do upstream=$(free_port); serve "$upstream" 1; upstreams="$upstreams $upstream"; done
  for upstream in $upstreams; do ready "$upstream"; done
  # shellcheck disable=SC2086 # one argument per upstream port
  .venv/bin/python -m bench.nginx "$data/nginx" "$port" $upstreams
  /usr/sbin/nginx -p "$data/nginx" -c "$data/nginx/nginx.conf" -e "$data/nginx/stderr.log" -g "daemon off;" &
  masters="$masters $!"
else
  serve "$port" "$workers"
fi
ready "$port"
sleep 0.5  # every worker up
children() { for parent in "$@"; do cat "/proc/$parent/task/$parent/children" 2>/dev/null; done; }
# The servers: the masters' workers, and their render workers (companion/web/render_worker.py).
# shellcheck disable=SC2086,SC2046 # one argument per pid
servers=$(children $masters)
# shellcheck disable=SC2086
pids=$(echo $servers $(children $servers) | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
# FRAMES=html, MODE=paced, DISPLAY=1, DEFLATE=1, ACTIONS=page|form: bench/load.js, a copy of ours-node/load.js with those client modes
load="$NODE_BENCH/load.js"
[ "${FRAMES:-json}" = json ] && [ "${MODE:-burst}" != paced ] && [ "${DISPLAY:-}" != 1 ] && [ "${DEFLATE:-}" != 1 ] && [ "${ACTIONS:-socket}" = socket ] ||
  load="$project/bench/load.js"
SERVER=http://127.0.0.1:$port SERVER_PIDS=$pids NODE_BENCH=$NODE_BENCH node "$load"
