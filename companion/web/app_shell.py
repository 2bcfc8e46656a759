"""The installable app's own files, served from the root: its service worker and its manifest."""

from __future__ import annotations

from flask import Blueprint, current_app

bp = Blueprint("app_shell", __name__)


@bp.get("/sw.js")
def service_worker():
    """Served from the root so that it may cache the app shell of every page."""
    response = current_app.send_static_file("sw.js")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    return current_app.send_static_file("manifest.webmanifest")
