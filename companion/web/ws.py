"""The WebSocket of an open page: fresh views pushed in, actions (optionally) sent out."""

from __future__ import annotations

import json
import threading

from flask import Blueprint, Flask, current_app, request
from flask_babel import force_locale, get_locale
from flask_sock import Sock

from companion import i18n
from companion.forms import action_from_json, optional_int, optional_str
from companion.games.base import HOST, N_
from companion.tables import TableError, Tables, Unauthorized, token_hash
from companion.web.common import (
    bearer_token,
    cookie_is_host,
    host_cookie,
    live_html,
    seat_cookie,
    tables,
    token_actor,
)

sock = Sock()
bp = Blueprint("ws", __name__)


class PageSocket:
    """One open page: whose view it shows, in which language and form."""

    def __init__(
        self, ws, seat: str | None, seat_token: str | None, is_host: bool, locale: str, base_url: str, as_json: bool
    ):
        self.ws = ws
        self.seat = seat
        # A freed seat's old phone must stop receiving the seat's view: each push checks the token still holds it.
        self.seat_token_hash = token_hash(seat_token) if seat and seat_token else None
        self.is_host = is_host
        self.locale = locale
        self.base_url = base_url
        self.as_json = as_json
        self.render_key = (seat, self.seat_token_hash, is_host, locale, as_json)
        self._send_lock = threading.Lock()

    def send(self, frame: str) -> None:
        with self._send_lock:
            self.ws.send(frame)

    def close(self) -> None:
        with self._send_lock:
            self.ws.close(reason=1008)


def render_push(app: Flask, code: str, page: PageSocket) -> str | None:
    """A frame for one open page, rendered outside its own request (from whoever changed the table).

    None when the page's seat has been freed by the host since it opened: it gets nothing more.
    """
    if page.seat and not app.extensions["companion"].holds_seat(code, page.seat, page.seat_token_hash):
        return None
    if page.as_json:
        # JSON frames are not translated and hold no URLs: no Flask context needed (it costs more than the frame).
        return json_frame(app.extensions["companion"], code, page.seat)
    with app.test_request_context("/", base_url=page.base_url), force_locale(page.locale):
        return render_frame(code, page)


def json_frame(service: Tables, code: str, seat: str | None) -> str:
    snapshot = service.view(code, seat, fresh=False)
    return json.dumps({key: snapshot[key] for key in ("seq", "view", "history", "outcome")})


def render_frame(code: str, page: PageSocket) -> str:
    if page.as_json:
        return json_frame(tables(), code, page.seat)
    return live_html(code, page.seat, page.is_host, fresh=False)


@sock.route("/t/<code>/ws", bp=bp)
def table_socket(ws, code):
    service = tables()
    code = service.live(code).record.code
    actor, token = _socket_actor(code)
    seat = actor if (actor not in (None, HOST) and request.args.get("view") != "display") else None
    page = PageSocket(
        ws,
        seat,
        token,
        actor == HOST or cookie_is_host(code),
        str(get_locale()),
        request.host_url,
        request.args.get("format") == "json",
    )
    hub = current_app.extensions["companion.hub"]
    hub.watch(code, page)
    try:
        if request.args.get("since", -1, type=int) < service.live(code).seq:
            page.send(render_frame(code, page))
        while True:
            message = ws.receive()
            if message is None:
                break
            _handle(code, actor, page, message)
    finally:
        hub.unwatch(code, page)
        _finish_closing(ws)


# Long enough for the reader thread to write one frame; short enough not to hold a worker thread.
CLOSE_REPLY_WAIT = 1.0


def _finish_closing(ws) -> None:
    """Let simple-websocket answer the phone's close frame before the server closes the TCP socket.

    Its reader thread marks the socket closed (waking `receive`) before it writes
    the close reply; returning at once lets gunicorn close the socket first, and the
    phone sees an abnormal close (1006) instead of 1000.
    """
    if not ws.connected:
        ws.thread.join(CLOSE_REPLY_WAIT)


def _handle(code: str, actor: str | None, page: PageSocket, message: str) -> None:
    """An action sent over the socket: applied like a POST; a refusal goes to this page only."""
    try:
        body = json.loads(message)
        if actor is None:
            raise Unauthorized(N_("Take a seat first."))
        # cached, not live: only the game is needed here; `act` catches up itself if another process appended.
        action = action_from_json(tables().cached(code).game, body)
        client_action_id, seen_seq = optional_str(body, "client_action_id"), optional_int(body, "seen_seq")
        tables().act(code, actor, action, client_action_id=client_action_id, seen_seq=seen_seq)
    except (ValueError, TableError) as error:
        text = i18n.say(error.message) if isinstance(error, TableError) else "bad message"
        page.send(json.dumps({"error": {"code": getattr(error, "code", "bad_request"), "message": text}}))


def _socket_actor(code: str) -> tuple[str | None, str | None]:
    """Who opened this socket (HOST, a seat id or None) and with which token."""
    for token in (bearer_token(), request.cookies.get(seat_cookie(code)), request.cookies.get(host_cookie(code))):
        actor = token_actor(code, token)
        if actor is not None:
            return actor, token
    return None, None
