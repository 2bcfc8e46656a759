"""What the pages, the API and the socket share: the service, identities and rendering a seat's view."""

from __future__ import annotations

import time

from flask import Flask, current_app, request, url_for
from flask_babel import force_locale, get_locale, get_translations
from jinja2 import TemplateNotFound
from jinja2.ext import _make_new_ngettext
from markupsafe import Markup

from companion import i18n, play
from companion.forms import action_from_form, optional_str
from companion.games.base import HOST, N_, Game, Refusal
from companion.tables import (
    Conflict,
    FoldedTable,
    Forbidden,
    TableError,
    Tables,
    Unauthorized,
    opens_seat,
    taken_names,
)


def tables() -> Tables:
    return current_app.extensions["companion"]


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


def before_seq() -> int | None:
    """The `before` of a request for older history lines: a seq, or none for the latest."""
    before = request.args.get("before")
    if before is None:
        return None
    if not (before.isascii() and before.isdigit()) or len(before) > 12:  # "²" is a digit int() cannot read
        raise TableError(N_("Ask for the lines before a sequence number."))
    return int(before)


def game_template(app: Flask, game_id: str, seat: str | None) -> str:
    """The game's own seat or display template, else the generic one any game can use."""
    name = f"games/{game_id}/{'display' if seat is None else 'seat'}.html"
    try:
        app.jinja_env.get_template(name)
        return name
    except TemplateNotFound:
        return "games/generic.html"


class Renderer:
    """What rendering a live part needs, resolved once per language and address instead of once per frame.

    A pushed frame is rendered outside any request: pushing a request context and
    looking the language's catalogue up again for every frame and every string cost
    more than the template itself. So the translations and a URL builder bound to
    the page's address are taken from one request context, once, and the live part
    is rendered by Jinja directly with them (the templates of the live part use no
    request, session or config).
    """

    def __init__(self, app: Flask, locale: str, base_url: str):
        self.app = app
        with app.test_request_context("/", base_url=base_url), force_locale(locale):
            self.translations = get_translations()
            self._adapter = app.create_url_adapter(request)
        self.public_url = app.config.get("PUBLIC_URL")
        self._urls: dict[tuple, str] = {}
        self._template = app.jinja_env.get_template("live.html")
        self._ngettext = _make_new_ngettext(self.translations.ungettext)
        self._game_templates: dict[tuple[str, bool], str] = {}
        self._said: dict[str, Markup] = {}

    def say(self, message, names: dict | None = None) -> str:
        return i18n.say(message, names, self.translations)

    def url_for(self, endpoint: str, _external: bool = False, **values) -> str:
        """Flask's url_for for this page's address; the same URL is built once."""
        key = (endpoint, _external, *sorted(values.items()))
        url = self._urls.get(key)
        if url is None:
            self.app.inject_url_defaults(endpoint, values)
            url = self._adapter.build(endpoint, values, force_external=_external)
            if len(self._urls) >= URLS_KEPT:
                self._urls.clear()
            self._urls[key] = url
        return url

    def external_url(self, endpoint: str, **values) -> str:
        """external_url() for this page's address."""
        if self.public_url:
            return self.public_url.rstrip("/") + self.url_for(endpoint, **values)
        return self.url_for(endpoint, _external=True, **values)

    def game_template(self, game_id: str, seat: str | None) -> str:
        """game_template(), looked up once: a game without templates of its own is looked for on every frame."""
        key = (game_id, seat is None)
        found = self._game_templates.get(key)
        if found is None:
            found = self._game_templates[key] = game_template(self.app, game_id, seat)
        return found

    def gettext(self, message: str, **variables) -> Markup:
        """The templates' `_` in this language, as the i18n extension's (escaped, always a format string), with each
        message that has no variables translated once: a frame says dozens, and the extension's `_` took longer over
        each than Jinja over the HTML around it (a Mice and Mystics seat renders in 16 % less time)."""
        if variables:
            return Markup(self.translations.ugettext(message)) % variables
        said = self._said.get(message)
        if said is None:
            if len(self._said) >= MESSAGES_KEPT:
                self._said.clear()
            said = self._said[message] = Markup(self.translations.ugettext(message)) % {}
        return said

    def render(self, game: Game, context: dict) -> str:
        """The live part from live_context()'s data."""
        names = context["names"]
        frame = {
            **self._template.globals,
            **context,
            "game": game,
            "say": lambda message: self.say(message, names),
            "url_for": self.url_for,
            "_": self.gettext,
            "gettext": self.gettext,
            "ngettext": self._ngettext,
        }
        # Template.render, without copying the frame and the globals again.
        template = self._template
        try:
            return template.environment.concat(template.root_render_func(template.new_context(frame, shared=True)))
        except Exception:
            template.environment.handle_exception()


