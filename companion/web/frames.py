"""What a page is pushed: a seat's view, to the live part's plain data, to its HTML or JSON frame.

A frame is rendered once per distinct view (render_key) for every page of a table a change wakes, outside any
request; the render worker (render_worker.py) may render the HTML from the same plain data.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import InitVar, dataclass, field

from flask import Flask, current_app, request
from flask_babel import force_locale, get_locale, get_translations
from jinja2 import TemplateNotFound
from markupsafe import Markup

from companion import bgstats, i18n
from companion.games.base import HOST, Game
from companion.tables import FoldedTable, Tables, opens_seat, taken_names, token_hash
from companion.web.common import seat_cookie, sent_snapshot
from companion.web.library_internals import render_shared
from companion.web.rendered_parts import RenderedParts, page_of, part_key


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

    def __init__(self, app: Flask, locale: str, base_url: str, parts: RenderedParts):
        self.app, self.locale, self.base_url, self.parts = app, locale, base_url, parts
        with app.test_request_context("/", base_url=base_url), force_locale(locale):
            self.translations = get_translations()
            self._adapter = app.create_url_adapter(request)
        self.public_url = app.config.get("PUBLIC_URL")
        self._urls: dict[tuple, str] = {}
        self._template = app.jinja_env.get_template("live.html")
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
        each than Jinja over the HTML around it."""
        if variables:
            return Markup(self.translations.ugettext(message)) % variables
        said = self._said.get(message)
        if said is None:
            if len(self._said) >= MESSAGES_KEPT:
                self._said.clear()
            said = self._said[message] = Markup(self.translations.ugettext(message)) % {}
        return said

    def ngettext(self, singular: str, plural: str, number: int, /, **variables) -> Markup:
        """The templates' `ngettext` in this language, as the i18n extension's (`num` is the number by default; a
        `{% trans count=… %}` block passes `count` as a variable)."""
        variables.setdefault("num", number)
        return Markup(self.translations.ungettext(singular, plural, number)) % variables

    def render(self, game: Game, context: dict, memo: bool = True) -> str:
        """The live part from live_context()'s data; memo: take the parts rendered before from the same inputs (off:
        every part rendered now, as tests/platform/test_render_worker.py holds them to)."""
        names = context["names"]
        frame = {
            **self._template.globals,
            **context,
            "game": game,
            "say": lambda message: self.say(message, names),
            "url_for": self.url_for,
            "_": self.gettext,
            "gettext": self.gettext,
            "ngettext": self.ngettext,
            "memo": functools.partial(self.memo, page_of(self.locale, self.base_url, context)) if memo else rendered,
        }
        return render_shared(self._template, frame)

    def memo(self, page: str, name: str, *inputs, caller: Callable[[], Markup]) -> Markup:
        """`{% call memo(name, inputs…) %}…{% endcall %}`: a part of the page rendered from its inputs alone (and what
        every part of its page depends on: rendered_parts.page_of), rendered once for every page and push that shows
        it from the same inputs. A part may use anything of the page's data only through its inputs, the seat's
        included: tests/platform/test_rendered_parts.py holds every page of random games to the page rendered without
        parts kept."""
        key = part_key(page, name, inputs)
        found = self.parts.get(key)
        if found is None:
            found = caller()
            self.parts.keep(key, found)
        return found


def rendered(*_inputs, caller: Callable[[], Markup]) -> Markup:
    """memo() for a page rendered without the parts kept: every part rendered now."""
    return caller()


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
        parts = app.extensions.get("companion.rendered_parts")
        if parts is None:
            parts = app.extensions["companion.rendered_parts"] = RenderedParts(app.config["RENDERED_PARTS_MB"] * 1e6)
        found = renderers[locale, base_url] = Renderer(app, locale, base_url, parts)
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


