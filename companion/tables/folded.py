"""A table's log folded into its current state, kept in memory: the actions in force, history and the game's moments.

What it keeps grows with the game as little as it can: a state every SNAPSHOT_EVERY actions in force (an undo replays
the logged actions from the nearest one), the newest client action ids and moments, old history lines packed.
"""

from __future__ import annotations

import bisect
import functools
import marshal
import threading
from collections import Counter, deque
from dataclasses import dataclass, field, replace

from companion.games.base import N_, Game, RuleError, SeatSpec
from companion.rng import Rng
from companion.store import Event, TableRecord
from companion.tables.history import KEPT_UNPACKED, HistoryLine, HistoryWindow, history_lines

# A state kept every this many actions in force: an undo replays at most this many actions less one.
SNAPSHOT_EVERY = 32
# Client action ids kept in memory; an older one's retry is found in the store's log (Draft.take).
KEPT_ACTION_IDS = 32
# Moments kept: a view older than the eighth change of moment back is stale whatever it was.
KEPT_MOMENTS = 8
# The moment of a view too old to be known: equal to none, so the view counts as stale.
UNKNOWN_MOMENT = object()

LEFT_OUT = N_("An action kept from an earlier version of the app no longer fits its rules and was left out.")


@dataclass
class FoldedTable:
    """One table's log folded into its current state, kept in memory."""

    record: TableRecord
    game: Game
    state: dict
    seq: int = 0
    # The actions still in force, oldest first, as (seq, actor, action packed by marshal: a fifth of the dict's
    # memory); action None: left out on replay.
    in_force: list = field(default_factory=list)
    # (how many actions were in force, the state then), oldest first: one every SNAPSHOT_EVERY, and one wherever an
    # undo left more than the state before the undone action (what it revealed stays known).
    snapshots: list = field(default_factory=list)
    history: list[HistoryLine] = field(default_factory=list)
    action_ids: dict = field(default_factory=dict)  # (actor, client action id) -> seq: the newest KEPT_ACTION_IDS
    forgot_action_ids: bool = False  # some of this table's client action ids are only in the store
    moments: list = field(default_factory=list)  # (seq, the game's moment from that seq on), when it changed
    began: float | None = None  # when the first event was logged: a play's date and duration
    next_table: str | None = None  # the table the host opened to play again, once the game is over
    last_event_at: float | None = None
    used_at: float = 0.0  # when this process last asked for it (Tables.idle_clock): an idle table leaves memory
    lock: threading.RLock = field(default_factory=threading.RLock)  # held from reading the state to the append
    # Views take only this one, held while an event is folded in: not across the next event's durable commit.
    view_lock: threading.Lock = field(default_factory=threading.Lock)
    # Actions and undos not yet appended; whoever holds `lock` appends them all in one commit.
    # A deque: threads add to it without taking `lock` (its append and popleft are atomic).
    waiting: deque = field(default_factory=deque)
    # How many history lines name each seat (None: the public ones): a window's numbering without a count.
    line_counts: Counter = field(default_factory=Counter)
    # (seq, the state before the newest action in force) as the undo's check replayed it, for its fold to reuse.
    _before_newest: tuple | None = field(default=None, init=False, repr=False)

    def __post_init__(self):
        self.moments.append((self.seq, self.game.moment(self.state)))
        self.snapshots.append((0, self.state))

    @functools.cached_property
    def seat_specs(self) -> tuple[SeatSpec, ...]:
        """The game's seats for the table's options, which never change: every push shows them."""
        return tuple(self.game.seats(self.record.options))

    def fold(self, event: Event, after: dict | None = None) -> None:
        """Apply one logged event (`after`: its result, if already computed)."""
        with self.view_lock:
            self._fold(event, after)

    def _fold(self, event: Event, after: dict | None) -> None:
        if event.kind == "undo":
            self._fold_undo(event)
        elif event.kind == "again":
            self.next_table = event.payload["table"]
        else:
            before = self.state
            try:
                self.state = after if after is not None else self.apply(event)
            except RuleError:
                self._leave_out(event)
            else:
                self._put_in_force(event, event.payload)
                lines = self.game.describe(before, self.state, event.actor, event.payload)
                for line in history_lines(event.seq, lines):
                    self._add_line(line)
        if event.client_action_id:
            self._keep_action_id((event.actor, event.client_action_id), event.seq)
        self.seq = event.seq
        self.began = self.began or event.created
        self.last_event_at = event.created
        self._before_newest = None
        moment = self.game.moment(self.state)
        if moment != self.moments[-1][1]:
            self.moments.append((event.seq, moment))
            del self.moments[:-KEPT_MOMENTS]

    def _put_in_force(self, event: Event, action: dict | None) -> None:
        self.in_force.append((event.seq, event.actor, None if action is None else marshal.dumps(action)))
        if len(self.in_force) % SNAPSHOT_EVERY == 0:
            self.snapshots.append((len(self.in_force), self.state))

    def _keep_action_id(self, key: tuple[str, str], seq: int) -> None:
        self.action_ids[key] = seq
        if len(self.action_ids) > KEPT_ACTION_IDS:
            del self.action_ids[next(iter(self.action_ids))]
            self.forgot_action_ids = True

    def moment_at(self, seq: int):
        """The game's moment (round, car on auction) that a view of `seq` showed (UNKNOWN_MOMENT: too old)."""
        index = bisect.bisect_right(self.moments, seq, key=lambda entry: entry[0]) - 1
        return self.moments[index][1] if index >= 0 else UNKNOWN_MOMENT

    def moment_changed_since(self, seq: int) -> bool:
        return self.moment_at(seq) != self.moments[-1][1]

    def apply(self, event: Event) -> dict:
        return self.applied(self.state, event.actor, event.payload, event.seq)

    def applied(self, state: dict, actor: str, action: dict, seq: int) -> dict:
        """`action` applied to `state` with the dice of `seq`: the same whenever it is applied again."""
        return self.game.apply(state, actor, action, Rng(self.record.seed, seq))

    def _leave_out(self, event: Event) -> None:
        """A logged action that the rules refuse on replay: the log was kept under an earlier version of them.

        That version accepted it, and the players went on from there; the table must still open, so the
        action is left out, the history says so, and an undo of it changes nothing but its line.
        """
        self._put_in_force(event, None)
        self._add_line(HistoryLine(event.seq, LEFT_OUT, {}))

    @property
    def newest_in_force(self) -> int | None:
        """The seq of the action an undo would take back; None: there is none."""
        return self.in_force[-1][0] if self.in_force else None

    def state_after_undo(self) -> dict:
        """The state once the last action still in force is undone (RuleError: the game refuses the undo)."""
        return self._undone(self._state_before_newest())

    def _undone(self, before: dict) -> dict:
        action = self.in_force[-1][2]
        return before if action is None else self.game.undo(before, self.state, marshal.loads(action))

    def _state_before_newest(self) -> dict:
        """The state before the newest action in force: its nearest snapshot, and the logged actions in force from
        there replayed (each with its own seq's dice, as when it was first applied); replayed once for an undo's
        check and its fold."""
        if self._before_newest is not None and self._before_newest[0] == self.seq:
            return self._before_newest[1]
        count = len(self.in_force) - 1
        kept, state = self.snapshots[bisect.bisect_right(self.snapshots, count, key=lambda entry: entry[0]) - 1]
        for seq, actor, action in self.in_force[kept:count]:
            if action is not None:
                state = self.applied(state, actor, marshal.loads(action), seq)
        self._before_newest = (self.seq, state)
        return state

    def _fold_undo(self, event: Event) -> None:
        before = self._state_before_newest()
        restored = self._undone(before)
        undone_seq, actor, action = self.in_force.pop()
        undone, self.state = self.state, restored
        self._snapshot_undone(before)
        start = bisect.bisect_left(self.history, undone_seq, key=lambda line: line.seq)
        end = bisect.bisect_right(self.history, undone_seq, key=lambda line: line.seq)
        if action is None:  # left out on replay: only its line is undone
            told = [replace(line, undone=True) for line in self.history[start:end]]
        else:
            # The undone action's lines are told again against the state after the undo: a secret
            # that the undo hides again (Mister X's station at an undone end) must leave them too.
            lines = self.game.describe_undone(before, undone, self.state, actor, marshal.loads(action))
            told = history_lines(undone_seq, lines, True)
            if start < len(self.history) - KEPT_UNPACKED:
                told = [line.packed() for line in told]
        self.line_counts.subtract(seat for line in self.history[start:end] for seat in line.readers)
        self.line_counts.update(seat for line in told for seat in line.readers)
        self.history[start:end] = told
        self._add_line(HistoryLine(event.seq, N_("The host undid the last action."), {}))

    def _snapshot_undone(self, before: dict) -> None:
        """Forget the snapshots of states the undo took back; where the state after it is more than `before`, it is
        the state that the actions from here on are applied to, and a replay must start from it."""
        count = len(self.in_force)
        if self.state == before:
            del self.snapshots[bisect.bisect_right(self.snapshots, count, key=lambda entry: entry[0]) :]
        else:
            del self.snapshots[bisect.bisect_left(self.snapshots, count, key=lambda entry: entry[0]) :]
            self.snapshots.append((count, self.state))

    def _add_line(self, line: HistoryLine) -> None:
        self.history.append(line)
        self.line_counts.update(line.readers)
        if len(self.history) > KEPT_UNPACKED:
            old = len(self.history) - KEPT_UNPACKED - 1
            self.history[old] = self.history[old].packed()

    def history_for(self, seat: str | None, before: int | None = None, limit: int | None = None) -> HistoryWindow:
        """The latest `limit` history lines `seat` may see before seq `before` (all of them: no limit), oldest first.

        A window never splits the lines of one event, so that asking for the lines before its oldest seq
        misses none. Its cost depends on the window, not on the game's length (for a seat that sees its lines).
        """
        lines = self.history
        end = len(lines) if before is None else bisect.bisect_left(lines, before, key=lambda line: line.seq)
        number = self.line_counts[None] + (self.line_counts[seat] if seat is not None else 0)
        if before is not None:
            number -= sum(1 for line in lines[end:] if line.visible_to(seat))
        picked: list[HistoryLine] = []
        start = end
        while start > 0 and (limit is None or len(picked) < limit or lines[start - 1].seq == picked[-1].seq):
            start -= 1
            if lines[start].visible_to(seat):
                picked.append(lines[start])
        older = any(lines[index].visible_to(seat) for index in range(start - 1, -1, -1))
        return HistoryWindow(
            [
                {"seq": line.seq, "msg": line.msg, "args": line.plain_args(), "undone": line.undone}
                for line in reversed(picked)
            ],
            picked[-1].seq if older else None,
            number,
        )
