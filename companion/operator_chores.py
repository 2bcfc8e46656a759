"""The operator's chores on any store: prune idle tables and export a table's whole log."""

from __future__ import annotations

from dataclasses import asdict

from companion.store import Store
from companion.tables import HOST_DEVICE

DAY = 86400.0


def prune(store: Store, idle_days: float, now: float) -> tuple[list[str], list[str]]:
    """Remove the tables archived by an earlier prune and still idle, then archive the newly idle.

    Returns (removed, archived). Two steps give the operator one prune interval
    to export a table before it is gone.
    """
    idle_since = now - idle_days * DAY
    removed = store.remove_archived(idle_since)
    return removed, store.archive_idle(idle_since)


def export_table(store: Store, code: str) -> dict | None:
    """The table, its seats' names and every event of its log, as JSON-ready data (no token hashes).

    It holds the table's seed and every secret action: for the operator's backup, not for players.
    """
    record = store.table(code)
    if record is None:
        return None
    table = asdict(record)
    del table["host_token_hash"]
    return {
        "table": table,
        "seats": {
            seat_id: seat.name for seat_id, seat in store.seats(code).items() if not seat_id.startswith(HOST_DEVICE)
        },
        "events": [asdict(event) for event in store.events(code)],
    }
