"""What the pages, the API and the socket share: the service, the cookies and tokens that say who a request is, the
form a page sends, absolute URLs."""

from __future__ import annotations

from flask import current_app, request, url_for

from companion.forms import action_from_form, optional_str
from companion.games.base import HOST, N_
from companion.tables import Forbidden, TableError, Tables, Unauthorized


def tables() -> Tables:
    return current_app.extensions["companion"]


def table_code(code: str) -> str:
    """The code of the table a URL names, as the table spells it, read up to its newest event (NotFound if none)."""
    return tables().newest(code).record.code


def seat_cookie(code: str) -> str:
    return f"seat_{code}"


def host_cookie(code: str) -> str:
    return f"host_{code}"


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    return header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else None


def token_actor(code: str, token: str | None) -> str | None:
    """Who a token speaks for at this table (HOST or a seat id); None for no token or a stale one."""
    if not token:
        return None
    try:
        return tables().authenticate(code, token)
    except TableError:
        return None


def cookie_seat(code: str) -> str | None:
    """The seat this device's seat cookie opens, if it still does."""
    actor = token_actor(code, request.cookies.get(seat_cookie(code)))
    return None if actor == HOST else actor


def cookie_is_host(code: str) -> bool:
    return token_actor(code, request.cookies.get(host_cookie(code))) == HOST


def form_sender(form, seat: str | None, is_host: bool) -> str:
    """Who sends a page's form, posted or over its socket: the host when the form says so (the host page's), else
    the page's seat."""
    if form.get("as") == HOST:
        if is_host:
            return HOST
        raise Forbidden(N_("Only the host can do that."))
    if seat is None:
        raise Unauthorized(N_("Take a seat first."))
    return seat


def act_by_form(code: str, actor: str, form, token: str | None) -> None:
    """A page's form, posted or sent over its socket, applied for its sender (by the token it was known by)."""
    service = tables()
    service.act(
        code,
        actor,
        action_from_form(service.cached(code).game, form, service.games.values()),
        client_action_id=optional_str(form, "client_action_id"),
        seen_seq=form.get("seen_seq", type=int),
        token=token,
    )


def external_url(endpoint: str, **values) -> str:
    """An absolute URL a phone on the LAN can open (COMPANION_PUBLIC_URL when the host uses localhost)."""
    public = current_app.config.get("PUBLIC_URL")
    path = url_for(endpoint, **values)
    return public.rstrip("/") + path if public else url_for(endpoint, _external=True, **values)


def of_another_build() -> bool:
    """Whether the page asking is of another build than this server's (it reconnected to an upgraded server): it is
    sent the newest view, whose build tells it to reload."""
    return request.args.get("build", current_app.config["BUILD"]) != current_app.config["BUILD"]


def before_seq() -> int | None:
    """The `before` of a request for older history lines: a seq, or none for the latest."""
    before = request.args.get("before")
    if before is None:
        return None
    if not (before.isascii() and before.isdigit()) or len(before) > 12:  # "²" is a digit int() cannot read
        raise TableError(N_("Ask for the lines before a sequence number."))
    return int(before)


def sent_snapshot(snapshot: dict) -> dict:
    """What a JSON client (the API, a socket's JSON frames) is sent of a seat's snapshot: the pages' own extras
    (undo, the line count, the times played) stay on the server."""
    return {key: snapshot[key] for key in ("seq", "view", "history", "history_before", "outcome", "next_table")}
