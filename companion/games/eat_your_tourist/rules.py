"""Sežer svého turistu! (Eat your tourist!): the turn, the panic table, the events and the score.

The castle, the ghosts and the tourist pawns stay on the table; the players
record what happened there and the app keeps the bookkeeping.
"""

from __future__ import annotations

from companion.games.base import HOST, N_, Game, Move, Option, RuleError, SeatSpec, msg

from . import hunt, panic, screens, table, turn
from .scoring import ranking, summary
from .texts import COLOURS, PHASES, player

EVENT_TITLES = "\n".join(f"Event {number}" for number in range(1, table.EVENT_CARDS + 1))
GHOSTS_IN_THE_BOX = 9
TURN_PHASES = ("fright", "hunt", "panic")

DIE = {"type": "integer", "minimum": 1, "maximum": 6, "description": "A physical die; leave out to let the app roll."}
COLOUR = {"type": "string", "enum": list(COLOURS)}
SEAT = {"type": "string", "pattern": "^player-[1-4]$"}
STEPS = {"type": "integer", "minimum": 0, "maximum": 20}
GHOST = {
    "type": "integer",
    "minimum": 1,
    "maximum": 3,
    "description": "Which of the active player's ghosts, by its number; leave out when only one of them can.",
}
TARGET = {**GHOST, "description": "Which of the opponent's ghosts, by its number; leave out when they have one out."}


def _schema(required: tuple = (), **properties) -> dict:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


def _may_act(state: dict, actor: str, action: dict) -> None:
    """The active player and the host record the turn; a defender only rolls for their own ghost."""
    if state["phase"] == "over":
        raise RuleError(N_("The game is over."), code="game_over")
    fight, kind = state["turn"]["fight"], action.get("type")
    if actor not in (HOST, state["active"]) and not (kind == "fight_roll" and fight and actor == fight["defender"]):
        raise RuleError(N_("It is not your turn."), code="not_your_turn")
    if fight and kind != "fight_roll":
        raise RuleError(N_("Finish the ghost fight first: both ghosts' owners roll."), code="fight_pending")


# Each move once: what it does, its fields, the phases in which it can be recorded, and who may record it.
MOVES = {
    "next": Move(turn.next_phase, _schema(), TURN_PHASES, _may_act),
    "roll_fright": Move(turn.roll_fright, _schema(value=DIE), ("fright",), _may_act),
    "tourist_escapes": Move(turn.tourist_escapes, _schema(("colour",), colour=COLOUR), ("fright", "panic"), _may_act),
    "tourist_dies": Move(turn.tourist_dies, _schema(("colour",), colour=COLOUR), ("fright", "panic"), _may_act),
    "enter_ghost": Move(hunt.enter_ghost, _schema(ghost=GHOST), ("hunt",), _may_act),
    "move_ghost": Move(
        hunt.move_ghost, _schema(("steps",), ghost=GHOST, steps={**STEPS, "minimum": 1}), ("hunt",), _may_act
    ),
    "eat": Move(
        hunt.eat,
        _schema(("colour",), ghost=GHOST, colour=COLOUR, steps=STEPS, ghost_of=SEAT),
        ("hunt", "panic"),
        _may_act,
    ),
    "fight": Move(
        hunt.fight, _schema(("opponent",), ghost=GHOST, opponent=SEAT, target=TARGET, steps=STEPS), ("hunt",), _may_act
    ),
    "fight_roll": Move(hunt.fight_roll, _schema(value=DIE, seat=SEAT), ("hunt",), _may_act),
    "vanish": Move(hunt.vanish, _schema(ghost=GHOST), ("hunt",), _may_act),
    "roll_panic": Move(panic.roll_panic, _schema(value=DIE), ("panic",), _may_act),
    "choose_colour": Move(panic.choose_colour, _schema(("colour",), colour=COLOUR), ("panic",), _may_act),
}


