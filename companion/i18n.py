"""Languages: English, Czech and Dutch; the browser's choice, or the one picked on this device."""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel, get_locale, get_translations

from companion.games import Game, home
from companion.paths import PACKAGE

LANGUAGES = {"en": "English", "cs": "Čeština", "nl": "Nederlands"}
LANG_COOKIE = "lang"


def select_locale() -> str:
    chosen = request.args.get("lang") or request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


def translation_dirs(games: dict[str, Game]) -> str:
    """The platform's catalogue and each game package's own."""
    homes = [home(game) for game in games.values()]
    dirs = [PACKAGE / "translations"] + [folder / "translations" for folder in homes if folder]
    return ";".join(str(d) for d in dirs if d.is_dir())


def say(message, names: dict | None = None, translations=None) -> str:
    """A Msg ({"msg", "args"}) in the current language (or in `translations`, outside a request).

    Nested Msgs are translated too, and an argument that is a seat id of the
    table is shown as that seat's name (`names`: seat id -> name).
    """
    if not isinstance(message, dict) or "msg" not in message:
        return "" if message is None else str(message)
    translations = translations or get_translations()
    text = translations.ugettext(message["msg"])
    names = names or {}
    args = {
        name: say(value, names, translations)
        if isinstance(value, dict)
        else names.get(value, value)
        if isinstance(value, str)
        else value
        for name, value in message.get("args", {}).items()
    }
    try:
        return text % args if args else text
    except (KeyError, TypeError, ValueError):
        return message["msg"] % args if args else message["msg"]


def init_app(app: Flask, games: dict[str, Game]) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", translation_dirs(games))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(languages=LANGUAGES, current_locale=lambda: str(get_locale()), say=say)

    @app.after_request
    def remember_language(response):
        chosen = request.args.get("lang")
        if chosen in LANGUAGES:
            response.set_cookie(LANG_COOKIE, chosen, max_age=365 * 86400, samesite="Lax")
        return response
