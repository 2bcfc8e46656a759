"""The load benchmark, run very briefly: it completes, every bid reaches every seat, no secret leaks."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("config", ["sqlite", "postgres-redis"])
def test_a_short_benchmark_run_completes(config, request):
    if config == "postgres-redis":
        request.getfixturevalue("shared_env")  # skips when PostgreSQL or Redis is unreachable
    finished = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.run",
            "--config",
            config,
            "--tables",
            "2",
            "--rounds",
            "2",
            "--warmup",
            "0",
            "--timeout",
            "30",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    result = json.loads(finished.stdout.splitlines()[-1])
    assert result["actions"] == 2 * 6 * 2
    assert result["incomplete_actions"] == result["bad_final_views"] == result["secrecy_leaks"] == 0
    assert not result["timed_out"] and result["errors"] == 0
