"""The registry of game companions: game id -> Game.

Every game, built in or added later, registers here the same way: a package
in companion/games/ exposing `game`, named in BUILT_IN.
"""

from __future__ import annotations

from importlib import import_module

from companion.games.base import Game

BUILT_IN: tuple[str, ...] = ()


def load(packages: tuple[str, ...] = BUILT_IN) -> dict[str, Game]:
    games = [import_module(f"companion.games.{package}").game for package in packages]
    return {game.id: game for game in games}


GAMES: dict[str, Game] = load()
