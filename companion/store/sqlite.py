"""The embedded default store: one SQLite file in WAL mode."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager

from companion.store import (
    CannotWrite,
    CodeTaken,
    DuplicateAction,
    Event,
    SeatLost,
    SeatRecord,
    SeqTaken,
    StoreBusy,
    TableRecord,
)
from companion.store.housekeeping import Housekeeping


def off_the_loop(function, *args):
    """Run a call that waits on the disk (the fsync of a commit) where it cannot stall gevent's one loop.

    Under gevent: in a real thread of gevent's pool, while the loop serves the sockets.
    Otherwise an ordinary call: SQLite releases the GIL while it syncs.
    The call's error comes back as a value: raised in the pool's thread, gevent would
    first print it to stderr, and a print that fails there (the log's disk is full, its
    pipe broken) would leave the caller waiting forever, holding the store's write lock.
    """
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        import gevent

        result, error = gevent.get_hub().threadpool.apply(_outcome, (function, args))
        if error is not None:
            raise error
        return result
    return function(*args)


def _outcome(function, args: tuple) -> tuple:
    """(result, None) or (None, the error) of a call."""
    try:
        return function(*args), None
    except Exception as error:  # noqa: BLE001 - handed to the caller, which raises it in its own greenlet
        return None, error


# SQLite's primary result codes that no retry cures: the operator must free space or make the file writable.
CANNOT_WRITE = {13: "the disk is full", 8: "the database is read-only", 10: "the disk cannot be written"}
# Less free space than this under the database is reported as full: a commit may need that much for its log.
LOW_SPACE = 1 << 20


def store_error(error: sqlite3.OperationalError) -> StoreBusy:
    """A failed write, told as what it is: a moment's lock (try again) or a disk the operator must see to."""
    reason = CANNOT_WRITE.get(getattr(error, "sqlite_errorcode", 0) & 0xFF)
    return CannotWrite(f"{reason}: {error}") if reason else StoreBusy(str(error))


# Each entry moves the schema one version on (PRAGMA user_version), as PostgreSQL's MIGRATIONS do; never edit
# an entry once released, append a new one. The first two use IF (NOT) EXISTS: a file from before this list
# (user_version 0) already holds the tables and events_actor_action, and its data must come through.
MIGRATIONS = (
    (
        """CREATE TABLE IF NOT EXISTS tables (
            code TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            seed TEXT NOT NULL,
            host_token_hash TEXT NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL,
            archived INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE IF NOT EXISTS events (
            code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            actor TEXT NOT NULL,
            payload TEXT NOT NULL,
            client_action_id TEXT,
            created REAL NOT NULL,
            PRIMARY KEY (code, seq)
        )""",
        """CREATE TABLE IF NOT EXISTS seats (
            code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
            seat TEXT NOT NULL,
            name TEXT,
            token_hash TEXT,
            invite_hash TEXT,
            extra TEXT NOT NULL DEFAULT '{}',
            PRIMARY KEY (code, seat)
        )""",
    ),
    # A client action id is one phone's (or the host's): another actor may happen to use the same.
    (
        "DROP INDEX IF EXISTS events_client_action",
        "CREATE UNIQUE INDEX IF NOT EXISTS events_actor_action"
        " ON events (code, actor, client_action_id) WHERE client_action_id IS NOT NULL",
    ),
    # The idle tables that housekeeping prunes, found without reading every table (PostgreSQL had it already).
    ("CREATE INDEX tables_idle ON tables (archived, updated)",),
)


class _Pending:
    """One table's append waiting for the group commit that makes it durable, or for its turn to lead one."""

    def __init__(self, code: str, events: tuple[Event, ...], holders: Collection[tuple[str, str]], leads: bool):
        self.code = code
        self.events = events
        self.holders = holders
        self.leads = leads
        self.error: Exception | None = None
        self.woken = threading.Event()  # committed, or made the next leader


