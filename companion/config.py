"""Settings from the environment (COMPANION_*), overridable by create_app(config)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def from_environment() -> dict:
    """The configuration a server process reads at start."""
    env = os.environ
    return {
        "DATA_DIR": env.get("COMPANION_DATA_DIR", "data"),
        "DATABASE_URL": env.get("COMPANION_DATABASE_URL") or None,
        "REDIS_URL": env.get("COMPANION_REDIS_URL") or None,
        # Redis channels start with this: processes sharing a Redis but not a store must differ.
        "REDIS_PREFIX": env.get("COMPANION_REDIS_PREFIX", "companion"),
        "PUBLIC_URL": env.get("COMPANION_PUBLIC_URL") or None,
        # Other sites (host[:port]) whose pages may open a table's socket; the server's own host always may.
        "ALLOWED_ORIGINS": [o.strip() for o in env.get("COMPANION_ALLOWED_ORIGINS", "").split(",") if o.strip()],
        "BABEL_DEFAULT_LOCALE": env.get("COMPANION_LANGUAGE", "en"),
        "RATE_LIMIT_TABLES": int(env.get("COMPANION_RATE_LIMIT_TABLES", "20")),
        "RATE_LIMIT_SEATS": int(env.get("COMPANION_RATE_LIMIT_SEATS", "60")),
        # Requests about tables that do not exist (guessing join codes), per client address.
        "RATE_LIMIT_PROBES": int(env.get("COMPANION_RATE_LIMIT_PROBES", "30")),
        "RATE_LIMIT_WINDOW": 60,
        # How many proxies in front of the app (nginx: 1) may say who the client is (X-Forwarded-For, -Proto).
        "TRUSTED_PROXIES": int(env.get("COMPANION_TRUSTED_PROXIES", "0")),
        "IDLE_DAYS": int(env.get("COMPANION_IDLE_DAYS", "30")),
        # A table unused this many seconds leaves this process's memory, and at most this many tables stay in it (the
        # least recently used leaves first); a table that left is read back from its log on its next request.
        "TABLE_IDLE_SECONDS": float(env.get("COMPANION_TABLE_IDLE_SECONDS", "600")),
        "TABLES_IN_MEMORY": int(env.get("COMPANION_TABLES_IN_MEMORY", "2000")),
        # Megabytes of parts of pages kept by their inputs, in each process that renders (web/rendered_parts.py).
        "RENDERED_PARTS_MB": float(env.get("COMPANION_RENDERED_PARTS_MB", "128")),
        # Seconds between the server's WebSocket pings: a phone gone without closing misses a pong and is
        # let go within two of them.
        "PING_INTERVAL": float(env.get("COMPANION_PING_INTERVAL", "12")),
        # Seconds a request's headers, and then its body, may take to arrive (companion.slow_clients).
        "REQUEST_TIMEOUT": float(env.get("COMPANION_REQUEST_TIMEOUT", "10")),
        # Messages a second a page socket may send after a burst of ten (web/socket_budget.py: the fastest taps).
        "SOCKET_RATE": float(env.get("COMPANION_SOCKET_RATE", "5")),
        # `companion serve`: connections at once (a thread each); the ones past it are closed at once.
        "MAX_CONNECTIONS": int(env.get("COMPANION_MAX_CONNECTIONS", "200")),
        # Connections at once from one client address (companion.slow_clients): a café's ten tables of seven pages
        # behind one NAT, and their page loads; "0" turns it off. Behind a trusted proxy the proxy counts them.
        "CONNECTIONS_PER_ADDRESS": int(env.get("COMPANION_CONNECTIONS_PER_ADDRESS", "100")),
        # Add-on games: comma-separated modules that expose `game`, registered beside the built-in ones.
        "EXTRA_GAMES": env.get("COMPANION_EXTRA_GAMES", ""),
        # Processes beside the server's that render the pages' pushed frames (companion/web/render_worker.py): one per
        # core where there are two or more (render_workers); "0": the server renders them itself.
        "RENDER_WORKERS": int(env.get("COMPANION_RENDER_WORKERS", render_workers())),
        # The build told to pages (a page of another build reloads itself): by default the package's version and a
        # hash of its files (companion.assets.package_build); a deploy may name its own.
        "BUILD": env.get("COMPANION_BUILD") or None,
        # Tests only: every table's dice and cards follow from this and its game and options (anyone who knows it
        # foresees them), so that a seeded walk replays the same games.
        "REPLAY_SEED": env.get("COMPANION_REPLAY_SEED") or None,
    }


def secret_key(data_dir: str) -> str:
    """The signing key for cookies, generated once and kept in the data directory."""
    path = Path(data_dir) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def render_workers() -> int:
    """A render worker per core, shared by the server's processes (gunicorn's COMPANION_WORKERS: each starts its own);
    a box of one core: none, the server renders."""
    cores = os.cpu_count() or 1
    processes = int(os.environ.get("COMPANION_WORKERS", "1"))
    return max(1, cores // processes) if cores > 1 else 0