class EatYourTourist(Game):
    id = "eat-your-tourist"
    name = N_("Eat your tourist!")
    summary = N_(
        "Ghosts hunt tourists in a cut-out castle: the app runs fright, hunt and panic, "
        "the panic table, the event deck and the score."
    )
    options = (
        Option("players", N_("Players"), "int", 3, min=2, max=4),
        Option(
            "starting_player",
            N_("Starting player"),
            "choice",
            "roll",
            choices={
                "roll": N_("Roll the die (highest starts)"),
                "player-1": N_("Player 1"),
                "player-2": N_("Player 2"),
                "player-3": N_("Player 3"),
                "player-4": N_("Player 4"),
            },
        ),
        Option(
            "three_ghosts",
            N_("House rule: three ghosts per player"),
            "bool",
            False,
            help=N_("The box has 9 ghosts, so this works with 2 or 3 players."),
        ),
        Option("event_every_panic", N_("House rule: an event at every panic phase"), "bool", False),
        Option("movement_points", N_("Movement points per turn"), "int", 5, min=1, max=20),
        Option(
            "tourist_speed",
            N_("Tourists in panic"),
            "choice",
            "normal",
            choices={
                "slower": N_("Slower: one square less"),
                "normal": N_("As in the rulebook"),
                "faster": N_("Faster: one square more"),
            },
        ),
        Option("tourists_per_colour", N_("Tourists per colour"), "int", 4, min=1, max=4),
        Option(
            "forced_moves_eat",
            N_("House rule: ghosts moved on a panic 6 may eat"),
            "bool",
            False,
            help=N_("The ghost's owner scores the tourist."),
        ),
        Option(
            "event_titles",
            N_("Event card titles"),
            "text",
            EVENT_TITLES,
            help=N_("One title a line, in the order of the card numbers."),
        ),
    )
    # Both owners roll for a ghost fight on their own phones, often in the same second;
    # each roll is re-checked against the fight as it stands, so neither needs the other's.
    concurrent = frozenset({"fight_roll"})
    moves = MOVES

    def seats(self, options: dict) -> list[SeatSpec]:
        count = _player_count(options)
        return [SeatSpec(f"player-{k}", player(f"player-{k}")) for k in range(1, count + 1)]

    def setup(self, options: dict, rng) -> dict:
        players = [seat.id for seat in self.seats(options)]
        settings = _settings(options, len(players))
        start_rolls, first = _starting_player(options, players, rng)
        per_colour = settings["tourists_per_colour"]
        return {
            "players": players,
            "settings": settings,
            "active": first,
            "starter": first,
            "phase": "fright",
            "turn_number": 1,
            "start_rolls": start_rolls,
            "tourists": dict.fromkeys(COLOURS, per_colour),
            "gone": {"eaten": 0, "escaped": 0, "died": 0},
            "scores": {seat: {"eaten": 0, "escapes": 0} for seat in players},
            "ghosts": {seat: [] for seat in players},  # each seat's ghosts on the board, by number
            "turn": turn.fresh_turn(settings),
            "events": table.new_deck(rng),
            "banner": msg(N_("%(player)s starts"), player=first),
            "news": [],
        }

    def fresh(self, state: dict) -> dict:
        state = super().fresh(state)
        # The banner is news of the last action, like the history lines: "Ann starts" does not stay a whole turn.
        state["news"], state["banner"] = [], None
        return state

    def wrong_phase(self, state: dict) -> RuleError:
        return RuleError(
            N_("You cannot do that now: it is the %(phase)s phase."),
            code="wrong_phase",
            phase=msg(PHASES[state["phase"]]),
        )

    def view(self, state: dict, seat: str | None) -> dict:
        this_turn, settings = state["turn"], state["settings"]
        view = {
            "phase": state["phase"],
            "phase_label": msg(PHASES[state["phase"]]),
            "active": state["active"],
            "active_label": player(state["active"]),
            "left_neighbour": turn.left_of(state, state["active"]),
            "turn_number": state["turn_number"],
            "start_rolls": state["start_rolls"],
            "tourists": screens.tourist_rows(state),
            "tourists_left": sum(state["tourists"].values()),
            "tourists_gone": dict(state["gone"]),
            "panic_table": screens.panic_table(state),
            "panic": screens.panic_view(state),
            "fright_rolls": list(this_turn["fright_rolls"]),
            "movement": {"left": this_turn["movement_left"], "total": settings["movement_points"]},
            "ghosts": screens.ghost_rows(state),
            "able_ghosts": screens.able_ghosts(state),
            "ghost_entered": this_turn["entered"],
            "fight": this_turn["fight"],
            "last_fight": this_turn["last_fight"],
            "event": screens.event_view(state),
            "events_in_deck": len(state["events"]["deck"]),
            "events_discarded": len(state["events"]["discard"]),
            "scoreboard": ranking(state),
            "settings": dict(settings),
            "actions": _allowed_actions(self, state, seat or HOST),
        }
        if state["banner"]:
            view["banner"] = state["banner"]
        if seat is not None:
            view["your_turn"] = _awaits(state, seat)
        return view

    def outcome(self, state: dict) -> dict | None:
        if state["phase"] != "over":
            return None
        rows = ranking(state)
        places = {row["seat"]: row["place"] for row in rows}
        return {
            "winners": [seat for seat in state["players"] if places[seat] == 1],
            "summary": summary(rows),
            "ranking": rows,
            "scores": {row["seat"]: row["points"] for row in rows},
            "start_player": state["starter"],
        }

    def describe(self, before: dict, after: dict, actor: str, action: dict) -> list[dict]:
        if not after.get("news"):
            return super().describe(before, after, actor, action)
        return [{**line, "seats": None} for line in after["news"]]


