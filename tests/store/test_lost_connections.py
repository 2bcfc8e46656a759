"""PostgreSQL cutting the app's connections (pg_terminate_backend): never a 500, never an action twice."""

from __future__ import annotations

import threading

import psycopg
import pytest

from companion.store.postgres import PostgresStore
from companion.web.app import create_app
from tests.conftest import TEST_GAMES
from tests.real_services import POSTGRES, postgres_database


@pytest.fixture
def database():
    yield from postgres_database()


@pytest.fixture
def client(tmp_path, database):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "EXTRA_GAMES": TEST_GAMES, "DATABASE_URL": database})
    yield app.test_client()
    app.extensions["companion"].store.close()


def cut_connections(database: str) -> int:
    """What a database restart or an administrator does to every connection the app holds."""
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (database.rsplit("/", 1)[1],),
        ).fetchall()
    return len(rows)


def test_a_read_after_the_database_cut_its_connections_is_answered(client, database):
    code = client.post("/api/tables", json={"game": "secret-notes"}).get_json()["code"]
    token = client.post(f"/api/tables/{code}/seats", json={"seat": "player-1", "name": "Ann"}).get_json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    for _cut in range(4):
        assert cut_connections(database) >= 1
        assert client.get(f"/api/tables/{code}/view", headers=bearer).status_code == 200
        assert client.get(f"/t/{code}/display").status_code == 200


def test_an_action_whose_connection_is_cut_mid_write_answers_503_with_retry_after_and_is_applied_on_resend(
    client, database
):
    created = client.post("/api/tables", json={"game": "secret-notes"}).get_json()
    code, host = created["code"], {"Authorization": f"Bearer {created['host_token']}"}
    roll = {"type": "roll", "client_action_id": "cut-mid-write"}
    answers = []
    with psycopg.connect(database, autocommit=True) as blocker, blocker.transaction():
        blocker.execute("LOCK TABLE tables IN EXCLUSIVE MODE")  # the append waits inside its transaction
        acting = threading.Thread(
            target=lambda: answers.append(client.post(f"/api/tables/{code}/actions", json=roll, headers=host))
        )
        acting.start()
        waiting = []
        while not waiting:
            waiting = blocker.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ).fetchall()
        blocker.execute("SELECT pg_terminate_backend(%s)", (waiting[0][0],))
        acting.join(10)
    assert answers[0].status_code == 503
    assert answers[0].get_json()["error"]["code"] == "unavailable"
    assert int(answers[0].headers["Retry-After"]) >= 1
    again = client.post(f"/api/tables/{code}/actions", json=roll, headers=host)
    assert (again.status_code, again.get_json()["applied_seq"]) == (200, 1)


def test_actions_across_repeated_cuts_are_each_applied_exactly_once(client, database):
    created = client.post("/api/tables", json={"game": "secret-notes"}).get_json()
    code, host = created["code"], {"Authorization": f"Bearer {created['host_token']}"}
    statuses = []
    for n in range(8):
        cut_connections(database)
        roll = {"type": "roll", "client_action_id": f"roll-{n}"}
        answer = client.post(f"/api/tables/{code}/actions", json=roll, headers=host)
        statuses.append(answer.status_code)
        while answer.status_code == 503:  # what the phone does: the same action id again
            assert int(answer.headers["Retry-After"]) >= 1
            answer = client.post(f"/api/tables/{code}/actions", json=roll, headers=host)
        assert answer.status_code == 200, answer.get_json()
    assert set(statuses) <= {200, 503}
    store = PostgresStore(database, pool_size=1)
    try:
        logged = [event.client_action_id for event in store.events(code)]
    finally:
        store.close()
    assert logged == [f"roll-{n}" for n in range(8)]
