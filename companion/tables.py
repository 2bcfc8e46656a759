"""Tables, seats and tokens: the one place that applies actions.

load -> authenticate -> game.apply -> store.append -> publish, for every
action that reached the table together in one durable commit. Everything a
screen shows is rendered from `Tables.view(code, seat)`, never from state.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import logging
import secrets
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from companion.games.base import HOST, N_, Game, RuleError, SeatSpec, msg
from companion.rng import Rng
from companion.store import (
    CannotWrite,
    CodeTaken,
    DuplicateAction,
    Event,
    SeatRecord,
    SeqTaken,
    Store,
    StoreBusy,
    TableRecord,
)

log = logging.getLogger(__name__)

JOIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
JOIN_CODE_LENGTH = 6
# A view and every push carry only the latest history lines, so that their size and cost do not grow with the
# game's length; a page or the API asks for older ones on demand (Tables.history), the host page reads them all.
HISTORY_WINDOW = 20
# A phone the host let in as a second host device is kept among the seats under this prefix, which no game's
# seat id has: one record per host link, its invite until the link is used, then the device's token.
HOST_DEVICE = "host-device:"
LEFT_OUT = N_("An action kept from an earlier version of the app no longer fits its rules and was left out.")


class TableError(Exception):
    """A request the platform refuses: a code for programs and a message a player understands (web/ answers
    each code with its HTTP status)."""

    code = "bad_request"

    def __init__(self, msgid: str, **args):
        super().__init__(msgid % args if args else msgid)
        self.message = msg(msgid, **args)


class NotFound(TableError):
    code = "not_found"


class Unauthorized(TableError):
    code = "unauthorized"


class Forbidden(TableError):
    code = "forbidden"


class Conflict(TableError):
    code = "conflict"


class UnknownSeat(TableError):
    """A seat the table does not have, named in a request's body (named in a URL, it is a NotFound)."""

    code = "no_such_seat"


class Unavailable(TableError):
    code = "unavailable"


class TooMany(TableError):
    code = "too_many_requests"


class Stale(TableError):
    """The table moved on since the phone's view: the action's meaning may have changed."""

    code = "stale"


class Refused(TableError):
    """The game's rules refused the action, with the rules' own code."""

    def __init__(self, error: RuleError):
        super().__init__(error.message["msg"], **error.message["args"])
        self.code = error.code


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """An unguessable token: 256 bits."""
    return secrets.token_urlsafe(32)


@dataclass
class HistoryLine:
    seq: int
    msg: str
    args: dict
    seats: list | None = None
    undone: bool = False

    @property
    def readers(self) -> list:
        """Who may read it, as the seats' line counts count: None stands for everyone."""
        return [None] if self.seats is None else self.seats

    def visible_to(self, seat: str | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)


def history_lines(seq: int, lines: list[dict], undone: bool = False) -> list[HistoryLine]:
    """A game's lines for the action at `seq`, each with the seats that may read it."""
    return [HistoryLine(seq, line["msg"], line["args"], line.get("seats"), undone) for line in lines]


@dataclass
class HistoryWindow:
    """Some of the history lines a seat may see, oldest first, as plain data."""

    lines: list[dict]
    before: int | None  # ask for the lines before this seq to see older ones; None: there are none
    number: int  # how many lines this seat may see up to the newest of these (the newest line's number)


@dataclass
class LiveTable:
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


@dataclass
class Request:
    """An action or undo waiting for its append, which another thread's commit may make for it."""

    actor: str
    client_action_id: str | None
    prepare: Callable  # (Draft) -> (the event, the state after it or None for an undo); raises TableError
    is_undo: bool = False
    taken: tuple[int, bool] | None = None  # (seq, was it a repeat), once checked against the draft
    outcome: tuple[int, bool] | BaseException | None = None  # decided: what `act` or `undo` returns or raises


class Draft:
    """The table as it will be once the requests checked before in the same commit are stored.

    The next request of the commit is checked against it; the table itself (what
    every page shows) takes the events only once they are durable.
    """

    def __init__(self, table: LiveTable):
        self.table = table
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
        return self.game.apply(self.state, event.actor, event.payload, Rng(self.table.record.seed, event.seq))

    def take(self, request: Request) -> None:
        """Check the request here; a repeat of an action already taken is answered with that action's seq."""
        key = (request.actor, request.client_action_id)
        repeated = self.table.action_ids.get(key) or self.action_ids.get(key)
        if repeated:
            request.taken = (repeated, True)
            return
        event, after = request.prepare(self)
        self.appended.append((event, after))
        self.seq = event.seq
        if after is not None:
            self.state = after
        if event.client_action_id:
            self.action_ids[key] = event.seq
        request.taken = (event.seq, False)


