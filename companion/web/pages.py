"""The HTML pages: lobby, join, seat, table display, and the forms they post."""

from __future__ import annotations

from flask import Blueprint, Response, flash, make_response, redirect, render_template, request, url_for

from companion import i18n
from companion.forms import optional_str, parse_options
from companion.games.base import HOST, N_
from companion.security import rate_limited
from companion.tables import Forbidden, NotFound, TableError, Unauthorized, normalise_code
from companion.web.common import (
    act_by_form,
    before_seq,
    cookie_is_host,
    cookie_seat,
    external_url,
    form_sender,
    host_cookie,
    of_another_build,
    seat_cookie,
    table_code,
    tables,
)
from companion.web.errors import answer_status, error_message
from companion.web.frames import WhoSitsWhere, form_answer_frame, live_html, request_renderer
from companion.web.records import finished_play, table_record

bp = Blueprint("pages", __name__)

COOKIE_AGE = 60 * 86400


@bp.get("/")
def lobby():
    return render_template("lobby.html", games=tables().games.values())


@bp.post("/tables")
@rate_limited("new-tables")
def create_table():
    game = tables().games.get(request.form.get("game", ""))
    if game is None:
        raise NotFound(N_("There is no game called %(game)s."), game=request.form.get("game", ""))
    code, host_token = tables().create(game.id, parse_options(game, request.form, from_form=True))
    response = redirect(url_for("pages.display", code=code))
    _set_cookie(response, host_cookie(code), host_token)
    return response


@bp.post("/join")
def join_by_code():
    return redirect(url_for("pages.join", code=normalise_code(request.form.get("code", ""))))


@bp.get("/t/<code>")
def join(code):
    code = table_code(code)
    if cookie_seat(code) is not None:
        return redirect(url_for("pages.seat_page", code=code))
    return _join_page(code, invite=None)


@bp.get("/t/<code>/invite/<invite>")
def invited(code, invite):
    return _join_page(table_code(code), invite=invite)


def _join_page(code: str, invite: str | None):
    service = tables()
    table = service.newest(code)
    return render_template(
        "join.html",
        code=code,
        game=table.game,
        seats=service.seat_specs(table),
        taken=service.names(code),
        invited=service.seats(code),
        invite=invite,
        say=i18n.say,
    )


@bp.post("/t/<code>/seats")
@rate_limited("seat-claims")
def claim_seat(code):
    code = normalise_code(code)
    token = tables().claim(
        code, request.form.get("seat", ""), request.form.get("name", ""), invite=request.form.get("invite") or None
    )
    response = redirect(url_for("pages.seat_page", code=code))
    _set_cookie(response, seat_cookie(code), token)
    return response


@bp.get("/t/<code>/seat")
def seat_page(code):
    code = table_code(code)
    seat = cookie_seat(code)
    if seat is None:
        return redirect(url_for("pages.join", code=code))
    return render_template(
        "seat.html",
        code=code,
        live=live_html(code, seat, is_host=cookie_is_host(code)),
        game=tables().newest(code).game,
        seat=seat,
    )


@bp.get("/t/<code>/display")
def display(code):
    code = table_code(code)
    return render_template(
        "display.html",
        code=code,
        live=live_html(code, None, is_host=cookie_is_host(code)),
        game=tables().newest(code).game,
    )


@bp.get("/t/<code>/host")
def host_page(code):
    """The host's tools (undo, seats, who is connected) and the history, off the table display."""
    code = table_code(code)
    if not cookie_is_host(code):
        raise Forbidden(N_("Only the host can do that."))
    return render_template(
        "host.html",
        code=code,
        live=live_html(code, None, is_host=True, host_page=True),
        game=tables().newest(code).game,
    )


@bp.get("/t/<code>/record")
def record(code):
    """The table's record for the host: who did what, in order, with the undo audit."""
    code = _host_only(code)
    return render_template("record.html", record=table_record(code), game=tables().cached(code).game)


@bp.get("/t/<code>/record.json")
def record_json(code):
    """The same record to download: the host's `companion tables export`, without the secrets and without a shell."""
    code = _host_only(code)
    return _download(table_record(code), f"{tables().cached(code).game.id}-{code}-record.json")


def _download(body: dict, filename: str):
    response = make_response(body)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _host_only(code: str) -> str:
    code = table_code(code)
    if not cookie_is_host(code):
        raise Forbidden(N_("Only the host can do that."))
    return code


@bp.post("/t/<code>/again")
def play_again(code):
    """Play again: the host opens a new table of the same game with the same players, in one tap."""
    code = _host_only(code)
    return _follow(code, tables().play_again(code), "host")


@bp.get("/t/<code>/next")
def follow(code):
    """Where a page of a finished table goes once the host opened the next one: the same seat, or the host's."""
    table = tables().newest(code)
    if not table.next_table:
        return redirect(url_for("pages.join", code=table.record.code))
    return _follow(table.record.code, table.next_table, request.args.get("view", "seat"))


def _follow(old: str, new: str, view: str):
    """Take this device's seat (its old seat token is the invite) and host role from the old table to the new."""
    seat, host_token = cookie_seat(old), request.cookies.get(host_cookie(old)) if cookie_is_host(old) else None
    new_token = None
    if seat and cookie_seat(new) != seat:
        try:
            new_token = tables().claim(new, seat, tables().names(old)[seat], invite=request.cookies[seat_cookie(old)])
        except TableError:
            seat = None  # the seat went to another phone meanwhile: this one joins as anyone does
    if view == "host" and host_token:
        target = url_for("pages.host_page", code=new)
    elif view == "display":
        target = url_for("pages.display", code=new)
    elif seat:
        target = url_for("pages.seat_page", code=new)
    else:
        target = url_for("pages.join", code=new)
    response = redirect(target)
    if new_token:
        _set_cookie(response, seat_cookie(new), new_token)
    if host_token:  # the new table has the same host token: the display and the host's phone follow as host
        _set_cookie(response, host_cookie(new), host_token)
    return response


