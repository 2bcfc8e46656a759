"""The table service: create, seat, act, undo, view; the one place that applies actions.

load -> authenticate -> game.apply -> store.append -> publish, for every
action that reached the table together in one durable commit. Everything a
screen shows is rendered from `Tables.view(code, seat)`, never from state.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from companion.games.base import HOST, N_, Game, RuleError
from companion.rng import Rng, table_seed
from companion.store import CodeTaken, Event, SeatRecord, Store, TableRecord
from companion.tables.commit import Draft, GroupCommit, Request, Taken
from companion.tables.errors import Conflict, NotFound, Refused, Stale
from companion.tables.folded import FoldedTable
from companion.tables.history import HistoryWindow
from companion.tables.seats import SeatBook, new_token, normalise_code, token_hash

log = logging.getLogger(__name__)

JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
JOIN_CODE_LENGTH = 6
# A view and every push carry only the latest history lines, so that their size and cost do not grow with the
# game's length; a page or the API asks for older ones on demand (Tables.history), the host page reads them all.
HISTORY_WINDOW = 20


class Tables(SeatBook, GroupCommit):
    """The table service: create, seat, act, undo, view."""

    def __init__(
        self,
        store: Store,
        games: dict[str, Game],
        publish: Callable[..., None] | None = None,
        clock: Callable[[], float] = time.time,
        keep_in_memory: int = 2000,
        idle_seconds: float = 600.0,
        replay_seed: str | None = None,
        idle_clock: Callable[[], float] = time.monotonic,
    ):
        self.store = store
        self.games = games
        self.publish = publish or (lambda code, seq, seats_changed=False: None)
        self.clock = clock
        # The tables in memory, least recently used first. One leaves when more than `keep_in_memory` are, or when
        # unused for `idle_seconds`: it costs only a replay of its log the next time it is used.
        self._folded: OrderedDict[str, FoldedTable] = OrderedDict()
        self.keep_in_memory = keep_in_memory
        self.idle_seconds = idle_seconds
        # Idle time is measured apart from `clock`, the events' time (which may be set back or turned by tests).
        self.idle_clock = idle_clock
        self._next_sweep = idle_clock() + idle_seconds / 10
        self.replay_seed = replay_seed
        self._folded_lock = threading.Lock()
        SeatBook.__init__(self)

    # -- tables ---------------------------------------------------------------

    def create(self, game_id: str, options: dict) -> tuple[str, str]:
        """Open a table; returns (join code, host token)."""
        host_token = new_token()
        return self._open(game_id, options, token_hash(host_token)), host_token

    def _open(self, game_id: str, options: dict, host_token_hash: str) -> str:
        """A new table for the host whose token has this hash; returns its join code."""
        game = self.games.get(game_id)
        if game is None:
            raise NotFound(N_("There is no game called %(game)s."), game=game_id)
        seed = table_seed(game_id, options, self.replay_seed)
        try:
            game.seats(options)
            game.setup(options, Rng(seed, 0))
        except RuleError as error:
            raise Refused(error, game) from error
        now = self.clock()
        for _attempt in range(20):
            code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
            try:
                self.store.create_table(TableRecord(code, game_id, options, seed, host_token_hash, now, now))
                return code
            except CodeTaken:
                continue
        raise Conflict(N_("Could not find a free join code; please try again."))

    def play_again(self, code: str) -> str:
        """A new table of the finished game, same options, same host; returns its join code.

        Each seat of the new table is set aside for the phone that holds the same seat here: the
        old seat token is its invite, so no other phone can take it, and the phone needs no new
        QR code. The old table's log points to the new one, which every open page is pushed.
        Asking again returns the same new table.
        """
        table = self.newest(code)
        if table.next_table:
            return table.next_table
        if table.game.outcome(table.state) is None:
            raise Conflict(N_("The game is not over yet."))
        record = table.record
        new_code = self._open(record.game, record.options, record.host_token_hash)
        for seat in self.seats(record.code).values():
            if seat.token_hash:
                self.store.save_seat(new_code, SeatRecord(seat.seat, seat.name, None, seat.token_hash), None)

        def prepare(draft: Draft) -> tuple[Event, None]:
            # Like an undo, it commits alone and is checked against the stored table.
            if table.next_table:
                raise Conflict(N_("A new table has already been opened."))
            return Event(table.seq + 1, "again", HOST, {"table": new_code}, None, self.clock()), None

        with contextlib.suppress(Conflict):  # another tap made its new table first: everyone goes there
            self.record(table, Request(HOST, None, prepare, is_undo=True))
        return table.next_table

    def newest(self, code: str) -> FoldedTable:
        """The table folded up to the newest event in the store."""
        table = self.cached(code)
        with table.lock:
            self._catch_up(table)
        return table

    def cached(self, code: str) -> FoldedTable:
        """The table as this process last knew it (read from the log the first time)."""
        code = normalise_code(code)
        now = self.idle_clock()
        if now >= self._next_sweep:
            self._leave_idle(now)
        table = self._folded.get(code)
        if table is not None:
            # Under the lock: a sweep iterates the tables, and one forgotten meanwhile is kept again (or the fold
            # another thread read meanwhile is taken), so that a process never pushes from a second, older fold.
            with self._folded_lock:
                table = self._folded.setdefault(code, table)
                self._folded.move_to_end(code)
            table.used_at = now
            return table
        record = self.store.table(code)
        if record is None:
            raise NotFound(N_("There is no table with the code %(code)s."), code=code)
        game = self.games[record.game]
        table = FoldedTable(record, game, game.setup(record.options, Rng(record.seed, 0)), used_at=now)
        self._catch_up(table)
        with self._folded_lock:
            table = self._folded.setdefault(code, table)
            while len(self._folded) > self.keep_in_memory:
                self._forget(next(iter(self._folded)))
            return table

    @property
    def tables_in_memory(self) -> int:
        return len(self._folded)

    def _leave_idle(self, now: float) -> None:
        """Forget the tables unused for `idle_seconds`; looked for at most every tenth of it, so that a table
        leaves within 1.1 times it, at the cost of one comparison per use."""
        with self._folded_lock:
            self._next_sweep = now + self.idle_seconds / 10
            while self._folded and next(iter(self._folded.values())).used_at <= now - self.idle_seconds:
                self._forget(next(iter(self._folded)))

    def _forget(self, code: str) -> None:
        """The table leaves memory (the caller holds the lock); its pages' sockets go on, by its code."""
        del self._folded[code]
        self.seats_changed(code)

    def _catch_up(self, table: FoldedTable) -> None:
        for event in self.store.events(table.record.code, after=table.seq):
            table.fold(event)

    # -- actions --------------------------------------------------------------

    def act(
        self,
        code: str,
        actor: str,
        action: dict,
        client_action_id: str | None = None,
        seen_seq: int | None = None,
        token: str | None = None,
    ) -> Taken:
        """Apply one action exactly once; returns (seq, was it a repeat).

        token: the one the actor was authenticated by, whose seat is checked again as the action goes in (the host
        may have freed it through another process); a refusal to a token that lost its seat says only that.
        """
        table = self.cached(code)
        client_action_id = client_action_id or None
        holder = self.holding(code, token)[1] if token else None

        def prepare(draft: Draft) -> tuple[Event, dict]:
            if (
                seen_seq is not None
                and seen_seq < draft.seq
                and (action.get("type") not in table.game.concurrent or draft.moment_changed_since(seen_seq))
            ):
                raise Stale(N_("The table moved on while you were choosing. Here is the current state."))
            event = Event(draft.seq + 1, "action", actor, action, client_action_id, self.clock())
            return event, self._check(draft, event)

        return self.record(table, Request(actor, client_action_id, prepare, holder=holder))

    def _check(self, draft: Draft, event: Event) -> dict:
        """The state after `event`, or the reason the rules refuse it."""
        if draft.game.outcome(draft.state) is not None:
            raise Conflict(N_("This game is over."))
        try:
            return draft.apply(event)
        except RuleError as error:
            raise Refused(error, draft.game) from error
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            # A game that trips over an action its schema let through: the table must go on.
            log.exception("%s could not apply %r", draft.game.id, event.payload)
            raise Refused(RuleError(N_("That does not fit the game right now."))) from error

    def undo(self, code: str, seen_seq: int | None = None, client_action_id: str | None = None) -> Taken:
        """The host takes back the last action that is still in force."""
        table = self.cached(code)
        client_action_id = client_action_id or None

        def prepare(draft: Draft) -> tuple[Event, None]:
            # An undo is checked against the stored table alone (_take_batch), so the draft is the table.
            if seen_seq is not None and seen_seq != table.seq:
                raise Stale(N_("The table moved on: the last action is now a different one. Look again."))
            undone_seq = table.newest_in_force
            if undone_seq is None:
                raise Conflict(N_("There is nothing to undo."))
            if table.next_table:  # everyone has moved on to the new table: the game that led there stays
                raise Conflict(N_("The players have moved on to a new table: this game stays as it ended."))
            try:
                table.state_after_undo()
            except RuleError as error:
                raise Refused(error, table.game) from error
            return Event(table.seq + 1, "undo", HOST, {"undoes": undone_seq}, client_action_id, self.clock()), None

        return self.record(table, Request(HOST, client_action_id, prepare, is_undo=True))

    # -- views ----------------------------------------------------------------

    def view(self, code: str, seat: str | None, fresh: bool = True, full_history: bool = False) -> dict:
        """Everything `seat` may see (None: the public display), as plain data.

        fresh: first read what other processes appended (pushes after a local
        change skip that read). The history is the latest HISTORY_WINDOW lines
        (`history_before`: the seq to ask `history` for older ones), or all of them.
        """
        table = self.newest(code) if fresh else self.cached(code)
        with table.view_lock:
            history = table.history_for(seat, limit=None if full_history else HISTORY_WINDOW)
            return {
                "seq": table.seq,
                "game": table.record.game,
                "view": table.game.view(table.state, seat),
                "history": history.lines,
                "history_before": history.before,
                "history_number": history.number,
                "outcome": table.game.outcome(table.state),
                "can_undo": bool(table.in_force) and not table.next_table,
                "played": (table.began, table.last_event_at),
                "next_table": table.next_table,
            }

    def history(self, code: str, seat: str | None, before: int | None, limit: int = 100) -> HistoryWindow:
        """Older history lines `seat` may see: the latest `limit` before seq `before`."""
        table = self.newest(code)
        with table.view_lock:
            return table.history_for(seat, before, limit)
