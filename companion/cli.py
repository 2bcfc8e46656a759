"""`companion serve` for the table's laptop, and the operator's commands."""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path

import qrcode


def lan_address() -> str:
    """This machine's address on the local network, for the phones (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: connect() on UDP only picks the route
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def self_signed_certificate(data_dir: str) -> tuple[str, str]:
    """A certificate for --tls, made once with openssl and kept in the data directory."""
    folder = Path(data_dir) / "tls"
    cert, key = folder / "cert.pem", folder / "key.pem"
    if not cert.exists():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "3650",
                "-subj",
                "/CN=Table Companion",
                "-addext",
                f"subjectAltName=IP:{lan_address()},IP:127.0.0.1,DNS:localhost",
                "-keyout",
                str(key),
                "-out",
                str(cert),
            ],
            check=True,
            capture_output=True,
        )
        key.chmod(0o600)
    return str(cert), str(key)


def print_join(url: str) -> None:
    print(f"\n  Table Companion is open. On a phone on the same Wi-Fi, open:\n\n    {url}\n")
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.print_ascii(out=sys.stdout, invert=True)
    sys.stdout.flush()


def serve(args: argparse.Namespace) -> None:
    from werkzeug.serving import make_server

    from companion import create_app

    scheme = "https" if args.tls else "http"
    shown_host = lan_address() if args.host in ("0.0.0.0", "") else args.host
    public_url = os.environ.get("COMPANION_PUBLIC_URL") or f"{scheme}://{shown_host}:{args.port}"
    app = create_app({"DATA_DIR": args.data_dir, "PUBLIC_URL": public_url})
    ssl_context = self_signed_certificate(args.data_dir) if args.tls else None
    server = make_server(args.host, args.port, app, threaded=True, ssl_context=ssl_context)
    print_join(public_url + "/")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="serve the app (SQLite in the data directory)")
    run.add_argument("--host", default="0.0.0.0")
    run.add_argument("--port", type=int, default=8000)
    run.add_argument("--data-dir", default=os.environ.get("COMPANION_DATA_DIR", "data"))
    run.add_argument(
        "--tls", action="store_true", help="HTTPS with a self-signed certificate kept in the data directory"
    )
    run.set_defaults(handler=serve)
    args = parser.parse_args(argv)
    args.handler(args)


if __name__ == "__main__":
    main()
