"""A test-only add-on game that lives outside companion/, with its own screens, styles, Czech catalogue and a refusal
of its own: it proves that a fifth game is one package and nothing else (tests/platform/test_addon_game.py)."""

from __future__ import annotations

from companion.games.base import HOST, N_, Game, Move, Option, Refusal, RuleError, SeatSpec, msg

KEEPER = "player-1"


def the_keeper(state, actor, action):
    """Only the tower's keeper (or the host) tips it over."""
    if actor not in (HOST, KEEPER):
        raise RuleError(N_("Only the keeper of the tower may tip it over."), code="not_the_keeper")


class DiceTower(Game):
    """Each seat drops a die into the tower; the table sees every roll; the keeper may tip the tower over."""

    id = "dice-tower"
    name = N_("Dice tower")
    summary = N_("A test add-on: drop dice into a tower.")
    options = (Option("players", N_("Players"), "int", 2, min=1, max=4),)
    moves = {
        "drop": Move(lambda state, actor, action, rng: state["rolls"].append(rng.roll())),
        "tip": Move(lambda state, actor, action, rng: state["rolls"].clear(), who=the_keeper),
    }
    refusals = {"not_the_keeper": Refusal.FORBIDDEN}

    def seats(self, options):
        return [SeatSpec(f"player-{n}", msg(N_("Player %(n)s"), n=n)) for n in range(1, options["players"] + 1)]

    def setup(self, options, rng):
        return {"rolls": []}

    def view(self, state, seat):
        return {"rolls": state["rolls"]}

    def describe(self, before, after, actor, action):
        if action["type"] == "tip":
            return [{**msg(N_("%(seat)s tips the tower over."), seat=actor), "seats": None}]
        return [{**msg(N_("%(seat)s drops a die: %(roll)s."), seat=actor, roll=after["rolls"][-1]), "seats": None}]


game = DiceTower()
