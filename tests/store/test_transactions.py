"""A write that fails, whatever fails it, hurts no other table: the next one succeeds, nothing acknowledged is lost.

Failures are injected for real: text the driver cannot encode (a lone
surrogate), and triggers that make the database itself refuse rows of the
tables whose code starts with BOOM.
"""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from companion.store import Event, SeatRecord, TableRecord
from companion.store.sqlite import SqliteStore

SQLITE_TRIGGERS = [
    f"CREATE TRIGGER boom_{name} BEFORE {when} ON {table} WHEN {row}.code LIKE 'BOOM%'"
    " BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
    for name, when, table, row in (
        ("table_insert", "INSERT", "tables", "NEW"),
        ("table_update", "UPDATE", "tables", "NEW"),
        ("table_delete", "DELETE", "tables", "OLD"),
        ("event_insert", "INSERT", "events", "NEW"),
        ("seat_insert", "INSERT", "seats", "NEW"),
    )
]
POSTGRES_TRIGGERS = [
    "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
    "CREATE TRIGGER boom_table_write BEFORE INSERT OR UPDATE ON tables FOR EACH ROW"
    " WHEN (NEW.code LIKE 'BOOM%') EXECUTE FUNCTION boom()",
    "CREATE TRIGGER boom_table_delete BEFORE DELETE ON tables FOR EACH ROW"
    " WHEN (OLD.code LIKE 'BOOM%') EXECUTE FUNCTION boom()",
    "CREATE TRIGGER boom_event_insert BEFORE INSERT ON events FOR EACH ROW"
    " WHEN (NEW.code LIKE 'BOOM%') EXECUTE FUNCTION boom()",
    "CREATE TRIGGER boom_seat_write BEFORE INSERT OR UPDATE ON seats FOR EACH ROW"
    " WHEN (NEW.code LIKE 'BOOM%') EXECUTE FUNCTION boom()",
]
POSTGRES_CLEANUP = "DROP FUNCTION IF EXISTS boom() CASCADE"
SURROGATE = "\udfff"


class Database:
    """One database, opened by as many stores as a test likes, with the failure triggers on demand."""

    def __init__(self, kind: str, tmp_path, request):
        self.kind = kind
        self.opened = []
        if kind == "sqlite":
            self.path = str(tmp_path / "companion.sqlite3")
        else:
            from companion.store.postgres import PostgresStore

            self.url = request.getfixturevalue("postgres_url")
            store = PostgresStore(self.url, pool_size=1)
            with store._pool.connection() as db:
                db.execute(POSTGRES_CLEANUP)
                db.execute("TRUNCATE tables CASCADE")
            store.close()

    def open(self):
        if self.kind == "sqlite":
            store = SqliteStore(self.path)
        else:
            from companion.store.postgres import PostgresStore

            store = PostgresStore(self.url, pool_size=4)
        self.opened.append(store)
        return store

    def run(self, statements: list[str]) -> None:
        if self.kind == "sqlite":
            with sqlite3.connect(self.path) as db:
                for statement in statements:
                    db.execute(statement)
        else:
            import psycopg

            with psycopg.connect(self.url, autocommit=True) as db:
                for statement in statements:
                    db.execute(statement)

    def refuse_boom_tables(self) -> None:
        self.run(SQLITE_TRIGGERS if self.kind == "sqlite" else POSTGRES_TRIGGERS)

    def close(self) -> None:
        for store in self.opened:
            store.close()
        if self.kind == "postgres":
            self.run([POSTGRES_CLEANUP])


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    opened = Database(request.param, tmp_path, request)
    yield opened
    opened.close()


def a_table(code: str, updated: float = 1000.0) -> TableRecord:
    return TableRecord(code, "secret-notes", {"players": 3}, "seed", "host-hash", 1000.0, updated)


def an_action(seq: int, client_action_id: str | None = None) -> Event:
    return Event(seq, "action", "player-1", {"type": "write", "note": f"n{seq}"}, client_action_id, 2000.0)


def a_seat(name: str = "Anna", token_hash: str = "token-hash") -> SeatRecord:
    return SeatRecord("player-1", name, token_hash)


