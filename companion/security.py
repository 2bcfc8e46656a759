"""Security headers, CSRF protection of the HTML forms, the client's address behind proxies and rate limits."""

from __future__ import annotations

import base64
import secrets

from flask import Flask, abort, current_app, g, has_request_context, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.util import get_remote_address
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.games.base import N_
from companion.tables import NotFound


def rate_limited(budget: str):
    """Marks a view as spending the client's budget "new-tables" or "seat-claims" (see init_limits)."""

    def mark(view):
        view.rate_limit_budget = budget
        return view

    return mark


# Budget -> its setting (per RATE_LIMIT_WINDOW) and what a client that spent it is told.
BUDGETS = {
    "new-tables": ("RATE_LIMIT_TABLES", N_("Too many new tables from this device; wait a minute.")),
    "seat-claims": ("RATE_LIMIT_SEATS", N_("Too many seat claims from this device; wait a minute.")),
}
PROBES_REFUSED = N_("Too many unknown join codes from this device; wait a minute.")


def _per_window(app: Flask, setting: str) -> str:
    return f"{app.config[setting]} per {app.config['RATE_LIMIT_WINDOW']} seconds"


def _not_a_guess() -> bool:
    """Only requests naming a table that does not exist meet the guessing budget.

    A known table's own requests neither spend it nor are refused by it: behind
    one NAT, one person's mistyped codes must not lock the others out of their game.
    """
    code = (request.view_args or {}).get("code")
    if code is None:
        return True
    if "companion_table_known" not in g:
        try:
            current_app.extensions["companion"].cached(code)
            g.companion_table_known = True
        except NotFound:
            g.companion_table_known = False
        except Exception:  # noqa: BLE001 - the store is in trouble: the view itself says so, not the limiter
            g.companion_table_known = True
    return g.companion_table_known


def _unknown_table(response) -> bool:
    return response.status_code == 404


# connect-src: the page's own socket (ws:// or wss:// on this very host) and nothing else.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' {socket}; manifest-src 'self'; worker-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def content_security_policy() -> str:
    # Both schemes: behind a TLS proxy that is not trusted (COMPANION_TRUSTED_PROXIES) the app sees http.
    return CSP.format(socket=f"ws://{request.host} wss://{request.host}")


def csrf_token() -> str:
    """This device's token for the HTML forms, masked afresh every time a page carries it.

    The token itself stays in the signed session cookie. Pages go out compressed and
    also carry text that others choose (an invite link echoes its path): one unmasked
    token, repeated on every page, could be read off the compressed lengths (BREACH).
    """
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    token = session["csrf"].encode()
    pad = secrets.token_bytes(len(token))
    return base64.urlsafe_b64encode(pad + bytes(a ^ b for a, b in zip(pad, token, strict=True))).decode()


def csrf_sent_matches(sent: str) -> bool:
    """Whether a form's masked token unmasks to this device's token."""
    try:
        masked = base64.urlsafe_b64decode(sent.encode("ascii"))
    except (ValueError, UnicodeEncodeError):
        return False
    if len(masked) % 2:
        return False
    half = len(masked) // 2
    token = bytes(a ^ b for a, b in zip(masked[:half], masked[half:], strict=True))
    expected = session.get("csrf", "").encode()
    return bool(expected) and secrets.compare_digest(token, expected)


class SessionCookie(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the page came over HTTPS (`serve --tls`, or nginx's
    X-Forwarded-Proto from a trusted proxy), not only when COMPANION_PUBLIC_URL says https://."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or (has_request_context() and request.is_secure)


def init_app(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.session_interface = SessionCookie()
    hops = app.config["TRUSTED_PROXIES"]
    if hops:
        # Only the proxies we run may say who the client is; anything further left in the header is hearsay.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)

    @app.before_request
    def check_csrf():
        # The JSON API authenticates with Bearer tokens, which a foreign page cannot send. A request no view
        # takes (404, or 405 with Allow) is answered as such: the check guards views, not the router's answers.
        if request.method != "POST" or request.path.startswith("/api/") or request.routing_exception is not None:
            return
        sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
        if not csrf_sent_matches(sent):
            abort(403, description="csrf")

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", content_security_policy())
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response


def redis_options() -> dict:
    """The rate limits' Redis client: the same short timeouts as the live updates' (companion.redis_fanout)."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    from companion.redis_fanout import REDIS_TIMEOUT

    return {"socket_timeout": REDIS_TIMEOUT, "socket_connect_timeout": REDIS_TIMEOUT, "retry": Retry(NoBackoff(), 0)}


def init_limits(app: Flask) -> None:
    """Rate limits per client address, once the views are registered.

    Counted in Redis when there is one, so that every process of a deployment
    counts a client alike; in this process otherwise (and while Redis is away).
    """
    limiter = Limiter(
        get_remote_address,
        storage_uri=app.config["REDIS_URL"] or "memory://",
        key_prefix=app.config["REDIS_PREFIX"],
        in_memory_fallback_enabled=True,
        # A Redis that hangs must not hold the request: give up quickly and count here until it answers again.
        storage_options=redis_options() if app.config["REDIS_URL"] else {},
        swallow_errors=True,
        headers_enabled=True,
        # Guessing join codes: 404s on a table's pages, API and socket count, and too many lock the client out.
        application_limits=[
            ApplicationLimit(
                _per_window(app, "RATE_LIMIT_PROBES"),
                error_message=PROBES_REFUSED,
                exempt_when=_not_a_guess,
                deduct_when=_unknown_table,
            )
        ],
    )
    for endpoint, view in list(app.view_functions.items()):
        budget = getattr(view, "rate_limit_budget", None)
        if budget:
            setting, refusal = BUDGETS[budget]
            # Shared: the page and the API route that do the same thing spend one budget.
            limit = limiter.shared_limit(_per_window(app, setting), scope=budget, error_message=refusal)
            app.view_functions[endpoint] = limit(view)
    limiter.init_app(app)
    app.extensions["companion.limiter"] = limiter
