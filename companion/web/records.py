"""What a table leaves behind: the finished game as a play for BG Stats, and the table's record for the host."""

from __future__ import annotations

import time

from companion import i18n
from companion.games.base import N_
from companion.tables import Conflict
from companion.web.common import tables
from companion.web.frames import WhoSitsWhere, play_of, request_renderer


def finished_play(code: str, seat: str | None) -> dict:
    """The play of a finished table as `seat` may see it; a conflict while the game runs."""
    service = tables()
    snapshot = service.view(code, seat)
    seating, render = WhoSitsWhere(service, code), request_renderer()
    found = play_of(seating.table, snapshot, seating.names(render), render)
    if found is None:
        raise Conflict(N_("The game is not over yet."))
    return found


def table_record(code: str) -> dict:
    """The table's whole log as the host may see it, in order and in the request's language, with the undo audit.

    Built from the display's history lines (seat None), the ones the host page shows: a line meant for one
    seat alone, or an undone line's secret, stays out of it.
    """
    service = tables()
    snapshot = service.view(code, None, full_history=True)
    seating = WhoSitsWhere(service, code)
    table, names = seating.table, seating.names(request_renderer())
    logged = {event.seq: event.created for event in service.store.events(table.record.code)}
    return {
        "code": table.record.code,
        "game": i18n.say({"msg": table.game.name, "args": {}}),
        "players": names,
        "lines": [
            {
                "seq": line["seq"],
                "time": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(logged.get(line["seq"], 0))),
                "text": i18n.say(line, names),
                "undone": line["undone"],
            }
            for line in snapshot["history"]
        ],
        "outcome": snapshot["outcome"] and i18n.say(snapshot["outcome"]["summary"], names),
    }