# Each write path, and a way to make it fail: BOOM01 is idle, BOOM03 archived and idle, WELL22 fresh.
FAILING_WRITES = {
    "create a table, refused by the database": lambda store: store.create_table(a_table("BOOM02")),
    "create a table with text the driver cannot send": lambda store: store.create_table(
        TableRecord("WELL23", "secret" + SURROGATE, {}, "seed", "hash", 1.0, 1.0)
    ),
    "append, refused by the database": lambda store: store.append("BOOM01", an_action(1)),
    "append with text the driver cannot send": lambda store: store.append("WELL22", an_action(1, "id" + SURROGATE)),
    "claim a seat, refused by the database": lambda store: store.save_seat("BOOM01", a_seat(), None),
    "claim a seat with text the driver cannot send": lambda store: store.save_seat(
        "WELL22", a_seat("x" + SURROGATE), None
    ),
    "archive idle tables, refused by the database": lambda store: store.archive_idle(idle_since=5000.0),
    "remove archived tables, refused by the database": lambda store: store.remove_archived(idle_since=5000.0),
}


@pytest.mark.parametrize("failing_write", list(FAILING_WRITES))
def test_a_failed_write_leaves_the_store_working_and_loses_nothing_acknowledged(database, failing_write):
    store = database.open()
    store.create_table(a_table("GOOD22"))
    store.append("GOOD22", an_action(1, "first"))
    store.create_table(a_table("WELL22"))
    store.create_table(TableRecord("BOOM01", "secret-notes", {}, "seed", "hash", 1.0, 1.0))
    store.create_table(TableRecord("BOOM03", "secret-notes", {}, "seed", "hash", 1.0, 1.0, archived=True))
    database.refuse_boom_tables()

    with pytest.raises(Exception):  # noqa: B017 - any error will do; what matters is what comes after
        FAILING_WRITES[failing_write](store)

    store.append("GOOD22", an_action(2, "second"))
    assert store.save_seat("GOOD22", a_seat(), None)
    store.create_table(a_table("GOOD33"))
    store.append("GOOD33", an_action(1))

    reopened = database.open()  # another connection sees only what was committed
    assert [(e.seq, e.client_action_id) for e in reopened.events("GOOD22")] == [(1, "first"), (2, "second")]
    assert reopened.seats("GOOD22")["player-1"].name == "Anna"
    assert [e.seq for e in reopened.events("GOOD33")] == [1]
    assert reopened.events("WELL22") == [] and reopened.seats("WELL22") == {}
    assert reopened.table("BOOM02") is None and reopened.table("WELL23") is None
    assert reopened.table("BOOM01") is not None and reopened.table("BOOM03") is not None


def until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


@pytest.mark.parametrize(
    "bad_append",
    [
        pytest.param(("BOOM01", an_action(1)), id="refused by the database"),
        pytest.param(("WELL22", an_action(1, "id" + SURROGATE)), id="text the driver cannot send"),
    ],
)
def test_a_failing_append_in_a_group_commit_fails_only_itself(tmp_path, bad_append):
    store = SqliteStore(str(tmp_path / "companion.sqlite3"))
    good = ["GOOD22", "GOOD33", "GOOD44", "WELL22"]
    for code in [*good, "BOOM01"]:
        store.create_table(a_table(code))
    with sqlite3.connect(store.path) as db:
        for statement in SQLITE_TRIGGERS:
            db.execute(statement)
    results: dict[str, object] = {}

    def append(code: str, event: Event) -> None:
        try:
            store.append(code, event)
            results[code + str(event.client_action_id)] = "stored"
        except Exception as error:  # noqa: BLE001 - the test records what each append learnt
            results[code + str(event.client_action_id)] = error

    bad_code, bad_event = bad_append
    batch = [(code, an_action(1, f"{code}-ok")) for code in good if code != bad_code][:2] + [bad_append]
    try:
        # Hold the writer: the first append leads alone and waits; the others queue into one batch behind it.
        store._write_lock.acquire()
        leader = threading.Thread(target=append, args=("GOOD44", an_action(1, "GOOD44-lead")))
        leader.start()
        until(lambda: store._committing and not store._queue)
        followers = [threading.Thread(target=append, args=item) for item in batch]
        for thread in followers:
            thread.start()
        until(lambda: len(store._queue) == len(batch))
    finally:
        store._write_lock.release()
    for thread in [leader, *followers]:
        thread.join(10)

    assert isinstance(results.pop(bad_code + str(bad_event.client_action_id)), Exception)
    assert results == dict.fromkeys(results, "stored") and len(results) == len(batch)
    assert [e.client_action_id for e in store.events("GOOD44")] == ["GOOD44-lead"]
    for code, event in batch[:-1]:
        assert [e.client_action_id for e in SqliteStore(store.path).events(code)] == [event.client_action_id]
    store.close()
