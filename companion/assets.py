"""Static files: compressed on the way out, and cached for a year under a URL that names their content; the build
the pages are told, so that a page open across an upgrade reloads itself."""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable
from functools import lru_cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as installed_version
from pathlib import Path

from flask import Flask, request
from flask_compress import Compress
from werkzeug.security import safe_join

from companion.paths import PACKAGE, resource_dir

YEAR = 365 * 24 * 3600


@lru_cache(maxsize=512)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def version(static_folder: str | None, filename: str) -> str | None:
    """A short hash of the file's bytes (None for no such file); recomputed only when the file changes."""
    path = safe_join(static_folder, filename) if static_folder else None
    if path is None or not os.path.isfile(path):
        return None
    stat = os.stat(path)
    return _digest(path, stat.st_mtime_ns, stat.st_size)


def version_endpoint(app: Flask, endpoint: str, folder_of: Callable[[dict], str | None]) -> None:
    """Static files served by `endpoint` are versioned and cached like the app's own (folder_of: the endpoint's
    URL values -> the folder its files are in)."""
    app.extensions.setdefault("companion.versioned", {})[endpoint] = folder_of


@functools.cache
def package_build() -> str:
    """This server's build: the package's version and a hash of its files (code, templates, static files), so that
    any change a page could depend on makes another build. Computed once per process."""
    try:
        release = installed_version("table-companion")
    except PackageNotFoundError:  # run from a checkout that was never installed
        release = "0"
    digest = hashlib.sha256()
    for folder in dict.fromkeys([PACKAGE, Path(resource_dir("templates")), Path(resource_dir("static"))]):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return f"{release}-{digest.hexdigest()[:12]}"


def init_app(app: Flask) -> None:
    # Static files are sent streamed, and flask-compress leaves gzip out of streams by default; every browser
    # that asks for gzip takes it streamed too.
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["zstd", "br", "gzip", "deflate"])
    Compress(app)
    # Every page and every live part says which build made it (static/app.js reloads a page of another).
    app.jinja_env.globals["build"] = app.config["BUILD"]
    version_endpoint(app, "static", lambda values: app.static_folder)
    versioned = app.extensions["companion.versioned"]

    @app.url_defaults
    def versioned_static(endpoint: str, values: dict) -> None:
        if endpoint in versioned and "v" not in values:
            digest = version(versioned[endpoint](values), values.get("filename", ""))
            if digest:
                values["v"] = digest

    @app.after_request
    def cache_static(response):
        if request.endpoint not in versioned or response.status_code not in (200, 304):
            return response
        values = request.view_args or {}
        current = version(versioned[request.endpoint](values), values.get("filename", ""))
        if current and request.args.get("v") == current:
            # The URL changes with the content: the browser may keep this answer as long as it likes.
            response.cache_control.no_cache = None
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
        else:
            response.cache_control.no_cache = True  # an old or missing version: ask again every time
        return response
