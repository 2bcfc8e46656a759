"""Rate limits per client address: new tables, seat claims and guessed join codes; behind a proxy, per real client."""

import pytest

from companion.web.app import create_app
from tests.conftest import TEST_GAMES
from tests.platform.test_pages import csrf
from tests.real_services import REDIS, redis_prefix


@pytest.fixture
def make_app(tmp_path):
    """Apps with these settings on one data directory (Redis-backed ones are closed at the end)."""
    made = []

    def make(**settings):
        made.append(create_app({"DATA_DIR": str(tmp_path), "TESTING": True, "EXTRA_GAMES": TEST_GAMES, **settings}))
        return made[-1]

    yield make
    for app in made:
        if app.config["REDIS_URL"]:
            app.extensions["companion.hub"].close()


def new_table(client, address="127.0.0.1", **headers) -> int:
    return client.post(
        "/api/tables", json={"game": "secret-notes"}, headers=headers, environ_base={"REMOTE_ADDR": address}
    ).status_code


def test_table_creation_is_rate_limited_with_a_clear_message(make_app):
    client = make_app(RATE_LIMIT_TABLES=3).test_client()
    assert [new_table(client) for _ in range(4)] == [201, 201, 201, 429]
    refused = client.post("/api/tables", json={"game": "secret-notes"}, headers={"Accept-Language": "cs"})
    assert refused.get_json()["error"]["code"] == "too_many_requests"
    assert refused.get_json()["error"]["message"] != "Too many new tables from this device; wait a minute."
    assert "Retry-After" in refused.headers


def test_the_lobby_form_and_the_api_spend_one_budget(make_app):
    client = make_app(RATE_LIMIT_TABLES=2).test_client()
    form = {"game": "secret-notes", "csrf_token": csrf(client)}
    assert client.post("/tables", data=form).status_code == 302
    assert new_table(client) == 201
    assert client.post("/tables", data=form).status_code == 429
    assert new_table(client) == 429


def test_seat_claims_are_rate_limited(make_app):
    client = make_app(RATE_LIMIT_SEATS=2).test_client()
    code = client.post("/api/tables", json={"game": "secret-notes", "options": {"players": 6}}).get_json()["code"]
    statuses = [
        client.post(f"/api/tables/{code}/seats", json={"seat": f"player-{n}", "name": "X"}).status_code
        for n in range(1, 4)
    ]
    assert statuses == [201, 201, 429]


def test_each_client_has_its_own_budget(make_app):
    client = make_app(RATE_LIMIT_TABLES=1).test_client()
    assert [new_table(client, "127.0.0.2"), new_table(client, "127.0.0.2")] == [201, 429]
    assert new_table(client, "127.0.0.3") == 201


def test_behind_a_trusted_proxy_the_forwarded_client_address_counts(make_app):
    client = make_app(RATE_LIMIT_TABLES=1, TRUSTED_PROXIES=1).test_client()
    assert new_table(client, **{"X-Forwarded-For": "10.0.0.1"}) == 201
    assert new_table(client, **{"X-Forwarded-For": "10.0.0.1"}) == 429
    assert new_table(client, **{"X-Forwarded-For": "10.0.0.2"}) == 201
    # A client cannot pose as another by sending its own header: the proxy appends the real address last.
    assert new_table(client, **{"X-Forwarded-For": "10.0.0.9, 10.0.0.1"}) == 429


def test_without_a_trusted_proxy_a_forwarded_address_is_ignored(make_app):
    client = make_app(RATE_LIMIT_TABLES=1).test_client()
    assert new_table(client, **{"X-Forwarded-For": "10.0.0.1"}) == 201
    assert new_table(client, **{"X-Forwarded-For": "10.0.0.2"}) == 429


def test_guessing_join_codes_is_cut_off_but_not_for_other_clients(make_app):
    client = make_app(RATE_LIMIT_PROBES=5).test_client()
    guesser = {"REMOTE_ADDR": "127.0.0.9"}
    guesses = [client.get(f"/api/tables/ZZZZ{n}{n}/view", environ_base=guesser).status_code for n in range(2, 8)]
    assert guesses == [404] * 5 + [429]
    assert client.get("/api/tables/ZZZZ99/view").status_code == 404  # another client
    assert client.get("/", environ_base=guesser).status_code == 200  # the lobby is not about a table


def test_a_known_table_is_never_locked_out_by_guesses_from_its_address(make_app):
    """One café, one public address: somebody's mistyped codes must not stop the game at the next table."""
    client = make_app(RATE_LIMIT_PROBES=3).test_client()
    code = client.post("/api/tables", json={"game": "secret-notes"}).get_json()["code"]
    seat = client.post(f"/api/tables/{code}/seats", json={"seat": "player-1", "name": "Ann"}).get_json()["token"]
    bearer = {"Authorization": f"Bearer {seat}"}
    assert {client.get(f"/t/ZZZZ{n}{n}").status_code for n in range(2, 9)} == {404, 429}
    assert client.get(f"/t/{code}").status_code == 200
    assert client.get(f"/api/tables/{code}/view", headers=bearer).status_code == 200
    action = {"type": "write", "note": "still playing"}
    assert client.post(f"/api/tables/{code}/actions", json=action, headers=bearer).status_code == 200


def test_pages_of_existing_tables_do_not_spend_the_guessing_budget(make_app):
    client = make_app(RATE_LIMIT_PROBES=2).test_client()
    code = client.post("/api/tables", json={"game": "secret-notes"}).get_json()["code"]
    assert {client.get(f"/t/{code}/display").status_code for _ in range(5)} == {200}


def test_processes_sharing_redis_share_the_budget(make_app):
    prefix = redis_prefix()
    first, second = (make_app(RATE_LIMIT_TABLES=2, REDIS_URL=REDIS, REDIS_PREFIX=prefix) for _ in range(2))
    assert [new_table(first.test_client()), new_table(second.test_client())] == [201, 201]
    assert new_table(first.test_client()) == 429
    assert new_table(second.test_client()) == 429
