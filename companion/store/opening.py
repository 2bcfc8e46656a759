"""The store the configuration asks for, opened: apart from store/__init__.py, whose types every store imports (the
package importing the stores back was a cycle)."""

from __future__ import annotations

from companion.store import Store


def open_store(database_url: str | None, data_dir: str) -> Store:
    """The store the configuration asks for: PostgreSQL by URL, else SQLite in data_dir."""
    if database_url and database_url.startswith(("postgresql://", "postgres://")):
        from companion.store.postgres import PostgresStore

        return PostgresStore(database_url)
    from companion.store.sqlite import SqliteStore

    path = database_url.removeprefix("sqlite:///") if database_url else None
    return SqliteStore(path or f"{data_dir}/companion.sqlite3")