# Messages a renderer keeps translated: the templates' own, a few hundred; past this it starts over.
MESSAGES_KEPT = 4096
# URLs a renderer keeps (each table's few links); past this it starts over.
URLS_KEPT = 4096
# Renderers kept: three languages at the few addresses a box is reached by. The address is the request's Host
# header, which any client may set; past this they start over, so made-up hosts cannot fill the memory.
RENDERERS_KEPT = 48


def renderer(app: Flask, locale: str, base_url: str) -> Renderer:
    """The renderer of one language at one address, made on first use."""
    renderers = app.extensions.setdefault("companion.renderers", {})
    found = renderers.get((locale, base_url))
    if found is None:
        if len(renderers) >= RENDERERS_KEPT:
            renderers.clear()
        found = renderers[locale, base_url] = Renderer(app, locale, base_url)
    return found


def request_renderer() -> Renderer:
    return renderer(current_app._get_current_object(), str(get_locale()), request.host_url)


def live_html(
    code: str,
    seat: str | None,
    is_host: bool,
    fresh: bool = True,
    host_page: bool = False,
    render: Renderer | None = None,
) -> str:
    """The live part of a page, rendered from this seat's view alone (seat None: the display or the host page).

    render: the page's language and address (a push); by default the request's.
    """
    render = render or request_renderer()
    game, context = live_context(code, seat, is_host, fresh, host_page, render)
    return render.render(game, context)


class Seating:
    """Who sits where at a table, as its pages' frames show it: the same for every page a change wakes, so the frames
    of one change work it out once (and its parts, shared by their data, are pickled once for the render worker)."""

    def __init__(self, service: Tables, code: str):
        self.table = service.cached(code)
        self.specs = service.seat_specs(self.table)
        self.held = service.seats(code)
        self.taken = taken_names(self.held)
        # As plain data: a seat pickles in half the time (every frame sent to the render worker carries them).
        self.seats = [{"id": spec.id, "label": spec.label, "role": spec.role} for spec in self.specs]
        self._names: dict[Renderer, dict[str, str]] = {}

    def names(self, render: Renderer) -> dict[str, str]:
        """Seat id -> what to call it in the renderer's language: the player's name, else the seat's label."""
        found = self._names.get(render)
        if found is None:
            found = {spec.id: self.taken.get(spec.id) or render.say(spec.label) for spec in self.specs}
            self._names[render] = found
        return found

    def opens(self, seat: str, hashed_token: str | None) -> bool:
        """Whether the token (by its hash) still opens this seat: the host may have freed it."""
        return opens_seat(self.held.get(seat), hashed_token)


