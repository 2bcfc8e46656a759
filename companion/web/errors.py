"""How a refusal or an HTTP error is answered, app-wide: the README's error table, as JSON, a notice or a page."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_limiter import RateLimitExceeded
from werkzeug.exceptions import BadHost, HTTPException

from companion import i18n
from companion.games.base import N_, Refusal
from companion.store import StoreBusy
from companion.tables import TableError, TooMany, unavailable

bp = Blueprint("errors", __name__)

# The README's error table, by the kind of refusal (a game's own refusals are the kinds its Game.refusals declare).
STATUS_OF_REFUSAL = {
    Refusal.BAD_REQUEST: 400,
    Refusal.UNAUTHORIZED: 401,
    Refusal.FORBIDDEN: 403,
    Refusal.NOT_FOUND: 404,
    Refusal.CONFLICT: 409,
    Refusal.ILLEGAL: 422,
    Refusal.TOO_MANY: 429,
    Refusal.UNAVAILABLE: 503,
}


def answer_status(error: TableError) -> int:
    """The HTTP status that answers a refusal."""
    return STATUS_OF_REFUSAL[error.refusal]


def error_message(error: TableError) -> str:
    return i18n.say(error.message)


def error_json(code: str, message: str) -> dict:
    """A refusal as the API and the socket send it (the README's error table)."""
    return {"error": {"code": code, "message": message}}


@bp.app_errorhandler(TableError)
def table_error(error: TableError):
    status = answer_status(error)
    if request.path.startswith("/api/"):
        return error_json(error.code, error_message(error)), status
    if request.headers.get("HX-Request"):
        return render_template("notice.html", notice=error_message(error), kind="error"), status
    return render_template("error.html", message=error_message(error)), status


@bp.app_errorhandler(StoreBusy)
def store_busy(error: StoreBusy):
    """A write the database could not take now (locked, connection lost): try again, nothing was stored."""
    return table_error(unavailable(error))


@bp.after_app_request
def retry_soon(response):
    """A 503 (the database could not take a write, or lost its connection) tells the client when to try again."""
    if response.status_code == 503:
        response.headers.setdefault("Retry-After", "1")
    return response


@bp.app_errorhandler(RateLimitExceeded)
def rate_limit_spent(error: RateLimitExceeded):
    return table_error(TooMany(error.description))


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException):
    messages = {
        403: N_("This page is not yours to open, or the form expired. Reload and try again."),
        404: N_("There is nothing here."),
        405: N_("That does not work this way."),
        413: N_("That is too much to send at once."),
    }
    text = i18n.say({"msg": messages.get(error.code, N_("Something went wrong. Please try again.")), "args": {}})
    # Allow on a 405, WWW-Authenticate on a 401: what the error itself says besides its body.
    headers = [(name, value) for name, value in error.get_headers() if name != "Content-Type"]
    if request.path.startswith("/api/"):
        return error_json(error.name.lower().replace(" ", "_"), text), error.code, headers
    if isinstance(error, BadHost):  # no link can be built on an address that is not one: the answer is words only
        return text, error.code, [*headers, ("Content-Type", "text/plain; charset=utf-8")]
    return render_template("error.html", message=text), error.code, headers
