"""The WebSocket of an open page: fresh views pushed in, actions (optionally) sent out.

Each page's own thread does all of its I/O: it reads the actions the phone
sends, pings the phone now and then and, when the hub wakes it, sends the
page's newest view. Nothing else writes to its socket but simple-websocket's
reader answering the phone's own pings and close, so a phone that stops
reading blocks only its own thread, until the hub's watchdog cuts it off.
"""

from __future__ import annotations

import contextlib
import functools
import json
import threading
import time
from dataclasses import dataclass, field

from flask import Blueprint, abort, current_app, render_template, request
from flask_babel import get_locale
from flask_sock import ConnectionClosed, Sock
from wsproto.events import Ping, TextMessage
from wsproto.frame_protocol import CloseReason

from companion.boundary import MAX_BODY, Form, form_from_json, parse_json_text
from companion.forms import action_from_json, optional_int, optional_str
from companion.games.base import HOST
from companion.tables import TableError, TooMany
from companion.web import frame_regions
from companion.web.common import (
    act_by_form,
    bearer_token,
    cookie_is_host,
    form_sender,
    host_cookie,
    of_another_build,
    seat_cookie,
    table_code,
    tables,
    token_actor,
)
from companion.web.errors import answer_status, error_json, error_message
from companion.web.frames import PageView
from companion.web.library_internals import SocketServer, accept_deflate_as, serve_sockets_with
from companion.web.socket_budget import FLOODER_HELD, PING_TEXT, PONG_TEXT, TAPS_PAST_BUDGET, SocketBudget
from companion.web.socket_frames import OneMessageDeflate, SocketFrames

sock = Sock()
bp = Blueprint("ws", __name__)

# Browsers offer permessage-deflate, and simple-websocket accepts it with a compressor and a decompressor kept for the
# socket's whole life (bench/RESULTS.md, "Figures that were comments"). Without context takeover each message is
# compressed on its own and zlib's memory is freed after it. No message inflates past the largest a page may send.
accept_deflate_as(functools.partial(OneMessageDeflate, MAX_BODY))


# Messages a phone may have sent that its page has not handled yet: a burst of taps waits in memory, a flood in the
# kernel, whose full window slows the phone (simple-websocket's reader kept them all, and a flood of deflated messages
# grew the server by hundreds of MB: bench/RESULTS.md).
READ_AHEAD = 4
# Long enough for the reader to write one frame (the reply to the phone's close: without it the phone sees an abnormal
# close, 1006, instead of 1000); short enough not to hold a worker thread.
CLOSE_REPLY_WAIT = 1.0


class PageServer(SocketServer):
    """simple-websocket's server of one socket, with the common frames read and written in SocketFrames, and at most
    READ_AHEAD messages read ahead of the page."""

    def __init__(self, *args, **kwargs):
        self._room = threading.Event()  # set when the page takes a message, or is done with the socket
        self._finished = False  # the page is done with it: however it ended, the reader reads no more
        super().__init__(*args, **kwargs)

    def frames(self, connection):
        return SocketFrames(connection, self._room_for_a_message)  # before the reader starts: it reads only through it

    def _room_for_a_message(self) -> None:
        """The reader's wait while the page has READ_AHEAD messages unhandled; it reads no more once the socket is
        closed (simple-websocket's reader would take the phone's messages on, and reopen the socket for them)."""
        while True:
            self._room.clear()  # cleared before looking: a message taken after the look sets it again
            if self._finished or not self.connected:
                raise ConnectionAbortedError("the socket is closed")  # the reader's end
            if self.messages_read_ahead() < READ_AHEAD:
                return
            self._room.wait()

    def receive(self, timeout=None):
        message = super().receive(timeout)
        self._room.set()
        return message

    def finish(self) -> None:
        """The page is done with its socket: let the reader answer the phone's close, then end the connection, so that
        nothing more is read or written on it. (Under werkzeug the server wrote an HTTP answer after the last frame.)"""
        self._finished = True  # a page that ended by an error left the socket open: its reader must not wait on
        self._room.set()
        if not self.connected:  # its reader marks the socket closed (waking the page) before it writes the reply
            self.wait_for_reader(CLOSE_REPLY_WAIT)
        with contextlib.suppress(OSError):  # closed already
            self.end_connection()


serve_sockets_with(PageServer)


