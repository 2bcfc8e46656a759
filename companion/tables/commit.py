"""The group commit: actions and undos that reach a table together are checked in order and appended in one durable
commit, then told to every page once."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from companion.store import DuplicateAction, Event, SeatLost, SeqTaken, Store, StoreBusy
from companion.tables.errors import TableError, Unavailable, busy, unavailable
from companion.tables.folded import FoldedTable
from companion.tables.seats import no_seat


class Taken(NamedTuple):
    """A request's answer: the seq of its event, and whether it repeated one already taken."""

    seq: int
    repeat: bool


@dataclass
class Request:
    """An action or undo waiting for its append, which another thread's commit may make for it."""

    actor: str
    client_action_id: str | None
    prepare: Callable  # (Draft) -> (the event, the state after it or None for an undo); raises TableError
    is_undo: bool = False
    # The seat record (seat id, token hash) its token held when it came, which must still be the token's as it goes
    # in; None for the host's own token.
    holder: tuple[str, str] | None = None
    taken: Taken | None = None  # once checked against the draft
    outcome: Taken | BaseException | None = None  # decided: what `act` or `undo` returns or raises


class Draft:
    """The table as it will be once the requests checked before in the same commit are stored.

    The next request of the commit is checked against it; the table itself (what
    every page shows) takes the events only once they are durable.
    """

    def __init__(self, table: FoldedTable, store: Store, look_in_log: bool = False):
        self.table = table
        self.store = store
        # Whether to ask the store's log for every client action id not in memory: only once the store refused
        # one as already logged (asked on every action, it would cost a round trip each).
        self.look_in_log = look_in_log
        self.game = table.game
        self.seq = table.seq
        self.state = table.state
        self.appended: list[tuple[Event, dict | None]] = []
        self.action_ids: dict = {}

    @property
    def is_clean(self) -> bool:
        return not self.appended

    def moment_changed_since(self, seq: int) -> bool:
        return self.table.moment_at(seq) != self.game.moment(self.state)

    def apply(self, event: Event) -> dict:
        return self.table.applied(self.state, event.actor, event.payload, event.seq)

    def take(self, request: Request) -> None:
        """Check the request here; a repeat of an action already taken is answered with that action's seq."""
        key = (request.actor, request.client_action_id)
        repeated = self.table.action_ids.get(key) or self.action_ids.get(key)
        if not repeated and self.look_in_log:
            repeated = self._logged(key)
        if repeated:
            request.taken = Taken(repeated, True)
            return
        try:
            event, after = request.prepare(self)
        except TableError:
            # The retry of an action older than the ids kept in memory is refused as if new (the table moved on).
            repeated = self.table.forgot_action_ids and self._logged(key)
            if not repeated:
                raise
            request.taken = Taken(repeated, True)
            return
        self.appended.append((event, after))
        self.seq = event.seq
        if after is not None:
            self.state = after
        if event.client_action_id:
            self.action_ids[key] = event.seq
        request.taken = Taken(event.seq, False)

    def _logged(self, key: tuple[str, str | None]) -> int | None:
        """The seq at which the store's log has this actor's client action id, if it has."""
        return None if key[1] is None else self.store.action_seq(self.table.record.code, *key)


