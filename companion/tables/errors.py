"""What the table service refuses: a code for programs, a message a player understands and the kind of refusal.

web/ answers each kind with its HTTP status (web/errors.py); nothing here knows HTTP.
"""

from __future__ import annotations

from companion.games.base import N_, Game, Refusal, RuleError, msg
from companion.store import CannotWrite, StoreBusy


class TableError(Exception):
    """A request the platform refuses: a code for programs, a message a player understands and the kind of
    refusal (which web/ answers with its HTTP status)."""

    code = "bad_request"
    refusal = Refusal.BAD_REQUEST

    def __init__(self, msgid: str, **args):
        super().__init__(msgid % args if args else msgid)
        self.message = msg(msgid, **args)


class NotFound(TableError):
    code = "not_found"
    refusal = Refusal.NOT_FOUND


class Unauthorized(TableError):
    code = "unauthorized"
    refusal = Refusal.UNAUTHORIZED


class Forbidden(TableError):
    code = "forbidden"
    refusal = Refusal.FORBIDDEN


class Conflict(TableError):
    code = "conflict"
    refusal = Refusal.CONFLICT


class UnknownSeat(TableError):
    """A seat the table does not have, named in a request's body (named in a URL, it is a NotFound)."""

    code = "no_such_seat"
    refusal = Refusal.ILLEGAL


class Unavailable(TableError):
    code = "unavailable"
    refusal = Refusal.UNAVAILABLE


class TooMany(TableError):
    code = "too_many_requests"
    refusal = Refusal.TOO_MANY


class Stale(TableError):
    """The table moved on since the phone's view: the action's meaning may have changed."""

    code = "stale"
    refusal = Refusal.CONFLICT


class Refused(TableError):
    """The game's rules refused the action, with the rules' own code, answered as the game declares for it
    (`Game.refusals`; without a game, as illegal)."""

    def __init__(self, error: RuleError, game: Game | None = None):
        super().__init__(error.message["msg"], **error.message["args"])
        self.code = error.code
        declared = game.refusals if game is not None else {}
        self.refusal = declared.get(error.code, Refusal.ILLEGAL)


def busy() -> Unavailable:
    return Unavailable(N_("The table is busy for a moment; please try again."))


def unavailable(error: StoreBusy) -> Unavailable:
    """Why the store took no write: a moment's trouble, or a disk that whoever runs the server must see to."""
    if isinstance(error, CannotWrite):
        return Unavailable(N_("The server cannot save anything: its disk is full or read-only. Tell whoever runs it."))
    return busy()
