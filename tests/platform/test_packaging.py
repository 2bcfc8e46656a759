"""A plain `pip install .` ships every module, template, static file and catalogue inside the wheel, built without a
warning."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import TESTS

ROOT = TESTS.parent


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> tuple[Path, str]:
    """The wheel as `pip wheel` builds it from the checkout, and what the build printed."""
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out)]
    done = subprocess.run([*command, str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return next(out.glob("table_companion-*.whl")), done.stdout + done.stderr


def test_the_wheel_builds_without_a_warning(build):
    """No setuptools deprecation, no data folder reported as a package that would be ignored."""
    _wheel, printed = build
    assert not [line for line in printed.splitlines() if "warning" in line.lower()], printed[-4000:]


def shipped(folder: str, inside: str) -> set[str]:
    """The names a folder of the checkout has in the wheel: every file but the catalogues' sources (.po)."""
    return {
        f"{inside}/{path.relative_to(ROOT / folder).as_posix()}"
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and path.suffix not in (".po", ".pyc")
    }


def test_the_wheel_holds_every_module_template_static_file_and_catalogue(build):
    wheel, _printed = build
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    expected = shipped("companion", "companion") | shipped("templates", "companion/templates")
    expected |= shipped("static", "companion/static")
    assert "companion/games/downforce/templates/seat.html" in expected  # the folders were read
    assert expected - names == set()


def test_the_installed_wheel_serves_pages_without_the_source_tree(build, tmp_path):
    wheel, _printed = build
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
    )
    script = (
        "import companion, sys; from companion.web.app import create_app;"
        "assert companion.__file__.startswith(sys.argv[1]), companion.__file__;"
        "c = create_app({'DATA_DIR': sys.argv[2]}).test_client();"
        "page = c.get('/?lang=nl').get_data(as_text=True); assert 'Tafel openen' in page, page;"
        "r = c.get('/static/vendor/htmx.min.js'); assert r.status_code == 200; r.close();"
        "r = c.get('/static/games/downforce/style.css'); assert r.status_code == 200; r.close();"
        # The checkout's editable install must not have lent a module the wheel lacks.
        "outside = [m.__file__ for n, m in sys.modules.items() if n.startswith('companion.')"
        " and not (m.__file__ or sys.argv[1]).startswith(sys.argv[1])]; assert not outside, outside"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(target), str(tmp_path / "data")],
        check=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
    )
