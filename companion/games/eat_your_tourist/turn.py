"""Bookkeeping shared by the phases, the one tap that moves the turn on, and fright."""

from __future__ import annotations

from companion.games.base import N_, RuleError, msg

from . import table
from .texts import COLOUR_NAMES, COLOURS, DIED, ESCAPED, die


def fresh_turn(settings: dict) -> dict:
    return {
        "fright_rolls": [],
        "movement_left": settings["movement_points"],
        "entered": False,
        # The active player's ghosts, by number, that left the board this turn: they come back next turn.
        "resting": [],
        # ... that ate or won a fight: they stay put for the rest of the turn.
        "done": [],
        # ... that moved: they may no longer vanish instead of moving (ET-17).
        "moved": [],
        "fight": None,
        "last_fight": None,
        "panic": None,
    }


def left_of(state: dict, seat: str) -> str:
    """The next player clockwise, who pays for the active player's escapes."""
    players = state["players"]
    return players[(players.index(seat) + 1) % len(players)]


def read_die(action: dict, rng) -> tuple[int, bool]:
    """A die from the table when the player typed one in, else the app's die."""
    value = action.get("value")
    if value is None:
        return rng.roll(6), False
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise RuleError(N_("A die shows 1 to 6."), code="bad_value")
    return value, True


def colour_on_board(state: dict, action: dict) -> str:
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


def remove_tourist(state: dict, colour: str, how: str) -> None:
    """A tourist leaves the board; the last one ends the game (ET-24, ET-27)."""
    state["tourists"][colour] -= 1
    state["gone"][how] += 1
    if not any(state["tourists"].values()):
        state["phase"] = "over"
        state["turn"]["fight"] = None
        state["banner"] = msg(N_("The last tourist has left the castle: game over!"))
        state["news"].append(state["banner"])


def spend(state: dict, steps) -> None:
    """Spend movement points from the turn's shared budget (ET-13)."""
    if steps is None:
        return
    left = state["turn"]["movement_left"]
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise RuleError(N_("Steps are counted in whole squares."), code="bad_value")
    if steps > left:
        raise RuleError(N_("Only %(left)s movement points are left."), code="no_movement_points", left=left)
    state["turn"]["movement_left"] = left - steps


def free_ghosts(state: dict) -> list[int]:
    """The active player's ghosts on the board that may still move this turn, by number."""
    return [ghost for ghost in state["ghosts"][state["active"]] if ghost not in state["turn"]["done"]]


def unmoved_ghosts(state: dict) -> list[int]:
    """The active player's free ghosts on the board that have not moved this turn."""
    return [ghost for ghost in free_ghosts(state) if ghost not in state["turn"]["moved"]]


def waiting_ghosts(state: dict) -> list[int]:
    """The active player's ghosts off the board that may enter this turn (not the ones that just left)."""
    active, turn = state["active"], state["turn"]
    everyone = range(1, state["settings"]["ghosts_per_player"] + 1)
    return [ghost for ghost in everyone if ghost not in state["ghosts"][active] and ghost not in turn["resting"]]


def choose_ghost(state: dict, action: dict, able: list[int], busy: tuple[str, str, str]) -> int:
    """The active player's ghost that the action names, or the only one that can do it.

    Ghosts are told apart (ET-17: one ghost moving does not stop the other from vanishing).
    `busy`: what to say when none can, when the one named cannot, and the refusal's code.
    """
    on_board = state["ghosts"][state["active"]]
    if not on_board:
        raise RuleError(N_("You have no ghost on the board."), code="no_ghost")
    ghost = action.get("ghost")
    if ghost is None:
        if len(able) == 1:
            return able[0]
        if not able:
            raise RuleError(busy[0], code=busy[2])
        raise RuleError(N_("Say which ghost: %(ghosts)s."), code="which_ghost", ghosts=", ".join(map(str, able)))
    if ghost not in on_board or isinstance(ghost, bool):
        raise RuleError(N_("Your ghost %(ghost)s is not on the board."), code="no_ghost", ghost=ghost)
    if ghost not in able:
        raise RuleError(busy[1], code=busy[2], ghost=ghost)
    return ghost


STAYS_PUT = (
    N_("Your ghosts on the board have eaten or fought and must stay put this turn."),
    N_("Your ghost %(ghost)s has eaten or fought and must stay put this turn."),
    "ghost_resting",
)


def ghost_to_act(state: dict, action: dict) -> int:
    """The ghost that moves, eats or attacks: one on the board that has not eaten or fought (ET-15, ET-16)."""
    return choose_ghost(state, action, free_ghosts(state), STAYS_PUT)


def draw_event(state: dict, rng) -> dict:
    state["events"] = table.draw_event(state["events"], rng)
    card = table.event_label(state["events"]["current"], state["settings"]["event_titles"])
    line = msg(N_("New event: %(event)s"), event=card)
    state["news"].append(line)
    return line


def next_phase(state: dict, actor: str, action: dict, rng) -> None:
    """One tap to go on: fright → hunt → panic → the next player's fright (ET-4)."""
    active = state["active"]
    if state["phase"] == "fright":
        state["phase"] = "hunt"
        state["news"].append(msg(N_("%(player)s: the hunt begins"), player=active))
    elif state["phase"] == "hunt":
        _start_panic(state, rng)
    else:
        _end_turn(state)


def _start_panic(state: dict, rng) -> None:
    state["phase"] = "panic"
    state["news"].append(msg(N_("%(player)s: panic among the tourists!"), player=state["active"]))
    if state["settings"]["event_every_panic"]:
        # House rule H3 ("restless times"): a card at the start of every panic phase.
        state["banner"] = draw_event(state, rng)


def _end_turn(state: dict) -> None:
    panic = state["turn"]["panic"]
    if panic is None:
        raise RuleError(N_("Roll the panic die before you end your turn."), code="panic_missing")
    if panic["row"] == 5 and panic["colour"] is None:
        raise RuleError(N_("Choose which colour of tourists panics."), code="colour_missing")
    ending = state["active"]
    state["active"] = left_of(state, ending)
    state["phase"] = "fright"
    state["turn_number"] += 1
    state["turn"] = fresh_turn(state["settings"])
    state["banner"] = None
    state["news"].append(msg(N_("%(player)s ends the turn; %(next)s goes next"), player=ending, next=state["active"]))


def roll_fright(state: dict, actor: str, action: dict, rng) -> None:
    """A frightened tourist runs as far as the die says (ET-8)."""
    value, physical = read_die(action, rng)
    state["turn"]["fright_rolls"].append({"value": value, "physical": physical})
    state["news"].append(
        msg(
            N_("%(player)s rolls %(roll)s for a frightened tourist"),
            player=state["active"],
            roll=die(value, physical),
        )
    )


def tourist_escapes(state: dict, actor: str, action: dict, rng) -> None:
    """Off the board in fright or panic: the active player's left neighbour gets −1 (ET-11, ET-22)."""
    colour = colour_on_board(state, action)
    neighbour = left_of(state, state["active"])
    state["scores"][neighbour]["escapes"] += 1
    state["news"].append(msg(ESCAPED[colour], neighbour=neighbour))
    remove_tourist(state, colour, "escaped")


def tourist_dies(state: dict, actor: str, action: dict, rng) -> None:
    """No safe square left: the tourist dies of fright and nobody scores (ET-10, ET-21)."""
    colour = colour_on_board(state, action)
    state["news"].append(msg(DIED[colour]))
    remove_tourist(state, colour, "died")
