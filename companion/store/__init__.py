"""The event log behind every table: one contract, several engines.

A store keeps tables, their seats and each table's append-only log of
events. It knows nothing of games: payloads are JSON objects.
"""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Protocol


class SeqTaken(Exception):
    """Another writer appended at this sequence number first: catch up and retry."""


class DuplicateAction(Exception):
    """This actor's client action id is already in the log."""

    def __init__(self, seq: int):
        super().__init__(seq)
        self.seq = seq


class SeatLost(Exception):
    """A seat an appended event's actor held by its token is no longer held by that token (the host freed it):
    nothing was appended."""


class StoreBusy(Exception):
    """The database could not take the write now (locked by another process, disk trouble): try again."""


class CannotWrite(StoreBusy):
    """The database cannot store anything until its operator acts: its disk is full or read-only."""


class CodeTaken(Exception):
    """A table with this join code exists already."""


@dataclass(frozen=True)
class TableRecord:
    code: str
    game: str
    options: dict
    seed: str
    host_token_hash: str
    created: float
    updated: float
    archived: bool = False


@dataclass(frozen=True)
class Event:
    """One entry of a table's log: an action of a seat or the host, or an undo."""

    seq: int
    kind: str  # "action" | "undo" | "again" (the host opened a new table to play again: payload {"table"})
    actor: str
    payload: dict
    client_action_id: str | None = None
    created: float = 0.0


@dataclass(frozen=True)
class TableSummary:
    """A line of the operator's `companion tables list`."""

    code: str
    game: str
    created: float
    updated: float
    archived: bool
    events: int


@dataclass(frozen=True)
class SeatRecord:
    seat: str
    name: str | None = None
    token_hash: str | None = None
    invite_hash: str | None = None
    extra: dict = field(default_factory=dict)


class Store(Protocol):
    def create_table(self, table: TableRecord) -> None:
        """Raises CodeTaken when the code is in use."""

    def table(self, code: str) -> TableRecord | None: ...

    def events(self, code: str, after: int = 0) -> list[Event]:
        """The table's events with seq > after, in order."""

    def append(self, code: str, *events: Event, holders: Collection[tuple[str, str]] = ()) -> None:
        """Durably append the table's next events, in order, at their `seq`s (the first must be the next seq).

        All or nothing: raises SeqTaken if one of the seqs exists, DuplicateAction
        if one of the actors' client action ids does, SeatLost if one of the
        (distinct) holders (seat id, token hash) no longer holds its seat as the events go in,
        and then stores none of them. Returns only once the events survive a crash.
        """

    def turn(self, code: str) -> AbstractContextManager:
        """This process's turn to append to the table: other processes' turns wait for it to end."""

    def action_seq(self, code: str, actor: str, client_action_id: str) -> int | None:
        """The seq at which this actor's client action id was applied, if it was."""

    def seats(self, code: str) -> dict[str, SeatRecord]: ...

    def save_seat(self, code: str, seat: SeatRecord, expect_token_hash: str | None) -> bool:
        """Write the seat if its current token hash is `expect_token_hash`; False otherwise."""

    def list_tables(self) -> list[TableSummary]:
        """Every table, most recently played first."""

    def archive_idle(self, idle_since: float) -> list[str]:
        """Mark the tables not played since `idle_since` archived; returns their codes.

        An archived table that is played again (append) is no longer archived.
        """

    def remove_archived(self, idle_since: float) -> list[str]:
        """Delete the archived tables not played since `idle_since`, log and seats included."""

    def cannot_write(self) -> str | None:
        """Why nothing could be stored now (a full or read-only disk), for the operator; None when writes can go."""

    def close(self) -> None: ...
