"""The machine's real PostgreSQL and Redis for tests: a database and a channel prefix of their own, removed after."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"


def postgres_database() -> Iterator[str]:
    """A fresh database with a unique name; dropped at the end. Skips if PostgreSQL is unreachable."""
    psycopg = pytest.importorskip("psycopg")
    try:
        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        pytest.skip(f"PostgreSQL is unreachable: {error}")
    name = f"companion_test_{secrets.token_hex(6)}"
    with admin:
        admin.execute(f"CREATE DATABASE {name}")
        try:
            yield POSTGRES.rsplit("/", 1)[0] + "/" + name
        finally:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def redis_prefix() -> str:
    """A channel prefix no other test uses. Skips if Redis is unreachable."""
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(REDIS, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.ConnectionError as error:
        pytest.skip(f"Redis is unreachable: {error}")
    finally:
        client.close()
    return f"companion-test-{secrets.token_hex(6)}"
