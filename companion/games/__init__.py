"""The registry of game companions: game id -> Game.

Every game, built in or added later, registers here the same way: a package
in companion/games/ exposing `game`, named in BUILT_IN.
"""

from __future__ import annotations

from importlib import import_module

from companion.games.base import Game

BUILT_IN: tuple[str, ...] = ("scotland_yard", "downforce", "mice_and_mystics", "eat_your_tourist")


def load(modules: list[str]) -> dict[str, Game]:
    """Game id -> Game for the built-in games and the add-on modules named (each exposes `game`)."""
    names = [f"companion.games.{package}" for package in BUILT_IN] + [m.strip() for m in modules if m.strip()]
    games = [import_module(name).game for name in names]
    return {game.id: game for game in games}
