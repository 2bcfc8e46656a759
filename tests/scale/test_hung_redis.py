"""A Redis that hangs (SIGSTOP: it accepts connections and never answers) must not slow a table down."""

from __future__ import annotations

import json
import time
import urllib.request

from companion.games.scotland_yard.board import BOARD
from companion.games.scotland_yard.moves import reachable
from tests.http import call, open_table, post_form, socket
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


REFUSAL = {"error": {"code": "forbidden", "message": "This token does not open a seat at this table."}}
# A page whose seat cookie opens no seat: the same said as a page says it (its process had read the seats anew).
NO_SEAT_HERE = (401, "Take a seat first.")


def mister_x_attempts(view: dict) -> list[dict]:
    """Each kind of Mister X's action, once as his view offers it and once to a station no taxi links to his, which
    the rules would refuse naming his station."""
    station = view["station"]
    unlinked = next(to for to in range(1, BOARD.stations + 1) if to != station and to not in reachable(station, "taxi"))
    attempts = []
    for kind, offered in (("move", view["legal_moves"]), ("double_move", view["double_move_moves"])):
        ticket, targets = next(iter(offered.items()))
        attempts += [
            {"type": kind, "ticket": ticket, "to": targets[0]["to"]},
            {"type": kind, "ticket": "taxi", "to": unlinked},
        ]
    return attempts


# Each way the old phone sends an action, opened before the free (a page's socket stays open): the sender it gets.


def by_api(server, code: str, token: str):
    def send(action: dict) -> None:
        assert call(server.url, "POST", f"/api/tables/{code}/actions", action, token) == (403, REFUSAL)

    return send


def over_its_socket(server, code: str, token: str):
    page = socket(server.url, code, token)
    json.loads(page.recv())

    def send(action: dict) -> None:
        try:
            page.send(json.dumps(action))
            # The listener's catch-up, once it finds Redis hung, may push a frame first: never Mister X's view. That
            # push reads the seats anew, and may find the seat freed before the action is read: then the socket is
            # closed (recv() gives "" for the close), which tells the old phone nothing either.
            while (message := page.recv()) and "view" in (heard := json.loads(message)):
                assert heard["view"].get("seat") != "mister-x", heard
            assert not message or heard == REFUSAL
        finally:
            page.close()

    return send


def as_a_posted_form(server, code: str, token: str):
    def send(action: dict) -> None:
        form = {name: str(value) for name, value in action.items()}
        status, answer = post_form(server.url, code, f"seat_{code}={token}", "act", form)
        told = (403, REFUSAL["error"]["message"]) if REFUSAL["error"]["message"] in answer else NO_SEAT_HERE
        assert status == told[0] and told[1] in answer
        assert "station" not in answer.lower()

    return send


def test_a_seat_freed_on_one_process_is_refused_at_once_on_the_other_while_redis_hangs_and_told_nothing(
    start_server, shared_env, private_redis
):
    """The other process still trusts the old token (nothing is announced while Redis hangs), yet every kind of
    action Mister X has, sent by his old phone right after the free over the API, a socket or a posted form, is
    refused as any token that opens no seat is, and none goes in. (Each on a table of its own: a refusal reads the
    seats anew on that process.)"""
    env = shared_env | {"COMPANION_REDIS_URL": private_redis.url}
    first, second = start_server(env), start_server(env)
    seats = ("mister-x", "detective-1", "detective-2")
    channels = (by_api, over_its_socket, as_a_posted_form)
    tables = [open_table(first.url, "scotland-yard", {"detectives": 2}, seats=seats) for _ in range(4 * len(channels))]
    attempts = []
    for number, table in enumerate(tables):
        view = call(first.url, "GET", f"/api/tables/{table['code']}/view", token=table["mister-x"])[1]["view"]
        attempts.append((mister_x_attempts(view)[number // len(channels)], channels[number % len(channels)]))
    private_redis.freeze()
    try:
        for table, (action, channel) in zip(tables, attempts, strict=True):
            code, old_phone = table["code"], table["mister-x"]
            assert call(second.url, "GET", f"/api/tables/{code}/view", token=old_phone)[0] == 200  # seats read there
            send = channel(second, code, old_phone)
            free_seat(first, table, "mister-x")
            send(action)
    finally:
        private_redis.thaw()
    for table in tables:
        assert call(first.url, "GET", f"/api/tables/{table['code']}/view", token=table["host"])[1]["seq"] == 0
