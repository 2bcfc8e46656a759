"""The minions' cheese wheel and its surges, which move the hourglass and bring the minions they name."""

from companion.games.base import N_

from . import initiative
from .names import arrivals_label
from .story import banner, check_lost, note

SURGE_AT = 6


def add_minion_cheese(state: dict, count: int, rng) -> None:
    """MM-16, MM-28 and Q7: each cheese reaches the wheel at once and is checked on its own.

    The wheel surges at the sixth cheese and empties; cheese rolled beyond it lands on the
    empty wheel, so 8 cheese is one surge and 2 left, 12 cheese two surges.
    """
    for _ in range(count):
        if state["phase"] != "playing":
            return
        state["wheel"] += 1
        if state["wheel"] >= SURGE_AT:
            surge(state, rng)


def surge(state: dict, rng) -> None:
    """MM-30: the hourglass moves, the surge's minions arrive on the initiative track, the wheel empties."""
    state["hourglass"] += 1
    source, card, text, arrivals = surge_source(state)
    arrivals = initiative.room_for(state, arrivals)
    state["wheel"] = 0
    state["surge"] = {
        "source": source,
        "text": text or card,
        "page": state["hourglass"],
        "arrivals": arrivals_label(arrivals) if arrivals else None,
    }
    announce(state, source, card, text, arrivals)
    note(state, N_("The hourglass moves to page %(page)s."), page=state["hourglass"])
    check_lost(state)
    if arrivals and state["phase"] == "playing":
        initiative.summon(state, arrivals, rng)  # MM-6: an ambush never touches a surge's minions


def announce(state: dict, source: str, card: str, text: str, arrivals: list[dict]) -> None:
    """The banner on every screen names the minions that arrive; the card's other words follow in the history."""
    if arrivals and source == "special":
        banner(state, N_("Surge! The room's special surge: %(minions)s arrive."), minions=arrivals_label(arrivals))
    elif arrivals:
        banner(
            state,
            N_("Surge! From the encounter card %(card)s: %(minions)s arrive."),
            card=card,
            minions=arrivals_label(arrivals),
        )
    elif source == "special":
        banner(state, N_("Surge! The chapter's special surge: %(text)s"), text=text)
    elif source == "encounter":
        banner(state, N_("Surge! From the encounter card: %(text)s"), text=text or card)
    else:
        banner(state, N_("Surge! No minions appear, but the hourglass moves on."))
    note(state, state["banner"]["msg"], **state["banner"]["args"])
    if arrivals and text:
        note(state, N_("The surge also says: %(text)s"), text=text)


def surge_source(state: dict) -> tuple[str, str, str, list[dict]]:
    """Where the surge comes from, the card's name, its words and its minions.

    The room's special surge wins over the face-up encounter card, which is then discarded (Q7):
    a later surge in the same room finds no card and brings no minions, but still moves the hourglass.
    """
    if state["special_surge"] or state["special_minions"]:
        return "special", "", state["special_surge"], [dict(arrival) for arrival in state["special_minions"]]
    card = state["encounter"]
    if card is not None:
        state["encounter"] = None
        return "encounter", card["name"], card["surge"], card["surge_minions"]
    return "none", "", "", []
