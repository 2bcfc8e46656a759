"""`companion serve`: the terminal QR code and HTTPS with a self-signed certificate."""

import urllib.request

from tests.conftest import ServerProcess


def test_serve_prints_the_join_url_and_a_qr_code(server):
    printed = server.log.read_text()
    assert f"http://127.0.0.1:{server.port}/" in printed
    assert "█" in printed


def test_serve_tls_makes_a_self_signed_certificate_and_keeps_it(tmp_path):
    server = ServerProcess(tmp_path / "data", tls=True).start()
    try:
        with urllib.request.urlopen(server.url + "/healthz", context=server.ssl_context()) as answer:
            assert answer.status == 200
        with urllib.request.urlopen(server.url + "/", context=server.ssl_context()) as lobby:
            assert "Secure" in lobby.headers["Set-Cookie"]
        certificate = (tmp_path / "data" / "tls" / "cert.pem").read_bytes()
    finally:
        server.stop()
    server.start()
    server.stop()
    assert (tmp_path / "data" / "tls" / "cert.pem").read_bytes() == certificate
