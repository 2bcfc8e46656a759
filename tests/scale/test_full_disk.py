"""A full disk under the SQLite file and the server's own log: refused clearly, never wedged, back once freed."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time

import pytest

from bench.servers import Server
from tests.conftest import TEST_GAMES
from tests.http import call, open_table, send_form, socket


@pytest.fixture
def small_disk(tmp_path):
    """A filesystem of a few MB of this test's own (tmpfs), which the test fills up."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(mount)]).returncode != 0:
        pytest.skip("cannot mount a small filesystem here")
    yield mount
    subprocess.run(["umount", "--lazy", str(mount)], check=True)


def fill(disk, log) -> None:
    """Write a filler file until the disk has no byte left, and the server's log up to the end of its last block."""
    for path, flags in ((disk / "filler", os.O_CREAT), (log, os.O_APPEND)):
        descriptor = os.open(path, os.O_WRONLY | flags)
        try:
            for chunk in (b"\n" * 65536, b"\n"):
                with contextlib.suppress(OSError):
                    while True:
                        os.write(descriptor, chunk)
        finally:
            os.close(descriptor)


def healthz(server) -> tuple[int, dict]:
    return call(server.url, "GET", "/healthz")


@pytest.fixture
def gunicorn_on(small_disk):
    """gunicorn's gevent worker on SQLite, its data and its log (stderr) on the small disk."""
    server = Server("gevent", small_disk / "data", {"COMPANION_EXTRA_GAMES": TEST_GAMES})
    server.wait_ready()
    yield server
    server.stop()


def test_a_full_disk_is_refused_clearly_reported_by_healthz_and_forgotten_once_space_is_freed(gunicorn_on, small_disk):
    server = gunicorn_on
    table = open_table(server.url, seats=["player-1", "player-2"])
    note = {"type": "write", "note": "before"}
    assert call(server.url, "POST", f"/api/tables/{table['code']}/actions", note, table["player-1"])[0] == 200

    page = socket(server.url, table["code"], table["player-2"], query="view=seat&since=1")

    fill(small_disk, server.log)
    answer, _ = send_form(page, type="write", note="over the socket", client_action_id="page-1")
    assert answer["status"] == 503 and "disk" in answer["notice"]  # the page sends it again by itself
    for n in range(3):
        started = time.monotonic()
        note = {"type": "write", "note": "x" * 2000, "client_action_id": f"full-{n}"}
        status, answer = call(server.url, "POST", f"/api/tables/{table['code']}/actions", note, table["player-2"])
        assert (status, answer["error"]["code"]) == (503, "unavailable")
        assert "disk" in answer["error"]["message"]
        assert time.monotonic() - started < 2
    status, health = healthz(server)
    assert status == 503 and "disk" in health["store"]

    (small_disk / "filler").unlink()
    deadline = time.monotonic() + 5
    note = {"type": "write", "note": "after", "client_action_id": "after"}
    actions = f"/api/tables/{table['code']}/actions"
    while (status := call(server.url, "POST", actions, note, table["player-2"])[0]) != 200:
        assert status == 503 and time.monotonic() < deadline, "the server did not recover once space was freed"
        time.sleep(0.2)
    status, health = healthz(server)
    assert status == 200 and health["ok"] and health["tables_in_memory"] >= 1
    answer, _ = send_form(page, type="write", note="over the socket", client_action_id="page-1")
    assert answer == {"answer": "page-1", "status": 200}
    page.close()
