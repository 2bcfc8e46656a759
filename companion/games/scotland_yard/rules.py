"""Scotland Yard: Mister X's secret travel log, the detectives' tickets and the notebook.

The cardboard board and the pawns stay on the table; this module keeps what the
phones replace, and checks every move against the real board graph.
Rule numbers (SY-n) refer to shared/rules/scotland-yard.md.
"""

from __future__ import annotations

import copy

from companion.games.base import N_, Game, Move, Option, RuleError, SeatSpec, msg

from .board import BOARD
from .figures import (
    BLACK_TICKETS,
    BOBBIES,
    DETECTIVE_TICKETS,
    DOUBLE_MOVES,
    MISTER_X,
    PLAYING,
    STATION_FIELD,
    TICKETS,
    chosen_options,
    detective_seats,
)
from .history import describe_action
from .moves import check_cornered, end_summary, move_mister_x, play_move
from .views import detective_view, mister_x_view, public_view, whose_move


class ScotlandYard(Game):
    """Mister X flees across London; the phones keep his travel log and the detectives' tickets."""

    id = "scotland-yard"
    name = N_("Scotland Yard")
    bgg_id = 438
    summary = N_(
        "Mister X's secret travel log on his phone, the detectives' tickets on theirs, "
        "every move checked against the real board."
    )
    options = (
        Option(
            "detectives",
            N_("Detective players"),
            "int",
            3,
            min=1,
            max=5,
            help=N_("With 1, the two-player game: one player runs two detectives with pooled tickets and two bobbies."),
        ),
        Option(
            "notebook",
            N_("Detectives' notebook"),
            "bool",
            True,
            help=N_("Show the stations where Mister X can be, from everything public."),
        ),
        Option(
            "bobbies_keep_hunt_alive",
            N_("Bobbies keep the hunt alive"),
            "bool",
            False,
            help=N_("If on, Mister X wins by stranding the detectives only when the bobbies cannot move either."),
        ),
    )
    # Who may make a move, and when, depends on the piece it moves: each move checks it itself.
    moves = {
        "move": Move(
            lambda state, actor, action, rng: play_move(state, actor, action),
            {
                "type": "object",
                "properties": {
                    "piece": {"type": "string"},
                    "to": STATION_FIELD,
                    "ticket": {"type": "string", "enum": list(TICKETS)},
                },
                "required": ["to", "ticket"],
            },
            PLAYING,
        ),
        "double_move": Move(
            lambda state, actor, action, rng: move_mister_x(state, actor, action, double=True),
            {
                "type": "object",
                "properties": {"to": STATION_FIELD, "ticket": {"type": "string", "enum": list(TICKETS)}},
                "required": ["to", "ticket"],
            },
            PLAYING,
        ),
    }
    concurrent = frozenset({"move"})

    def moment(self, state):
        return state["round"], state["phase"]

    # -- setup ------------------------------------------------------------------

    def seats(self, options: dict) -> list[SeatSpec]:
        players = chosen_options(options)["detectives"]
        return [SeatSpec(MISTER_X, msg(N_("Mister X")))] + [
            SeatSpec(f"detective-{n}", msg(N_("Detective %(number)s"), number=n)) for n in range(1, players + 1)
        ]

    def setup(self, options: dict, rng) -> dict:
        options = chosen_options(options)
        players = options["detectives"]
        pooled = players == 1
        detectives = [f"detective-{n}" for n in range(1, (2 if pooled else players) + 1)]
        bobbies = [f"bobby-{n}" for n in range(1, BOBBIES[players] + 1)]
        cards = rng.shuffled(list(BOARD.start_cards["detective"]))
        figures = {}
        for figure in detectives:
            owner = "detective-1" if pooled else figure
            figures[figure] = {"kind": "detective", "seat": owner, "board": owner, "station": cards.pop()}
        for figure in bobbies:
            figures[figure] = {"kind": "bobby", "seat": None, "board": None, "station": cards.pop()}
        if pooled:
            boards = {"detective-1": {ride: 2 * count for ride, count in DETECTIVE_TICKETS.items()}}
        else:
            boards = {figure: dict(DETECTIVE_TICKETS) for figure in detectives}
        start = rng.choice(list(BOARD.start_cards["mister_x"]))
        state = {
            "options": options,
            "round": 1,
            "phase": MISTER_X,
            "double_move": False,
            "mister_x": {"start": start, "station": start, "black": BLACK_TICKETS, "double": DOUBLE_MOVES},
            "travel_log": [],
            "figures": figures,
            "boards": boards,
            "moved": [],
            "skips": [],
            "known_reveals": [],
            "end": None,
            "end_undone": False,
        }
        check_cornered(state)
        return state

    # -- actions ----------------------------------------------------------------

    def wrong_phase(self, state: dict) -> RuleError:
        return RuleError(N_("The game is over."), code="game_over")

    def undo(self, before: dict, undone: dict, action: dict) -> dict:
        """Roll back, but every station Mister X showed (SY-16) stays known.

        House rule: undoing the end of the game hides his route again. The end screen showed
        the whole travel log, so the table agrees to play on as if only his reveals were seen.
        """
        restored = copy.deepcopy(before)
        for reveal in undone["known_reveals"]:
            if reveal not in restored["known_reveals"]:
                restored["known_reveals"].append(reveal)
        if undone["phase"] == "over":
            restored["end_undone"] = True
        return restored

    # -- what each seat sees ----------------------------------------------------

    def view(self, state: dict, seat: str | None) -> dict:
        public = public_view(state)
        if seat == MISTER_X:
            return {**public, **mister_x_view(state)}
        if seat in detective_seats(state):
            return {**public, **detective_view(state, seat)}
        return {**public, "whose_move": whose_move(state)}

    def outcome(self, state: dict) -> dict | None:
        end = state["end"]
        if end is None:
            return None
        winners = [MISTER_X] if end["winner"] == MISTER_X else detective_seats(state)
        roles = {MISTER_X: msg(N_("Mister X"))} | dict.fromkeys(detective_seats(state), msg(N_("Detectives")))
        return {"winners": winners, "summary": end_summary(state), "start_player": MISTER_X, "roles": roles}

    def describe(self, before: dict, after: dict, actor: str, action: dict) -> list[dict]:
        return describe_action(before, after, action, end_shown=True)

    def describe_undone(self, before: dict, undone: dict, restored: dict, actor: str, action: dict) -> list[dict]:
        """House rule: after an undone end only Mister X knows where he stood, so the lines say no more."""
        return describe_action(before, undone, action, end_shown=restored["phase"] == "over")
