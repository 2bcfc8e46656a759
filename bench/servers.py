"""The servers under test: gunicorn (or `companion serve`) on 127.0.0.1, with their database and Redis prefix."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"
CLOCK_TICKS = 100  # per second, in /proc


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_command(worker: str, port: int, data_dir: str) -> list[str]:
    """gunicorn with deploy/gunicorn.conf.py and the worker class asked for; or the embedded `companion serve`."""
    if worker == "werkzeug":
        return [
            sys.executable,
            "-m",
            "companion.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            data_dir,
        ]
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        str(ROOT / "deploy" / "gunicorn.conf.py"),
        "companion.web.app:create_app()",
    ]


class Server:
    """One server process on a free loopback port; `pids` are the processes that serve (gunicorn's workers)."""

    def __init__(self, worker: str, data_dir: Path, env: dict):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        data_dir.mkdir(parents=True, exist_ok=True)
        self.log = data_dir / f"server-{self.port}.log"
        env = {
            **os.environ,
            **env,
            "COMPANION_BIND": f"127.0.0.1:{self.port}",
            "COMPANION_WORKER_CLASS": worker,
            "COMPANION_WORKERS": "1",
            "COMPANION_DATA_DIR": str(data_dir),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                server_command(worker, self.port, str(data_dir)), env=env, cwd=ROOT, stdout=log, stderr=log
            )

    def wait_ready(self, seconds: float = 120) -> None:
        """Until /healthz answers: generous, as gunicorn took over 30 s to boot on a box crowded by other work."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped:\n{self.log.read_text()}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url + "/healthz", timeout=1).read()
                return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")

    @property
    def pids(self) -> list[int]:
        return children(self.process.pid) or [self.process.pid]

    @property
    def render_pids(self) -> list[int]:
        """The render workers (companion/web/render_worker.py) of the processes that serve."""
        return [pid for server in self.pids for pid in children(server)]

    def cpu_seconds(self) -> tuple[float, float]:
        """CPU time so far of the processes that serve, and of their render workers: those running and those that
        ended (a render worker that stopped is restarted, and its time is its server's children's once waited for)."""
        serving = rendering = 0
        for pid in self.pids:
            ticks = process_ticks(pid)
            serving += ticks[11] + ticks[12]  # utime, stime
            rendering += ticks[13] + ticks[14] + sum(sum(process_ticks(child)[11:13]) for child in children(pid))
        return serving / CLOCK_TICKS, rendering / CLOCK_TICKS

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def process_ticks(pid: int) -> list[int]:
    """The numbers of /proc/PID/stat after its name (utime is [11]); zeros for a process gone meanwhile."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return [0] * 50
    return [0, *(int(number) for number in fields[1:])]  # [0]: the state, a letter


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A database of the benchmark's own, dropped afterwards."""
    import psycopg

    name = f"companion_bench_{secrets.token_hex(4)}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
        try:
            yield POSTGRES.rsplit("/", 1)[0] + "/" + name
        finally:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextlib.contextmanager
def running(
    config: str, worker: str, data_dir: Path, prepare: Callable[[dict], None] | None = None
) -> Iterator[list[Server]]:
    """`sqlite`: one process on SQLite. `postgres-redis`: two processes sharing PostgreSQL and Redis. `prepare` is
    given the servers' environment (their database's URL) before they start."""
    env = {
        "COMPANION_EXTRA_GAMES": "bench.sealed_bid",
        "COMPANION_RATE_LIMIT_TABLES": "1000000",
        "COMPANION_RATE_LIMIT_SEATS": "1000000",
        "COMPANION_SOCKET_RATE": "1000000",  # a seat bids as soon as it sees the last round: far faster than a hand
        # Every page of a run comes from this one address, thousands of them.
        "COMPANION_CONNECTIONS_PER_ADDRESS": "100000",
        "COMPANION_MAX_CONNECTIONS": "100000",
    }
    with contextlib.ExitStack() as stack:
        count = 1
        if config == "postgres-redis":
            env |= {
                "COMPANION_DATABASE_URL": stack.enter_context(postgres_database()),
                "COMPANION_REDIS_URL": REDIS,
                "COMPANION_REDIS_PREFIX": f"companion-bench-{secrets.token_hex(4)}",
            }
            count = 2
        if prepare:
            prepare(env)
        servers = []
        try:
            for _ in range(count):
                servers.append(Server(worker, data_dir, env))
            for server in servers:
                server.wait_ready()
            yield servers
        finally:
            for server in servers:
                server.stop()
