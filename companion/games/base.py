"""The one small interface every game companion implements.

A game is pure: state in, new state out. It never imports Flask, does no I/O,
reads no clock and uses no global randomness; the table's seeded `Rng` is
passed in. State is plain JSON data (dicts, lists, str, int, bool, None) so
that it can be snapshotted and exported; `apply` must not mutate its input.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

HOST = "host"
"""The actor id of the table's host (the device that opened the table)."""

Msg = dict
"""A translatable message: {"msg": msgid, "args": {...}}; an arg may itself be a Msg."""


def N_(msgid: str) -> str:
    """Mark a string for translation; it is translated where it is shown."""
    return msgid


def msg(msgid: str, **args: Any) -> Msg:
    """A message to be translated where it is shown, with %(name)s arguments."""
    return {"msg": msgid, "args": args}


class Refusal(enum.Enum):
    """How a refusal is answered (web/ gives each its HTTP status); a game declares one of the first four for a code
    of its own (`Game.refusals`), the others are the platform's."""

    ILLEGAL = "illegal"  # the rules do not allow it now: every code a game does not declare
    FORBIDDEN = "forbidden"  # this seat may never do it
    NOT_FOUND = "not_found"  # what it names is not at the table
    CONFLICT = "conflict"  # the table has moved past the moment it was meant for
    BAD_REQUEST = "bad_request"
    UNAUTHORIZED = "unauthorized"
    TOO_MANY = "too_many"
    UNAVAILABLE = "unavailable"


class RuleError(ValueError):
    """An action the rules do not allow, with a message a player understands."""

    def __init__(self, msgid: str, code: str = "illegal_action", **args: Any):
        super().__init__(msgid % args if args else msgid)
        self.code = code
        self.message = msg(msgid, **args)


class Rng(Protocol):
    """The table's seeded randomness (implemented in companion.rng)."""

    def randint(self, a: int, b: int) -> int: ...
    def roll(self, sides: int = 6) -> int: ...
    def shuffled(self, items: list) -> list: ...
    def choice(self, items: list) -> Any: ...
    def sample(self, items: list, k: int) -> list: ...


@dataclass(frozen=True)
class SeatSpec:
    """A seat a phone can take: `id` is stable ("mister-x"), `label` a Msg."""

    id: str
    label: Msg
    role: str = "player"


@dataclass(frozen=True)
class Option:
    """A table option shown in the lobby form and in the OpenAPI document.

    kind: "int" (min/max), "bool", "choice" (choices: value -> label Msg), "text".
    """

    name: str
    label: str
    kind: str
    default: Any
    min: int | None = None
    max: int | None = None
    choices: Mapping[str, str] = field(default_factory=dict)
    help: str = ""


def copy_of(state):
    """A deep copy of plain JSON data (dicts, lists, tuples of them, atoms): the state a move may change. Several
    times quicker than copy.deepcopy, which keeps a memo and dispatches on every type, on every action."""
    kind = type(state)
    if kind is dict:
        return {key: copy_of(value) for key, value in state.items()}
    if kind is list:
        return [copy_of(value) for value in state]
    if kind is tuple:
        return tuple(copy_of(value) for value in state)
    return state


@dataclass(frozen=True)
class Move:
    """One kind of action, declared once: its fields, when and by whom it may be made, and what it does.

    does(state, actor, action, rng) changes the state it is given (a copy: the platform's, made once).
    phases: the values of state["phase"] it may be made in (None: any). who(state, actor, action) raises a
    RuleError when this actor may not make it (None: anyone at the table).
    """

    does: Callable[..., None]
    fields: dict = field(default_factory=lambda: {"type": "object", "properties": {}})
    phases: tuple[str, ...] | None = None
    who: Callable[[dict, str, dict], None] | None = None


