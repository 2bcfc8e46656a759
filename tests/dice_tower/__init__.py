"""A test-only add-on game that lives outside companion/, with its own screens, styles and Czech catalogue: it
proves that a fifth game is one package and nothing else (tests/platform/test_addon_game.py)."""

from __future__ import annotations

from companion.games.base import N_, Game, Move, Option, SeatSpec, msg


class DiceTower(Game):
    """Each seat drops a die into the tower; the table sees every roll."""

    id = "dice-tower"
    name = N_("Dice tower")
    summary = N_("A test add-on: drop dice into a tower.")
    options = (Option("players", N_("Players"), "int", 2, min=1, max=4),)
    moves = {"drop": Move(lambda state, actor, action, rng: state["rolls"].append(rng.roll()))}

    def seats(self, options):
        return [SeatSpec(f"player-{n}", msg(N_("Player %(n)s"), n=n)) for n in range(1, options["players"] + 1)]

    def setup(self, options, rng):
        return {"rolls": []}

    def view(self, state, seat):
        return {"rolls": state["rolls"]}

    def describe(self, before, after, actor, action):
        return [{**msg(N_("%(seat)s drops a die: %(roll)s."), seat=actor, roll=after["rolls"][-1]), "seats": None}]


game = DiceTower()
