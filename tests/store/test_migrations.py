"""Each store keeps its schema by a versioned migration list, and both end with the same tables and indexes."""

from __future__ import annotations

import sqlite3

import pytest

from companion.store import DuplicateAction, Event, SeatRecord
from companion.store.sqlite import MIGRATIONS, SqliteStore

# The schema a SQLite file got before the migration list (user_version 0), copied as it was released.
BEFORE_THE_MIGRATION_LIST = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    host_token_hash TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    actor TEXT NOT NULL,
    payload TEXT NOT NULL,
    client_action_id TEXT,
    created REAL NOT NULL,
    PRIMARY KEY (code, seq)
);
-- A client action id is one phone's (or the host's): another actor may happen to use the same.
DROP INDEX IF EXISTS events_client_action;
CREATE UNIQUE INDEX IF NOT EXISTS events_actor_action
    ON events (code, actor, client_action_id) WHERE client_action_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    name TEXT,
    token_hash TEXT,
    invite_hash TEXT,
    extra TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (code, seat)
);
"""


def sqlite_schema(path: str) -> tuple[dict, set]:
    """{table: [columns]} and {(table, index, (columns), unique)} of the indexes made by CREATE INDEX."""
    db = sqlite3.connect(path)
    try:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        tables = {name: [row[1] for row in db.execute(f"PRAGMA table_info({name})")] for name in names}
        indexes = {
            (name, index, tuple(row[2] for row in db.execute(f"PRAGMA index_info({index})")), bool(unique))
            for name in names
            for _, index, unique, origin, _ in db.execute(f"PRAGMA index_list({name})")
            if origin == "c"  # not the primary keys' own
        }
        return tables, indexes
    finally:
        db.close()


def postgres_schema(url: str) -> tuple[dict, set]:
    """The same for PostgreSQL, leaving out its migrations' own bookkeeping table (SQLite keeps user_version)."""
    import psycopg

    with psycopg.connect(url) as db:
        tables: dict[str, list[str]] = {}
        for table, column in db.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name <> 'schema_version' ORDER BY ordinal_position"
        ):
            tables.setdefault(table, []).append(column)
        indexes = {
            (table, index, tuple(columns), unique)
            for table, index, columns, unique in db.execute(
                "SELECT t.relname, i.relname, array_agg(a.attname ORDER BY k.n), x.indisunique"
                " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid"
                " JOIN pg_namespace s ON s.oid = t.relnamespace"
                " CROSS JOIN unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)"
                " JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum"
                " WHERE s.nspname = current_schema() AND NOT x.indisprimary AND t.relname <> 'schema_version'"
                " GROUP BY t.relname, i.relname, x.indisunique"
            )
        }
    return tables, indexes


def test_sqlite_and_postgresql_end_with_the_same_tables_columns_and_indexes(tmp_path, postgres_url):
    from companion.store.postgres import PostgresStore

    path = str(tmp_path / "companion.sqlite3")
    SqliteStore(path).close()
    PostgresStore(postgres_url, pool_size=1).close()

    sqlite_tables, sqlite_indexes = sqlite_schema(path)
    postgres_tables, postgres_indexes = postgres_schema(postgres_url)
    assert sqlite_tables == postgres_tables
    assert sqlite_indexes == postgres_indexes
    assert ("tables", "tables_idle", ("archived", "updated"), False) in sqlite_indexes


def test_a_new_sqlite_file_is_at_the_newest_version_and_opening_it_again_changes_nothing(tmp_path):
    path = str(tmp_path / "companion.sqlite3")
    SqliteStore(path).close()
    before = sqlite_schema(path)
    SqliteStore(path).close()

    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    db.close()
    assert sqlite_schema(path) == before


def test_a_sqlite_file_from_before_the_migration_list_keeps_its_tables_seats_and_events(tmp_path):
    path = str(tmp_path / "companion.sqlite3")
    old = sqlite3.connect(path)
    old.executescript(BEFORE_THE_MIGRATION_LIST)
    old.execute("INSERT INTO tables VALUES ('ABCD', 'downforce', '{\"laps\": 1}', 'seed', 'host-hash', 10.0, 20.0, 0)")
    old.execute("INSERT INTO seats VALUES ('ABCD', 'red', 'Ada', 'token-hash', NULL, '{}')")
    old.execute("INSERT INTO events VALUES ('ABCD', 1, 'action', 'red', '{\"bid\": 3}', 'a-1', 11.0)")
    old.execute("INSERT INTO events VALUES ('ABCD', 2, 'undo', 'host', '{}', NULL, 12.0)")
    old.commit()
    assert old.execute("PRAGMA user_version").fetchone()[0] == 0
    old.close()

    store = SqliteStore(path)
    try:
        table = store.table("ABCD")
        assert (table.game, table.options, table.seed, table.updated, table.archived) == (
            "downforce",
            {"laps": 1},
            "seed",
            20.0,
            False,
        )
        assert store.seats("ABCD")["red"] == SeatRecord("red", "Ada", "token-hash", None, {})
        assert store.events("ABCD") == [
            Event(1, "action", "red", {"bid": 3}, "a-1", 11.0),
            Event(2, "undo", "host", {}, None, 12.0),
        ]
        assert store.action_seq("ABCD", "red", "a-1") == 1
        store.append("ABCD", Event(3, "action", "red", {"bid": 4}, "a-2", 13.0))
        with pytest.raises(DuplicateAction):  # the old file's one-action-per-id index still holds
            store.append("ABCD", Event(4, "action", "red", {"bid": 5}, "a-2", 14.0))
    finally:
        store.close()
    assert ("tables", "tables_idle", ("archived", "updated"), False) in sqlite_schema(path)[1]
