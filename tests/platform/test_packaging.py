"""A plain `pip install .` ships the templates, static files and catalogues inside the wheel."""

import subprocess
import sys
import zipfile

import pytest

from tests.conftest import TESTS

ROOT = TESTS.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    return next(out.glob("table_companion-*.whl"))


def test_the_wheel_holds_templates_static_files_and_catalogues(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "companion/templates/base.html" in names
    assert "companion/static/vendor/htmx.min.js" in names
    assert "companion/static/app.js" in names
    assert "companion/translations/cs/LC_MESSAGES/messages.mo" in names
    assert "companion/games/scotland_yard/board.json" in names
    for package in ("scotland_yard", "downforce", "mice_and_mystics", "eat_your_tourist"):  # each game's own parts
        assert f"companion/games/{package}/templates/seat.html" in names
        assert f"companion/games/{package}/static/style.css" in names
        assert f"companion/games/{package}/translations/nl/LC_MESSAGES/messages.mo" in names


def test_the_installed_wheel_serves_pages_without_the_source_tree(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)], check=True
    )
    script = (
        "import companion, sys; from companion.web.app import create_app;"
        "assert companion.__file__.startswith(sys.argv[1]), companion.__file__;"
        "c = create_app({'DATA_DIR': sys.argv[2]}).test_client();"
        "page = c.get('/?lang=nl').get_data(as_text=True); assert 'Tafel openen' in page, page;"
        "r = c.get('/static/vendor/htmx.min.js'); assert r.status_code == 200; r.close();"
        "r = c.get('/static/games/downforce/style.css'); assert r.status_code == 200; r.close()"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(target), str(tmp_path / "data")],
        check=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
    )
