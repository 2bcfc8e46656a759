"""The JSON API against its own OpenAPI document, checked from outside by a peer's fuzzer (schemathesis).

Schemathesis reads /api/openapi.json from a live server and sends what it describes and what it forbids:
every answer must be documented (status and schema), never a 5xx, schema-valid requests accepted (or refused
by the state: 401/403/404/409/422/429), schema-violating ones refused; its stateful phase follows the
document's links from a new table to its seats, actions, views and undo with the tokens the API handed out.
Its settings are in schemathesis.toml at the top of the project, its hooks (the tokens the API hands out
are real credentials) in tests/schemathesis_hooks.py.

The suite runs the fuzzing and stateful phases with a few examples per operation;
COMPANION_SCHEMATHESIS_EXAMPLES=N runs every phase (also the coverage phase's edge cases) with N.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ServerProcess

PROJECT = Path(__file__).resolve().parents[2]
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
EXAMPLES = os.environ.get("COMPANION_SCHEMATHESIS_EXAMPLES")
# The fuzzer opens hundreds of tables a minute; the budgets are for phones, and 429 stays documented.
UNLIMITED = {f"COMPANION_RATE_LIMIT_{budget}": "1000000" for budget in ("TABLES", "SEATS", "PROBES")}


@pytest.fixture
def api(tmp_path):
    server = ServerProcess(tmp_path / "data", env=UNLIMITED).start()
    yield server
    server.stop()


@pytest.mark.slow
def test_schemathesis_finds_no_difference_between_the_api_and_its_document(api):
    phases = [] if EXAMPLES else ["--phases", "fuzzing,stateful"]
    command = [
        str(SCHEMATHESIS),
        "run",
        f"{api.url}/api/openapi.json",
        "--max-examples",
        EXAMPLES or "10",
        *phases,
        "--generation-database",
        "none",
        # Hypothesis's own warning that drawing data is slow says more about a busy machine than about the API.
        "--suppress-health-check",
        "too_slow",
        "--request-timeout",
        "30",
        "--no-color",
    ]
    run = subprocess.run(command, cwd=PROJECT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
    assert "✅ Stateful" in run.stdout, run.stdout[-5000:]
