"""The embedded default store: one SQLite file in WAL mode."""

from __future__ import annotations

import json
import sqlite3
import threading

from companion.store import CodeTaken, DuplicateAction, Event, SeatRecord, SeqTaken, TableRecord, TableSummary

SCHEMA = """
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
CREATE UNIQUE INDEX IF NOT EXISTS events_client_action
    ON events (code, client_action_id) WHERE client_action_id IS NOT NULL;
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


class SqliteStore:
    """Store on one SQLite file; one connection per thread."""

    def __init__(self, path: str):
        self.path = path
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._db.executescript(SCHEMA)

    @property
    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
            db.execute("PRAGMA journal_mode=WAL")
            # FULL: an acknowledged action survives a power cut, not only kill -9.
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
            with self._lock:
                self._all.append(db)
        return db

    def create_table(self, table: TableRecord) -> None:
        try:
            self._db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table.code,
                    table.game,
                    json.dumps(table.options),
                    table.seed,
                    table.host_token_hash,
                    table.created,
                    table.updated,
                    int(table.archived),
                ),
            )
        except sqlite3.IntegrityError as error:
            raise CodeTaken(table.code) from error

    def table(self, code: str) -> TableRecord | None:
        row = self._db.execute("SELECT * FROM tables WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        return TableRecord(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5], row[6], bool(row[7]))

    def events(self, code: str, after: int = 0) -> list[Event]:
        rows = self._db.execute(
            "SELECT seq, kind, actor, payload, client_action_id, created FROM events"
            " WHERE code = ? AND seq > ? ORDER BY seq",
            (code, after),
        )
        return [Event(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

    def append(self, code: str, event: Event) -> None:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    code,
                    event.seq,
                    event.kind,
                    event.actor,
                    json.dumps(event.payload),
                    event.client_action_id,
                    event.created,
                ),
            )
            db.execute("UPDATE tables SET updated = ?, archived = 0 WHERE code = ?", (event.created, code))
            db.execute("COMMIT")
        except sqlite3.IntegrityError as error:
            db.execute("ROLLBACK")
            existing = event.client_action_id and self.action_seq(code, event.client_action_id)
            if existing:
                raise DuplicateAction(existing) from error
            raise SeqTaken(event.seq) from error

    def action_seq(self, code: str, client_action_id: str) -> int | None:
        row = self._db.execute(
            "SELECT seq FROM events WHERE code = ? AND client_action_id = ?", (code, client_action_id)
        ).fetchone()
        return row[0] if row else None

    def seats(self, code: str) -> dict[str, SeatRecord]:
        rows = self._db.execute("SELECT seat, name, token_hash, invite_hash, extra FROM seats WHERE code = ?", (code,))
        return {r[0]: SeatRecord(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows}

    def save_seat(self, code: str, seat: SeatRecord, expect_token_hash: str | None) -> bool:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        row = db.execute("SELECT token_hash FROM seats WHERE code = ? AND seat = ?", (code, seat.seat)).fetchone()
        if (row[0] if row else None) != expect_token_hash:
            db.execute("ROLLBACK")
            return False
        db.execute(
            "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?, ?)",
            (code, seat.seat, seat.name, seat.token_hash, seat.invite_hash, json.dumps(seat.extra)),
        )
        db.execute("COMMIT")
        return True

    def list_tables(self) -> list[TableSummary]:
        rows = self._db.execute(
            "SELECT code, game, created, updated, archived,"
            " (SELECT count(*) FROM events WHERE events.code = tables.code)"
            " FROM tables ORDER BY updated DESC"
        )
        return [TableSummary(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]

    def archive_idle(self, idle_since: float) -> list[str]:
        rows = self._db.execute(
            "UPDATE tables SET archived = 1 WHERE archived = 0 AND updated < ? RETURNING code", (idle_since,)
        )
        return sorted(r[0] for r in rows)

    def remove_archived(self, idle_since: float) -> list[str]:
        rows = self._db.execute("DELETE FROM tables WHERE archived = 1 AND updated < ? RETURNING code", (idle_since,))
        return sorted(r[0] for r in rows)

    def close(self) -> None:
        with self._lock:
            for db in self._all:
                db.close()
            self._all.clear()
        self._local = threading.local()
