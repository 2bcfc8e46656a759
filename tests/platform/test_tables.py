"""The table service on a real SQLite file: exactly once, in order, undo with an audit, stale actions."""

import threading

import pytest

from companion.games.base import HOST
from companion.tables import Conflict, Forbidden, NotFound, Refused, Stale, Tables


def open_table(service, players=3):
    code, host = service.create("secret-notes", {"players": players})
    tokens = {f"player-{n}": service.claim(code, f"player-{n}", f"P{n}") for n in range(1, players + 1)}
    return code, host, tokens


def test_a_join_code_has_six_unambiguous_characters(service):
    code, _host = service.create("secret-notes", {"players": 2})
    assert len(code) == 6
    assert not set(code) & set("0O1IL")


def test_a_replay_seed_deals_the_same_table_again_and_only_for_the_same_game_and_options(service):
    replaying = Tables(service.store, service.games, replay_seed="walk")
    seeds = [
        service.store.table(replaying.create(game, {"players": players})[0]).seed
        for game, players in (("downforce", 4), ("downforce", 4), ("downforce", 5), ("eat-your-tourist", 4))
    ]
    assert seeds[0] == seeds[1] and len(set(seeds)) == 3
    unseeded = [service.store.table(service.create("downforce", {"players": 4})[0]).seed for _ in range(2)]
    assert unseeded[0] != unseeded[1]


def test_tokens_are_unguessable_and_name_their_seat(service):
    code, host, tokens = open_table(service)
    assert len(tokens["player-1"]) >= 43  # 256 bits in urlsafe base64
    assert service.authenticate(code, tokens["player-2"]) == "player-2"
    assert service.authenticate(code, host) == HOST
    with pytest.raises(Forbidden):
        service.authenticate(code, "forged-token")


def test_a_taken_seat_cannot_be_claimed_again(service):
    code, _host, _tokens = open_table(service)
    with pytest.raises(Conflict):
        service.claim(code, "player-1", "Intruder")


def test_the_same_client_action_id_is_applied_once(service):
    code, _host, _tokens = open_table(service)
    first = service.act(code, "player-1", {"type": "write", "note": "a"}, client_action_id="x1")
    again = service.act(code, "player-1", {"type": "write", "note": "a"}, client_action_id="x1")
    assert first == (1, False)
    assert again == (1, True)
    assert service.view(code, "player-1")["seq"] == 1


def test_a_rule_error_is_refused_with_its_message_and_not_logged(service):
    code, host, _tokens = open_table(service)
    with pytest.raises(Refused) as refused:
        service.act(code, HOST, {"type": "write", "note": "x"})
    assert refused.value.message["msg"] == "The host has no note to write."
    assert service.store.events(code) == []