class WhoSitsWhere:
    """Who sits where at a table, as its pages' frames show it: the same for every page a change wakes, so the frames
    of one change work it out once (and its parts, shared by their data, are pickled once for the render worker)."""

    def __init__(self, service: Tables, code: str):
        self.table = service.cached(code)
        self.specs = service.seat_specs(self.table)
        self.held = service.seats(code)
        self.taken = taken_names(self.held)
        # As plain data: it pickles faster than the specs (every frame sent to the render worker carries them).
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
    seating: WhoSitsWhere | None = None,
) -> tuple[Game, dict]:
    """The game and what its live part shows, as plain data (a render worker can be sent it).

    seating: the table's, when the frames of several pages are made together; read now by default.
    """
    service: Tables = render.app.extensions["companion"]
    host_tools = host_page and is_host
    # The host page is where the whole history is read; every other page shows its latest lines.
    snapshot = service.view(code, seat, fresh=fresh, full_history=host_tools)
    seating = seating or WhoSitsWhere(service, code)
    table = seating.table
    names = seating.names(render)
    game = table.game
    page = "seat" if seat else "host" if host_tools else "display"
    finished = play_of(table, snapshot, names, render) if page != "display" else None
    context = {
        "code": table.record.code,
        "seat": seat,
        "page": page,
        "bgstats_url": finished and bgstats.create_play_url(finished),
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
    return bgstats.play(table.game, names, snapshot["outcome"], snapshot["played"], say, source)


@dataclass(eq=False)  # pages are told apart by identity (the hub keeps them in sets)
class PageView:
    """What a page shows: whose view, in which language and form, at which address. Pages with equal render keys
    are sent one frame, rendered once."""

    seat: str | None
    seat_token: InitVar[str | None]
    is_host: bool
    locale: str
    base_url: str
    as_json: bool
    host_page: bool = False
    seat_token_hash: str | None = field(init=False)
    render_key: tuple = field(init=False)

    def __post_init__(self, seat_token: str | None) -> None:
        # A freed seat's old phone must stop receiving the seat's view: each push checks the token still holds it.
        self.seat_token_hash = token_hash(seat_token) if self.seat and seat_token else None
        self.render_key = render_key(
            self.seat, self.seat_token_hash, self.is_host, self.locale, self.as_json, self.host_page, self.base_url
        )


def render_key(
    seat: str | None, token_hash: str | None, is_host: bool, locale: str, as_json: bool, host_page: bool, base_url: str
) -> tuple:
    """What a page's frame depends on: pages with equal keys are sent one frame, rendered once.

    A seat's frame is its view in its language (the token: a freed seat's old phone gets none), with a link to the
    host page on the host's phone. Every HTML frame may hold a URL absolute on the address the page came by: the
    display's and the host page's join link, and once the game is over everyone's link to BG Stats (with the table's
    address in it). A JSON frame is neither translated nor holds a URL.
    """
    if as_json:
        return (seat, token_hash, True)
    if seat is not None:
        return (seat, token_hash, is_host, locale, base_url)
    return (None, is_host, locale, host_page, base_url)


def render_frames(app: Flask, code: str, pages: list[PageView]) -> dict[tuple, str | None | Exception]:
    """The frames of a table's open pages by render key, rendered outside any request of their own.

    A page's frame is None when its seat has been freed by the host since it opened (it gets nothing more), and the
    error when its frame failed: raised in that page's own thread, not in the one that rendered the frames.
    """
    service: Tables = app.extensions["companion"]
    try:
        seating = WhoSitsWhere(service, code)
    except Exception as error:  # noqa: BLE001 - each page's own thread raises it
        return {page.render_key: error for page in pages}
    frames: dict[tuple, str | None | Exception] = {}
    html = []  # (page, its renderer, the game, the frame's data)
    for page in pages:
        try:
            if page.seat and not seating.opens(page.seat, page.seat_token_hash):
                frames[page.render_key] = None
            elif page.as_json:
                # JSON frames are not translated and hold no URLs: no Flask context needed (it costs more than them).
                frames[page.render_key] = json_frame(service, code, page.seat)
            else:
                render = renderer(app, page.locale, page.base_url)
                context = live_context(code, page.seat, page.is_host, False, page.host_page, render, seating)
                html.append((page, render, *context))
        except Exception as error:  # noqa: BLE001 - the page's own thread raises it
            frames[page.render_key] = error
    workers = app.extensions["companion.render_workers"]
    frame_data = [(page.locale, page.base_url, game.id, context) for page, _render, game, context in html]
    from_worker = workers.render(frame_data, code) if workers else [None] * len(html)
    for (page, render, game, context), by_worker in zip(html, from_worker, strict=True):
        try:
            frames[page.render_key] = by_worker or render.render(game, context)
        except Exception as error:  # noqa: BLE001 - the page's own thread raises it
            frames[page.render_key] = error
    return frames


def form_answer_frame(code: str, seat: str | None, is_host: bool, host_page: bool) -> str | None:
    """The live part that answers a form sent from a page: the frame the page's own push gets (the same view, language
    and address), so that the two are rendered once, by the render worker. None when the seat has been freed."""
    seat_token = request.cookies.get(seat_cookie(code)) if seat else None
    view = PageView(seat, seat_token, is_host, str(get_locale()), request.host_url, False, host_page)
    return current_app.extensions["companion.hub"].frame(code, view)


def json_frame(service: Tables, code: str, seat: str | None) -> str:
    return json.dumps(sent_snapshot(service.view(code, seat, fresh=False)))