class Game:
    """Base class of a game companion; override what your game needs."""

    id: str = ""
    name: str = ""
    summary: str = ""
    bgg_id: int | None = None  # the game's BoardGameGeek id: BG Stats matches a sent play by it
    options: tuple[Option, ...] = ()
    # action type -> its Move: the one declaration of each kind of action.
    moves: Mapping[str, Move] = {}
    # Action types that stay meaningful when other actions happened since the
    # phone last saw the table (sealed bids, detective moves): they are only
    # re-validated. Any other action sent from an outdated view is refused.
    concurrent: frozenset[str] = frozenset()
    # A RuleError's code -> how it is answered, for the codes that are not Refusal.ILLEGAL.
    refusals: Mapping[str, Refusal] = {}

    def moment(self, state: dict) -> object:
        """What a concurrent action's meaning is tied to: the round, the car on auction.

        A concurrent action sent from a view of another moment is refused as
        stale (a detective's move for a round that is over must not land in the
        next). The default: one moment for the whole game.
        """
        return None

    def seats(self, options: dict) -> list[SeatSpec]:
        raise NotImplementedError

    def setup(self, options: dict, rng: Rng) -> dict:
        raise NotImplementedError

    @functools.cached_property
    def actions(self) -> dict[str, dict]:
        """Action type -> JSON Schema of the action's fields (without "type"), for the forms and the API: made once,
        read it, never change it."""
        return {kind: move.fields for kind, move in self.moves.items()}

    def apply(self, state: dict, actor: str, action: dict, rng: Rng) -> dict:
        """Return the state after `actor` (a seat id or HOST) does `action`: its move's checks, then its change
        to a copy of the state."""
        move = self.check(state, actor, action)
        state = self.fresh(state)
        move.does(state, actor, action, rng)
        return state

    def check(self, state: dict, actor: str, action: dict) -> Move:
        """The action's move, if its own checks (who may make it, in which phases) let `actor` make it now."""
        move = self.moves.get(action.get("type"))
        if move is None:
            raise RuleError(N_("This game has no such action."), code="unknown_action")
        if move.who is not None:
            move.who(state, actor, action)
        if move.phases is not None and state.get("phase") not in move.phases:
            raise self.wrong_phase(state)
        return move

    def allows(self, state: dict, actor: str, action: dict) -> bool:
        try:
            self.check(state, actor, action)
        except RuleError:
            return False
        return True

    def wrong_phase(self, state: dict) -> RuleError:
        """The refusal of a move made outside its phases."""
        return RuleError(N_("That cannot be done now."), code="wrong_phase")

    def fresh(self, state: dict) -> dict:
        """The copy of the state that a move changes: a deep one by default. A game clears here what tells only
        of the last action, or copies only what its moves change (an undo replays moves from a kept state)."""
        return copy_of(state)

    def view(self, state: dict, seat: str | None) -> dict:
        """What `seat` may see; seat None is the public table display.

        Optional keys the platform understands: "your_turn" (bool, true exactly while the table waits on this
        seat: the phone then says and shows "Your turn") and "banner" (a Msg shown large on every screen).
        """
        raise NotImplementedError

    def outcome(self, state: dict) -> dict | None:
        """None while the game runs; else {"winners": [seat ids], "summary": Msg}.

        Optional keys, for the play a table sends to BG Stats (all public once the game is over):
        "scores" {seat id: number} (the final score sheet, for games with points), "start_player"
        (the seat that began) and "roles" {seat id: Msg} (the side each seat played).
        """
        return None

    def describe(self, before: dict, after: dict, actor: str, action: dict) -> list[dict]:
        """History lines for an accepted action, in the players' words.

        Each line is {"msg": msgid, "args": {...}, "seats": None | [seat ids]}:
        seats None is public; otherwise only those seats see the line.
        """
        return [{**msg(N_("%(actor)s: %(action)s"), actor=actor, action=action["type"]), "seats": None}]

    def describe_undone(self, before: dict, undone: dict, restored: dict, actor: str, action: dict) -> list[dict]:
        """The history lines an undone action leaves, written against `restored`, the state after the undo.

        An undone line is history too: every seat keeps reading it. A game whose undo
        hides again what the action revealed says here what each seat may still read of
        it. By default the action's lines stay as they were.
        """
        return self.describe(before, undone, actor, action)

    def undo(self, before: dict, undone: dict, action: dict) -> dict:
        """The state after the host undoes `action` (which led from before to undone).

        Raise RuleError to refuse; return more than `before` when something the
        undone action revealed stays known.
        """
        return before
