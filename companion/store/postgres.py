"""The store for several processes and machines: PostgreSQL (psycopg 3), the same contract as SQLite.

Per-table order across processes comes from the primary key (code, seq): two
processes that both append at seq n race on one row, one wins and the other
gets SeqTaken. The loser then waits for its turn (a PostgreSQL advisory lock
on the table, see `turn`), catches up and appends there, so seats of one table
on two processes do not keep racing for the same seq. A commit returns only once the row is
flushed to the write-ahead log, so an acknowledged action survives a crash.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import NoReturn

import psycopg
from psycopg import errors
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout

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

# Each entry moves the schema one version on; never edit an entry once released, append a new one.
MIGRATIONS = (
    """
    CREATE TABLE tables (
        code text PRIMARY KEY,
        game text NOT NULL,
        options jsonb NOT NULL,
        seed text NOT NULL,
        host_token_hash text NOT NULL,
        created double precision NOT NULL,
        updated double precision NOT NULL,
        archived boolean NOT NULL DEFAULT false
    );
    CREATE TABLE events (
        code text NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
        seq integer NOT NULL,
        kind text NOT NULL,
        actor text NOT NULL,
        payload jsonb NOT NULL,
        client_action_id text,
        created double precision NOT NULL,
        PRIMARY KEY (code, seq)
    );
    CREATE UNIQUE INDEX events_client_action ON events (code, client_action_id)
        WHERE client_action_id IS NOT NULL;
    CREATE TABLE seats (
        code text NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
        seat text NOT NULL,
        name text,
        token_hash text,
        invite_hash text,
        extra jsonb NOT NULL DEFAULT '{}',
        PRIMARY KEY (code, seat)
    );
    """,
    "CREATE INDEX tables_idle ON tables (archived, updated);",
    # A client action id is one phone's (or the host's): another actor may happen to use the same.
    "DROP INDEX events_client_action;"
    " CREATE UNIQUE INDEX events_actor_action ON events (code, actor, client_action_id)"
    " WHERE client_action_id IS NOT NULL;",
)

# Seconds a request waits for a connection (all in use, or the database unreachable) before it is told to retry.
POOL_WAIT = 5.0

# Any constant shared by every process of the deployment: they take turns migrating.
MIGRATION_LOCK = 74062025


class PostgresStore(Housekeeping):
    """Store on a PostgreSQL database, through a small pool of connections shared by all threads."""

    PARAM = "%s"
    TRUE, FALSE = "true", "false"

    def __init__(self, url: str, pool_size: int | None = None):
        size = pool_size or int(os.environ.get("COMPANION_DATABASE_POOL", "8"))
        # A database that is down answers 503 within seconds, not after the pool's default 30.
        self._pool = ConnectionPool(
            url, min_size=1, max_size=size, kwargs={"autocommit": True}, open=True, timeout=POOL_WAIT
        )
        self._turn = threading.local()  # the connection of the turn a thread (or greenlet) is in
        self._migrate()

    def _migrate(self) -> None:
        """Bring the schema to the newest version; safe when several processes start at once."""
        with self._transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
            row = db.execute("SELECT max(version) FROM schema_version").fetchone()
            done = row[0] or 0
            for version, script in enumerate(MIGRATIONS[done:], start=done + 1):
                db.execute(script)
                db.execute("INSERT INTO schema_version VALUES (%s)", (version,))

    @contextmanager
    def turn(self, code: str) -> Iterator[None]:
        """This process's turn to append to the table: the others wait for it (advisory lock on the table).

        The turn's reads and writes run on the connection that holds the lock, so
        a turn never waits for a second connection from the pool. A turn whose
        connection the server cuts fails with StoreBusy (the lock went with it).
        """
        with self._pool.connection() as db:
            try:
                db.execute("SELECT pg_advisory_lock(hashtext(%s))", (code,))
            except psycopg.OperationalError as error:
                self._lost(error)
            self._turn.db = db
            try:
                yield
            finally:
                self._turn.db = None
                with contextlib.suppress(psycopg.OperationalError):  # a cut connection took its lock along
                    db.execute("SELECT pg_advisory_unlock(hashtext(%s))", (code,))

    def _lost(self, error: psycopg.OperationalError) -> NoReturn:
        if isinstance(error, errors.DiskFull):
            raise CannotWrite(f"the database server's disk is full: {error}") from error
        raise StoreBusy(str(error)) from error

    def _in_turn(self) -> bool:
        return getattr(self._turn, "db", None) is not None

    def _cut(self, error: psycopg.OperationalError, attempt: int) -> bool:
        """Whether to try again on another connection: the server cut this one and a next one may be whole.

        Each failure discards the cut connection, and every pooled one may have been cut
        (a database restart): up to the pool's size of them. Checking the pool first would race
        the cut, which is not instant. A turn's connection held its lock: no other will do.
        """
        return attempt <= self._pool.max_size and not self._in_turn() and not isinstance(error, PoolTimeout)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection]:
        """The connection of the turn under way in this thread, else one from the pool."""
        held = getattr(self._turn, "db", None)
        if held is not None:
            yield held
        else:
            with self._pool.connection() as db:
                yield db

    def _read(self, query: str, params: tuple = ()) -> list[tuple]:
        """A read: one statement (autocommit); safe to repeat, so a connection the server cut is no answer."""
        attempt = 0
        while True:
            attempt += 1
            try:
                with self._connection() as db:
                    return db.execute(query, params).fetchall()
            except psycopg.OperationalError as error:
                if not self._cut(error, attempt):
                    self._lost(error)

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection]:
        """A pooled connection inside BEGIN .. COMMIT, rolled back on any error: no write leaves it open.

        A connection the server cut while it sat in the pool fails at BEGIN, before
        anything is written: then the write takes another. Cut later, the write may or
        may not have been committed: StoreBusy, and the caller resends (an action by its
        client action id, which the log keeps once).
        """
        attempt = 0
        try:
            while True:
                attempt += 1
                with self._connection() as db, contextlib.ExitStack() as transaction:
                    try:
                        transaction.enter_context(db.transaction())
                    except psycopg.OperationalError as error:
                        if self._cut(error, attempt):
                            continue
                        raise
                    yield db
                    return
        except psycopg.OperationalError as error:
            self._lost(error)

    def _write(self, query: str, params: tuple = ()) -> list[tuple]:
        with self._transaction() as db:
            return db.execute(query, params).fetchall()

    def create_table(self, table: TableRecord) -> None:
        try:
            self._write(
                "INSERT INTO tables VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING code",
                (
                    table.code,
                    table.game,
                    Jsonb(table.options),
                    table.seed,
                    table.host_token_hash,
                    table.created,
                    table.updated,
                    table.archived,
                ),
            )
        except errors.UniqueViolation as error:
            raise CodeTaken(table.code) from error

    def table(self, code: str) -> TableRecord | None:
        rows = self._read(
            "SELECT code, game, options, seed, host_token_hash, created, updated, archived FROM tables WHERE code = %s",
            (code,),
        )
        return TableRecord(*rows[0]) if rows else None

    def events(self, code: str, after: int = 0) -> list[Event]:
        rows = self._read(
            "SELECT seq, kind, actor, payload, client_action_id, created FROM events"
            " WHERE code = %s AND seq > %s ORDER BY seq",
            (code, after),
        )
        return [Event(*row) for row in rows]

    def append(self, code: str, *events: Event, holders: Collection[tuple[str, str]] = ()) -> None:
        # One statement: the rows and the table's `updated` commit together, and a taken seq or action id
        # fails the whole statement. The holders' seats are locked as they are checked: a free waits for the commit.
        rows = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(events))
        appended = [
            value
            for event in events
            for value in (
                code,
                event.seq,
                event.kind,
                event.actor,
                Jsonb(event.payload),
                event.client_action_id,
                event.created,
            )
        ]
        held, holding = "", []
        if holders:
            pairs = ", ".join(["(%s, %s)"] * len(holders))
            held = (
                " AND (SELECT count(*) FROM (SELECT 1 FROM seats WHERE code = %s AND (seat, token_hash) IN"
                f" ({pairs}) FOR SHARE) AS held) = %s"
            )
            holding = [code, *(value for holder in holders for value in holder), len(holders)]
        try:
            with self._transaction() as db:
                statement = db.execute(
                    f"WITH added AS (INSERT INTO events VALUES {rows} RETURNING code)"
                    " UPDATE tables SET updated = %s, archived = false"
                    f" WHERE code IN (SELECT code FROM added){held} RETURNING code",
                    (*appended, events[-1].created, *holding),
                )
                if not statement.fetchall():
                    raise SeatLost(code)  # and the transaction rolls the events back
        except errors.UniqueViolation as error:
            if error.diag.constraint_name == "events_actor_action":
                for event in events:
                    seq = event.client_action_id and self.action_seq(code, event.actor, event.client_action_id)
                    if seq:
                        raise DuplicateAction(seq) from error
            raise SeqTaken(events[0].seq) from error

    def action_seq(self, code: str, actor: str, client_action_id: str) -> int | None:
        rows = self._read(
            "SELECT seq FROM events WHERE code = %s AND actor = %s AND client_action_id = %s",
            (code, actor, client_action_id),
        )
        return rows[0][0] if rows else None

    def seats(self, code: str) -> dict[str, SeatRecord]:
        rows = self._read("SELECT seat, name, token_hash, invite_hash, extra FROM seats WHERE code = %s", (code,))
        return {row[0]: SeatRecord(*row) for row in rows}

    def save_seat(self, code: str, seat: SeatRecord, expect_token_hash: str | None) -> bool:
        with self._transaction() as db:
            # The table's row is the lock: a seat row that does not exist yet cannot be locked itself.
            db.execute("SELECT 1 FROM tables WHERE code = %s FOR UPDATE", (code,))
            row = db.execute("SELECT token_hash FROM seats WHERE code = %s AND seat = %s", (code, seat.seat)).fetchone()
            if (row[0] if row else None) != expect_token_hash:
                return False
            db.execute(
                "INSERT INTO seats VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (code, seat) DO UPDATE SET"
                " name = excluded.name, token_hash = excluded.token_hash, invite_hash = excluded.invite_hash,"
                " extra = excluded.extra",
                (code, seat.seat, seat.name, seat.token_hash, seat.invite_hash, Jsonb(seat.extra)),
            )
            return True

    def cannot_write(self) -> str | None:
        """The database server watches its own disk; a full one shows as CannotWrite on the next write."""
        return None

    def close(self) -> None:
        self._pool.close()
