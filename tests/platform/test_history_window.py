"""The history a view carries is a window of its latest lines: a long game's pushes cost what a short one's do."""

import re

import pytest

from bench.long_game import LongGame
from companion.games.base import HOST
from companion.tables import HISTORY_WINDOW

NOTE = "the cellar key"


def long_notes_table(service):
    """Two players, two rounds of notes and dice: more lines than a window, some of them private."""
    code, host = service.create("secret-notes", {"players": 2})
    tokens = {seat: service.claim(code, seat, seat.title()) for seat in ("player-1", "player-2")}
    for round_ in (1, 2):
        service.act(code, "player-1", {"type": "write", "note": f"{NOTE} {round_}"})
        service.act(code, "player-2", {"type": "write", "note": f"a pebble {round_}"})
        for _ in range(12):
            service.act(code, HOST, {"type": "roll"})
        service.act(code, "player-1", {"type": "next_round"})
    return code, host, tokens


def test_a_view_carries_only_the_latest_history_lines_and_where_the_older_ones_start(service):
    code, _host, _tokens = long_notes_table(service)
    everything = service.view(code, "player-1", full_history=True)["history"]
    view = service.view(code, "player-1")
    assert len(everything) > HISTORY_WINDOW
    assert view["history"] == everything[-len(view["history"]) :]
    assert HISTORY_WINDOW <= len(view["history"]) <= HISTORY_WINDOW + 1  # a write's two lines stay together
    assert view["history_before"] == view["history"][0]["seq"]
    assert view["history_number"] == len(everything)


@pytest.mark.parametrize("seat", ["player-1", "player-2", None])
def test_older_lines_come_window_by_window_with_no_gap_and_only_what_the_seat_may_see(service, seat):
    code, _host, _tokens = long_notes_table(service)
    before, lines = None, []
    while True:
        window = service.history(code, seat, before, limit=3)  # a write's two lines must not be cut apart
        assert window.number == len(service.view(code, seat, full_history=True)["history"]) - len(lines)
        lines = window.lines + lines
        if window.before is None:
            break
        before = window.before
    assert lines == service.view(code, seat, full_history=True)["history"]
    notes = [line["args"].get("note", "") for line in lines]
    assert any(NOTE in note for note in notes) == (seat == "player-1")


def test_the_api_gives_a_seat_its_older_lines_and_not_another_seats(client, service):
    code, host, tokens = long_notes_table(service)
    latest = client.get(f"/api/tables/{code}/view", headers={"Authorization": f"Bearer {tokens['player-2']}"}).json
    older = client.get(
        f"/api/tables/{code}/history?before={latest['history_before']}",
        headers={"Authorization": f"Bearer {tokens['player-2']}"},
    ).json
    assert older["history"] == service.history(code, "player-2", latest["history_before"]).lines
    assert older["history"] and NOTE not in str(older["history"])
    assert "a pebble 1" in str(older["history"])
    assert older["history_before"] is None
    refused = client.get(f"/api/tables/{code}/history?before=soon", headers={"Authorization": f"Bearer {host}"})
    assert refused.status_code == 400
    assert client.get(f"/api/tables/{code}/history").status_code == 401


def test_a_seat_page_links_to_its_earlier_lines_and_that_page_shows_only_the_seats_own(client, service):
    code, _host, tokens = long_notes_table(service)
    pages = {}
    for seat in ("player-1", "player-2"):
        client.set_cookie(f"seat_{code}", tokens[seat])
        live = client.get(f"/t/{code}/seat").get_data(as_text=True)
        link = re.search(r'href="([^"]*/history\?before=\d+)"', live).group(1)
        pages[seat] = client.get(link).get_data(as_text=True)
    assert f"You wrote: {NOTE} 1" in pages["player-1"]
    assert NOTE not in pages["player-2"]
    assert "Player-1 wrote a note." in pages["player-2"]


def test_after_2000_actions_of_a_real_game_a_push_and_a_page_load_are_no_bigger_than_at_action_20(app):
    game = LongGame(app)
    game.fast_forward(20)
    at_20 = game.sizes()
    game.fast_forward(2000 - 20)
    at_2000 = game.sizes()
    for what, size in at_2000.items():
        assert size <= 1.2 * at_20[what], what
