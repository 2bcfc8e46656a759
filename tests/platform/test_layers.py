"""The core is Flask-free: the games, the table service and the stores load without the web app."""

from __future__ import annotations

import subprocess
import sys

import pytest

CORE_MODULES = [
    "companion",
    "companion.games.downforce",
    "companion.games.eat_your_tourist",
    "companion.games.mice_and_mystics",
    "companion.games.scotland_yard",
    "companion.tables",
    "companion.store",
    "companion.store.sqlite",
    "companion.store.postgres",
]


@pytest.mark.parametrize("module", CORE_MODULES)
def test_importing_a_game_the_table_service_or_a_store_loads_no_flask(module):
    # A fresh interpreter: in this one, the test suite has long loaded Flask.
    code = (
        f"import importlib, sys; importlib.import_module({module!r});"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'flask_babel', 'werkzeug', 'jinja2'));"
        "print(' '.join(loaded))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == ""
