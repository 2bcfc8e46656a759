"""A Redis that hangs (SIGSTOP: it accepts connections and never answers) must not slow a table down."""

from __future__ import annotations

import time
import urllib.request

from tests.http import call, open_table, socket
from tests.platform.test_ws import free_seat
from tests.scale.test_processes import SEATS, frame_at, write

# The bound: no answer slower than this while Redis hangs.
SLOWEST_ANSWER = 1.5


def timed(request) -> float:
    started = time.monotonic()
    request()
    return time.monotonic() - started


def test_every_answer_stays_quick_while_redis_hangs_and_the_other_process_catches_up_by_polling(
    start_server, shared_env, private_redis
):
    env = shared_env | {"COMPANION_REDIS_URL": private_redis.url}
    first, second = start_server(env), start_server(env)
    table = open_table(first.url, seats=SEATS)
    page = socket(second.url, table["code"], table["player-1"])
    try:
        frame_at(page, write(first, table, "player-1", "before"))
        private_redis.freeze()
        slowest = 0.0
        for n, seat in enumerate(["player-2", "player-3"]):
            seq = 0

            def act(seat=seat, n=n):
                nonlocal seq
                seq = write(first, table, seat, f"during {n}")

            slowest = max(
                slowest,
                timed(act),
                timed(lambda: call(first.url, "GET", f"/api/tables/{table['code']}/view", token=table["host"])),
                timed(lambda: call(second.url, "GET", f"/api/tables/{table['code']}/view", token=table["host"])),
                timed(lambda: open_table(first.url)),
                timed(lambda: urllib.request.urlopen(second.url + "/healthz", timeout=10).read()),
            )
            # Nothing is announced while Redis hangs: the other process's page catches up by sequence number.
            assert frame_at(page, seq, seconds=4)["seq"] == seq
        assert slowest < SLOWEST_ANSWER, f"the slowest answer took {slowest:.2f} s"
    finally:
        page.close()
        private_redis.thaw()


def test_a_seat_freed_while_redis_is_away_is_not_kept_open_on_the_other_process(
    start_server, shared_env, private_redis
):
    env = shared_env | {"COMPANION_REDIS_URL": private_redis.url}
    first, second = start_server(env), start_server(env)
    table = open_table(first.url, seats=SEATS)
    old_phone = table["player-1"]
    assert call(second.url, "GET", f"/api/tables/{table['code']}/view", token=old_phone)[0] == 200  # seats read
    private_redis.stop()
    free_seat(first, table, "player-1")  # announced to nobody: Redis is away
    private_redis.start()
    deadline = time.monotonic() + 5
    while call(second.url, "GET", f"/api/tables/{table['code']}/view", token=old_phone)[0] != 403:
        assert time.monotonic() < deadline, "the freed seat's old phone still reads it on the other process"
        time.sleep(0.2)
    action = {"type": "write", "note": "as the freed seat"}
    assert call(second.url, "POST", f"/api/tables/{table['code']}/actions", action, old_phone)[0] == 403
