"""A table's log folded into its current state, kept in memory: its undo stack, history and the game's moments."""

from __future__ import annotations

import bisect
import functools
import threading
from collections import Counter, deque
from dataclasses import dataclass, field, replace

from companion.games.base import N_, Game, RuleError, SeatSpec
from companion.rng import Rng
from companion.store import Event, TableRecord
from companion.tables.history import HistoryLine, HistoryWindow, history_lines

LEFT_OUT = N_("An action kept from an earlier version of the app no longer fits its rules and was left out.")


@dataclass
class FoldedTable:
    """One table's log folded into its current state, kept in memory."""

    record: TableRecord
    game: Game
    state: dict
    seq: int = 0
    undo_stack: list = field(default_factory=list)  # (seq, state before, action, actor)
    history: list[HistoryLine] = field(default_factory=list)
    action_ids: dict = field(default_factory=dict)  # (actor, client action id) -> seq
    moments: list = field(default_factory=list)  # (seq, the game's moment from that seq on), when it changed
    began: float | None = None  # when the first event was logged: a play's date and duration
    next_table: str | None = None  # the table the host opened to play again, once the game is over
    last_event_at: float | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)  # held from reading the state to the append
    # Views take only this one, held while an event is folded in: not across the next event's durable commit.
    view_lock: threading.Lock = field(default_factory=threading.Lock)
    # Actions and undos not yet appended; whoever holds `lock` appends them all in one commit.
    # A deque: threads add to it without taking `lock` (its append and popleft are atomic).
    waiting: deque = field(default_factory=deque)
    # How many history lines name each seat (None: the public ones): a window's numbering without a count.
    line_counts: Counter = field(default_factory=Counter)

    def __post_init__(self):
        self.moments.append((self.seq, self.game.moment(self.state)))

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
                self.undo_stack.append((event.seq, before, event.payload, event.actor))
                lines = self.game.describe(before, self.state, event.actor, event.payload)
                for line in history_lines(event.seq, lines):
                    self._add_line(line)
        if event.client_action_id:
            self.action_ids[event.actor, event.client_action_id] = event.seq
        self.seq = event.seq
        self.began = self.began or event.created
        self.last_event_at = event.created
        moment = self.game.moment(self.state)
        if moment != self.moments[-1][1]:
            self.moments.append((event.seq, moment))

    def moment_at(self, seq: int):
        """The game's moment (round, car on auction) that a view of `seq` showed."""
        return self.moments[bisect.bisect_right(self.moments, seq, key=lambda entry: entry[0]) - 1][1]

    def moment_changed_since(self, seq: int) -> bool:
        return self.moment_at(seq) != self.moments[-1][1]

    def apply(self, event: Event) -> dict:
        return self.game.apply(self.state, event.actor, event.payload, Rng(self.record.seed, event.seq))

    def _leave_out(self, event: Event) -> None:
        """A logged action that the rules refuse on replay: the log was kept under an earlier version of them.

        That version accepted it, and the players went on from there; the table must still open, so the
        action is left out, the history says so, and an undo of it changes nothing but its line.
        """
        self.undo_stack.append((event.seq, self.state, None, event.actor))
        self._add_line(HistoryLine(event.seq, LEFT_OUT, {}))

    def state_after_undo(self) -> dict:
        """The state once the last action still in force is undone (RuleError: the game refuses the undo)."""
        _seq, before, action, _actor = self.undo_stack[-1]
        return before if action is None else self.game.undo(before, self.state, action)

    def _fold_undo(self, event: Event) -> None:
        restored = self.state_after_undo()
        undone_seq, before, action, actor = self.undo_stack.pop()
        undone, self.state = self.state, restored
        start = bisect.bisect_left(self.history, undone_seq, key=lambda line: line.seq)
        end = bisect.bisect_right(self.history, undone_seq, key=lambda line: line.seq)
        if action is None:  # left out on replay: only its line is undone
            told = [replace(line, undone=True) for line in self.history[start:end]]
        else:
            # The undone action's lines are told again against the state after the undo: a secret
            # that the undo hides again (Mister X's station at an undone end) must leave them too.
            lines = self.game.describe_undone(before, undone, self.state, actor, action)
            told = history_lines(undone_seq, lines, True)
        self.line_counts.subtract(seat for line in self.history[start:end] for seat in line.readers)
        self.line_counts.update(seat for line in told for seat in line.readers)
        self.history[start:end] = told
        self._add_line(HistoryLine(event.seq, N_("The host undid the last action."), {}))

    def _add_line(self, line: HistoryLine) -> None:
        self.history.append(line)
        self.line_counts.update(line.readers)

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
            [{"seq": line.seq, "msg": line.msg, "args": line.args, "undone": line.undone} for line in reversed(picked)],
            picked[-1].seq if older else None,
            number,
        )