class SqliteStore(Housekeeping):
    """Store on one SQLite file: a reader connection and a writer connection, each behind a lock.

    Appends from many tables that arrive together share one transaction and
    one fsync (group commit): durable commits cost milliseconds, and a burst
    of sealed bids at fifty tables should not queue for fifty of them. (The
    bids of one table come as one append already: the group commit (companion/tables/commit.py).)
    """

    def __init__(self, path: str):
        self.path = path
        self._reader, self._writer = self._connect(), self._connect()
        self._read_lock, self._write_lock = threading.Lock(), threading.Lock()
        self._queue: list[_Pending] = []
        self._queue_lock = threading.Lock()
        self._committing = False
        self._migrate()

    def _migrate(self) -> None:
        """Bring the file to the newest version; in one write transaction, so two processes opening it take turns.

        A file already at the newest version is only read: opening it takes no write lock.
        """
        if self._read("PRAGMA user_version")[0][0] == len(MIGRATIONS):
            return
        with self._transaction() as db:
            done = db.execute("PRAGMA user_version").fetchone()[0]
            for version, statements in enumerate(MIGRATIONS[done:], start=done + 1):
                for statement in statements:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {version}")

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        db.execute("PRAGMA journal_mode=WAL")
        # FULL: an acknowledged action survives a power cut, not only kill -9.
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def _read(self, sql: str, params: tuple = ()) -> list:
        with self._read_lock:
            return self._reader.execute(sql, params).fetchall()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The writer inside BEGIN IMMEDIATE .. COMMIT; whatever goes wrong, ROLLBACK: no write leaves it open.

        A transaction left open would swallow every later write of every table
        (and acknowledge tables that are never stored).
        """
        with self._write_lock:
            db = self._writer
            try:
                db.execute("BEGIN IMMEDIATE")
                yield db
                off_the_loop(db.execute, "COMMIT")
            except BaseException as error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                if isinstance(error, sqlite3.OperationalError):  # locked by another process, disk trouble
                    raise store_error(error) from error
                raise

    def _write(self, sql: str, params: tuple = ()) -> list:
        with self._transaction() as db:
            return db.execute(sql, params).fetchall()

    def create_table(self, table: TableRecord) -> None:
        try:
            self._write(
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
        rows = self._read("SELECT * FROM tables WHERE code = ?", (code,))
        if not rows:
            return None
        row = rows[0]
        return TableRecord(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5], row[6], bool(row[7]))

    def events(self, code: str, after: int = 0) -> list[Event]:
        rows = self._read(
            "SELECT seq, kind, actor, payload, client_action_id, created FROM events"
            " WHERE code = ? AND seq > ? ORDER BY seq",
            (code, after),
        )
        return [Event(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

    def append(self, code: str, *events: Event, holders: Collection[tuple[str, str]] = ()) -> None:
        with self._queue_lock:
            pending = _Pending(code, events, holders, leads=not self._committing)
            self._queue.append(pending)
            self._committing = True
        if not pending.leads:
            pending.woken.wait()
        if pending.leads:
            self._commit_queued()
        if pending.error is not None:
            raise pending.error

    def _commit_queued(self) -> None:
        """Commit everything queued (the leader's own append included) in one transaction.

        Then hand the lead to the first append that queued meanwhile: a leader that
        kept committing for the others would hold back its own table's push.
        """
        with self._queue_lock:
            batch, self._queue = self._queue, []
        try:
            self._commit(batch)
        finally:
            # Whatever happened to this commit, the lead passes on and nobody waits forever.
            with self._queue_lock:
                if self._queue:
                    self._queue[0].leads = True
                    self._queue[0].woken.set()
                else:
                    self._committing = False
            for pending in batch:
                pending.woken.set()

    def _commit(self, batch: list[_Pending]) -> None:
        try:
            with self._transaction() as db:
                for pending in batch:
                    self._insert(db, pending)
        except Exception as error:  # noqa: BLE001 - every append of the batch must learn it was not stored
            for pending in batch:
                pending.error = pending.error or (error if isinstance(error, StoreBusy) else StoreBusy(str(error)))

    def _insert(self, db: sqlite3.Connection, pending: _Pending) -> None:
        """One table's append of the batch, in a savepoint: if it fails, it fails alone and the others commit."""
        db.execute("SAVEPOINT append")
        try:
            for seat, hashed in pending.holders:
                held = "SELECT 1 FROM seats WHERE code = ? AND seat = ? AND token_hash = ?"
                if db.execute(held, (pending.code, seat, hashed)).fetchone() is None:
                    raise SeatLost(seat)
            db.executemany(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        pending.code,
                        event.seq,
                        event.kind,
                        event.actor,
                        json.dumps(event.payload),
                        event.client_action_id,
                        event.created,
                    )
                    for event in pending.events
                ],
            )
            db.execute(
                "UPDATE tables SET updated = ?, archived = 0 WHERE code = ?", (pending.events[-1].created, pending.code)
            )
        except sqlite3.IntegrityError:
            db.execute("ROLLBACK TO append")
            pending.error = self._refusal(db, pending)
        except Exception as error:  # noqa: BLE001 - whatever this append tripped over is its caller's alone
            db.execute("ROLLBACK TO append")
            pending.error = error
        db.execute("RELEASE append")

    @staticmethod
    def _refusal(db: sqlite3.Connection, pending: _Pending) -> Exception:
        """Why the table's events could not go in: a client action id already there, else a seq already taken."""
        for event in pending.events:
            if event.client_action_id:
                row = db.execute(
                    "SELECT seq FROM events WHERE code = ? AND actor = ? AND client_action_id = ?",
                    (pending.code, event.actor, event.client_action_id),
                ).fetchone()
                if row:
                    return DuplicateAction(row[0])
        return SeqTaken(pending.events[0].seq)

    def turn(self, code: str) -> contextlib.AbstractContextManager:
        """One process owns the file: there is no other process to wait for."""
        return contextlib.nullcontext()

    def action_seq(self, code: str, actor: str, client_action_id: str) -> int | None:
        rows = self._read(
            "SELECT seq FROM events WHERE code = ? AND actor = ? AND client_action_id = ?",
            (code, actor, client_action_id),
        )
        return rows[0][0] if rows else None

    def seats(self, code: str) -> dict[str, SeatRecord]:
        rows = self._read("SELECT seat, name, token_hash, invite_hash, extra FROM seats WHERE code = ?", (code,))
        return {r[0]: SeatRecord(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows}

    def save_seat(self, code: str, seat: SeatRecord, expect_token_hash: str | None) -> bool:
        with self._transaction() as db:
            row = db.execute("SELECT token_hash FROM seats WHERE code = ? AND seat = ?", (code, seat.seat)).fetchone()
            if (row[0] if row else None) != expect_token_hash:
                return False
            db.execute(
                "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                (code, seat.seat, seat.name, seat.token_hash, seat.invite_hash, json.dumps(seat.extra)),
            )
            return True

    def cannot_write(self) -> str | None:
        """A read-only or (nearly) full filesystem under the database file."""
        folder = os.path.dirname(os.path.abspath(self.path))
        disk = os.statvfs(folder)
        if disk.f_flag & os.ST_RDONLY or not os.access(folder, os.W_OK):
            return CANNOT_WRITE[8]
        if disk.f_bavail * disk.f_frsize < LOW_SPACE:
            return CANNOT_WRITE[13]
        return None

    def close(self) -> None:
        with self._read_lock, self._write_lock:
            self._reader.close()
            self._writer.close()
