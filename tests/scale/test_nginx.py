"""deploy/nginx.conf itself, run by the real nginx in front of two processes on PostgreSQL and Redis.

The file is used as shipped, with only what a test machine must change swapped:
the upstream addresses, the listening ports and a throwaway certificate.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import ssl
import subprocess
import time
from pathlib import Path

import pytest
import websocket

from bench.nginx import main_config
from tests.conftest import free_port

DEPLOYED = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx", path=os.environ.get("PATH", "") + os.pathsep + "/usr/sbin")

pytestmark = [pytest.mark.slow, pytest.mark.skipif(NGINX is None, reason="nginx is not installed")]

UNVERIFIED = ssl.create_default_context()
UNVERIFIED.check_hostname = False
UNVERIFIED.verify_mode = ssl.CERT_NONE


class Nginx:
    """nginx with deploy/nginx.conf in a folder of its own: its own ports, pid file, logs and certificate."""

    def __init__(self, folder: Path, upstreams: list[int]):
        self.folder = folder
        self.http_port, self.https_port = free_port(), free_port()
        folder.mkdir(parents=True, exist_ok=True)
        self._certificate()
        (folder / "companion.conf").write_text(self._site(upstreams))
        (folder / "nginx.conf").write_text(self._main())
        self.process: subprocess.Popen | None = None

    def _certificate(self) -> None:
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
            + ["-keyout", str(self.folder / "privkey.pem"), "-out", str(self.folder / "fullchain.pem")],
            check=True,
            capture_output=True,
        )

    def _site(self, upstreams: list[int]) -> str:
        swaps = {
            "app1:8000": f"127.0.0.1:{upstreams[0]}",
            "app2:8000": f"127.0.0.1:{upstreams[1]}",
            "listen 80;": f"listen 127.0.0.1:{self.http_port};",
            "listen [::]:80;": "",
            "listen 443 ssl http2;": f"listen 127.0.0.1:{self.https_port} ssl http2;",
            "listen [::]:443 ssl http2;": "",
            "/etc/nginx/tls/": f"{self.folder}/",
        }
        site = DEPLOYED.read_text()
        for shipped, here in swaps.items():
            assert shipped in site, f"deploy/nginx.conf no longer has {shipped!r}: update this test"
            site = site.replace(shipped, here)
        return site

    def _main(self) -> str:
        # Which process served each request: upstreams_by_table reads it back.
        logging = f"log_format routed '$upstream_addr $request_uri';\n    access_log {self.folder}/access.log routed;"
        return main_config(self.folder, logging)

    def upstreams_by_table(self, codes: list[str], requests_each: int) -> dict[str, set[str]]:
        """For each join code, the processes (upstream addresses) that served its requests, from the access log.

        Waits until every table's requests are logged (a socket's line comes once nginx has seen it close).
        """
        deadline = time.monotonic() + 10
        while True:
            served: dict[str, list[str]] = {code: [] for code in codes}
            for line in (self.folder / "access.log").read_text().splitlines():
                upstream, _space, uri = line.partition(" ")
                for code in codes:
                    if f"/{code}/" in uri:
                        served[code].append(upstream)
            if all(len(upstreams) >= requests_each for upstreams in served.values()) or time.monotonic() > deadline:
                return {code: set(upstreams) for code, upstreams in served.items()}
            time.sleep(0.1)

    def command(self, *extra: str) -> list[str]:
        return [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"), "-e", "stderr", *extra]

    def test_config(self) -> subprocess.CompletedProcess:
        return subprocess.run(self.command("-t"), capture_output=True, text=True)

    def start(self) -> Nginx:
        with open(self.folder / "stderr.log", "ab") as log:
            self.process = subprocess.Popen(self.command("-g", "daemon off;"), stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError((self.folder / "stderr.log").read_text())

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def request(self, method: str, path: str, body=None, source="127.0.0.1", headers=None) -> tuple[int, dict]:
        """An HTTPS request to nginx from a loopback address of the client's choosing (127.0.0.x)."""
        connection = http.client.HTTPSConnection(
            "127.0.0.1", self.https_port, source_address=(source, 0), context=UNVERIFIED, timeout=10
        )
        try:
            payload = None if body is None else json.dumps(body)
            all_headers = {"Content-Type": "application/json", **(headers or {})}
            connection.request(method, path, body=payload, headers=all_headers)
            answer = connection.getresponse()
            text = answer.read()
            return answer.status, json.loads(text) if text.startswith(b"{") else {}
        finally:
            connection.close()


