"""What a set of runs ran on, as the first line of bench/compare.sh's output (bench.medians passes over it).

The same code has measured a third cheaper per bid from one session to the next while the peer's Node process did
not change (bench/RESULTS.md, 2026-12-05 late): the interpreter, the versions of the libraries on the hot path (the
dependencies are not pinned) and the processor are what to compare first.

    .venv/bin/python -m bench.box
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from importlib import metadata

HOT_PATH = ("flask", "werkzeug", "jinja2", "markupsafe", "flask-babel", "flask-sock", "simple-websocket", "wsproto")
SERVING = ("gunicorn", "gevent", "greenlet")


def processor() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            return next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), "")
    except OSError:
        return platform.processor()


def node() -> str | None:
    try:
        return subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def box() -> dict:
    return {
        "server": "box",
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": sys.version.split()[0],
        "packages": {name: metadata.version(name) for name in (*HOT_PATH, *SERVING)},
        "processor": processor(),
        "node": node(),
        "load_average": [round(load, 2) for load in os.getloadavg()],  # 1, 5 and 15 minutes: what else runs
    }


if __name__ == "__main__":
    print(json.dumps(box()))
