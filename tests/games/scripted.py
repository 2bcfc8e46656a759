"""Randomness chosen by a test: dice come in the given order, shuffles keep the order unless told otherwise."""


class ScriptedRng:
    """Stands in for companion.rng.Rng; with no rolls left a die shows its lowest face."""

    def __init__(self, rolls=(), shuffle=None, samples=()):
        self.rolls = list(rolls)
        self.shuffle = shuffle
        self.samples = list(samples)

    def randint(self, a, b):
        value = self.rolls.pop(0) if self.rolls else a
        assert a <= value <= b
        return value

    def roll(self, sides=6):
        return self.randint(1, sides)

    def shuffled(self, items):
        return self.shuffle(list(items)) if self.shuffle else list(items)

    def choice(self, items):
        return list(items)[0]

    def sample(self, items, k):
        return self.samples.pop(0) if self.samples else list(items)[:k]
