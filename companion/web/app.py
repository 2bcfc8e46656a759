"""The app factory: the one place that puts the Flask app together from the Flask-free core."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, templating

from companion import assets, boundary, games, i18n, security, slow_clients
from companion import config as settings
from companion.games.base import Game
from companion.live import Hub
from companion.paths import resource_dir
from companion.store.opening import open_store
from companion.tables import Tables
from companion.web import api, app_shell, errors, frames, game_files, pages, qr_codes, ws
from companion.web.render_worker import RenderWorkers, render_settings


def create_app(config: dict | None = None) -> Flask:
    """The app factory: configuration, store, live updates, languages and the web blueprints."""
    app = _flask(config)
    installed = games.load(app.config["EXTRA_GAMES"].split(","))
    store = open_store(app.config["DATABASE_URL"], app.config["DATA_DIR"])
    hub = Hub(render=lambda code, pages: frames.render_frames(app, code, pages))
    if app.config["REDIS_URL"]:
        from companion.redis_fanout import RedisHub

        hub = RedisHub(
            app.config["REDIS_URL"],
            render=hub.render,
            tables=lambda: app.extensions.get("companion"),
            prefix=app.config["REDIS_PREFIX"],
        )
    app.extensions["companion"] = Tables(
        store,
        installed,
        publish=hub.publish,
        keep_in_memory=app.config["TABLES_IN_MEMORY"],
        idle_seconds=app.config["TABLE_IDLE_SECONDS"],
        replay_seed=app.config["REPLAY_SEED"],
    )
    app.extensions["companion.hub"] = hub
    # The other cores render the pushed frames (companion/web/render_worker.py).
    workers = app.config["RENDER_WORKERS"]
    app.extensions["companion.render_workers"] = RenderWorkers(render_settings(app), workers) if workers else None

    i18n.init_app(app, installed)
    boundary.init_app(app)
    security.init_app(app)
    # Outermost: no part of the app waits on a body that trickles in (a slow client holds its connection only so long).
    app.wsgi_app = slow_clients.BodyDeadline(
        app.wsgi_app, app.config["REQUEST_TIMEOUT"], app.config["MAX_CONTENT_LENGTH"]
    )
    _pages(app, installed)
    security.init_limits(app)
    return app


def render_app(config: dict) -> tuple[Flask, dict[str, Game]]:
    """The pages' templates, languages and URLs with the games, and nothing else: what a render worker needs."""
    app = _flask(config)
    installed = games.load(app.config["EXTRA_GAMES"].split(","))
    i18n.init_app(app, installed)
    _pages(app, installed)
    return app, installed


class Templates(templating.Environment):
    """Flask's, with each template's globals a plain dict instead of Jinja's ChainMap over the environment's: Jinja
    copies them into every render, include and macro import, and a ChainMap is slow to copy (bench/RESULTS.md).
    The app's globals are all set before the first template loads."""

    def make_globals(self, d):
        return {**self.globals, **(d or {})}


def _flask(config: dict | None) -> Flask:
    app = Flask("companion", template_folder=resource_dir("templates"), static_folder=resource_dir("static"))
    app.jinja_environment = Templates
    app.config.update(settings.from_environment())
    app.config.update(config or {})
    app.config["BUILD"] = app.config["BUILD"] or assets.package_build()
    Path(app.config["DATA_DIR"]).mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = settings.secret_key(app.config["DATA_DIR"])
    app.config.update(SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_HTTPONLY=True)
    # Served over HTTPS (`serve --tls`, or nginx with a certificate): the session cookie never goes out in clear.
    if (app.config["PUBLIC_URL"] or "").startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True
    # No ping_interval: simple-websocket would then watch every socket with a selector of its own around each
    # read; each page pings from its own thread instead (web/ws.py, PING_INTERVAL).
    app.config.setdefault("SOCK_SERVER_OPTIONS", {"max_message_size": boundary.MAX_BODY})
    return app


def _pages(app: Flask, installed: dict[str, Game]) -> None:
    """Static files, the games' own templates and files, and the pages, the API and the socket."""
    assets.init_app(app)
    game_files.init_app(app, installed)
    # A part of a live part's template on a page Flask renders whole (the history page, a partial a test renders
    # alone): rendered now. The live part itself is rendered by frames.Renderer, which keeps its parts.
    app.jinja_env.globals["memo"] = frames.rendered
    for blueprint in (pages.bp, qr_codes.bp, app_shell.bp, errors.bp, api.bp):
        app.register_blueprint(blueprint)
    ws.sock.init_app(app)
    app.register_blueprint(ws.bp)
