"""Memory bounded by the game, not by its length (issue 37): what a table keeps per action, and tables leaving
memory when idle or past the cap."""

from __future__ import annotations

import gc
import itertools
import json
import tracemalloc

import pytest

from bench.long_game import GAME, SETUP, TURN
from companion.games import load
from companion.store.sqlite import SqliteStore
from companion.tables import Tables


class LongTable:
    """Mice and Mystics played long through the service: the endless turn of bench/long_game.py, each action as a
    phone sends it, with its client action id."""

    def __init__(self, service: Tables):
        self.service = service
        self.code, _host = service.create(GAME, {"players": 2})
        self.ids = itertools.count()
        for seat, action in SETUP:
            self.act(seat, action)
        self.turn = itertools.cycle(TURN)

    def act(self, seat: str, action: dict) -> None:
        sent = json.loads(json.dumps(action))  # a request's own, as its body is parsed: nothing shared
        self.service.act(self.code, seat, sent, client_action_id=f"tap-{next(self.ids)}")

    def play(self, count: int) -> None:
        for _ in range(count):
            self.act(*next(self.turn))


def traced_after(play) -> int:
    """The bytes still allocated once `play` is done (and the garbage collected)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        play()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


@pytest.fixture
def service(tmp_path):
    return Tables(SqliteStore(str(tmp_path / "companion.sqlite3")), load([]))


def test_a_table_keeps_under_1500_bytes_an_action_over_its_first_200_and_its_next_300(service):
    """Each action kept a whole state to undo to (5.7 KB an action here): now it keeps the action, a share of a
    snapshot every 32, and its history lines packed once they are old."""
    table = LongTable(service)
    table.play(10)
    assert traced_after(lambda: table.play(200)) / 200 < 1500
    assert traced_after(lambda: table.play(300)) / 300 < 1500


def test_an_idle_table_leaves_memory_and_comes_back_from_its_log_with_the_same_view_and_undo(tmp_path):
    now = [1000.0]
    service = Tables(SqliteStore(str(tmp_path / "companion.sqlite3")), load([]), idle_clock=lambda: now[0])
    idle = LongTable(service)
    idle.play(40)
    views = {seat: service.view(idle.code, seat, full_history=True) for seat in (None, "player-1", "player-2")}
    other, _host = service.create("downforce", {"players": 3})
    now[0] += 599
    service.view(other, None)
    assert service.tables_in_memory == 2
    now[0] += 60  # a minute past its idle time; the table that just took a look is not idle
    service.view(other, None)
    assert service.tables_in_memory == 1
    assert {seat: service.view(idle.code, seat, full_history=True) for seat in views} == views
    assert service.tables_in_memory == 2
    service.undo(idle.code)
    assert Tables(service.store, service.games).view(idle.code, None) == service.view(idle.code, None)
    assert service.view(idle.code, None)["seq"] == views[None]["seq"] + 1


def test_past_the_cap_the_least_recently_used_table_leaves_first(tmp_path):
    service = Tables(SqliteStore(str(tmp_path / "companion.sqlite3")), load([]), keep_in_memory=2)
    first, second, third = (service.create("downforce", {"players": 3})[0] for _ in range(3))
    service.view(first, None)
    service.view(second, None)
    service.view(first, None)
    service.view(third, None)
    assert list(service._folded) == [first, third]


def test_healthz_tells_how_many_tables_are_in_memory(client, service_of_app):
    code, _host = service_of_app.create("secret-notes", {"players": 2})
    assert client.get("/healthz").get_json() == {"ok": True, "tables_in_memory": 0}
    service_of_app.view(code, None)
    assert client.get("/healthz").get_json() == {"ok": True, "tables_in_memory": 1}


@pytest.fixture
def service_of_app(app):
    return app.extensions["companion"]