def test_sealed_bids_sent_in_the_same_second_all_succeed(service):
    code, _host, _tokens = open_table(service, players=6)
    errors = []

    def bid(seat):
        try:
            service.act(code, seat, {"type": "write", "note": seat}, seen_seq=0)
        except Exception as error:  # noqa: BLE001 - collected for the assertion
            errors.append(error)

    threads = [threading.Thread(target=bid, args=(f"player-{n}",)) for n in range(1, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [e.seq for e in service.store.events(code)] == [1, 2, 3, 4, 5, 6]
    assert len(service.view(code, None)["view"]["revealed"]) == 1


def test_an_action_from_an_outdated_view_is_refused_unless_it_is_independent(service):
    code, _host, _tokens = open_table(service, players=2)
    service.act(code, "player-1", {"type": "write", "note": "a"}, seen_seq=0)
    service.act(code, "player-2", {"type": "write", "note": "b"}, seen_seq=0)  # independent: re-validated only
    with pytest.raises(Stale):
        service.act(code, "player-1", {"type": "next_round"}, seen_seq=1)
    assert service.act(code, "player-1", {"type": "next_round"}, seen_seq=2)[0] == 3


def test_undo_rolls_back_and_keeps_an_audit(service):
    code, _host, _tokens = open_table(service, players=2)
    service.act(code, "player-1", {"type": "write", "note": "a"})
    service.act(code, "player-2", {"type": "write", "note": "b"})
    service.undo(code, seen_seq=2)
    view = service.view(code, "player-1")
    assert view["view"]["written"] == ["player-1"]
    assert view["view"]["revealed"] == []
    assert [e.kind for e in service.store.events(code)] == ["action", "action", "undo"]
    assert [line["undone"] for line in view["history"]] == [False, False, True, False]


def test_undo_from_an_outdated_view_is_refused(service):
    code, _host, _tokens = open_table(service, players=2)
    service.act(code, "player-1", {"type": "write", "note": "a"})
    service.act(code, "player-2", {"type": "write", "note": "b"})
    with pytest.raises(Stale):
        service.undo(code, seen_seq=1)


def test_nothing_to_undo_is_a_clear_refusal(service):
    code, _host, _tokens = open_table(service)
    with pytest.raises(Conflict):
        service.undo(code)


def test_replaying_the_log_gives_the_same_state_and_the_same_dice(service):
    code, _host, _tokens = open_table(service, players=2)
    for _ in range(5):
        service.act(code, HOST, {"type": "roll"})
    service.act(code, "player-1", {"type": "write", "note": "a"})
    service.undo(code)
    replayed = Tables(service.store, service.games)
    assert replayed.view(code, None) == service.view(code, None)


def test_private_history_lines_reach_only_their_seat(service):
    code, _host, _tokens = open_table(service, players=2)
    service.act(code, "player-1", {"type": "write", "note": "my secret"})
    mine = [line["args"] for line in service.view(code, "player-1")["history"]]
    theirs = [line["args"] for line in service.view(code, "player-2")["history"]]
    assert {"note": "my secret"} in mine
    assert {"note": "my secret"} not in theirs


def test_a_table_forgotten_from_memory_is_read_back_from_its_log(service):
    service.keep_in_memory = 1
    code, _host, _tokens = open_table(service, players=2)
    service.act(code, "player-1", {"type": "write", "note": "a"})
    other, _host, _tokens = open_table(service, players=2)
    service.act(other, "player-1", {"type": "write", "note": "b"})
    assert service.view(code, "player-1")["view"]["my_note"] == "a"
    service.act(code, "player-2", {"type": "write", "note": "c"})
    assert service.view(code, None)["view"]["revealed"] == [{"player-1": "a", "player-2": "c"}]


def test_the_host_cannot_free_a_seat_the_game_does_not_have(service):
    code, _host, _tokens = open_table(service, players=2)
    with pytest.raises(NotFound):
        service.free(code, "player-9")


def test_an_empty_client_action_id_counts_as_none(service):
    code, _host, _tokens = open_table(service, players=2)
    assert service.act(code, "player-1", {"type": "write", "note": "a"}, client_action_id="") == (1, False)
    assert service.act(code, "player-2", {"type": "write", "note": "b"}, client_action_id="") == (2, False)


def test_a_concurrent_action_from_a_round_that_is_over_is_refused_as_stale(service):
    code, _host = service.create("secret-notes", {"players": 2})
    service.act(code, "player-1", {"type": "write", "note": "a"})
    service.act(code, "player-2", {"type": "write", "note": "b"}, seen_seq=0)  # same round: only re-validated
    service.act(code, HOST, {"type": "next_round"})
    with pytest.raises(Stale):
        service.act(code, "player-1", {"type": "write", "note": "meant for round 1"}, seen_seq=1)
    seq, _ = service.act(code, "player-1", {"type": "write", "note": "for round 2"}, seen_seq=3)
    assert seq == 4


def test_a_logged_action_the_rules_now_refuse_is_left_out_and_the_table_still_opens(app, tmp_path):
    """A log kept under an earlier version of a game's rules: the table opens after an upgrade, and plays on."""
    from companion.store import Event
    from companion.tables import LEFT_OUT
    from companion.web.app import create_app

    service = app.extensions["companion"]
    code, host, _tokens = open_table(service, players=2)
    service.act(code, "player-1", {"type": "write", "note": "kept"})
    # What an earlier version accepted and this one refuses (here: a note written by the host).
    service.store.append(code, Event(2, "action", HOST, {"type": "write", "note": "earlier rules"}))
    service.store.append(code, Event(3, "action", "player-2", {"type": "roll"}))

    upgraded = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "EXTRA_GAMES": "tests.secret_notes"})
    tables = upgraded.extensions["companion"]
    view = tables.view(code, "player-1", full_history=True)
    assert view["seq"] == 3
    assert view["view"]["written"] == ["player-1"] and len(view["view"]["dice"]) == 1
    assert [line["msg"] for line in view["history"] if line["seq"] == 2] == [LEFT_OUT]

    tables.undo(code)  # the roll
    tables.undo(code)  # the left-out action: nothing changes but its line
    view = tables.view(code, "player-1", full_history=True)
    assert view["view"]["written"] == ["player-1"] and view["view"]["dice"] == []
    assert [(line["msg"], line["undone"]) for line in view["history"] if line["seq"] == 2] == [(LEFT_OUT, True)]
    tables.undo(code)  # and the action before it is undone as usual
    assert tables.view(code, "player-1")["view"]["written"] == []
    assert tables.act(code, "player-2", {"type": "write", "note": "plays on"}) == (7, False)
