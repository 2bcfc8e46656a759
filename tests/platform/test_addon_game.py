"""A fifth game is one package, outside companion/ if you like: tests/dice_tower brings its rules, its own
seat and display templates, its stylesheet and a Czech catalogue, and needs no edit anywhere else."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import home
from companion.web.app import create_app
from tests import http
from tests.conftest import ServerProcess
from tests.dice_tower import game as dice_tower
from tests.pages import Device, api, open_table, visible_text

ADDON = "tests.dice_tower"


@pytest.fixture
def app(tmp_path):
    return create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "EXTRA_GAMES": ADDON})


def test_an_add_on_plays_on_its_own_screens_in_its_own_language_with_its_own_styles(app):
    code, tokens = open_table(app.test_client(), "dice-tower", {"players": 2}, {"player-1": "Anna"})
    phone = Device.of(app, code, tokens, "player-1", lang="cs")
    assert "Věž už vydala 0 kostek." in visible_text(phone.page)
    phone.submit("drop", "Hodit kostku do věže")
    assert "Věž už vydala 1 kostek." in visible_text(phone.page)
    display = Device.of(app, code, tokens, "display", lang="cs").page
    assert re.search(r'class="dice-tower-rolls">[1-6]<', display)

    stylesheet = re.search(r'href="(/static/games/dice-tower/style\.css\?v=\w+)"', phone.page).group(1)
    answer = app.test_client().get(stylesheet)
    assert answer.status_code == 200 and b"#7a4b1f" in answer.data
    assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    answer.close()
    assert app.test_client().get("/static/games/no-such-game/style.css").status_code == 404


def test_an_add_ons_own_refusal_is_answered_as_it_declares_by_the_api_a_posted_form_and_a_sockets_form(app, tmp_path):
    """web/ knows no game's codes: the tower declares that only its keeper may ever tip it, so another seat gets a
    403 wherever its tip comes from."""
    code, tokens = open_table(app.test_client(), "dice-tower", {"players": 2}, ("Anna", "Bea"))
    refused = app.test_client().post(
        f"/api/tables/{code}/actions", json={"type": "tip"}, headers={"Authorization": f"Bearer {tokens['player-2']}"}
    )
    assert refused.status_code == 403 and refused.json["error"]["code"] == "not_the_keeper"
    notice = Device.of(app, code, tokens, "player-2", lang="cs").submit("tip", "Převrhnout věž", expect=403)
    assert "Věž smí převrhnout jen její strážce." in notice
    api(app.test_client(), code, tokens["player-1"], type="drop")
    assert api(app.test_client(), code, tokens["player-1"], type="tip")["rolls"] == []  # the keeper may

    server = ServerProcess(tmp_path / "server", env={"COMPANION_EXTRA_GAMES": ADDON}).start()
    try:
        table = http.open_table(server.url, "dice-tower", {"players": 2}, ("player-1", "player-2"))
        page = http.socket(server.url, table["code"], table["player-2"], query="view=seat&since=0")
        answer, _frame = http.send_form(page, type="tip", client_action_id="tip-1")
        assert answer["status"] == 403 and "Only the keeper of the tower may tip it over." in answer["notice"]
        page.close()
    finally:
        server.stop()


def test_a_game_in_a_lone_module_brings_no_files_from_the_folder_it_happens_to_lie_in(tmp_path, monkeypatch):
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "style.css").write_text("/* not the game's */")
    (tmp_path / "lone_game.py").write_text(
        "from tests.dice_tower import DiceTower\nclass LoneGame(DiceTower):\n    id = 'lone-game'\ngame = LoneGame()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True, "EXTRA_GAMES": "lone_game"})
    assert home(app.extensions["companion"].games["lone-game"]) is None
    assert app.test_client().get("/static/games/lone-game/style.css").status_code == 404
    assert home(dice_tower) is not None  # a package: its own folder


def test_an_installed_add_on_is_found_by_its_entry_point(tmp_path):
    """A distribution that declares a `table_companion.games` entry point needs no setting at all."""
    dist = tmp_path / "dice_tower_addon-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: dice-tower-addon\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[table_companion.games]\ndice-tower = {ADDON}:game\n")
    script = "from companion import games; print(sorted(games.load([])))"
    root = Path(__file__).resolve().parents[2]
    found = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": f"{tmp_path}:{root}", "PATH": "/usr/bin:/bin"},
    ).stdout
    assert "'dice-tower'" in found and "'scotland-yard'" in found
