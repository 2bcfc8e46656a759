"""Undo from the log (issue 37): a table keeps a state every 32 actions in force, and an undo replays the logged
actions from the nearest one. Every undo must leave what the log folded from scratch gives, and what the table gave
when it kept the state before every action."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.games.base import HOST, N_, RuleError
from companion.rng import Rng
from companion.store import Event
from companion.store.sqlite import SqliteStore
from companion.tables import Conflict, Refused, TableError, Tables
from companion.tables.folded import SNAPSHOT_EVERY
from companion.web.app import create_app
from tests.pages import PlayedTable
from tests.real_services import postgres_database
from tests.secret_notes import SecretNotes


def folded_keeping_every_state(game, record, events: list[Event]) -> dict:
    """The log folded as tables did before issue 37: the state before each action in force kept, and an undo
    handing it to the game's undo."""
    state = game.setup(record.options, Rng(record.seed, 0))
    kept = []  # (the state before, the action; None: left out) of each action in force
    for event in events:
        if event.kind == "action":
            try:
                after = game.apply(state, event.actor, event.payload, Rng(record.seed, event.seq))
            except RuleError:
                kept.append((state, None))
            else:
                kept.append((state, event.payload))
                state = after
        elif event.kind == "undo":
            before, action = kept.pop()
            state = before if action is None else game.undo(before, state, action)
    return state


def assert_as_folded_from_scratch(service: Tables, code: str, views: bool = True) -> None:
    """The table in memory holds the state of the log folded from scratch, and (views) a fresh service (a restart
    over the same data) shows every seat and the display the same view, whole history included."""
    table = service.newest(code)
    assert table.state == folded_keeping_every_state(table.game, table.record, service.store.events(code))
    if not views:
        return
    restarted = Tables(service.store, service.games)
    for seat in [None, *(spec.id for spec in table.seat_specs)]:
        assert service.view(code, seat, full_history=True) == restarted.view(code, seat, full_history=True)


def test_undo_after_undo_across_every_snapshot_gives_the_log_folded_from_scratch(service):
    """Seeded random play of dice (each roll follows from its seq), notes and rounds, with a few undos now and then,
    45 at once after 100 steps and all of them at the end: after each step the table is what its log folds to."""
    code, _host = service.create("secret-notes", {"players": 2})
    chance = random.Random(37)
    undone_at = set()  # how many actions were in force when one was undone
    for step in range(161):
        if step in (100, 160) or chance.random() < 0.1:
            for _undo in range(45 if step == 100 else 1000 if step == 160 else chance.randint(1, 3)):
                in_force = len(service.cached(code).in_force)
                if not in_force:
                    break
                undone_at.add(in_force)
                service.undo(code)
                assert_as_folded_from_scratch(service, code)
            continue
        actor, action = chance.choice(
            [(HOST, {"type": "roll"})] * 10
            + [(seat, {"type": "write", "note": f"n{step}"}) for seat in ("player-1", "player-2")]
            + [(HOST, {"type": "next_round"})]
        )
        try:
            service.act(code, actor, action)
        except TableError:  # the rules' refusal: part of play
            continue
        assert_as_folded_from_scratch(service, code)
    # Undone: the action that made a snapshot, the one right after it, and actions past the second snapshot.
    assert {SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, 2 * SNAPSHOT_EVERY + 1} <= undone_at


def test_in_each_game_undoing_from_any_point_gives_the_log_folded_from_scratch(tmp_path, game_id):
    """A seeded random game played on its pages (its dice and cards seeded too: the same game every run); then,
    from every point of its log, the table brought there (its log copied to a table of its own) and undone a few
    times, and from its end undone all the way back. All but Mice and Mystics get past a snapshot in their 60 taps
    (crossing them is the first test's)."""
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "RENDER_WORKERS": 0, "REPLAY_SEED": "undo"})
    service = app.extensions["companion"]
    played = PlayedTable(app, app.test_client(), game_id, seed=37)
    for _tap in range(60):
        if service.cached(played.code).seq > SNAPSHOT_EVERY + 12 or played.step() is None:
            break
    record = service.store.table(played.code)
    events = service.store.events(played.code)
    assert len(events) >= 15
    chance = random.Random(game_id)
    for point in range(1, len(events) + 1):
        code = f"U{point:05d}"
        service.store.create_table(replace(record, code=code))
        service.store.append(code, *events[:point])
        undos = len(events) if point == len(events) else chance.randint(1, 3)
        for undo in range(1, undos + 1):
            try:
                service.undo(code)
            except Conflict:  # nothing left to undo, or the players moved on to a new table
                break
            assert_as_folded_from_scratch(service, code, views=undo == undos or undo % 8 == 0)


@pytest.fixture(params=["scotland-yard", "downforce", "mice-and-mystics", "eat-your-tourist"])
def game_id(request):
    return request.param


