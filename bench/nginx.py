"""deploy/nginx.conf for a benchmark on loopback: plain HTTP on one port in front of the given processes.

(tests/scale/test_nginx.py runs the same main file, `main_config`, in front of the site with TLS.)

The load generator speaks plain HTTP and WebSocket to 127.0.0.1, so the TLS lines go, and
so does the budget of connections per client address (all of its thousands come from one);
everything else (the routing of a table to one process, the socket settings) is
the shipped file's. With one process, both upstream entries name it.

    python -m bench.nginx FOLDER PORT UPSTREAM_PORT [UPSTREAM_PORT]
    nginx -p FOLDER -c FOLDER/nginx.conf
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DEPLOYED = Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf"


def site(port: int, upstreams: list[int]) -> str:
    first, second = upstreams[0], upstreams[-1]
    kept = []
    for line in DEPLOYED.read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith(("ssl_", "add_header Strict-Transport-Security", "listen [::]", "limit_conn ")):
            continue
        line = line.replace("app1:8000", f"127.0.0.1:{first}").replace("app2:8000", f"127.0.0.1:{second}")
        line = line.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port};")
        kept.append(line)
    text = "\n".join(kept)
    # The redirect to HTTPS would only take another port: it goes, with its server block.
    redirect = text.index("server {\n    listen 80;")
    return text[:redirect] + text[text.index("}\n", redirect) + 2 :]


def main_config(folder: Path, logging: str = "access_log off;") -> str:
    """nginx's own file for a folder of its own (pid, logs, temporary files), one worker, the site included."""
    temp = "\n".join(f"    {kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy"))
    return f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
# 1,000 tables of seven pages: each page is two connections here, one from its client and one to its process.
worker_rlimit_nofile 40000;
events {{ worker_connections 20000; }}
http {{
    {logging}
{temp}
    include {folder}/companion.conf;
}}
"""


def write(folder: Path, port: int, upstreams: list[int]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "companion.conf").write_text(site(port, upstreams))
    (folder / "nginx.conf").write_text(main_config(folder))


if __name__ == "__main__":
    write(Path(sys.argv[1]), int(sys.argv[2]), [int(arg) for arg in sys.argv[3:]])