@dataclass(eq=False)
class PageSocket(PageView):
    """One open page: what it shows, and its connection."""

    ws: PageServer = field(kw_only=True, repr=False)
    ping_interval: float = field(kw_only=True)

    def __post_init__(self, seat_token: str | None) -> None:
        super().__post_init__(seat_token)
        self._behind = threading.Event()  # the table changed since the last frame this page sent
        self._answer: str | None = None  # to a form of this page's, sent in one message with the next frame
        self._sending_since: float | None = None
        self.sent = frame_regions.SentFrames()
        self._next_ping = time.monotonic() + self.ping_interval

    def wake(self) -> None:
        self._behind.set()
        self.ws.wake()  # the same wake as for an incoming message or a close

    def is_behind(self) -> bool:
        return self._behind.is_set()

    def remind(self, now: float) -> None:
        if now >= self._next_ping:
            self.ws.wake()

    def sending_since(self) -> float | None:
        return self._sending_since

    def cut_off(self) -> None:
        with contextlib.suppress(OSError):  # already closed
            self.ws.end_connection()

    def send(self, frame: str) -> None:
        self._sending(self._write, TextMessage(data=frame))

    def _write(self, event) -> None:
        """The event's frame, whole: with simple-websocket's own send, the rest of a frame bigger than what the kernel
        took was lost under gevent, and the phone's stream garbled. (Its reader writes on its own only to answer a ping,
        which browsers never send, or a close, after which the stream ends anyway.)"""
        if not self.ws.connected:
            raise ConnectionClosed(self.ws.close_reason, self.ws.close_message)
        self.ws.write(event)

    def answer(self, answer: dict) -> None:
        """The answer to a form this page sent over the socket. When the action woke the page, it goes in one
        message with the fresh view, the answer's line first (one send instead of two, an HTML page only)."""
        if answer["status"] == 200 and self.is_behind() and not self.as_json:
            self._answer = json.dumps(answer)
        else:
            self.send(json.dumps(answer))

    def _sending(self, send, *args) -> None:
        """Write to the socket where the watchdog sees it if the write gets stuck."""
        self._sending_since = time.monotonic()
        try:
            send(*args)
        finally:
            self._sending_since = None

    def next_message(self) -> str | None:
        """Wait until the page has something to do; an incoming message, or None when it is only behind."""
        while True:
            if time.monotonic() >= self._next_ping:
                self._ping()
            self.ws.forget_wakes()  # before looking: whatever arrives after the look wakes it again
            if self.ws.messages_read_ahead() or not self.ws.connected:
                time.sleep(0)  # under gevent, every other page and request has its turn between one phone's messages
                return self.ws.receive()  # does not wait: a message is there, or it raises ConnectionClosed
            if self._behind.is_set():
                return None
            self.ws.wait_to_be_woken()  # until a message, a change or the hub's reminder that a ping is due

    def _ping(self) -> None:
        """Ping the phone; one that has not answered the last ping is gone (its Wi-Fi died without a close)."""
        self._next_ping = time.monotonic() + self.ping_interval
        if not self.ws.pong_came():
            self._sending(self.ws.close, CloseReason.POLICY_VIOLATION, "Ping/Pong timeout")
            return
        self.ws.expect_pong()
        self._sending(self._write, Ping())

    def send_whole(self) -> None:
        """Send the next frame whole (the page asked: it does not show the one the last diff was made from)."""
        self.sent.forget()
        self._behind.set()

    def send_if_behind(self, hub, code: str) -> bool:
        """Send the newest view if the page is behind; False when the page may no longer see the table."""
        if not self._behind.is_set():
            return True
        self._behind.clear()
        frame = hub.frame(code, self)
        answer, self._answer = self._answer, None
        if frame is None:
            if answer:
                self.send(answer)
            return False
        if not self.as_json:
            frame = self.sent.as_sent(frame)
        self.send(frame if answer is None else f"{answer}\n{frame}")
        return True


@sock.route("/t/<code>/ws", bp=bp)
def table_socket(ws, code):
    service = tables()
    code = table_code(code)
    view = request.args.get("view")
    actor, token = _socket_actor(code, host_page=view == "host")
    seat = actor if (actor not in (None, HOST) and view not in ("display", "host")) else None
    page = PageSocket(
        seat,
        token,
        actor == HOST or cookie_is_host(code),
        str(get_locale()),
        request.host_url,
        request.args.get("format") == "json",
        host_page=view == "host",
        ws=ws,
        ping_interval=current_app.config["PING_INTERVAL"],
    )
    hub = current_app.extensions["companion.hub"]
    # A page behind the table, or of another build (it reconnected to an upgraded server: its frame tells it), is
    # sent the newest view at once.
    behind = request.args.get("since", -1, type=int) < service.newest(code).seq
    if behind or of_another_build():
        page.wake()
    hub.watch(code, page)
    try:
        reason = _serve(code, token, page)
        # Where the watchdog sees it: a flooding phone that stopped reading must not hold this close, nor the page.
        page._sending(ws.close, CloseReason.POLICY_VIOLATION, reason)
    except (ConnectionClosed, OSError):
        pass  # the phone went away or was cut off: it reconnects and catches up by `since`
    finally:
        hub.unwatch(code, page)
        ws.finish()


