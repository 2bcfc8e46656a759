"""Security headers, CSRF protection of the HTML forms and rate limits."""

from __future__ import annotations

import secrets

from flask import Flask, abort, request, session

from companion.ratelimit import RateLimit

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; manifest-src 'self'; worker-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def csrf_token() -> str:
    """This device's token for the HTML forms (kept in the signed session cookie)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def init_app(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.extensions["companion.limits"] = {
        "tables": RateLimit(app.config["RATE_LIMIT_TABLES"], app.config["RATE_LIMIT_WINDOW"]),
        "seats": RateLimit(app.config["RATE_LIMIT_SEATS"], app.config["RATE_LIMIT_WINDOW"]),
    }

    @app.before_request
    def check_csrf():
        # The JSON API authenticates with Bearer tokens, which a foreign page cannot send.
        if request.method != "POST" or request.path.startswith("/api/"):
            return
        sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
        if not sent or not secrets.compare_digest(sent, session.get("csrf", "")):
            abort(403, description="csrf")

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response


def rate_limited(app: Flask, kind: str) -> bool:
    """True when this client has opened too many tables / claimed too many seats lately."""
    return not app.extensions["companion.limits"][kind].allow(request.remote_addr or "?")
