"""Each game's own templates and static files, served from its package (companion.games.home) the same way for
built-in games and add-ons: templates as games/<game id>/<name>, static files at /static/games/<game id>/<name>."""

from __future__ import annotations

from flask import Blueprint, Flask, abort, current_app, send_from_directory, url_for
from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

from companion import assets
from companion.games import Game, home

bp = Blueprint("games", __name__)
STYLE = "style.css"


def init_app(app: Flask, games: dict[str, Game]) -> None:
    folders = {game_id: folder for game_id, game in games.items() if (folder := home(game))}
    templates = {game_id: FileSystemLoader(folder / "templates") for game_id, folder in folders.items()}
    app.jinja_env.loader = ChoiceLoader([app.jinja_env.loader, PrefixLoader({"games": PrefixLoader(templates)})])
    app.extensions["companion.static"] = {game_id: str(folder / "static") for game_id, folder in folders.items()}
    assets.version_endpoint(app, "games.static", lambda values: static_folder(app, values.get("game_id")))
    app.register_blueprint(bp)


def static_folder(app: Flask, game_id: str | None) -> str | None:
    return app.extensions["companion.static"].get(game_id)


@bp.get("/static/games/<game_id>/<path:filename>")
def static(game_id: str, filename: str):
    folder = static_folder(current_app, game_id)
    if folder is None:
        abort(404)
    return send_from_directory(folder, filename)


@bp.app_context_processor
def game_stylesheet():
    """The stylesheet of a table's game, for its pages, if the game brings one."""

    def game_css(game) -> str | None:
        folder = static_folder(current_app, game.id)
        return url_for("games.static", game_id=game.id, filename=STYLE) if assets.version(folder, STYLE) else None

    return {"game_css_for": game_css}
