"""Real server processes sharing the machine's PostgreSQL and Redis, each test with its own database and prefix."""

import shutil
import signal
import subprocess
import time

import pytest
import redis

from tests.conftest import ServerProcess, free_port
from tests.real_services import REDIS, postgres_database, redis_prefix

pytestmark = pytest.mark.slow


@pytest.fixture
def postgres_url():
    yield from postgres_database()


@pytest.fixture
def shared_env(postgres_url):
    return {
        "COMPANION_DATABASE_URL": postgres_url,
        "COMPANION_REDIS_URL": REDIS,
        "COMPANION_REDIS_PREFIX": redis_prefix(),
    }


@pytest.fixture
def start_server(tmp_path):
    """Starts `companion serve` processes with the given environment; stops them all at the end."""
    started = []

    def start(env: dict) -> ServerProcess:
        started.append(ServerProcess(tmp_path / f"server-{len(started)}", env=env).start())
        return started[-1]

    yield start
    for server in started:
        server.stop()


class PrivateRedis:
    """A redis-server of this test's own on a free port, which the test may stop and start again."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server"),
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        client.close()

    def freeze(self) -> None:
        """SIGSTOP: the port still accepts connections, and nothing ever answers (a hung Redis, not a dead one)."""
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.thaw()
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def private_redis():
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()
