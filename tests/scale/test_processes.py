"""Several processes, one table: PostgreSQL keeps every acknowledged action, Redis carries every update."""

from __future__ import annotations

import json
import threading
import time

from companion.store.postgres import PostgresStore
from tests.http import call, open_table, socket

SEATS = ["player-1", "player-2", "player-3"]


def write(server, table, seat, note) -> int:
    """A seat writes its note through `server`; returns the acknowledged seq."""
    status, answer = call(
        server.url,
        "POST",
        f"/api/tables/{table['code']}/actions",
        {"type": "write", "note": note, "client_action_id": f"{seat}-{note}"},
        token=table[seat],
    )
    assert status == 200, answer
    return answer["applied_seq"]


def frame_at(page, seq: int, seconds: float = 5) -> dict:
    """The first frame this page receives that shows the table at `seq` or later."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page.settimeout(max(0.1, deadline - time.monotonic()))
        frame = json.loads(page.recv())
        if frame.get("seq", -1) >= seq:
            return frame
    raise AssertionError(f"no frame at seq {seq}")


def pages_across(servers, table) -> dict:
    """Each seat's page on another process than the last (seat i on servers[i % n]), plus a display."""
    pages = {seat: socket(servers[i % len(servers)].url, table["code"], table[seat]) for i, seat in enumerate(SEATS)}
    pages["display"] = socket(servers[-1].url, table["code"], table["host"], "format=json&since=-1&view=display")
    return pages


def test_seats_on_two_processes_see_every_update(start_server, shared_env):
    first, second = start_server(shared_env), start_server(shared_env)
    table = open_table(first.url, seats=SEATS)
    pages = pages_across([first, second], table)
    try:
        for n, seat in enumerate(SEATS):
            acting_through = [second, first][n % 2]  # never the process the seat's own page is on
            seq = write(acting_through, table, seat, f"note {n}")
            for page in pages.values():
                assert frame_at(page, seq)["view"]["written"] == SEATS[: n + 1]
    finally:
        for page in pages.values():
            page.close()


def test_every_acknowledged_action_survives_kill_9_of_the_server(start_server, shared_env, postgres_url):
    server = start_server(shared_env)
    table = open_table(server.url, seats=[])
    acknowledged: dict[str, int] = {}

    def stream_of_rolls():
        for n in range(10_000):
            try:
                status, answer = call(
                    server.url,
                    "POST",
                    f"/api/tables/{table['code']}/actions",
                    {"type": "roll", "client_action_id": f"roll-{n}"},
                    token=table["host"],
                )
            except OSError:
                return  # the server is gone
            if status == 200:
                acknowledged[f"roll-{n}"] = answer["applied_seq"]

    streaming = threading.Thread(target=stream_of_rolls)
    streaming.start()
    while len(acknowledged) < 30:
        time.sleep(0.01)
    server.kill()
    streaming.join(10)
    server.start()
    store = PostgresStore(postgres_url, pool_size=1)
    try:
        logged = {event.client_action_id: event.seq for event in store.events(table["code"])}
    finally:
        store.close()
    assert acknowledged.items() <= logged.items()
    status, view = call(server.url, "GET", f"/api/tables/{table['code']}/view", token=table["host"])
    assert status == 200 and view["seq"] >= max(acknowledged.values())


def test_no_update_is_lost_while_redis_is_away(start_server, shared_env, private_redis):
    env = shared_env | {"COMPANION_REDIS_URL": private_redis.url}
    first, second = start_server(env), start_server(env)
    table = open_table(first.url, seats=SEATS)
    pages = pages_across([first, second], table)
    try:
        seq = write(first, table, "player-1", "before")
        for page in pages.values():
            frame_at(page, seq)
        private_redis.stop()
        seq = write(first, table, "player-2", "during")  # still served; the other process catches up by seq
        for page in pages.values():
            assert frame_at(page, seq)["view"]["written"] == ["player-1", "player-2"]
        private_redis.start()
        seq = write(second, table, "player-3", "after")
        for page in pages.values():
            assert len(frame_at(page, seq)["view"]["revealed"]) == 1
    finally:
        for page in pages.values():
            page.close()
