"""Seats and tokens: who holds which seat, the host's devices, and the tokens that open them."""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Iterable

from companion.games.base import HOST, N_, SeatSpec
from companion.store import SeatRecord
from companion.tables.errors import Conflict, Forbidden, NotFound, TableError, Unauthorized, UnknownSeat
from companion.tables.folded import FoldedTable

# A phone the host let in as a second host device is kept among the seats under this prefix, which no game's
# seat id has: one record per host link, its invite until the link is used, then the device's token.
HOST_DEVICE = "host-device:"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """An unguessable token: 256 bits."""
    return secrets.token_urlsafe(32)


def normalise_code(code: str) -> str:
    return code.strip().upper()


def opens_seat(seat: SeatRecord | None, hashed_token: str | None) -> bool:
    """Whether a token (by its hash) opens this seat: the host may have freed it since the token was given."""
    return bool(seat and hashed_token and seat.token_hash == hashed_token)


def no_seat() -> Forbidden:
    """The refusal to a token that opens no seat (any more): it tells nothing of the seat it may have held."""
    return Forbidden(N_("This token does not open a seat at this table."))


def taken_names(seats: dict[str, SeatRecord]) -> dict[str, str | None]:
    """Seat id -> the name of the player sitting there (None if free)."""
    return {seat_id: (seat.name if seat.token_hash else None) for seat_id, seat in seats.items()}


class SeatBook:
    """The seats part of the table service (Tables): it reads tables through `cached`, stores through `store` and
    tells pages through `publish`, which Tables provides."""

    def __init__(self):
        # Seats of the tables in play, read once: every push and every API call asks who holds which seat.
        self._seats: dict[str, dict[str, SeatRecord]] = {}
        self._seats_lock = threading.Lock()  # a claim's forgetting must not fall between a read and its keeping

    def seat_specs(self, table: FoldedTable) -> tuple[SeatSpec, ...]:
        return table.seat_specs

    def authenticate(self, code: str, token: str | None) -> str:
        """The actor a token speaks for: HOST or a seat id."""
        return self.holding(code, token)[0]

    def holding(self, code: str, token: str | None) -> tuple[str, tuple[str, str] | None]:
        """The actor a token speaks for (HOST or a seat id), and the seat record it holds as (seat id, token hash),
        which an action checks again as it goes in: None for the host's own token, which nobody can free."""
        table = self.cached(code)
        if not token:
            raise Unauthorized(N_("Take a seat first."))
        hashed = token_hash(token)
        if secrets.compare_digest(hashed, table.record.host_token_hash):
            return HOST, None
        for _read_again in (False, True):
            if _read_again:  # a seat claimed through another process since the seats were read here
                self.seats_changed(table.record.code)
            for seat in self._records(table.record.code).values():
                if seat.token_hash and secrets.compare_digest(hashed, seat.token_hash):
                    return (HOST if seat.seat.startswith(HOST_DEVICE) else seat.seat), (seat.seat, hashed)
        raise no_seat()

    def freed(self, code: str, holders: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """Those of the (seat id, token hash) holders whose token no longer holds the seat, read anew from the store:
        another process may have freed it before this one heard."""
        self.seats_changed(code)
        records = self._records(code)
        return {holder for holder in holders if not opens_seat(records.get(holder[0]), holder[1])}

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
        seats = self._seats.get(code)  # read without the lock (every action and push asks): only keeping needs it
        if seats is not None:
            return seats
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

    def _check_seat(self, table: FoldedTable, seat_id: str, unknown: type[TableError] = NotFound) -> None:
        if seat_id not in {spec.id for spec in self.seat_specs(table)}:
            raise unknown(N_("This table has no seat %(seat)s."), seat=seat_id)

    def names(self, code: str) -> dict[str, str | None]:
        """Seat id -> the name of the player sitting there (None if free)."""
        return taken_names(self.seats(code))
