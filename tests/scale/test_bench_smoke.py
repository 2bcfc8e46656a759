"""The load benchmark, run very briefly: it completes, every bid reaches every seat, no secret leaks."""

import json
import os
import subprocess
import sys
from pathlib import Path

import jinja2
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


def test_a_short_run_of_the_real_games_brings_every_action_to_every_page(tmp_path):
    """bench.real_games, 2 tables of each game for 2 s: every action sent as its page sends it is held by every page
    of its table, none is refused (the recorded game replays), and the frames' bytes on the wire are deflate's."""
    finished = subprocess.run(
        [sys.executable, "-m", "bench.real_games", "--game", "all", "--tables", "2", "--pace", "0.4"]
        + ["--duration", "2", "--drain", "20", "--timeout", "30", "--scripts", "1", "--script-limit", "8"]
        + ["--cache", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stderr
    runs = [json.loads(line) for line in finished.stdout.splitlines()]
    assert [run["game"] for run in runs] == ["mice-and-mystics", "scotland-yard", "downforce", "eat-your-tourist"]
    for run in runs:
        assert run["actions"] == run["actions_sent"] > 0, run
        assert run["frames"] >= run["actions"] * run["pages_per_table"], run
        assert run["incomplete_actions"] == run["refused_actions"] == run["disconnects"] == 0, run
        assert run["pages_not_opened"] == run["tables_not_open"] == 0, run
        assert run["seat_frame_wire_p50"] < run["seat_frame_raw_p50"], run


def test_a_set_of_runs_says_what_it_ran_on_and_its_medians_pass_over_that(tmp_path):
    """bench/compare.sh's first line (bench/box.py) names the interpreter and the libraries; bench.medians makes its
    rows from the runs alone."""
    box = subprocess.run([sys.executable, "-m", "bench.box"], cwd=ROOT, capture_output=True, text=True, check=True)
    line = json.loads(box.stdout)
    assert line["server"] == "box"
    assert line["python"] == sys.version.split()[0]
    assert line["packages"]["jinja2"] == jinja2.__version__
    run = {"server": "ours", "tables": 2, "actions_per_s": 100.0, "server_cpu_pct": 50.0, "p99_ms": 9.0}
    run |= {key: 1.0 for key in ("p50_ms", "p90_ms", "max_ms", "server_rss_mb", "machine_idle_pct")}
    runs = tmp_path / "runs.jsonl"
    runs.write_text(box.stdout + json.dumps(run) + "\n")
    medians = subprocess.run(
        [sys.executable, "-m", "bench.medians", str(runs)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    rows = medians.stdout.splitlines()[2:]
    assert len(rows) == 1 and rows[0].startswith("| ours | 2 | 1 |")


def test_the_rounds_of_a_run_show_which_round_holds_its_slowest_bids():
    """bench.rounds: each round's percentiles (nearest rank, as bench/load.js reports them), then the whole run's."""
    from bench.rounds import report

    bids = [[table, 3, 0, 100.0 + table] for table in range(10)] + [[table, 4, 0, 10.0 + table] for table in range(10)]
    assert report(bids)[2:] == [
        "| 3 | 10 | 100.0 | 104.0 | 108.0 | 109.0 | 109.0 |",
        "| 4 | 10 | 10.0 | 14.0 | 18.0 | 19.0 | 19.0 |",
        "| all | 20 | 11.0 | 19.0 | 107.0 | 109.0 | 109.0 |",
    ]


def test_the_benchmarks_servers_render_with_a_worker_per_core_as_in_production():
    """The tests' one render worker (tests/conftest.py) is not the benchmarks': they import the tests' ServerProcess and
    walk, and their servers took the tests' setting with them (two cores measured with one worker)."""
    env = {name: value for name, value in os.environ.items() if name != "COMPANION_RENDER_WORKERS"}
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, bench.real_games, bench.run; print(os.environ.get('COMPANION_RENDER_WORKERS'))",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == "None"
