"""The hunt: ghosts enter, move, eat, fight and vanish on one shared budget."""

from __future__ import annotations

from companion.games.base import N_, RuleError, msg

from .texts import EATEN, die
from .turn import (
    choose_ghost,
    colour_on_board,
    ghost_to_act,
    read_die,
    remove_tourist,
    spend,
    unmoved_ghosts,
    waiting_ghosts,
)

VANISHES_INSTEAD = (
    N_("A ghost vanishes instead of moving, not after it moved: make it vanish before moving the others."),
    N_("Your ghost %(ghost)s has moved this turn: a ghost vanishes instead of moving, not after it."),
    "ghost_moved",
)


def enter_ghost(state: dict, actor: str, action: dict, rng) -> None:
    """One ghost a turn comes in from the edge, for free (ET-12, Q6); off the board, ghosts are alike."""
    turn, active = state["turn"], state["active"]
    if turn["entered"]:
        raise RuleError(N_("Only one ghost may enter the board each turn."), code="already_entered")
    waiting = waiting_ghosts(state)
    if not waiting:
        raise RuleError(N_("You have no ghost waiting to enter this turn."), code="no_ghost")
    ghost = action.get("ghost", waiting[0])
    if ghost not in waiting or isinstance(ghost, bool):
        raise RuleError(N_("Your ghost %(ghost)s is not waiting to enter."), code="no_ghost", ghost=ghost)
    state["ghosts"][active] = sorted([*state["ghosts"][active], ghost])
    turn["entered"] = True
    state["news"].append(msg(N_("%(player)s brings ghost %(ghost)s onto the board"), player=active, ghost=ghost))


def move_ghost(state: dict, actor: str, action: dict, rng) -> None:
    """Ghosts share the turn's movement points (ET-13); the one that moved may no longer vanish (ET-17)."""
    ghost = ghost_to_act(state, action)
    steps = action.get("steps")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise RuleError(N_("A ghost moves at least one square."), code="bad_value")
    spend(state, steps)
    _moved(state, ghost)
    state["news"].append(
        msg(
            N_("%(player)s moves ghost %(ghost)s %(steps)s squares (%(left)s movement points left)"),
            player=state["active"],
            ghost=ghost,
            steps=steps,
            left=state["turn"]["movement_left"],
        )
    )


def _moved(state: dict, ghost: int) -> None:
    if ghost not in state["turn"]["moved"]:
        state["turn"]["moved"].append(ghost)


def eat(state: dict, actor: str, action: dict, rng) -> None:
    """+2 for the eater, and the ghost must rest for the rest of the turn (ET-15)."""
    if state["phase"] == "panic":
        eater = _forced_eater(state, action)
        colour = colour_on_board(state, action)
    else:
        if action.get("ghost_of") not in (None, state["active"]):
            raise RuleError(N_("In the hunt only your own ghosts eat."), code="not_your_ghost")
        ghost = ghost_to_act(state, action)
        eater = state["active"]
        colour = colour_on_board(state, action)
        spend(state, action.get("steps"))
        _moved(state, ghost)
        state["turn"]["done"].append(ghost)
    state["scores"][eater]["eaten"] += 1
    state["news"].append(msg(EATEN[colour], player=eater))
    remove_tourist(state, colour, "eaten")


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


def vanish(state: dict, actor: str, action: dict, rng) -> None:
    """Instead of moving, a ghost leaves the board until its owner's next turn (ET-17, Q10)."""
    ghost = choose_ghost(state, action, unmoved_ghosts(state), VANISHES_INSTEAD)
    state["ghosts"][state["active"]].remove(ghost)
    state["turn"]["resting"].append(ghost)
    state["news"].append(msg(N_("%(player)s makes ghost %(ghost)s vanish"), player=state["active"], ghost=ghost))


def fight(state: dict, actor: str, action: dict, rng) -> None:
    """A ghost steps onto an opponent's ghost: both owners roll (ET-16)."""
    ghost = ghost_to_act(state, action)
    opponent = action.get("opponent")
    if opponent not in state["players"] or opponent == state["active"]:
        raise RuleError(N_("Choose the opponent whose ghost you attack."), code="bad_value")
    target = _target(state, opponent, action.get("target"))
    spend(state, action.get("steps"))
    _moved(state, ghost)
    state["turn"]["fight"] = {
        "attacker": state["active"],
        "defender": opponent,
        "ghost": ghost,
        "target": target,
        "rolls": {},
        "physical": {},
    }
    state["news"].append(
        msg(
            N_("Ghost fight: %(attacker)s against %(defender)s"),
            attacker=state["active"],
            defender=opponent,
        )
    )


def _target(state: dict, opponent: str, target) -> int:
    """The opponent's ghost under attack: the one named, or their only ghost on the board."""
    theirs = state["ghosts"][opponent]
    if not theirs:
        raise RuleError(N_("That player has no ghost on the board."), code="no_ghost")
    if target is None and len(theirs) == 1:
        return theirs[0]
    if target not in theirs:
        raise RuleError(
            N_("Say which of their ghosts you attack: %(ghosts)s."),
            code="which_ghost",
            ghosts=", ".join(map(str, theirs)),
        )
    return target


def fight_roll(state: dict, actor: str, action: dict, rng) -> None:
    fight = state["turn"]["fight"]
    if fight is None:
        raise RuleError(N_("No ghost fight is going on."), code="no_fight")
    side = _fighter(fight, actor, action.get("seat"))
    value, physical = read_die(action, rng)
    fight["rolls"][side] = value
    fight["physical"][side] = physical
    state["news"].append(
        msg(N_("%(player)s rolls %(roll)s in the ghost fight"), player=side, roll=die(value, physical))
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
        state["ghosts"][defender].remove(fight["target"])
    if d >= a:
        state["ghosts"][attacker].remove(fight["ghost"])
        turn["resting"].append(fight["ghost"])
    if a > d:
        turn["done"].append(fight["ghost"])
    winner = attacker if a > d else defender if d > a else None
    turn["fight"] = None
    turn["last_fight"] = {**fight, "winner": winner}
    if winner is None:
        line = msg(N_("A tie: both ghosts leave the board"))
    else:
        line = msg(
            N_("%(winner)s wins the ghost fight; the ghost of %(loser)s leaves the board"),
            winner=winner,
            loser=defender if winner == attacker else attacker,
        )
    state["news"].append(line)
