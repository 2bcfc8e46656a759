"""What the table service refuses: a code for programs and a message a player understands.

web/ answers each code with its HTTP status (web/common.py); nothing here knows HTTP.
"""

from __future__ import annotations

from companion.games.base import N_, RuleError, msg
from companion.store import CannotWrite, StoreBusy


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


def busy() -> Unavailable:
    return Unavailable(N_("The table is busy for a moment; please try again."))


def unavailable(error: StoreBusy) -> Unavailable:
    """Why the store took no write: a moment's trouble, or a disk that whoever runs the server must see to."""
    if isinstance(error, CannotWrite):
        return Unavailable(N_("The server cannot save anything: its disk is full or read-only. Tell whoever runs it."))
    return busy()
