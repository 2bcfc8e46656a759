"""`companion tables list|prune|export` on the configured store."""

import json

from companion.cli import main
from companion.store import Event, TableRecord
from companion.store.sqlite import SqliteStore


def test_the_operator_lists_exports_and_prunes_tables(tmp_path, capsys):
    store = SqliteStore(str(tmp_path / "companion.sqlite3"))
    store.create_table(TableRecord("ABC234", "secret-notes", {}, "seed", "host-hash", 1000.0, 1000.0))
    store.append("ABC234", Event(1, "action", "player-1", {"type": "roll"}, "id-1", 1000.0))
    store.close()
    main(["tables", "--data-dir", str(tmp_path), "list"])
    assert "ABC234" in capsys.readouterr().out
    main(["tables", "--data-dir", str(tmp_path), "export", "abc234"])
    assert json.loads(capsys.readouterr().out)["events"][0]["client_action_id"] == "id-1"
    main(["tables", "--data-dir", str(tmp_path), "prune"])
    assert "archived 1: ABC234" in capsys.readouterr().out
    main(["tables", "--data-dir", str(tmp_path), "prune"])
    assert "removed 1: ABC234" in capsys.readouterr().out
