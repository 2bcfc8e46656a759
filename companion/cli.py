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
    """A certificate for --tls, made once with openssl and kept in the data directory.

    One already there is used as it is: put a certificate from a CA the devices trust (cert.pem with its chain,
    key.pem) there, and the service worker comes on too, which a self-signed one never turns on.
    """
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
    from companion.slow_clients import LanRequestHandler, LanServer, connection_budget
    from companion.web.app import create_app

    scheme = "https" if args.tls else "http"
    shown_host = lan_address() if args.host in ("0.0.0.0", "") else args.host
    public_url = os.environ.get("COMPANION_PUBLIC_URL") or f"{scheme}://{shown_host}:{args.port}"
    app = create_app({"DATA_DIR": args.data_dir, "PUBLIC_URL": public_url})
    ssl_context = self_signed_certificate(args.data_dir) if args.tls else None
    handler = type("Handler", (LanRequestHandler,), {"request_timeout": app.config["REQUEST_TIMEOUT"]})
    connections = connection_budget(app.config, total=app.config["MAX_CONNECTIONS"])
    server = LanServer(args.host, args.port, app, handler, ssl_context=ssl_context, connections=connections)
    if app.extensions["companion.render_workers"] is not None:
        app.extensions["companion.render_workers"].start()
    print_join(public_url + "/")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


def tables_command(args: argparse.Namespace) -> None:
    """The operator's view of the store the configuration names (COMPANION_DATABASE_URL, else SQLite)."""
    import json
    import time
    from datetime import datetime

    from companion import config, operator_chores
    from companion.store.opening import open_store

    settings = config.from_environment()
    store = open_store(settings["DATABASE_URL"], args.data_dir)
    try:
        if args.action == "list":
            for table in store.list_tables():
                played = datetime.fromtimestamp(table.updated).isoformat(" ", "minutes")
                archived = "  archived" if table.archived else ""
                print(f"{table.code}  {table.game:<20} {table.events:>6} events  last played {played}{archived}")
        elif args.action == "prune":
            removed, archived = operator_chores.prune(
                store, settings["IDLE_DAYS"] if args.days is None else args.days, time.time()
            )
            print(f"removed {len(removed)}: {' '.join(removed)}\narchived {len(archived)}: {' '.join(archived)}")
        else:
            exported = operator_chores.export_table(store, args.code.strip().upper())
            if exported is None:
                sys.exit(f"There is no table with the code {args.code}.")
            print(json.dumps(exported, indent=1, ensure_ascii=False))
    finally:
        store.close()


def add_tables_commands(commands) -> None:
    tables = commands.add_parser("tables", help="list, prune or export the tables in the store")
    tables.add_argument("--data-dir", default=os.environ.get("COMPANION_DATA_DIR", "data"))
    actions = tables.add_subparsers(dest="action", required=True)
    actions.add_parser("list", help="every table, most recently played first")
    prune = actions.add_parser(
        "prune", help="remove the tables archived by the last prune and still idle, then archive the idle ones"
    )
    prune.add_argument("--days", type=float, help="idle for this many days (default COMPANION_IDLE_DAYS, 30)")
    export = actions.add_parser("export", help="a table's whole log as JSON on standard output")
    export.add_argument("code")
    tables.set_defaults(handler=tables_command)


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
    add_tables_commands(commands)
    args = parser.parse_args(argv)
    args.handler(args)


if __name__ == "__main__":
    main()