@bp.get("/t/<code>/live")
def live(code):
    """Polling fallback for a page that cannot open a WebSocket."""
    code = table_code(code)
    seat, is_host = _viewer(code)
    since = request.args.get("since", type=int)
    if (
        since is not None
        and since >= tables().newest(code).seq
        and request.args.get("presence") is None
        and not of_another_build()
    ):
        return Response(status=204)
    return live_html(code, seat, is_host, host_page=request.args.get("view") == "host")


@bp.get("/t/<code>/play.json")
def play_json(code):
    """The finished game as a play for BG Stats, to download: for the phones at the table and the host."""
    code = table_code(code)
    seat = cookie_seat(code)
    if seat is None and not cookie_is_host(code):
        raise Unauthorized(N_("Take a seat first."))
    return _download(finished_play(code, seat), f"{tables().cached(code).game.id}-{code}.json")


@bp.get("/t/<code>/history")
def history(code):
    """Older history lines than the live part carries, for this device's seat (the public ones without)."""
    service = tables()
    table = service.newest(code)
    code = table.record.code
    seat = cookie_seat(code)
    names = WhoSitsWhere(service, code).names(request_renderer())
    return render_template(
        "history.html",
        code=code,
        game=table.game,
        history=service.history(code, seat, before_seq()),
        say=lambda message: i18n.say(message, names),
    )


@bp.post("/t/<code>/act")
def act(code):
    code = table_code(code)
    actor = form_sender(request.form, cookie_seat(code), cookie_is_host(code))
    token = request.cookies.get(host_cookie(code) if actor == HOST else seat_cookie(code))
    try:
        act_by_form(code, actor, request.form, token)
    except TableError as error:
        return _answer(code, actor, error, host_page=actor == HOST)
    return _answer(code, actor, host_page=actor == HOST)


@bp.post("/t/<code>/undo")
def undo(code):
    code = table_code(code)
    if not cookie_is_host(code):
        raise Forbidden(N_("Only the host can undo."))
    try:
        tables().undo(
            code,
            seen_seq=request.form.get("seen_seq", type=int),
            client_action_id=optional_str(request.form, "client_action_id"),
        )
    except TableError as error:
        return _answer(code, HOST, error, host_page=True)
    return _answer(code, HOST, notice=i18n.say({"msg": N_("The last action was undone."), "args": {}}), host_page=True)


@bp.post("/t/<code>/seats/<seat>/free")
def free_seat(code, seat):
    code = table_code(code)
    if not cookie_is_host(code):
        raise Forbidden(N_("Only the host can free a seat."))
    invite = tables().free(code, seat)
    return render_template(
        "invite.html", code=code, seat=seat, invite=invite, url=external_url("pages.invited", code=code, invite=invite)
    )


@bp.post("/t/<code>/host-link")
def host_link(code):
    """A one-time link (and its QR code) that makes another device, such as a phone, a host of this table."""
    code = table_code(code)
    if not cookie_is_host(code):
        raise Forbidden(N_("Only the host can do that."))
    invite = tables().host_link(code)
    return render_template(
        "host_link.html", code=code, invite=invite, url=external_url("pages.open_host_link", code=code, invite=invite)
    )


@bp.get("/t/<code>/host-link/<invite>")
def open_host_link(code, invite):
    """Asks before the link is used up: a preview or a second scan must not spend it."""
    code = table_code(code)
    if not tables().host_link_open(code, invite):
        raise Forbidden(N_("This host link has been used already. Ask the host for a new one."))
    return render_template("host_welcome.html", code=code, invite=invite, game=tables().newest(code).game)


@bp.post("/t/<code>/host-link/<invite>")
def use_host_link(code, invite):
    code = table_code(code)
    response = redirect(url_for("pages.host_page", code=code))
    _set_cookie(response, host_cookie(code), tables().use_host_link(code, invite))
    return response


def _answer(code: str, actor: str, error: TableError | None = None, notice: str | None = None, host_page: bool = False):
    """The answer to a form: the fresh live part (and a notice) for htmx, a redirect without JavaScript."""
    seat = None if actor == HOST else actor
    message = error_message(error) if error else notice
    if not request.headers.get("HX-Request"):
        if message:
            flash(message)
        page = "pages.seat_page" if seat else "pages.host_page" if host_page else "pages.display"
        return redirect(url_for(page, code=code))
    # None: the seat was freed as the form came, and its view is no longer this phone's.
    live = form_answer_frame(code, seat, cookie_is_host(code), host_page) or ""
    body = live + render_template("notice.html", notice=message, kind="error" if error else "info")
    return make_response(body, answer_status(error) if error else 200)


def _viewer(code: str) -> tuple[str | None, bool]:
    """Whose view a page shows: the seat page's seat, or the display (None)."""
    seat = cookie_seat(code) if request.args.get("view") == "seat" else None
    return seat, cookie_is_host(code)


def _set_cookie(response, name: str, value: str) -> None:
    response.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="Lax", secure=request.is_secure)