# --- setup -------------------------------------------------------------------


def _option(options: dict, name: str):
    found = options.get(name)
    if found is None:
        return next(option.default for option in EatYourTourist.options if option.name == name)
    return found


def _player_count(options: dict) -> int:
    count = _option(options, "players")
    if not isinstance(count, int) or not 2 <= count <= 4:
        raise RuleError(N_("This game is for 2 to 4 players."), code="bad_option")
    return count


def _settings(options: dict, players: int) -> dict:
    ghosts = 3 if _option(options, "three_ghosts") else 2
    if ghosts * players > GHOSTS_IN_THE_BOX:
        raise RuleError(
            N_("The box has only %(ghosts)s ghosts: three ghosts each works with 2 or 3 players."),
            code="bad_option",
            ghosts=GHOSTS_IN_THE_BOX,
        )
    speed = _option(options, "tourist_speed")
    if speed not in table.SPEEDS:
        raise RuleError(N_("Choose slower, normal or faster tourists."), code="bad_option")
    return {
        "castle_tiles": 9 if players == 2 else 12,
        "ghosts_per_player": ghosts,
        "movement_points": int(_option(options, "movement_points")),
        "tourist_speed": speed,
        "tourists_per_colour": int(_option(options, "tourists_per_colour")),
        "event_every_panic": bool(_option(options, "event_every_panic")),
        "forced_moves_eat": bool(_option(options, "forced_moves_eat")),
        "event_titles": table.event_titles(_option(options, "event_titles")),
    }


def _starting_player(options: dict, players: list, rng) -> tuple[list, str]:
    """The starting seat, rolled for when asked: highest roll starts, ties re-roll (ET-3, Q9)."""
    choice = _option(options, "starting_player")
    if choice != "roll":
        if choice not in players:
            raise RuleError(
                N_("The starting player must be one of the %(count)s players."),
                code="bad_option",
                count=len(players),
            )
        return [], choice
    rounds, contenders = [], list(players)
    while len(contenders) > 1:
        rolls = {seat: rng.roll(6) for seat in contenders}
        rounds.append(rolls)
        best = max(rolls.values())
        contenders = [seat for seat in contenders if rolls[seat] == best]
    return rounds, contenders[0]


# --- who may act ---------------------------------------------------------------


def _allowed_actions(game: Game, state: dict, actor: str) -> list[str]:
    """Action types `actor` may send now, so a phone shows only those buttons."""
    allowed = []
    for kind in MOVES:
        if game.allows(state, actor, {"type": kind}) and _makes_sense(state, kind):
            allowed.append(kind)
    return allowed


def _makes_sense(state: dict, kind: str) -> bool:
    """Hide the buttons that the moment does not call for."""
    rolled = state["turn"]["panic"]
    if kind == "fight_roll":
        return state["turn"]["fight"] is not None
    if kind == "roll_panic":
        return rolled is None
    if kind == "choose_colour":
        return bool(rolled and rolled["row"] == 5)
    if kind == "eat" and state["phase"] == "panic":
        return bool(state["settings"]["forced_moves_eat"] and rolled and rolled["row"] == 6)
    if kind == "next" and state["phase"] == "panic":
        return rolled is not None
    if kind == "vanish":
        return bool(turn.unmoved_ghosts(state))
    return True


def _awaits(state: dict, seat: str) -> bool:
    """Whether the table waits for this seat: its turn, or its roll in a ghost fight."""
    if state["phase"] == "over":
        return False
    fight = state["turn"]["fight"]
    if fight and seat == fight["defender"] and seat not in fight["rolls"]:
        return True
    return seat == state["active"]