def test_an_action_left_out_on_replay_is_undone_across_a_snapshot_as_before(service):
    """A log whose 35th action the rules refuse now (kept under an earlier version of them): undone back past it,
    only its line changes, and the actions around it are undone as usual."""
    code, _host = service.create("secret-notes", {"players": 2})
    events = [Event(seq, "action", HOST, {"type": "roll"}) for seq in range(1, 41)]
    events[34] = Event(35, "action", HOST, {"type": "write", "note": "earlier rules"})
    service.store.append(code, *events)
    restarted = Tables(service.store, service.games)
    for _undo in range(12):
        restarted.undo(code)
        assert_as_folded_from_scratch(restarted, code)
    history = restarted.view(code, None, full_history=True)["history"]
    assert [line["undone"] for line in history if line["seq"] == 35] == [True]
    assert len(restarted.view(code, None)["view"]["dice"]) == 28


class TallyingNotes(SecretNotes):
    """Secret notes whose undo leaves more than the state before it (as Scotland Yard's keeps Mister X's reveals):
    a tally of the undos on the way to it, which no replay of the actions gives back."""

    id = "tallying-notes"

    def undo(self, before, undone, action):
        return {**before, "undos": before.get("undos", 0) + 1}


def test_an_undo_that_leaves_more_than_the_state_before_is_where_later_undos_replay_from(tmp_path):
    service = Tables(SqliteStore(str(tmp_path / "companion.sqlite3")), {"tallying-notes": TallyingNotes()})
    code, _host = service.create("tallying-notes", {"players": 2})
    roll, undo = (HOST, {"type": "roll"}), None
    steps = [roll] * (SNAPSHOT_EVERY - 2) + [
        ("player-1", {"type": "write", "note": "a"}),
        ("player-2", {"type": "write", "note": "b"}),
        undo,  # the 32nd: from here on the state has a tally
        ("player-2", {"type": "write", "note": "c"}),
        roll,
        *[undo] * 5,
        ("player-1", {"type": "write", "note": "d"}),
        *[undo] * 3,
    ]
    for step in steps:
        if step is undo:
            service.undo(code)
        else:
            service.act(code, *step)
        assert_as_folded_from_scratch(service, code)
    assert service.cached(code).state["undos"] == 1


class CarefulNotes(SecretNotes):
    """Secret notes whose host may not take a note back once written."""

    id = "careful-notes"

    def undo(self, before, undone, action):
        if action["type"] == "write":
            raise RuleError(N_("A note stays written."), code="note_stays")
        return before


def test_an_undo_the_game_refuses_past_a_snapshot_is_refused_and_changes_nothing(tmp_path):
    service = Tables(SqliteStore(str(tmp_path / "companion.sqlite3")), {"careful-notes": CarefulNotes()})
    code, _host = service.create("careful-notes", {"players": 2})
    for _roll in range(SNAPSHOT_EVERY + 3):
        service.act(code, HOST, {"type": "roll"})
    service.act(code, "player-1", {"type": "write", "note": "kept"})
    before = service.view(code, None, full_history=True)
    with pytest.raises(Refused) as refused:
        service.undo(code)
    assert refused.value.code == "note_stays"
    assert service.view(code, None, full_history=True) == before
    assert service.store.events(code)[-1].seq == SNAPSHOT_EVERY + 4


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "sqlite":
        opened = SqliteStore(str(tmp_path / "companion.sqlite3"))
    else:
        from companion.store.postgres import PostgresStore

        opened = PostgresStore(request.getfixturevalue("postgres_url"))
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def postgres_url():
    yield from postgres_database()


def test_a_retried_action_older_than_those_kept_in_memory_is_still_applied_once(store):
    """Past the 32 client action ids a table keeps in memory, the store's log answers: a retry of the first action,
    of an old undo, or of an action the rules would refuse by now, is told its seq and appends nothing."""
    service = Tables(store, {"secret-notes": SecretNotes()})
    code, _host = service.create("secret-notes", {"players": 2})
    assert service.act(code, "player-1", {"type": "write", "note": "first"}, client_action_id="w-1") == (1, False)
    assert service.undo(code, client_action_id="u-1") == (2, False)
    for n in range(40):
        service.act(code, HOST, {"type": "roll"}, client_action_id=f"roll-{n}")
    service.act(code, "player-1", {"type": "write", "note": "again"}, client_action_id="w-2")
    seq = service.cached(code).seq
    assert service.act(code, "player-1", {"type": "write", "note": "first"}, client_action_id="w-1") == (1, True)
    assert service.undo(code, seen_seq=1, client_action_id="u-1") == (2, True)
    assert service.act(code, HOST, {"type": "roll"}, client_action_id="roll-0") == (3, True)
    assert service.act(code, "player-2", {"type": "roll"}, client_action_id="w-1") == (seq + 1, False)  # not theirs
    assert Tables(store, service.games).act(code, "player-1", {"type": "roll"}, client_action_id="w-1") == (1, True)
    assert [event.seq for event in store.events(code)][-2:] == [seq, seq + 1]
