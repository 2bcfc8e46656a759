"""One contract for every store: the same tests on a real SQLite file and a real PostgreSQL database."""

from __future__ import annotations

import threading

import pytest

from companion.games.base import HOST
from companion.operator_chores import DAY, export_table, prune
from companion.store import CodeTaken, DuplicateAction, Event, SeatLost, SeatRecord, SeqTaken, TableRecord
from companion.store.sqlite import SqliteStore


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request, tmp_path):
    """Opens stores on one database, as several processes would; all closed at the end."""
    if request.param == "sqlite":
        path = str(tmp_path / "companion.sqlite3")

        def make():
            return SqliteStore(path)
    else:
        from companion.store.postgres import PostgresStore

        url = request.getfixturevalue("postgres_url")
        empty = PostgresStore(url, pool_size=1)
        with empty._pool.connection() as db:
            db.execute("TRUNCATE tables CASCADE")
        empty.close()

        def make():
            return PostgresStore(url, pool_size=4)

    opened = []

    def opener():
        opened.append(make())
        return opened[-1]

    yield opener
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store):
    return open_store()


def a_table(code="ABC234", updated=1000.0) -> TableRecord:
    return TableRecord(code, "secret-notes", {"players": 3}, "seed", "host-hash", 1000.0, updated)


def an_action(seq, client_action_id=None, created=2000.0) -> Event:
    return Event(seq, "action", "player-1", {"type": "write", "note": f"n{seq}"}, client_action_id, created)


def test_a_created_table_reads_back_as_written(store):
    store.create_table(a_table())
    assert store.table("ABC234") == a_table()
    assert store.table("NOPE22") is None


def test_a_join_code_in_use_is_refused(store):
    store.create_table(a_table())
    with pytest.raises(CodeTaken):
        store.create_table(a_table())


def test_events_come_back_in_order_after_a_sequence_number(store):
    store.create_table(a_table())
    for seq in (1, 2, 3):
        store.append("ABC234", an_action(seq, f"id-{seq}"))
    assert [event.seq for event in store.events("ABC234")] == [1, 2, 3]
    assert store.events("ABC234", after=2) == [an_action(3, "id-3")]


def test_a_taken_sequence_number_is_refused(store):
    store.create_table(a_table())
    store.append("ABC234", an_action(1))
    with pytest.raises(SeqTaken):
        store.append("ABC234", an_action(1))


def test_a_repeated_client_action_id_names_the_original_seq(store):
    store.create_table(a_table())
    store.append("ABC234", an_action(1, "same"))
    with pytest.raises(DuplicateAction) as refused:
        store.append("ABC234", an_action(2, "same"))
    assert refused.value.seq == 1
    assert store.action_seq("ABC234", "player-1", "same") == 1
    assert store.action_seq("ABC234", "player-1", "other") is None


def test_another_actor_may_use_the_same_client_action_id(store):
    store.create_table(a_table())
    store.append("ABC234", an_action(1, "same"))
    store.append("ABC234", Event(2, "action", "player-2", {"type": "write", "note": "n2"}, "same", 2000.0))
    assert store.action_seq("ABC234", "player-2", "same") == 2


def test_a_tables_events_appended_together_are_stored_all_or_none(store):
    store.create_table(a_table())
    store.append("ABC234", an_action(1, "id-1"), an_action(2, "id-2"))
    with pytest.raises(DuplicateAction) as duplicate:
        store.append("ABC234", an_action(3, "id-3"), an_action(4, "id-1"))
    assert duplicate.value.seq == 1
    with pytest.raises(SeqTaken):
        store.append("ABC234", an_action(2, "id-5"), an_action(3, "id-6"))
    store.append("ABC234", an_action(3, "id-3"))
    assert [(event.seq, event.client_action_id) for event in store.events("ABC234")] == [
        (1, "id-1"),
        (2, "id-2"),
        (3, "id-3"),
    ]


def test_the_same_client_action_id_may_appear_at_two_tables(store):
    store.create_table(a_table("ABC234"))
    store.create_table(a_table("XYZ789"))
    store.append("ABC234", an_action(1, "same"))
    store.append("XYZ789", an_action(1, "same"))
    assert store.action_seq("XYZ789", "player-1", "same") == 1


