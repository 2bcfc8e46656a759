"""The chapter's phases, the story track (hourglass and chapter-end marker) and the lines each action adds to the
history."""

from companion.games.base import N_, msg

SETUP, PLAYING, WON, LOST = "setup", "playing", "won", "lost"
ENDED = (WON, LOST)


def note(state: dict, msgid: str, **args) -> None:
    """A line for this action's history."""
    state["events"].append(msg(msgid, **args))


def banner(state: dict, msgid: str, **args) -> None:
    state["banner"] = msg(msgid, **args)


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
    if state["phase"] == PLAYING and state["hourglass"] >= state["end_page"]:
        state["phase"] = LOST
        banner(state, N_("The hourglass has reached the chapter's end: the chapter is lost."))
        note(state, state["banner"]["msg"], **state["banner"]["args"])
