"""Sežer svého turistu! (Eat your tourist!): the turn, the panic table, the events and the score.

The castle, the ghosts and the tourist pawns stay on the table; the players
record what happened there and the app keeps the bookkeeping.
"""

from __future__ import annotations

import copy

from companion.games.base import HOST, N_, Game, Option, RuleError, SeatSpec, msg

from . import table
from .scoring import ranking, summary
from .texts import COLOUR_NAMES, COLOURS, DIED, EATEN, ESCAPED, PHASES, die, player

EVENT_TITLES = "\n".join(f"Event {number}" for number in range(1, table.EVENT_CARDS + 1))
GHOSTS_IN_THE_BOX = 9
TURN_PHASES = ("fright", "hunt", "panic")

DIE = {"type": "integer", "minimum": 1, "maximum": 6, "description": "A physical die; leave out to let the app roll."}
COLOUR = {"type": "string", "enum": list(COLOURS)}
SEAT = {"type": "string", "pattern": "^player-[1-4]$"}
STEPS = {"type": "integer", "minimum": 0, "maximum": 20}


def _schema(required: tuple = (), **properties) -> dict:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


# Who besides the active player and the host may send an action: only the
# defender of a ghost fight, who rolls for their own ghost.
WHEN = {
    "next": TURN_PHASES,
    "roll_fright": ("fright",),
    "tourist_escapes": ("fright", "panic"),
    "tourist_dies": ("fright", "panic"),
    "enter_ghost": ("hunt",),
    "move_ghost": ("hunt",),
    "eat": ("hunt", "panic"),
    "fight": ("hunt",),
    "fight_roll": ("hunt",),
    "vanish": ("hunt",),
    "roll_panic": ("panic",),
    "choose_colour": ("panic",),
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
    actions = {
        "next": _schema(),
        "roll_fright": _schema(value=DIE),
        "tourist_escapes": _schema(("colour",), colour=COLOUR),
        "tourist_dies": _schema(("colour",), colour=COLOUR),
        "enter_ghost": _schema(),
        "move_ghost": _schema(("steps",), steps={**STEPS, "minimum": 1}),
        "eat": _schema(("colour",), colour=COLOUR, steps=STEPS, ghost_of=SEAT),
        "fight": _schema(("opponent",), opponent=SEAT, steps=STEPS),
        "fight_roll": _schema(value=DIE, seat=SEAT),
        "vanish": _schema(),
        "roll_panic": _schema(value=DIE),
        "choose_colour": _schema(("colour",), colour=COLOUR),
    }

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
            "phase": "fright",
            "turn_number": 1,
            "start_rolls": start_rolls,
            "tourists": dict.fromkeys(COLOURS, per_colour),
            "gone": {"eaten": 0, "escaped": 0, "died": 0},
            "scores": {seat: {"eaten": 0, "escapes": 0} for seat in players},
            "ghosts": dict.fromkeys(players, 0),
            "turn": _fresh_turn(settings),
            "events": table.new_deck(rng),
            "banner": msg(N_("%(player)s starts"), player=player(first)),
            "news": [],
        }

    def apply(self, state: dict, actor: str, action: dict, rng) -> dict:
        kind = action.get("type")
        if kind not in WHEN:
            raise RuleError(N_("This game has no such action."), code="unknown_action")
        _check_may_act(state, actor, kind)
        state = copy.deepcopy(state)
        state["news"] = []
        HANDLERS[kind](state, actor, action, rng)
        return state

    def view(self, state: dict, seat: str | None) -> dict:
        turn, settings = state["turn"], state["settings"]
        view = {
            "phase": state["phase"],
            "phase_label": msg(PHASES[state["phase"]]),
            "active": state["active"],
            "active_label": player(state["active"]),
            "left_neighbour": _left_of(state, state["active"]),
            "turn_number": state["turn_number"],
            "start_rolls": state["start_rolls"],
            "tourists": _tourist_rows(state),
            "tourists_left": sum(state["tourists"].values()),
            "tourists_gone": dict(state["gone"]),
            "panic_table": _panic_table(state),
            "panic": _panic_view(state),
            "fright_rolls": list(turn["fright_rolls"]),
            "movement": {"left": turn["movement_left"], "total": settings["movement_points"]},
            "ghosts": _ghost_rows(state),
            "ghost_entered": turn["entered"],
            "fight": turn["fight"],
            "last_fight": turn["last_fight"],
            "event": _event_view(state),
            "events_in_deck": len(state["events"]["deck"]),
            "events_discarded": len(state["events"]["discard"]),
            "scoreboard": ranking(state),
            "settings": dict(settings),
            "actions": _allowed_actions(state, seat or HOST),
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


def _fresh_turn(settings: dict) -> dict:
    return {
        "fright_rolls": [],
        "movement_left": settings["movement_points"],
        "entered": False,
        # Ghosts that left the board this turn may only come back next turn.
        "resting": 0,
        # Ghosts that ate or won a fight must stay put for the rest of the turn.
        "done": 0,
        "fight": None,
        "last_fight": None,
        "panic": None,
    }


# --- who may act ---------------------------------------------------------------


def _check_may_act(state: dict, actor: str, kind: str) -> None:
    if state["phase"] == "over":
        raise RuleError(N_("The game is over."), code="game_over")
    fight = state["turn"]["fight"]
    if actor not in (HOST, state["active"]) and not (kind == "fight_roll" and fight and actor == fight["defender"]):
        raise RuleError(N_("It is not your turn."), code="not_your_turn")
    if state["phase"] not in WHEN[kind]:
        raise RuleError(
            N_("You cannot do that now: it is the %(phase)s phase."),
            code="wrong_phase",
            phase=msg(PHASES[state["phase"]]),
        )
    if fight and kind != "fight_roll":
        raise RuleError(N_("Finish the ghost fight first: both ghosts' owners roll."), code="fight_pending")


def _allowed_actions(state: dict, actor: str) -> list[str]:
    """Action types `actor` may send now, so a phone shows only those buttons."""
    allowed = []
    for kind in WHEN:
        try:
            _check_may_act(state, actor, kind)
        except RuleError:
            continue
        if _makes_sense(state, kind):
            allowed.append(kind)
    return allowed


def _makes_sense(state: dict, kind: str) -> bool:
    """Hide the buttons that the moment does not call for."""
    turn = state["turn"]
    panic = turn["panic"]
    if kind == "fight_roll":
        return turn["fight"] is not None
    if kind == "roll_panic":
        return panic is None
    if kind == "choose_colour":
        return bool(panic and panic["row"] == 5)
    if kind == "eat" and state["phase"] == "panic":
        return bool(state["settings"]["forced_moves_eat"] and panic and panic["row"] == 6)
    if kind == "next" and state["phase"] == "panic":
        return panic is not None
    return True


def _awaits(state: dict, seat: str) -> bool:
    """Whether the table waits for this seat: its turn, or its roll in a ghost fight."""
    if state["phase"] == "over":
        return False
    fight = state["turn"]["fight"]
    if fight and seat == fight["defender"] and seat not in fight["rolls"]:
        return True
    return seat == state["active"]


# --- shared bookkeeping --------------------------------------------------------


def _left_of(state: dict, seat: str) -> str:
    """The next player clockwise, who pays for the active player's escapes."""
    players = state["players"]
    return players[(players.index(seat) + 1) % len(players)]


def _roll(action: dict, rng) -> tuple[int, bool]:
    """A die from the table when the player typed one in, else the app's die."""
    value = action.get("value")
    if value is None:
        return rng.roll(6), False
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise RuleError(N_("A die shows 1 to 6."), code="bad_value")
    return value, True


def _colour_on_board(state: dict, action: dict) -> str:
    colour = action.get("colour")
    if colour not in COLOURS:
        raise RuleError(N_("Choose blue, yellow, red or green."), code="bad_value")
    if not state["tourists"][colour]:
        raise RuleError(
            N_("No tourist of that colour is left on the board: %(colour)s."),
            code="no_such_tourist",
            colour=msg(COLOUR_NAMES[colour]),
        )
    return colour


def _remove_tourist(state: dict, colour: str, how: str) -> None:
    """A tourist leaves the board; the last one ends the game (ET-24, ET-27)."""
    state["tourists"][colour] -= 1
    state["gone"][how] += 1
    if not any(state["tourists"].values()):
        state["phase"] = "over"
        state["turn"]["fight"] = None
        state["banner"] = msg(N_("The last tourist has left the castle: game over!"))
        state["news"].append(state["banner"])


def _spend(state: dict, steps) -> None:
    """Spend movement points from the turn's shared budget (ET-13)."""
    if steps is None:
        return
    left = state["turn"]["movement_left"]
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise RuleError(N_("Steps are counted in whole squares."), code="bad_value")
    if steps > left:
        raise RuleError(N_("Only %(left)s movement points are left."), code="no_movement_points", left=left)
    state["turn"]["movement_left"] = left - steps


def _free_ghosts(state: dict) -> int:
    """The active player's ghosts on the board that may still move this turn."""
    return state["ghosts"][state["active"]] - state["turn"]["done"]


def _need_free_ghost(state: dict) -> None:
    if not state["ghosts"][state["active"]]:
        raise RuleError(N_("You have no ghost on the board."), code="no_ghost")
    if _free_ghosts(state) <= 0:
        raise RuleError(
            N_("Your ghosts on the board have eaten or fought and must stay put this turn."),
            code="ghost_resting",
        )


def _draw_event(state: dict, rng) -> dict:
    state["events"] = table.draw_event(state["events"], rng)
    card = table.event_label(state["events"]["current"], state["settings"]["event_titles"])
    line = msg(N_("New event: %(event)s"), event=card)
    state["news"].append(line)
    return line


# --- the turn ------------------------------------------------------------------


def _next(state: dict, actor: str, action: dict, rng) -> None:
    """One tap to go on: fright → hunt → panic → the next player's fright (ET-4)."""
    active = player(state["active"])
    if state["phase"] == "fright":
        state["phase"] = "hunt"
        state["news"].append(msg(N_("%(player)s: the hunt begins"), player=active))
    elif state["phase"] == "hunt":
        _start_panic(state, rng)
    else:
        _end_turn(state)


def _start_panic(state: dict, rng) -> None:
    state["phase"] = "panic"
    state["news"].append(msg(N_("%(player)s: panic among the tourists!"), player=player(state["active"])))
    if state["settings"]["event_every_panic"]:
        # House rule H3 ("restless times"): a card at the start of every panic phase.
        state["banner"] = _draw_event(state, rng)


def _end_turn(state: dict) -> None:
    panic = state["turn"]["panic"]
    if panic is None:
        raise RuleError(N_("Roll the panic die before you end your turn."), code="panic_missing")
    if panic["row"] == 5 and panic["colour"] is None:
        raise RuleError(N_("Choose which colour of tourists panics."), code="colour_missing")
    ending = state["active"]
    state["active"] = _left_of(state, ending)
    state["phase"] = "fright"
    state["turn_number"] += 1
    state["turn"] = _fresh_turn(state["settings"])
    state["banner"] = None
    state["news"].append(
        msg(N_("%(player)s ends the turn; %(next)s goes next"), player=player(ending), next=player(state["active"]))
    )


# --- fright and the tourists' fates --------------------------------------------------


def _roll_fright(state: dict, actor: str, action: dict, rng) -> None:
    """A frightened tourist runs as far as the die says (ET-8)."""
    value, physical = _roll(action, rng)
    state["turn"]["fright_rolls"].append({"value": value, "physical": physical})
    state["news"].append(
        msg(
            N_("%(player)s rolls %(roll)s for a frightened tourist"),
            player=player(state["active"]),
            roll=die(value, physical),
        )
    )


def _tourist_escapes(state: dict, actor: str, action: dict, rng) -> None:
    """Off the board in fright or panic: the active player's left neighbour gets −1 (ET-11, ET-22)."""
    colour = _colour_on_board(state, action)
    neighbour = _left_of(state, state["active"])
    state["scores"][neighbour]["escapes"] += 1
    state["news"].append(msg(ESCAPED[colour], neighbour=player(neighbour)))
    _remove_tourist(state, colour, "escaped")


def _tourist_dies(state: dict, actor: str, action: dict, rng) -> None:
    """No safe square left: the tourist dies of fright and nobody scores (ET-10, ET-21)."""
    colour = _colour_on_board(state, action)
    state["news"].append(msg(DIED[colour]))
    _remove_tourist(state, colour, "died")


# --- the hunt ------------------------------------------------------------------


def _enter_ghost(state: dict, actor: str, action: dict, rng) -> None:
    """One ghost a turn comes in from the edge, for free (ET-12, Q6)."""
    turn, active = state["turn"], state["active"]
    if turn["entered"]:
        raise RuleError(N_("Only one ghost may enter the board each turn."), code="already_entered")
    waiting = state["settings"]["ghosts_per_player"] - state["ghosts"][active] - turn["resting"]
    if waiting <= 0:
        raise RuleError(N_("You have no ghost waiting to enter this turn."), code="no_ghost")
    state["ghosts"][active] += 1
    turn["entered"] = True
    state["news"].append(msg(N_("%(player)s brings a ghost onto the board"), player=player(active)))


def _move_ghost(state: dict, actor: str, action: dict, rng) -> None:
    """Ghosts share the turn's movement points (ET-13)."""
    _need_free_ghost(state)
    steps = action.get("steps")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise RuleError(N_("A ghost moves at least one square."), code="bad_value")
    _spend(state, steps)
    state["news"].append(
        msg(
            N_("%(player)s moves a ghost %(steps)s squares (%(left)s movement points left)"),
            player=player(state["active"]),
            steps=steps,
            left=state["turn"]["movement_left"],
        )
    )


def _eat(state: dict, actor: str, action: dict, rng) -> None:
    """+2 for the eater, and the ghost must rest for the rest of the turn (ET-15)."""
    if state["phase"] == "panic":
        eater = _forced_eater(state, action)
    else:
        if action.get("ghost_of") not in (None, state["active"]):
            raise RuleError(N_("In the hunt only your own ghosts eat."), code="not_your_ghost")
        _need_free_ghost(state)
        eater = state["active"]
    colour = _colour_on_board(state, action)
    if state["phase"] == "hunt":
        _spend(state, action.get("steps"))
        state["turn"]["done"] += 1
    state["scores"][eater]["eaten"] += 1
    state["news"].append(msg(EATEN[colour], player=player(eater)))
    _remove_tourist(state, colour, "eaten")


def _forced_eater(state: dict, action: dict) -> str:
    """With the Q7 house rule, an opponent's ghost pushed on a panic 6 eats for its owner."""
    panic = state["turn"]["panic"]
    if not (state["settings"]["forced_moves_eat"] and panic and panic["row"] == 6):
        raise RuleError(N_("Ghosts eat in the hunt phase."), code="wrong_phase")
    eater = action.get("ghost_of")
    if eater not in state["players"] or eater == state["active"]:
        raise RuleError(N_("Say whose ghost was pushed onto the tourist."), code="bad_value")
    if not state["ghosts"][eater]:
        raise RuleError(N_("That player has no ghost on the board."), code="no_ghost")
    return eater


def _vanish(state: dict, actor: str, action: dict, rng) -> None:
    """Instead of moving, a ghost leaves the board until its owner's next turn (ET-17, Q10)."""
    _need_free_ghost(state)
    state["ghosts"][state["active"]] -= 1
    state["turn"]["resting"] += 1
    state["news"].append(msg(N_("%(player)s makes a ghost vanish"), player=player(state["active"])))


def _fight(state: dict, actor: str, action: dict, rng) -> None:
    """A ghost steps onto an opponent's ghost: both owners roll (ET-16)."""
    _need_free_ghost(state)
    opponent = action.get("opponent")
    if opponent not in state["players"] or opponent == state["active"]:
        raise RuleError(N_("Choose the opponent whose ghost you attack."), code="bad_value")
    if not state["ghosts"][opponent]:
        raise RuleError(N_("That player has no ghost on the board."), code="no_ghost")
    _spend(state, action.get("steps"))
    state["turn"]["fight"] = {"attacker": state["active"], "defender": opponent, "rolls": {}, "physical": {}}
    state["news"].append(
        msg(
            N_("Ghost fight: %(attacker)s against %(defender)s"),
            attacker=player(state["active"]),
            defender=player(opponent),
        )
    )


def _fight_roll(state: dict, actor: str, action: dict, rng) -> None:
    fight = state["turn"]["fight"]
    if fight is None:
        raise RuleError(N_("No ghost fight is going on."), code="no_fight")
    side = _fighter(fight, actor, action.get("seat"))
    value, physical = _roll(action, rng)
    fight["rolls"][side] = value
    fight["physical"][side] = physical
    state["news"].append(
        msg(N_("%(player)s rolls %(roll)s in the ghost fight"), player=player(side), roll=die(value, physical))
    )
    if len(fight["rolls"]) == 2:
        _settle_fight(state, fight)


def _fighter(fight: dict, actor: str, seat: str | None) -> str:
    """Whose roll this is: a fighter rolls for themselves; the turn's player or the host may enter either."""
    sides = (fight["attacker"], fight["defender"])
    if actor == fight["defender"] and seat not in (None, actor):
        raise RuleError(N_("You roll only for your own ghost."), code="not_your_ghost")
    if seat is None:
        seat = actor if actor in sides else next(side for side in sides if side not in fight["rolls"])
    if seat not in sides:
        raise RuleError(N_("That player is not in this ghost fight."), code="bad_value")
    if seat in fight["rolls"]:
        raise RuleError(N_("That ghost has already rolled."), code="already_rolled")
    return seat


def _settle_fight(state: dict, fight: dict) -> None:
    """The lower roll leaves the board; a tie sends both off; the winner rests (ET-16)."""
    attacker, defender = fight["attacker"], fight["defender"]
    a, d = fight["rolls"][attacker], fight["rolls"][defender]
    turn = state["turn"]
    if a >= d:
        state["ghosts"][defender] -= 1
    if d >= a:
        state["ghosts"][attacker] -= 1
        turn["resting"] += 1
    if a > d:
        turn["done"] += 1
    winner = attacker if a > d else defender if d > a else None
    turn["fight"] = None
    turn["last_fight"] = {**fight, "winner": winner}
    if winner is None:
        line = msg(N_("A tie: both ghosts leave the board"))
    else:
        line = msg(
            N_("%(winner)s wins the ghost fight; the ghost of %(loser)s leaves the board"),
            winner=player(winner),
            loser=player(defender if winner == attacker else attacker),
        )
    state["news"].append(line)


# --- panic -----------------------------------------------------------------------


def _roll_panic(state: dict, actor: str, action: dict, rng) -> None:
    """One roll on the panic table; a missing colour walks up from row 1 (ET-18, ET-23)."""
    turn = state["turn"]
    if turn["panic"] is not None:
        raise RuleError(N_("The panic die has already been rolled this turn."), code="already_rolled")
    value, physical = _roll(action, rng)
    row = table.panic_row(value, state["tourists"])
    colour = table.row_colour(row)
    if row == 5:
        present = [c for c in COLOURS if state["tourists"][c]]
        colour = present[0] if len(present) == 1 else None
    turn["panic"] = {"roll": value, "physical": physical, "row": row, "colour": colour}
    effect = table.row_effect(row, state["settings"]["tourist_speed"], colour)
    banner = _panic_banner(value, row, effect)
    state["news"].append(
        msg(N_("%(player)s rolls %(roll)s for panic"), player=player(state["active"]), roll=die(value, physical))
    )
    state["news"].append(banner)
    if row == 6:
        banner = msg(N_("%(panic)s. %(event)s"), panic=banner, event=_draw_event(state, rng))
    state["banner"] = banner


def _panic_banner(value: int, row: int, effect: dict) -> dict:
    if row != value:
        return msg(
            N_("Panic! You rolled %(roll)s, but that colour has left the castle: %(effect)s"), roll=value, effect=effect
        )
    return msg(N_("Panic! You rolled %(roll)s: %(effect)s"), roll=value, effect=effect)


def _choose_colour(state: dict, actor: str, action: dict, rng) -> None:
    """On a 5 the active player picks one colour still on the board (Q5)."""
    panic = state["turn"]["panic"]
    if panic is None or panic["row"] != 5:
        raise RuleError(N_("You choose a colour only after rolling a 5 for panic."), code="no_choice")
    panic["colour"] = _colour_on_board(state, action)
    effect = table.row_effect(5, state["settings"]["tourist_speed"], panic["colour"])
    state["banner"] = _panic_banner(panic["roll"], 5, effect)
    state["news"].append(msg(N_("%(player)s chooses: %(effect)s"), player=player(state["active"]), effect=effect))


HANDLERS = {
    "next": _next,
    "roll_fright": _roll_fright,
    "tourist_escapes": _tourist_escapes,
    "tourist_dies": _tourist_dies,
    "enter_ghost": _enter_ghost,
    "move_ghost": _move_ghost,
    "eat": _eat,
    "fight": _fight,
    "fight_roll": _fight_roll,
    "vanish": _vanish,
    "roll_panic": _roll_panic,
    "choose_colour": _choose_colour,
}


# --- what the screens show --------------------------------------------------------


def _tourist_rows(state: dict) -> list[dict]:
    start = state["settings"]["tourists_per_colour"]
    return [{"colour": c, "label": msg(COLOUR_NAMES[c]), "left": state["tourists"][c], "start": start} for c in COLOURS]


def _panic_table(state: dict) -> list[dict]:
    """The six rows, the applied one highlighted and the rolled one marked."""
    panic, speed = state["turn"]["panic"], state["settings"]["tourist_speed"]
    rows = []
    for row in range(1, 7):
        rows.append(
            {
                "roll": row,
                "colour": table.row_colour(row),
                "label": table.row_effect(row, speed),
                "rolled": bool(panic and panic["roll"] == row),
                "highlight": bool(panic and panic["row"] == row),
            }
        )
    return rows


def _panic_view(state: dict) -> dict | None:
    panic = state["turn"]["panic"]
    if panic is None:
        return None
    effect = table.row_effect(panic["row"], state["settings"]["tourist_speed"], panic["colour"])
    return {**panic, "fallback": panic["row"] != panic["roll"], "label": effect}


def _event_view(state: dict) -> dict | None:
    number = state["events"]["current"]
    if number is None:
        return None
    return {"number": number, "label": table.event_label(number, state["settings"]["event_titles"])}


def _ghost_rows(state: dict) -> list[dict]:
    per_player = state["settings"]["ghosts_per_player"]
    return [
        {
            "seat": seat,
            "label": player(seat),
            "on_board": state["ghosts"][seat],
            "off_board": per_player - state["ghosts"][seat],
        }
        for seat in state["players"]
    ]
