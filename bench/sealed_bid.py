"""A bench-only game: every round each seat places one secret bid; all bids are shown once the last is in.

Rounds never run out (a Downforce auction ends too soon for a benchmark). Its
history stays empty so that a pushed view has the same size in round 200 as in
round 1, like boardgame.io's pushes in the peer's figures.
"""

from __future__ import annotations

from companion.games.base import HOST, N_, Game, Move, Option, RuleError, SeatSpec, msg

BID = {"type": "object", "properties": {"amount": {"type": "integer"}}, "required": ["amount"]}


def bid(state, actor, action):
    amount = action.get("amount")
    if actor == HOST:
        raise RuleError(N_("The host does not bid."))
    if actor in state["bids"]:
        raise RuleError(N_("You have bid this round already."))
    if not isinstance(amount, int) or not 1 <= amount <= 1000:
        raise RuleError(N_("Bid a whole number from 1 to 1000."))
    state["bids"][actor] = amount
    if len(state["bids"]) == len(state["seats"]):
        state.update(round=state["round"] + 1, bids={}, revealed={"round": state["round"], "bids": state["bids"]})


class SealedBid(Game):
    id = "sealed-bid"
    name = N_("Sealed bids (benchmark)")
    summary = N_("Everybody bids in secret; the bids are shown when all are in.")
    options = (Option("players", N_("Players"), "int", 6, min=2, max=8),)
    moves = {"bid": Move(lambda state, actor, action, rng: bid(state, actor, action), BID)}
    concurrent = frozenset({"bid"})

    def seats(self, options):
        return [SeatSpec(f"seat-{n}", msg(N_("Seat %(n)s"), n=n)) for n in range(options.get("players", 6))]

    def setup(self, options, rng):
        return {"round": 1, "bids": {}, "revealed": None, "seats": [s.id for s in self.seats(options)]}

    def fresh(self, state):
        # A bid changes only the bids (a new round replaces the rest): thousands of tables keep every state.
        return {**state, "bids": dict(state["bids"])}

    def view(self, state, seat):
        return {
            "round": state["round"],
            "bidders": sorted(state["bids"]),
            "my_bid": state["bids"].get(seat),
            "revealed": state["revealed"],
            "your_turn": seat is not None and seat not in state["bids"],
        }

    def describe(self, before, after, actor, action):
        return []


game = SealedBid()