def live_context(
    code: str,
    seat: str | None,
    is_host: bool,
    fresh: bool,
    host_page: bool,
    render: Renderer,
    seating: Seating | None = None,
) -> tuple[Game, dict]:
    """The game and what its live part shows, as plain data (a render worker can be sent it).

    seating: the table's, when the frames of several pages are made together; read now by default.
    """
    service: Tables = render.app.extensions["companion"]
    host_tools = host_page and is_host
    # The host page is where the whole history is read; every other page shows its latest lines.
    snapshot = service.view(code, seat, fresh=fresh, full_history=host_tools)
    seating = seating or Seating(service, code)
    table = seating.table
    names = seating.names(render)
    game = table.game
    page = "seat" if seat else "host" if host_tools else "display"
    finished = play_of(table, snapshot, names, render) if page != "display" else None
    context = {
        "code": table.record.code,
        "seat": seat,
        "page": page,
        "bgstats_url": finished and play.create_play_url(finished),
        "next_table": snapshot["next_table"],
        "is_host": is_host,
        # Nobody touches the TV: the host's controls are on the host page (on any device the host let in).
        "acting_as": HOST if page == "host" else seat,
        "seq": snapshot["seq"],
        "view": snapshot["view"],
        "history": snapshot["history"],
        "history_before": snapshot["history_before"],
        "history_number": snapshot["history_number"],
        "outcome": snapshot["outcome"],
        "can_undo": snapshot["can_undo"],
        "game_template": render.game_template(game.id, seat),
        "names": names,
        "seats": seating.seats,
        "taken": seating.taken,
    }
    if page != "seat":  # who is connected and how to join: only the display's corner and the host page show them
        context["join_url"] = render.external_url("pages.join", code=table.record.code)
        context["seats_free"] = not all(seating.taken.get(spec.id) for spec in seating.specs)
        context["presence"] = render.app.extensions["companion.hub"].present(table.record.code)
    return game, context


def play_of(table: FoldedTable, snapshot: dict, names: dict[str, str], render: Renderer) -> dict | None:
    """The finished game as a play for BG Stats (None while it runs), in the page's language."""
    if snapshot["outcome"] is None:
        return None
    source = render.external_url("pages.display", code=table.record.code)
    say = lambda message: render.say(message, names)  # noqa: E731 - names fill in the seats a message mentions
    return play.play(table.game, names, snapshot["outcome"], snapshot["played"], say, source)


def finished_play(code: str, seat: str | None) -> dict:
    """The play of a finished table as `seat` may see it; a conflict while the game runs."""
    service = tables()
    snapshot = service.view(code, seat)
    seating, render = Seating(service, code), request_renderer()
    found = play_of(seating.table, snapshot, seating.names(render), render)
    if found is None:
        raise Conflict(N_("The game is not over yet."))
    return found


def table_record(code: str) -> dict:
    """The table's whole log as the host may see it, in order and in the request's language, with the undo audit.

    Built from the display's history lines (seat None), the ones the host page shows: a line meant for one
    seat alone, or an undone line's secret, stays out of it.
    """
    service = tables()
    snapshot = service.view(code, None, full_history=True)
    seating = Seating(service, code)
    table, names = seating.table, seating.names(request_renderer())
    logged = {event.seq: event.created for event in service.store.events(table.record.code)}
    return {
        "code": table.record.code,
        "game": i18n.say({"msg": table.game.name, "args": {}}),
        "players": names,
        "lines": [
            {
                "seq": line["seq"],
                "time": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(logged.get(line["seq"], 0))),
                "text": i18n.say(line, names),
                "undone": line["undone"],
            }
            for line in snapshot["history"]
        ],
        "outcome": snapshot["outcome"] and i18n.say(snapshot["outcome"]["summary"], names),
    }


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


def sent_snapshot(snapshot: dict) -> dict:
    """What a JSON client (the API, a socket's JSON frames) is sent of a seat's snapshot: the pages' own extras
    (undo, the line count, the times played) stay on the server."""
    return {key: snapshot[key] for key in ("seq", "view", "history", "history_before", "outcome", "next_table")}


def error_message(error: TableError) -> str:
    return i18n.say(error.message)


def error_json(code: str, message: str) -> dict:
    """A refusal as the API and the socket send it (the README's error table)."""
    return {"error": {"code": code, "message": message}}