def test_of_two_writers_racing_for_one_seq_exactly_one_wins(open_store):
    first, second = open_store(), open_store()
    first.create_table(a_table())
    results = []
    start = threading.Barrier(2)

    def race(store, actor):
        start.wait()
        try:
            store.append("ABC234", Event(1, "action", actor, {"type": "write"}))
            results.append(actor)
        except SeqTaken:
            results.append("refused")

    threads = [threading.Thread(target=race, args=(s, a)) for s, a in ((first, "player-1"), (second, "player-2"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [result for result in results if result != "refused"]
    assert len(winners) == 1
    assert [event.actor for event in second.events("ABC234")] == winners


def test_an_appended_action_is_there_for_a_store_opened_later(open_store):
    first = open_store()
    first.create_table(a_table())
    first.append("ABC234", an_action(1, "kept"))
    first.close()
    assert open_store().events("ABC234") == [an_action(1, "kept")]


def test_a_seat_is_saved_only_over_the_token_the_writer_expected(store):
    store.create_table(a_table())
    assert store.save_seat("ABC234", SeatRecord("player-1", "Ann", "t1"), expect_token_hash=None)
    assert not store.save_seat("ABC234", SeatRecord("player-1", "Bob", "t2"), expect_token_hash=None)
    assert store.save_seat("ABC234", SeatRecord("player-1", None, None, "invite"), expect_token_hash="t1")
    assert store.seats("ABC234") == {"player-1": SeatRecord("player-1", None, None, "invite")}


def test_events_go_in_only_while_every_holder_still_holds_its_seat_as_another_process_sees_it(open_store):
    first, second = open_store(), open_store()
    first.create_table(a_table())
    for seat, token in (("player-1", "t1"), ("player-2", "t2")):
        assert first.save_seat("ABC234", SeatRecord(seat, seat, token), expect_token_hash=None)
    both = {("player-1", "t1"), ("player-2", "t2")}
    second.append("ABC234", an_action(1), an_action(2), holders=both)
    assert first.save_seat("ABC234", SeatRecord("player-1", None, None, "invite"), expect_token_hash="t1")
    for holders in (both, {("player-1", "t1")}, {("player-2", "t1")}):
        with pytest.raises(SeatLost):
            second.append("ABC234", an_action(3), an_action(4), holders=holders)
    second.append("ABC234", an_action(3), holders={("player-2", "t2")})
    assert [event.seq for event in first.events("ABC234")] == [1, 2, 3], "nothing of a refused append went in"


def test_the_list_shows_every_table_with_its_number_of_events(store):
    store.create_table(a_table("ABC234", updated=1000.0))
    store.create_table(a_table("XYZ789", updated=1000.0))
    store.append("XYZ789", an_action(1, created=5000.0))
    listed = store.list_tables()
    assert [(t.code, t.events, t.updated, t.archived) for t in listed] == [
        ("XYZ789", 1, 5000.0, False),
        ("ABC234", 0, 1000.0, False),
    ]


def test_idle_tables_are_archived_then_removed_with_their_log(store):
    store.create_table(a_table("ABC234", updated=1000.0))
    store.append("ABC234", an_action(1, created=1000.0))
    store.save_seat("ABC234", SeatRecord("player-1", "Ann", "t1"), None)
    store.create_table(a_table("XYZ789", updated=90 * DAY))
    now = 100 * DAY
    assert prune(store, idle_days=30, now=now) == ([], ["ABC234"])
    assert store.table("ABC234").archived
    assert prune(store, idle_days=30, now=now) == (["ABC234"], [])
    assert store.table("ABC234") is None
    assert store.events("ABC234") == [] and store.seats("ABC234") == {}
    assert store.table("XYZ789") is not None


def test_a_table_played_again_is_no_longer_archived(store):
    store.create_table(a_table("ABC234", updated=1000.0))
    assert store.archive_idle(idle_since=2000.0) == ["ABC234"]
    store.append("ABC234", an_action(1, created=3000.0))
    assert not store.table("ABC234").archived
    assert store.remove_archived(idle_since=2000.0) == []


def test_an_export_holds_the_whole_log_and_no_token(store):
    store.create_table(a_table())
    store.save_seat("ABC234", SeatRecord("player-1", "Ann", "secret-token-hash"), None)
    store.append("ABC234", an_action(1, "id-1"))
    exported = export_table(store, "ABC234")
    assert exported["table"]["code"] == "ABC234"
    assert exported["seats"] == {"player-1": "Ann"}
    assert exported["events"][0]["payload"] == {"type": "write", "note": "n1"}
    assert "secret-token-hash" not in repr(exported) and "host-hash" not in repr(exported)
    assert export_table(store, "NOPE22") is None


def test_two_processes_acting_at_one_table_at_once_both_get_every_action_in(open_store):
    """Seats of one table served by two processes: every action lands once, in order, none refused as busy."""
    from companion.games import load
    from companion.tables import Tables

    games = load(["tests.secret_notes"])
    first, second = Tables(open_store(), games), Tables(open_store(), games)
    code, _host = first.create("secret-notes", {"players": 2})
    failures = []

    def roll(service):
        for _ in range(40):
            try:
                service.act(code, HOST, {"type": "roll"})
            except Exception as error:  # noqa: BLE001 - the test reports any refusal
                failures.append(error)

    threads = [threading.Thread(target=roll, args=(service,)) for service in (first, second, first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert [event.seq for event in first.store.events(code)] == list(range(1, 161))
    assert len(second.newest(code).state["dice"]) == 160
