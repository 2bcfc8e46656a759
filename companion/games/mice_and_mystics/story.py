"""The cheese wheel, surges and the story track (hourglass and chapter-end marker)."""

from companion.games.base import N_, msg

SURGE_AT = 6


def note(state: dict, msgid: str, **args) -> None:
    """A line for this action's history."""
    state["events"].append(msg(msgid, **args))


def banner(state: dict, msgid: str, **args) -> None:
    state["banner"] = msg(msgid, **args)


def add_minion_cheese(state: dict, count: int) -> None:
    """MM-16, MM-28 and Q7: each cheese reaches the wheel at once and is checked on its own.

    The wheel surges at the sixth cheese and empties; cheese rolled beyond it lands on the
    empty wheel, so 8 cheese is one surge and 2 left, 12 cheese two surges.
    """
    for _ in range(count):
        if state["phase"] != "playing":
            return
        state["wheel"] += 1
        if state["wheel"] >= SURGE_AT:
            surge(state)


def surge(state: dict) -> None:
    """MM-30: the hourglass moves, the surge source is resolved and the wheel empties."""
    state["hourglass"] += 1
    source, text = surge_source(state)
    state["surge"] = {"source": source, "text": text, "page": state["hourglass"]}
    state["wheel"] = 0
    if source == "special":
        banner(state, N_("Surge! The chapter's special surge: %(text)s"), text=text)
    elif source == "encounter":
        banner(state, N_("Surge! From the encounter card: %(text)s"), text=text)
    else:
        banner(state, N_("Surge! No minions appear, but the hourglass moves on."))
    note(state, state["banner"]["msg"], **state["banner"]["args"])
    note(state, N_("The hourglass moves to page %(page)s."), page=state["hourglass"])
    check_lost(state)


def surge_source(state: dict) -> tuple[str, str]:
    """The special surge wins over the face-up encounter card, which is then discarded (Q7)."""
    if state["special_surge"]:
        return "special", state["special_surge"]
    card = state["encounter"]
    if card is not None:
        state["encounter"] = None
        return "encounter", card["surge"] or card["name"]
    return "none", ""


def move_hourglass(state: dict, pages: int) -> None:
    state["hourglass"] = max(1, state["hourglass"] + pages)
    note(state, N_("The hourglass moves to page %(page)s."), page=state["hourglass"])
    check_lost(state)


def move_end_marker(state: dict, pages: int) -> None:
    state["end_page"] = max(1, state["end_page"] + pages)
    note(state, N_("The chapter-end marker moves to page %(page)s."), page=state["end_page"])
    check_lost(state)


def check_lost(state: dict) -> None:
    """Q5: the chapter is lost when the hourglass reaches the chapter-end marker."""
    if state["phase"] == "playing" and state["hourglass"] >= state["end_page"]:
        state["phase"] = "lost"
        banner(state, N_("The hourglass has reached the chapter's end: the chapter is lost."))
        note(state, state["banner"]["msg"], **state["banner"]["args"])
