"""Static files: compressed on the way out, and cached for a year under a URL that names their content."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from flask import Flask, request
from flask_compress import Compress
from werkzeug.security import safe_join

YEAR = 365 * 24 * 3600


@lru_cache(maxsize=512)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def version(static_folder: str, filename: str) -> str | None:
    """A short hash of the file's bytes (None for no such file); recomputed only when the file changes."""
    path = safe_join(static_folder, filename)
    if path is None or not os.path.isfile(path):
        return None
    stat = os.stat(path)
    return _digest(path, stat.st_mtime_ns, stat.st_size)


def init_app(app: Flask) -> None:
    # Static files are sent streamed, and flask-compress leaves gzip out of streams by default; every browser
    # that asks for gzip takes it streamed too.
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["zstd", "br", "gzip", "deflate"])
    Compress(app)

    @app.url_defaults
    def versioned_static(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "v" not in values:
            digest = version(app.static_folder, values.get("filename", ""))
            if digest:
                values["v"] = digest

    @app.after_request
    def cache_static(response):
        if request.endpoint != "static" or response.status_code not in (200, 304):
            return response
        current = version(app.static_folder, (request.view_args or {}).get("filename", ""))
        if current and request.args.get("v") == current:
            # The URL changes with the content: the browser may keep this answer as long as it likes.
            response.cache_control.no_cache = None
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
        else:
            response.cache_control.no_cache = True  # an old or missing version: ask again every time
        return response