@pytest.fixture
def behind_nginx(tmp_path, start_server, shared_env):
    env = shared_env | {"COMPANION_TRUSTED_PROXIES": "1", "COMPANION_RATE_LIMIT_TABLES": "3"}
    servers = [start_server(env), start_server(env)]
    nginx = Nginx(tmp_path / "nginx", [server.port for server in servers]).start()
    yield nginx
    nginx.stop()


def test_the_shipped_config_passes_nginx_t(tmp_path):
    checked = Nginx(tmp_path / "nginx", [free_port(), free_port()]).test_config()
    assert checked.returncode == 0, checked.stderr


def test_a_socket_through_nginx_gets_every_update(behind_nginx):
    code = new_table(behind_nginx)
    token = take_seat(behind_nginx, code)
    page = open_page(behind_nginx, code, token)
    try:
        assert json.loads(page.recv())["seq"] == 0
        for n in range(1, 4):
            seq = write(behind_nginx, code, token, f"note {n}")
            assert json.loads(page.recv())["seq"] == seq
    finally:
        page.close()


def test_every_request_of_a_table_reaches_one_process_and_the_tables_spread_over_both(behind_nginx):
    codes = [new_table(behind_nginx, f"127.0.0.{10 + n}") for n in range(16)]  # one each: within the rate limit
    for code in codes:
        token = take_seat(behind_nginx, code)
        page = open_page(behind_nginx, code, token)
        json.loads(page.recv())
        seq = write(behind_nginx, code, token, "n")
        assert json.loads(page.recv())["seq"] == seq
        page.close()

    served = behind_nginx.upstreams_by_table(codes, requests_each=3)  # the seat, the socket, the action
    assert all(len(upstreams) == 1 for upstreams in served.values()), served
    assert len(set().union(*served.values())) == 2, served


def new_table(nginx: Nginx, source: str = "127.0.0.1") -> str:
    status, created = nginx.request("POST", "/api/tables", {"game": "secret-notes"}, source)
    assert status == 201, created
    return created["code"]


def take_seat(nginx: Nginx, code: str) -> str:
    status, seat = nginx.request("POST", f"/api/tables/{code}/seats", {"seat": "player-1", "name": "Anna"})
    assert status == 201, seat
    return seat["token"]


def open_page(nginx: Nginx, code: str, token: str) -> websocket.WebSocket:
    return websocket.create_connection(
        f"wss://127.0.0.1:{nginx.https_port}/t/{code}/ws?format=json&since=-1",
        header=[f"Authorization: Bearer {token}"],
        origin=f"https://127.0.0.1:{nginx.https_port}",
        sslopt={"cert_reqs": ssl.CERT_NONE, "check_hostname": False},
        timeout=10,
    )


def write(nginx: Nginx, code: str, token: str, note: str) -> int:
    """The seat writes a note through nginx; returns the acknowledged seq."""
    status, acted = nginx.request(
        "POST",
        f"/api/tables/{code}/actions",
        {"type": "write", "note": note},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert status == 200, acted
    return acted["applied_seq"]


def test_rate_limits_count_each_client_behind_nginx(behind_nginx):
    def new_table(source: str, **headers) -> int:
        return behind_nginx.request("POST", "/api/tables", {"game": "secret-notes"}, source, headers)[0]

    # Requests spread over both processes: the budget is counted in Redis, per client address.
    assert [new_table("127.0.0.2") for _ in range(4)] == [201, 201, 201, 429]
    assert new_table("127.0.0.2", **{"X-Forwarded-For": "127.0.0.9"}) == 429  # posing as another client
    assert new_table("127.0.0.3") == 201