@bp.before_app_request
def check_origin():
    """A page of another site must not open a socket with this table's cookies."""
    if request.path.endswith("/ws") and not origin_allowed(request.headers.get("Origin")):
        abort(403)


def origin_allowed(origin: str | None) -> bool:
    """No Origin (not a browser), this very host, or one of COMPANION_ALLOWED_ORIGINS."""
    if origin is None:
        return True
    allowed = {request.host_url.rstrip("/").split("://", 1)[1], *current_app.config["ALLOWED_ORIGINS"]}
    return origin.split("://", 1)[-1].rstrip("/") in allowed


def _serve(code: str, token: str | None, page: PageSocket) -> str:
    """The page's fresh views and its phone's messages, until its seat is freed (this phone is not to see it any more)
    or the phone sends past the socket's budget; why its socket is closed."""
    hub, budget = current_app.extensions["companion.hub"], SocketBudget(current_app.config["SOCKET_RATE"])
    while page.send_if_behind(hub, code):
        message = page.next_message()
        if message is None:
            continue
        if not budget.admits(message):
            if not budget.may_refuse():
                time.sleep(FLOODER_HELD)
                return "Too many messages"
            _refuse(page, message)
        elif message == PING_TEXT:
            page.send(PONG_TEXT)
        elif message == frame_regions.WHOLE_TEXT:
            page.send_whole()
        else:
            _handle(code, token, page, message)
    return "The seat was freed"


def _handle(code: str, token: str | None, page: PageSocket, message: str) -> None:
    """An action sent over the socket, applied like a POST.

    A page sends its form as a POST would send it ({"form": {"type": ["bid"], …}}, nothing else) and is answered
    with the status a POST would get and a refusal's notice, under the form's action id (static/app.js sends an
    action again until it is answered). A program sends a JSON action and hears only of a refusal; the frames pushed
    tell it the rest.
    """
    form = None
    try:
        body, form = _read(message)
        if form is not None:
            # Who acts is asked again for every action: the host may have freed the seat since the socket opened.
            actor = token_actor(code, token)
            act_by_form(code, form_sender(form, None if actor == HOST else actor, actor == HOST), form, token)
        else:
            service = tables()
            actor = service.authenticate(code, token)
            # cached, not live: only the game is needed here; `act` catches up itself if another process appended.
            action = action_from_json(service.cached(code).game, body, service.games.values())
            client_action_id, seen_seq = optional_str(body, "client_action_id"), optional_int(body, "seen_seq")
            service.act(code, actor, action, client_action_id=client_action_id, seen_seq=seen_seq, token=token)
    except TableError as error:
        _answer_refusal(page, form, error)
        return
    if form is not None:
        page.answer({"answer": form.get("client_action_id"), "status": 200})


def _refuse(page: PageSocket, message: str) -> None:
    """A message past the socket's budget: a page's form is answered 429 (static/app.js does not send it again, and
    shows the notice), anything else gets the error frame."""
    try:
        _body, form = _read(message)
    except TableError:
        form = None
    _answer_refusal(page, form, TooMany(TAPS_PAST_BUDGET))


def _read(message: str) -> tuple[dict, Form | None]:
    """The message's JSON, and the page's form if it is one; BadInput if it is neither."""
    body = parse_json_text(message if isinstance(message, str) else "")
    return body, form_from_json(body["form"]) if body.keys() == {"form"} else None


def _answer_refusal(page: PageSocket, form: Form | None, error: TableError) -> None:
    """A refusal: a page's form is answered with the status a POST would get and a notice (only a refusal has one: the
    fresh view that follows an action clears the last one away), anything else gets the error frame."""
    if form is None:
        page.send(json.dumps(error_json(error.code, error_message(error))))
        return
    notice = render_template("notice.html", notice=error_message(error), kind="error")
    page.answer({"answer": form.get("client_action_id"), "status": answer_status(error), "notice": notice})


def _socket_actor(code: str, host_page: bool) -> tuple[str | None, str | None]:
    """Who opened this socket (HOST, a seat id or None) and with which token: on the host page the host, whose
    forms it sends, else the seat of a host who plays too."""
    cookies = [request.cookies.get(seat_cookie(code)), request.cookies.get(host_cookie(code))]
    for token in (bearer_token(), *(reversed(cookies) if host_page else cookies)):
        actor = token_actor(code, token)
        if actor is not None:
            return actor, token
    return None, None
