"""The registry of game companions: game id -> Game.

A game is one package with all its parts: its rules and views exposing `game`, and beside them its own
templates/ (seat.html, display.html), static/ (style.css) and translations/. Built-in games are the packages
named in BUILT_IN; add-ons are found the same way, through the `table_companion.games` entry points of any
installed distribution or the modules named in COMPANION_EXTRA_GAMES.
"""

from __future__ import annotations

import sys
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import Path

from companion.games.base import Game

BUILT_IN: tuple[str, ...] = ("scotland_yard", "downforce", "mice_and_mystics", "eat_your_tourist")
ENTRY_POINTS = "table_companion.games"


def load(modules: list[str]) -> dict[str, Game]:
    """Game id -> Game for the built-in games, the installed add-ons and the add-on modules named."""
    names = [f"companion.games.{package}" for package in BUILT_IN] + [m.strip() for m in modules if m.strip()]
    games = [import_module(name).game for name in names]
    games += [entry_point.load() for entry_point in entry_points(group=ENTRY_POINTS)]
    return {game.id: game for game in games}


def home(game: Game) -> Path | None:
    """The folder of the game's package, where its templates/, static/ and translations/ are; None for a game in
    a lone module, whose folder (site-packages, say) is not its own to serve files from."""
    folder = Path(sys.modules[type(game).__module__].__file__).parent
    return folder if (folder / "__init__.py").is_file() else None
