"""Tables, seats and tokens: the table service and what it refuses.

service (the service: create, act, undo, view) over seats (who holds which seat, the tokens), commit (the group
commit of what reaches a table together), folded (a table's log folded into its state) and history; errors are
its refusals, which web/ answers with HTTP statuses.
"""

from companion.tables.commit import Taken
from companion.tables.errors import (
    Conflict,
    Forbidden,
    NotFound,
    Refused,
    Stale,
    TableError,
    TooMany,
    Unauthorized,
    Unavailable,
    UnknownSeat,
    busy,
    unavailable,
)
from companion.tables.folded import LEFT_OUT, FoldedTable
from companion.tables.history import HistoryWindow
from companion.tables.seats import HOST_DEVICE, new_token, normalise_code, opens_seat, taken_names, token_hash
from companion.tables.service import HISTORY_WINDOW, Tables

__all__ = [
    "HISTORY_WINDOW",
    "HOST_DEVICE",
    "LEFT_OUT",
    "Conflict",
    "Forbidden",
    "FoldedTable",
    "HistoryWindow",
    "NotFound",
    "Refused",
    "Stale",
    "TableError",
    "Tables",
    "Taken",
    "TooMany",
    "Unauthorized",
    "Unavailable",
    "UnknownSeat",
    "busy",
    "new_token",
    "normalise_code",
    "opens_seat",
    "taken_names",
    "token_hash",
    "unavailable",
]
