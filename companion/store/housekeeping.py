"""The operator's housekeeping of tables, in the SQL both stores speak (`companion tables list|prune`)."""

from __future__ import annotations

from companion.store import TableSummary


class Housekeeping:
    """Listing, archiving and removing tables. A store says how it writes a parameter and the two booleans,
    and gives `_read` and `_write` (a write may return rows)."""

    PARAM = "?"
    TRUE, FALSE = "1", "0"

    def list_tables(self) -> list[TableSummary]:
        rows = self._read(
            "SELECT code, game, created, updated, archived,"
            " (SELECT count(*) FROM events WHERE events.code = tables.code)"
            " FROM tables ORDER BY updated DESC"
        )
        return [TableSummary(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]

    def archive_idle(self, idle_since: float) -> list[str]:
        rows = self._write(
            f"UPDATE tables SET archived = {self.TRUE} WHERE archived = {self.FALSE} AND updated < {self.PARAM}"
            " RETURNING code",
            (idle_since,),
        )
        return sorted(r[0] for r in rows)

    def remove_archived(self, idle_since: float) -> list[str]:
        rows = self._write(
            f"DELETE FROM tables WHERE archived = {self.TRUE} AND updated < {self.PARAM} RETURNING code", (idle_since,)
        )
        return sorted(r[0] for r in rows)
