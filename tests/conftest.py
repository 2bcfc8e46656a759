"""Fixtures: an app on a real SQLite file, and real server processes on loopback."""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.config import render_workers
from companion.web.app import create_app

TESTS = Path(__file__).resolve().parent
SHARED = TESTS.parent.parent / "shared"
TEST_GAMES = "tests.secret_notes"
# Seconds a server may take to start: a box loaded by other work may take half a minute (the deadline is not the point).
STARTING = 120


def pytest_configure(config: pytest.Config) -> None:
    """One render worker, not one per core, for every app and server the tests start (each test or module that
    pushes frames starts its own; none on a box of one core). tests/platform/test_render_worker.py runs several.
    Set here, not as this module loads: the benchmarks import its ServerProcess, and their servers take the default."""
    os.environ.setdefault("COMPANION_RENDER_WORKERS", str(min(1, render_workers())))


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "EXTRA_GAMES": TEST_GAMES})
    yield app
    if app.extensions["companion.render_workers"] is not None:
        app.extensions["companion.render_workers"].stop()  # started by a test that pushed frames


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def service(app):
    return app.extensions["companion"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerProcess:
    """`companion serve` in its own process on 127.0.0.1, which a test may kill -9 and start again."""

    def __init__(self, data_dir: Path, env: dict | None = None, port: int | None = None, tls: bool = False):
        self.data_dir = data_dir
        self.tls = tls
        self.port = port or free_port()
        self.env = {
            **os.environ,
            "PYTHONPATH": str(TESTS.parent),
            "COMPANION_EXTRA_GAMES": TEST_GAMES,
            **(env or {}),
        }
        self.process: subprocess.Popen | None = None

    @property
    def log(self) -> Path:
        return self.data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        command = [
            sys.executable,
            "-m",
            "companion.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            *(["--tls"] if self.tls else []),
        ]
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, env=self.env, stdout=log, stderr=log)
        deadline = time.monotonic() + STARTING
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/healthz", timeout=1, context=self.ssl_context()).read()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.log.read_text()) from None
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def ssl_context(self) -> ssl.SSLContext | None:
        """For --tls: the certificate is self-signed; trust it as a browser does after its one warning."""
        if not self.tls:
            return None
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush: what a power cut or the OOM killer does."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server(tmp_path):
    running = ServerProcess(tmp_path / "data").start()
    yield running
    running.stop()
