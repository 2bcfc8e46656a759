"""A test-only game with a secret per seat, to prove that no byte a seat receives carries another's secret."""

from __future__ import annotations

from companion.games.base import HOST, N_, Game, Move, Option, RuleError, SeatSpec, msg


def write(state, actor, action, rng):
    if actor == HOST:
        raise RuleError(N_("The host has no note to write."))
    if len(state["notes"]) == len(state["seats"]):
        raise RuleError(N_("All notes are in; start the next round."))
    state["notes"][actor] = action["note"]
    if len(state["notes"]) == len(state["seats"]):
        state["revealed"].append(dict(state["notes"]))


def next_round(state, actor, action, rng):
    if len(state["notes"]) < len(state["seats"]):
        raise RuleError(N_("Wait until every note is in."))
    state["round"] += 1
    state["notes"] = {}


class SecretNotes(Game):
    """Each seat writes a secret note; all notes are revealed once every seat has written one."""

    id = "secret-notes"
    name = N_("Secret notes")
    summary = N_("A test game: everybody writes a secret, then all are shown at once.")
    options = (Option("players", N_("Players"), "int", 3, min=2, max=6),)
    moves = {
        "write": Move(write, {"type": "object", "properties": {"note": {"type": "string"}}, "required": ["note"]}),
        "roll": Move(lambda state, actor, action, rng: state["dice"].append(rng.roll())),
        "next_round": Move(next_round),
    }
    concurrent = frozenset({"write"})

    def moment(self, state):
        return state["round"]

    def seats(self, options):
        return [SeatSpec(f"player-{n}", msg(N_("Player %(n)s"), n=n)) for n in range(1, options["players"] + 1)]

    def setup(self, options, rng):
        return {"round": 1, "notes": {}, "revealed": [], "dice": [], "seats": [s.id for s in self.seats(options)]}

    def view(self, state, seat):
        return {
            "round": state["round"],
            "written": sorted(state["notes"]),
            "my_note": state["notes"].get(seat),
            "revealed": state["revealed"],
            "dice": state["dice"],
            "your_turn": seat is not None and seat not in state["notes"],
        }

    def describe(self, before, after, actor, action):
        if action["type"] == "write":
            return [
                {**msg(N_("%(seat)s wrote a note."), seat=actor), "seats": None},
                {**msg(N_("You wrote: %(note)s"), note=action["note"]), "seats": [actor]},
            ]
        return [{**msg(N_("%(seat)s: %(action)s"), seat=actor, action=action["type"]), "seats": None}]

    def outcome(self, state):
        if state["round"] > 3:
            return {"winners": [], "summary": msg(N_("Three rounds played."))}
        return None


game = SecretNotes()