class Tables:
    """The table service: create, seat, act, undo, view."""

    def __init__(
        self,
        store: Store,
        games: dict[str, Game],
        publish: Callable[..., None] | None = None,
        clock: Callable[[], float] = time.time,
        keep_in_memory: int = 2000,
    ):
        self.store = store
        self.games = games
        self.publish = publish or (lambda code, seq, seats_changed=False: None)
        self.clock = clock
        self._live: OrderedDict[str, LiveTable] = OrderedDict()
        self.keep_in_memory = keep_in_memory
        self._live_lock = threading.Lock()
        # Seats of the tables in play, read once: every push and every API call asks who holds which seat.
        self._seats: dict[str, dict[str, SeatRecord]] = {}
        self._seats_lock = threading.Lock()  # a claim's forgetting must not fall between a read and its keeping

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
        seed = secrets.token_hex(16)
        try:
            game.seats(options)
            game.setup(options, Rng(seed, 0))
        except RuleError as error:
            raise Refused(error) from error
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
        table = self.live(code)
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
            self._record(table, Request(HOST, None, prepare, is_undo=True))
        return table.next_table

    def live(self, code: str) -> LiveTable:
        """The table folded up to the newest event in the store."""
        table = self.cached(code)
        with table.lock:
            self._catch_up(table)
        return table

    def cached(self, code: str) -> LiveTable:
        """The table as this process last knew it (read from the log the first time)."""
        code = normalise_code(code)
        with self._live_lock:
            table = self._live.get(code)
            if table is not None:
                self._live.move_to_end(code)
                return table
        record = self.store.table(code)
        if record is None:
            raise NotFound(N_("There is no table with the code %(code)s."), code=code)
        game = self.games[record.game]
        table = LiveTable(record, game, game.setup(record.options, Rng(record.seed, 0)))
        self._catch_up(table)
        with self._live_lock:
            table = self._live.setdefault(code, table)
            # Forgetting a table costs only a replay of its log the next time it is used.
            while len(self._live) > self.keep_in_memory:
                self.seats_changed(self._live.popitem(last=False)[0])
            return table

    def _catch_up(self, table: LiveTable) -> None:
        for event in self.store.events(table.record.code, after=table.seq):
            table.fold(event)

    def seat_specs(self, table: LiveTable) -> list[SeatSpec]:
        return table.game.seats(table.record.options)

    # -- seats and tokens -----------------------------------------------------

    def authenticate(self, code: str, token: str | None) -> str:
        """The actor a token speaks for: HOST or a seat id."""
        table = self.cached(code)
        if not token:
            raise Unauthorized(N_("Take a seat first."))
        hashed = token_hash(token)
        if secrets.compare_digest(hashed, table.record.host_token_hash):
            return HOST
        for _read_again in (False, True):
            if _read_again:  # a seat claimed through another process since the seats were read here
                self.seats_changed(table.record.code)
            for seat in self._records(table.record.code).values():
                if seat.token_hash and secrets.compare_digest(hashed, seat.token_hash):
                    return HOST if seat.seat.startswith(HOST_DEVICE) else seat.seat
        raise Forbidden(N_("This token does not open a seat at this table."))

    def claim(self, code: str, seat_id: str, name: str, invite: str | None = None) -> str:
        """Take a free seat (or one the host re-issued with an invite); returns the seat token."""
        table = self.cached(code)
        self._check_seat(table, seat_id, UnknownSeat)
        name = " ".join(name.split())[:40]
        if not name:
            raise TableError(N_("Please enter your name."))
        current = self.seats(table.record.code).get(seat_id)
        if current and current.token_hash:
            raise Conflict(N_("This seat is taken."))
        if (
            current
            and current.invite_hash
            and not (invite and secrets.compare_digest(token_hash(invite), current.invite_hash))
        ):
            raise Forbidden(N_("The host has set this seat aside for another phone; scan its QR code."))
        token = new_token()
        saved = self.store.save_seat(
            table.record.code, SeatRecord(seat_id, name, token_hash(token)), expect_token_hash=None
        )
        self.seats_changed(table.record.code)
        if not saved:
            raise Conflict(N_("This seat is taken."))
        self.publish(table.record.code, table.seq, seats_changed=True)
        return token

    def free(self, code: str, seat_id: str) -> str:
        """The host frees a seat; returns a one-time invite token for the next phone."""
        table = self.cached(code)
        self._check_seat(table, seat_id)
        current = self.seats(table.record.code).get(seat_id)
        invite = new_token()
        self.store.save_seat(
            table.record.code,
            SeatRecord(seat_id, current.name if current else None, None, token_hash(invite)),
            expect_token_hash=current.token_hash if current else None,
        )
        self.seats_changed(table.record.code)
        self.publish(table.record.code, table.seq, seats_changed=True)
        return invite

    def host_link(self, code: str) -> str:
        """The host lets another device in as a host: a one-time token for its link."""
        table = self.cached(code)
        invite = new_token()
        device = HOST_DEVICE + token_hash(invite)[:32]
        self.store.save_seat(table.record.code, SeatRecord(device, None, None, token_hash(invite)), None)
        self.seats_changed(table.record.code)
        return invite

    def host_link_open(self, code: str, invite: str) -> bool:
        """Whether this host link has not been used yet."""
        self.seats_changed(code)  # it may have been used through another process
        device = self._records(code).get(HOST_DEVICE + token_hash(invite)[:32])
        return bool(device and device.invite_hash and secrets.compare_digest(token_hash(invite), device.invite_hash))

    def use_host_link(self, code: str, invite: str) -> str:
        """The device that opens a host link becomes a host; returns its host token. A link works once."""
        code = self.cached(code).record.code
        if not self.host_link_open(code, invite):
            raise Forbidden(N_("This host link has been used already. Ask the host for a new one."))
        token = new_token()
        device = HOST_DEVICE + token_hash(invite)[:32]
        saved = self.store.save_seat(code, SeatRecord(device, None, token_hash(token)), expect_token_hash=None)
        self.seats_changed(code)
        if not saved:  # another phone used it at the same moment
            raise Forbidden(N_("This host link has been used already. Ask the host for a new one."))
        return token

    def seats(self, code: str) -> dict[str, SeatRecord]:
        """Who holds which seat (read from the store once, until the seats change)."""
        return {seat_id: seat for seat_id, seat in self._records(code).items() if not seat_id.startswith(HOST_DEVICE)}

    def _records(self, code: str) -> dict[str, SeatRecord]:
        """The table's seats and its other host devices, as stored."""
        code = normalise_code(code)
        with self._seats_lock:
            seats = self._seats.get(code)
            if seats is None:
                seats = self._seats[code] = self.store.seats(code)
            return seats

    def seats_changed(self, code: str) -> None:
        """Forget the seats read: a claim or a free here, or announced by another process."""
        with self._seats_lock:
            self._seats.pop(normalise_code(code), None)

    def forget_seats(self) -> None:
        """Forget every table's seats: claims and frees elsewhere may have gone unannounced (Redis was away)."""
        with self._seats_lock:
            self._seats.clear()

    def holds_seat(self, code: str, seat_id: str, hashed_token: str | None) -> bool:
        """Whether the token (by its hash) still opens this seat: the host may have freed it."""
        seat = self.seats(code).get(seat_id)
        return bool(seat and hashed_token and seat.token_hash == hashed_token)

    def _check_seat(self, table: LiveTable, seat_id: str, unknown: type[TableError] = NotFound) -> None:
        if seat_id not in {spec.id for spec in self.seat_specs(table)}:
            raise unknown(N_("This table has no seat %(seat)s."), seat=seat_id)

    def names(self, code: str) -> dict[str, str | None]:
        """Seat id -> the name of the player sitting there (None if free)."""
        return {seat_id: (seat.name if seat.token_hash else None) for seat_id, seat in self.seats(code).items()}

    # -- actions --------------------------------------------------------------

    def act(
        self, code: str, actor: str, action: dict, client_action_id: str | None = None, seen_seq: int | None = None
    ) -> tuple[int, bool]:
        """Apply one action exactly once; returns (seq, was it a repeat)."""
        table = self.cached(code)
        client_action_id = client_action_id or None

        def prepare(draft: Draft) -> tuple[Event, dict]:
            if (
                seen_seq is not None
                and seen_seq < draft.seq
                and (action.get("type") not in table.game.concurrent or draft.moment_changed_since(seen_seq))
            ):
                raise Stale(N_("The table moved on while you were choosing. Here is the current state."))
            event = Event(draft.seq + 1, "action", actor, action, client_action_id, self.clock())
            return event, self._check(draft, event)

        return self._record(table, Request(actor, client_action_id, prepare))

    def _check(self, draft: Draft, event: Event) -> dict:
        """The state after `event`, or the reason the rules refuse it."""
        if draft.game.outcome(draft.state) is not None:
            raise Conflict(N_("This game is over."))
        try:
            return draft.apply(event)
        except RuleError as error:
            raise Refused(error) from error
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            # A game that trips over an action its schema let through: the table must go on.
            log.exception("%s could not apply %r", draft.game.id, event.payload)
            raise Refused(RuleError(N_("That does not fit the game right now."))) from error

    def undo(self, code: str, seen_seq: int | None = None, client_action_id: str | None = None) -> tuple[int, bool]:
        """The host takes back the last action that is still in force."""
        table = self.cached(code)
        client_action_id = client_action_id or None

        def prepare(draft: Draft) -> tuple[Event, None]:
            # An undo is checked against the stored table alone (_take_batch), so the draft is the table.
            if seen_seq is not None and seen_seq != table.seq:
                raise Stale(N_("The table moved on: the last action is now a different one. Look again."))
            if not table.undo_stack:
                raise Conflict(N_("There is nothing to undo."))
            if table.next_table:  # everyone has moved on to the new table: the game that led there stays
                raise Conflict(N_("The players have moved on to a new table: this game stays as it ended."))
            undone_seq = table.undo_stack[-1][0]
            try:
                table.state_after_undo()
            except RuleError as error:
                raise Refused(error) from error
            return Event(table.seq + 1, "undo", HOST, {"undoes": undone_seq}, client_action_id, self.clock()), None

        return self._record(table, Request(HOST, client_action_id, prepare, is_undo=True))

    def _record(self, table: LiveTable, request: Request) -> tuple[int, bool]:
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
                    self._decide(batch, busy())  # the store failed under a turn: nobody of the batch waits on
                appended |= any(isinstance(each.outcome, tuple) and not each.outcome[1] for each in batch)
        if appended:
            self.publish(table.record.code, table.seq)
        if isinstance(request.outcome, BaseException):
            raise request.outcome
        return request.outcome

    @staticmethod
    def _take_batch(table: LiveTable) -> list[Request]:
        """The waiting requests of one commit: all of them up to an undo, or the undo alone."""
        batch: list[Request] = []
        while table.waiting and not (batch and (batch[-1].is_undo or table.waiting[0].is_undo)):
            batch.append(table.waiting.popleft())
        return batch

    def _append_batch(self, table: LiveTable, batch: list[Request]) -> None:
        """Decide every request of the batch: first straight away; if another process appended
        first, in this process's turn (the others wait for it), after reading what they appended."""
        if self._commit(table, batch):
            return
        with self.store.turn(table.record.code):
            while True:
                seen = table.seq
                self._catch_up(table)
                if table.seq == seen:  # nothing newer to read: retrying would only fail again
                    self._decide(batch, busy())
                    return
                if self._commit(table, batch):
                    return

    def _commit(self, table: LiveTable, batch: list[Request]) -> bool:
        """Check the batch against the table, append what the rules accept in one durable commit, fold it in.

        False when another writer took the seq first (nothing decided). A batch the
        store refuses for any other reason is tried one request at a time, so an
        append that cannot be stored fails alone.
        """
        draft = Draft(table)
        for request in batch:
            request.taken = request.outcome = None
            try:
                draft.take(request)
            except Exception as error:  # noqa: BLE001 - a refusal (or a game's bug) is its own request's answer
                request.outcome = error
        if not draft.is_clean:
            try:
                self.store.append(table.record.code, *(event for event, _after in draft.appended))
            except (SeqTaken, DuplicateAction):
                return False
            except Exception as error:  # noqa: BLE001 - told to the requests (or tried one by one), never lost
                if len(draft.appended) == 1:
                    maker = next(request for request in batch if request.taken == (draft.seq, False))
                    maker.outcome = unavailable(error) if isinstance(error, StoreBusy) else error
                for request in batch:
                    if request.outcome is None and not self._commit(table, [request]):
                        self._decide([request], busy())
                return True
        for request in batch:  # durable now: each answer is settled before folding in can trip over anything
            if request.outcome is None:
                request.outcome = request.taken
        for event, after in draft.appended:
            table.fold(event, after)
        return True

    @staticmethod
    def _decide(batch: list[Request], error: BaseException) -> None:
        for request in batch:
            if request.outcome is None:
                request.outcome = error

    # -- views ----------------------------------------------------------------

    def view(self, code: str, seat: str | None, fresh: bool = True, full_history: bool = False) -> dict:
        """Everything `seat` may see (None: the public display), as plain data.

        fresh: first read what other processes appended (pushes after a local
        change skip that read). The history is the latest HISTORY_WINDOW lines
        (`history_before`: the seq to ask `history` for older ones), or all of them.
        """
        table = self.live(code) if fresh else self.cached(code)
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
                "can_undo": bool(table.undo_stack) and not table.next_table,
                "played": (table.began, table.last_event_at),
                "next_table": table.next_table,
            }

    def history(self, code: str, seat: str | None, before: int | None, limit: int = 100) -> HistoryWindow:
        """Older history lines `seat` may see: the latest `limit` before seq `before`."""
        table = self.live(code)
        with table.view_lock:
            return table.history_for(seat, before, limit)


def busy() -> Unavailable:
    return Unavailable(N_("The table is busy for a moment; please try again."))


def unavailable(error: StoreBusy) -> Unavailable:
    """Why the store took no write: a moment's trouble, or a disk that whoever runs the server must see to."""
    if isinstance(error, CannotWrite):
        return Unavailable(N_("The server cannot save anything: its disk is full or read-only. Tell whoever runs it."))
    return busy()


def normalise_code(code: str) -> str:
    return code.strip().upper()
