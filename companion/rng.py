"""The per-table seeded randomness passed into the games."""

import hashlib
import json
import random
import secrets


class Rng:
    """Deterministic dice, draws and shuffles for one action of one table.

    Seeded from the table's secret seed and the action's sequence number, so
    replaying the log gives the same shuffles and the same dice.
    """

    def __init__(self, seed: str, seq: int):
        self._seed = f"{seed}:{seq}"
        self._generator: random.Random | None = None

    @property
    def _random(self) -> random.Random:
        # Made on first use: most actions roll no dice, and seeding costs more than the action.
        if self._generator is None:
            digest = hashlib.sha256(self._seed.encode()).digest()
            self._generator = random.Random(int.from_bytes(digest, "big"))
        return self._generator

    def randint(self, a: int, b: int) -> int:
        return self._random.randint(a, b)

    def roll(self, sides: int = 6) -> int:
        return self._random.randint(1, sides)

    def shuffled(self, items: list) -> list:
        items = list(items)
        self._random.shuffle(items)
        return items

    def choice(self, items: list):
        return self._random.choice(list(items))

    def sample(self, items: list, k: int) -> list:
        return self._random.sample(list(items), k)


def table_seed(game_id: str, options: dict, replay: str | None = None) -> str:
    """A new table's secret seed: unguessable, or with `replay` (tests only) the same for the same game and options,
    so that a seeded walk of the state space plays the same game again."""
    if replay is None:
        return secrets.token_hex(16)
    key = json.dumps([replay, game_id, options], sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:32]
