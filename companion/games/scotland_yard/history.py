"""The history lines a move leaves, told to the seats that may read each."""

from __future__ import annotations

from companion.games.base import N_

from .figures import MISTER_X, REVEAL_MOVES, figure_label, history_line
from .moves import end_summary

MISTER_X_TOOK = {
    "taxi": N_("Mister X took a taxi (move %(move)s)."),
    "bus": N_("Mister X took the bus (move %(move)s)."),
    "underground": N_("Mister X took the underground (move %(move)s)."),
    "black": N_("Mister X used a black ticket (move %(move)s)."),
}
YOU_TOOK = {
    "taxi": N_("You took a taxi to station %(station)s (move %(move)s)."),
    "bus": N_("You took the bus to station %(station)s (move %(move)s)."),
    "underground": N_("You took the underground to station %(station)s (move %(move)s)."),
    "black": N_("You used a black ticket to station %(station)s (move %(move)s)."),
}
FIGURE_TOOK = {
    "taxi": N_("%(figure)s took a taxi to station %(station)s."),
    "bus": N_("%(figure)s took the bus to station %(station)s."),
    "underground": N_("%(figure)s took the underground to station %(station)s."),
}
FIGURE_RODE = {
    "taxi": N_("%(figure)s took a taxi."),
    "bus": N_("%(figure)s took the bus."),
    "underground": N_("%(figure)s took the underground."),
}
SKIP_REASONS = {
    "no_tickets": N_("%(figure)s sits out round %(round)s: no tickets left."),
    "no_ticket_fits": N_("%(figure)s sits out round %(round)s: no ticket left for any line from station %(station)s."),
    "blocked": N_("%(figure)s sits out round %(round)s: every station it can reach from %(station)s is taken."),
}


def describe_action(before: dict, after: dict, action: dict, end_shown: bool) -> list[dict]:
    """The history of one action; end_shown False keeps the station of an end to Mister X."""
    lines = []
    if action.get("type") == "double_move":
        lines.append(history_line(N_("Mister X plays a double move.")))
    for number in range(len(before["travel_log"]) + 1, len(after["travel_log"]) + 1):
        lines += log_lines(after, number)
    end = after["end"] if not before["end"] else None
    for figure, spot in after["figures"].items():
        if spot["station"] != before["figures"][figure]["station"]:
            if end and end["reason"] == "captured" and end["figure"] == figure and not end_shown:
                # He stands where this figure went: the station goes with the end.
                lines.append(history_line(FIGURE_RODE[action["ticket"]], figure=figure_label(figure)))
            else:
                took = FIGURE_TOOK[action["ticket"]]
                lines.append(history_line(took, figure=figure_label(figure), station=spot["station"]))
    for skip in after["skips"][len(before["skips"]) :]:
        lines.append(
            history_line(
                SKIP_REASONS[skip["reason"]],
                figure=figure_label(skip["figure"]),
                round=skip["round"],
                station=skip["station"],
            )
        )
    if after["round"] > before["round"] and after["phase"] != "over":
        lines.append(history_line(N_("Round %(round)s: Mister X moves."), round=after["round"]))
    if end:
        lines.append({**end_summary(after), "seats": None if end_shown else [MISTER_X]})
    return lines


def log_lines(state: dict, number: int) -> list[dict]:
    entry = state["travel_log"][number - 1]
    lines = [
        history_line(MISTER_X_TOOK[entry["ticket"]], move=number),
        history_line(YOU_TOOK[entry["ticket"]], seats=[MISTER_X], station=entry["station"], move=number),
    ]
    if number in REVEAL_MOVES:
        lines.append(
            history_line(
                N_("Mister X shows himself at station %(station)s (move %(move)s)!"),
                station=entry["station"],
                move=number,
            )
        )
    return lines
