"""Seeded random full games, recorded once in process for bench.real_games to replay at every table of the game.

A game is played against the table service with the bench's replay seed, choosing as the suite's walk does
(tests/e2e/walk.py: its plans, its filling in of forms) among the forms the pages offer: a seat's page, or now and
then the host page (the host's forms carry `as=host`). No undo. Every table opened with the same replay seed, game
and options gets the same dice and cards, so each recorded action is legal again, at the same sequence number, at
every such table. Kept of each action: the form's fields as a page sends them over its socket, and the event it made
(so that a table can be brought to any point of its game without playing the way there).

Scripts are cached in bench/out/scripts/ under a digest of the code they depend on (the product, the walk, this).
"""

from __future__ import annotations

import hashlib
import json
import random
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from companion.forms import action_from_form
from companion.games import load
from companion.games.base import HOST
from companion.tables import TableError
from companion.web.app import create_app
from tests.e2e.test_walk import PLANS
from tests.e2e.walk import NAMES, Forms, Plan, fill_in, options_for

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / "out" / "scripts"
# Every table of the benchmark is opened with this replay seed (companion.rng.table_seed).
REPLAY_SEED = "bench"
# What a page's socket sender leaves out of a form (static/app.js), and what it adds afresh for every send.
NOT_SENT = ("csrf_token", "client_action_id")
HOST_CHANCE = 0.1  # how often the walk's player looks at the host's forms too (tests/e2e/walk.py)
FILLINGS = 12  # fillings tried before the player gives up (as the walk does)


@dataclass(frozen=True)
class Step:
    """One recorded action: who sends it (a seat, or the host), the form's fields, the event's seq and payload."""

    who: str
    fields: dict[str, list[str]]
    seq: int
    action: dict


@dataclass(frozen=True)
class Script:
    """A recorded game: its options and seat names, and its actions in order."""

    game: str
    seed: int
    options: dict
    names: dict[str, str]
    steps: list[Step]

    @classmethod
    def from_json(cls, data: dict) -> Script:
        return cls(**{**data, "steps": [Step(**step) for step in data["steps"]]})


class Recording:
    """One game being played in an app of its own: the table, its seats' tokens, and the pages' forms."""

    def __init__(self, app, game_id: str, seed: int, options: dict):
        self.service = app.extensions["companion"]
        self.client = app.test_client()
        self.game = load([])[game_id]
        self.plan: Plan = PLANS[game_id]
        self.rng = random.Random(seed)
        self.code, self.host_token = self.service.create(game_id, options)
        seats = [spec.id for spec in self.game.seats(options)]
        shift = seed % len(NAMES)
        self.names = {seat: (NAMES[shift:] + NAMES[:shift])[n % len(NAMES)] for n, seat in enumerate(seats)}
        self.tokens = {seat: self.service.claim(self.code, seat, name) for seat, name in self.names.items()}
        self.steps: list[Step] = []

    def forms(self, who: str) -> list[dict]:
        """The action forms of the page of `who`: a seat's phone, or the host page."""
        return Forms(self.page(who)).forms

    def page(self, who: str, query: str = "") -> str:
        """The page of `who`: a seat's phone, or the host page; query: the URL's, "?lang=cs" say."""
        cookie = f"host_{self.code}" if who == HOST else f"seat_{self.code}"
        self.client.set_cookie(cookie, self.host_token if who == HOST else self.tokens[who])
        try:
            return self.client.get(f"/t/{self.code}/{'host' if who == HOST else 'seat'}{query}").get_data(True)
        finally:
            self.client.delete_cookie(cookie)

    def weight(self, form: dict) -> float:
        kind = form["hidden"]["type"]
        if kind in self.plan.endings:  # rare until the budget is spent, then what the player does
            return 50.0 if len(self.steps) > self.plan.budget else 0.02
        return self.plan.weights.get(kind, 1.0)

    def step(self) -> bool:
        """One action of the walk's random player; False when none of the forms offered was taken."""
        choices = [(seat, form) for seat in self.names for form in self.forms(seat)]
        if not choices or self.rng.random() < HOST_CHANCE:
            choices += [(HOST, form) for form in self.forms(HOST)]
        for _attempt in range(FILLINGS):
            if not choices:
                return False
            who, form = self.rng.choices(choices, [self.weight(form) for _who, form in choices])[0]
            fields = fill_in(form, self.rng)
            sender = HOST if fields.get("as") == HOST else who
            try:
                action = action_from_form(self.game, fields, self.service.games.values())
                seq = self.service.act(self.code, sender, action, seen_seq=fields.get("seen_seq", type=int)).seq
            except TableError:
                if not (form["choices"] or form["numbers"] or len(form["buttons"]) > 1):
                    choices.remove((who, form))  # no other filling of this form could be legal
                continue
            sent = {name: values for name, values in fields.to_dict(flat=False).items() if name not in NOT_SENT}
            self.steps.append(Step(sender, sent, seq, action))
            return True
        return False

    def play(self, limit: int) -> list[Step]:
        """Play to the end of the game, or `limit` actions."""
        while len(self.steps) < limit and self.service.view(self.code, None)["outcome"] is None and self.step():
            pass
        return self.steps


def record(game_id: str, seed: int, limit: int) -> Script:
    """A seeded random game of `game_id` with the most players, played to its end (or `limit` actions)."""
    options = options_for(game_id, seed)
    with tempfile.TemporaryDirectory(prefix="companion-script-") as data:
        app = create_app({"DATA_DIR": data, "REPLAY_SEED": REPLAY_SEED, "RENDER_WORKERS": 0})
        recording = Recording(app, game_id, seed, options)
        steps = recording.play(limit)
        return Script(game_id, seed, options, recording.names, steps)


def code_digest() -> str:
    """What a script depends on: the product's code and templates, the walk's choosing, and this recorder."""
    digest = hashlib.sha256(REPLAY_SEED.encode())
    sources = [*sorted((ROOT / "companion").rglob("*.py")), *sorted((ROOT / "templates").rglob("*"))]
    sources += [ROOT / "tests" / "e2e" / "walk.py", ROOT / "tests" / "e2e" / "test_walk.py", Path(__file__)]
    for path in sources:
        if path.is_file():
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def cached_record(game_id: str, seed: int, limit: int, cache: Path) -> Script:
    """The script of this game, seed and limit: read from the cache, else recorded and written there."""
    path = cache / f"{game_id}-{seed}-{limit}-{code_digest()}.json"
    if path.exists():
        return Script.from_json(json.loads(path.read_text()))
    script = record(game_id, seed, limit)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(script)))
    return script


def most_players(game_id: str, seed: int) -> bool:
    """Whether the walk's options of this seed seat the most players (seed 0's always do)."""
    game = load([])[game_id]
    return len(game.seats(options_for(game_id, seed))) == len(game.seats(options_for(game_id, 0)))


def scripts(game_id: str, count: int, shortest: int, limit: int, cache: Path = CACHE) -> list[Script]:
    """`count` recorded games of `game_id` with the most players, each at least `shortest` actions long (the first
    seeds that give them; the longest games found if too few are)."""
    found: list[Script] = []
    for seed in range(4 * count + 8):
        if most_players(game_id, seed):
            found.append(cached_record(game_id, seed, limit, cache))
            if sum(len(script.steps) >= min(shortest, limit) for script in found) >= count:
                break
    long_enough = [script for script in found if len(script.steps) >= min(shortest, limit)]
    return long_enough[:count] or sorted(found, key=lambda script: -len(script.steps))[:count]