class GroupCommit:
    """The commit part of the table service (Tables): it appends through `store`, reads other processes' events
    through `_catch_up` and tells pages through `publish`, which Tables provides."""

    def record(self, table: FoldedTable, request: Request) -> Taken:
        """Append the request's event once, in order, durably; then tell every page.

        Requests that arrive while the table's last commit is under way wait
        together, and whoever holds the table's lock next appends them all in
        one commit: six sealed bids sent at once cost one or two durable
        commits and one or two pushes to each page, not six of each.
        """
        table.waiting.append(request)
        # Let what is ready to run go first (one turn of gevent's loop; under threads, of the GIL): the other
        # seats' bids that reached the server with this one queue behind it and share its commit.
        time.sleep(0)
        appended = False
        with table.lock:
            while request.outcome is None:  # an undo ahead of it is a commit of its own: then take the next
                batch = self._take_batch(table)
                try:
                    self._append_batch(table, batch)
                finally:
                    self._tell_busy(batch)  # the store failed under a turn: nobody of the batch waits on
                appended |= any(isinstance(each.outcome, Taken) and not each.outcome.repeat for each in batch)
        if appended:
            self.publish(table.record.code, table.seq)
        outcome = request.outcome
        # A refusal or a repeat may depend on the seat's secrets (a rule naming Mister X's station): it is told only
        # to a token that still holds the seat. A fresh append was checked as it went in.
        appended_now = isinstance(outcome, Taken) and not outcome.repeat
        if (
            request.holder
            and not (appended_now or isinstance(outcome, Unavailable))
            and self.freed(table.record.code, [request.holder])
        ):
            raise no_seat()
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    @staticmethod
    def _take_batch(table: FoldedTable) -> list[Request]:
        """The waiting requests of one commit: all of them up to an undo, or the undo alone."""
        batch: list[Request] = []
        while table.waiting and not (batch and (batch[-1].is_undo or table.waiting[0].is_undo)):
            batch.append(table.waiting.popleft())
        return batch

    def _append_batch(self, table: FoldedTable, batch: list[Request]) -> None:
        """Decide every request of the batch: first straight away; if another process appended
        first, in this process's turn (the others wait for it), after reading what they appended."""
        if self._commit(table, batch):
            return
        with self.store.turn(table.record.code):
            while True:
                seen = table.seq
                self._catch_up(table)
                if table.seq == seen:  # nothing newer to read: retrying would only fail again
                    self._tell_busy(batch)
                    return
                if self._commit(table, batch):
                    return

    def _commit(self, table: FoldedTable, batch: list[Request], look_in_log: bool = False) -> bool:
        """Check the batch against the table, append what the rules accept in one durable commit, fold it in.

        False when another writer took the seq first (nothing decided). A batch the
        store refuses for any other reason is tried one request at a time, so an
        append that cannot be stored fails alone.
        """
        draft = Draft(table, self.store, look_in_log)
        for request in batch:
            request.taken = request.outcome = None
            try:
                draft.take(request)
            except Exception as error:  # noqa: BLE001 - a refusal (or a game's bug) is its own request's answer
                request.outcome = error
        if not draft.is_clean:
            holders = {each.holder for each in batch if each.holder and each.taken and not each.taken.repeat}
            try:
                self.store.append(table.record.code, *(event for event, _after in draft.appended), holders=holders)
            except DuplicateAction:
                # A retry whose client action id the table no longer keeps in memory: the log tells which one.
                return not look_in_log and self._commit(table, batch, look_in_log=True)
            except SeqTaken:
                return False
            except SeatLost:
                return self._commit_without_freed_seats(table, batch)
            except Exception as error:  # noqa: BLE001 - told to the requests (or tried one by one), never lost
                if len(draft.appended) == 1:
                    maker = next(request for request in batch if request.taken == Taken(draft.seq, False))
                    maker.outcome = unavailable(error) if isinstance(error, StoreBusy) else error
                for request in batch:
                    if request.outcome is None and not self._commit(table, [request]):
                        self._tell_busy([request])
                return True
        for request in batch:  # durable now: each answer is settled before folding in can trip over anything
            if request.outcome is None:
                request.outcome = request.taken
        for event, after in draft.appended:
            table.fold(event, after)
        return True

    def _commit_without_freed_seats(self, table: FoldedTable, batch: list[Request]) -> bool:
        """The batch again without the requests whose token's seat was freed (through another process, before this
        one heard): those are refused as any token that opens no seat is."""
        freed = self.freed(table.record.code, {request.holder for request in batch if request.holder})
        if not freed:  # cannot be (no token ever holds a seat twice): told busy rather than tried again forever
            self._tell_busy(batch)
            return True
        for request in batch:
            if request.holder in freed:
                request.outcome = no_seat()
        kept = [request for request in batch if request.holder not in freed]
        return self._commit(table, kept) if kept else True

    @staticmethod
    def _tell_busy(batch: list[Request]) -> None:
        """Answer each request of the batch not yet decided that the table is busy (made only then: an error, with
        its message, on every commit cost more than a commit's own checks)."""
        undecided = [request for request in batch if request.outcome is None]
        if undecided:
            error = busy()
            for request in undecided:
                request.outcome = error
