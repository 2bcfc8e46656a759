"""HTTPS on the LAN, told truthfully: an accepted self-signed certificate gives a secure context (the wake lock)
but no service worker; a certificate the browser trusts gives the service worker too."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import ServerProcess
from tests.e2e import lobby
from tests.e2e.conftest import ARGS, CHROMIUM
from tests.e2e.service_worker import controlled

NO_WORKER = "Installing the app is off: browsers start no service worker under a certificate they do not trust"
# A function, not an expression: the page's CSP forbids the eval that Playwright's polling of an expression needs.
REGISTERED = "async () => (await navigator.serviceWorker.getRegistrations()).length"


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def local_ca_certificate(folder: Path) -> str:
    """A local CA and a server certificate for 127.0.0.1 signed by it, where `serve --tls` keeps its certificate
    (data/tls: cert.pem with the chain, key.pem); returns the CA's SPKI hash, base64 of its SHA-256."""
    folder.mkdir(parents=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Test table CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            "-keyout", "ca.key", "-out", "ca.pem", cwd=folder)  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "key.pem",
            "-out", "server.csr", cwd=folder)  # fmt: skip
    (folder / "server.ext").write_text("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-days", "2", "-extfile", "server.ext", "-out", "server.pem", cwd=folder)  # fmt: skip
    (folder / "cert.pem").write_text((folder / "server.pem").read_text() + (folder / "ca.pem").read_text())
    public_key = subprocess.run(
        ["openssl", "x509", "-in", "ca.pem", "-pubkey", "-noout"], cwd=folder, check=True, capture_output=True
    ).stdout
    der = subprocess.run(
        ["openssl", "pkey", "-pubin", "-outform", "der"], input=public_key, check=True, capture_output=True
    ).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


@pytest.fixture
def tls_server(tmp_path):
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed (.ci/run installs it)")
    servers = []

    def start(data_dir: Path) -> ServerProcess:
        servers.append(ServerProcess(data_dir, tls=True).start())
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def test_with_the_accepted_self_signed_certificate_the_display_says_the_service_worker_is_off_and_why(
    tls_server, browser, tmp_path
):
    server = tls_server(tmp_path / "data")
    # The browser's one warning, accepted: what a player does when the table's first page opens.
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, ignore_https_errors=True)
    try:
        display = context.new_page()
        lobby.open_table(display, server.url, "Scotland Yard")
        assert display.evaluate("() => window.isSecureContext")  # so the wake lock is on
        expect(display.locator("[data-no-worker-note]")).to_be_visible()
        expect(display.locator("[data-no-worker-note]")).to_contain_text(NO_WORKER)
        expect(display.locator("[data-no-worker-note]")).to_contain_text("Keeping the screen awake is on.")
        expect(display.locator("[data-insecure-note]")).to_be_hidden()
        assert display.evaluate(REGISTERED) == 0
    finally:
        context.close()


def test_under_a_certificate_the_browser_trusts_the_service_worker_installs_and_controls_the_display(
    tls_server, browser, tmp_path
):
    data = tmp_path / "data"
    ca_key_hash = local_ca_certificate(data / "tls")  # serve keeps the certificate it finds there
    server = tls_server(data)
    # A browser of its own that trusts the local CA, as a device with that CA installed does.
    trusting = browser.browser_type.launch(
        executable_path=CHROMIUM, headless=True, args=[*ARGS, f"--ignore-certificate-errors-spki-list={ca_key_hash}"]
    )
    try:
        display = trusting.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        lobby.open_table(display, server.url, "Scotland Yard")
        assert controlled(display) == "activated"
        assert display.evaluate("() => navigator.serviceWorker.controller.scriptURL") == f"{server.url}/sw.js"
        expect(display.locator("[data-no-worker-note]")).to_be_hidden()
        expect(display.locator("[data-insecure-note]")).to_be_hidden()
    finally:
        trusting.close()
