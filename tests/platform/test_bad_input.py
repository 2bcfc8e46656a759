"""Bad input of any kind, on every endpoint and every game, is answered with a 4xx — never a 500."""

import itertools
import random

import pytest

from companion.games import load
from tests.conftest import TEST_GAMES
from tests.platform.test_pages import csrf

ODD_VALUES = [None, True, -1, 0, 2**70, 1.5, "", "x" * 5000, "<script>", "player-1", [], [1, "a"], {}, {"a": {"b": []}}]


def odd_bodies(schema: dict, rng: random.Random):
    """Bodies that keep an action's type but put odd values in its fields (a seeded sample, to stay quick)."""
    fields = list(schema.get("properties", {})) + ["client_action_id", "seen_seq", "unknown"]
    for field in fields:
        for value in rng.sample(ODD_VALUES, 4):
            yield {field: value}
    for _ in range(8):
        yield {field: rng.choice(ODD_VALUES) for field in fields}


# Every game the app knows, the built-in ones and the test add-on, as the app itself lists them.
GAME_IDS = sorted(load(TEST_GAMES.split(",")))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_odd_actions_never_break_the_server(client, game_id):
    rng = random.Random(game_id)
    games = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    created = client.post("/api/tables", json={"game": game_id}).get_json()
    code, host = created["code"], created["host_token"]
    seat = games[game_id]["seats"][0]["id"]
    token = client.post(f"/api/tables/{code}/seats", json={"seat": seat, "name": "Fuzz"}).get_json()["token"]
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    for name, schema in schemas.items():
        if not name.startswith(game_id + "."):
            continue
        kind = name.split(".", 1)[1]
        for body, bearer in itertools.product(odd_bodies(schema, rng), (token, host)):
            answer = client.post(
                f"/api/tables/{code}/actions",
                json={"type": kind, **body},
                headers={"Authorization": f"Bearer {bearer}"},
            )
            assert answer.status_code < 500, (kind, body, answer.get_data(as_text=True))


@pytest.mark.parametrize("value", ODD_VALUES)
def test_odd_lobby_and_seat_requests_never_break_the_server(client, value):
    for body in (
        {"game": value},
        {"game": "secret-notes", "options": value},
        {"game": "secret-notes", "options": {"players": value}},
    ):
        assert client.post("/api/tables", json=body).status_code < 500
    code = client.post("/api/tables", json={"game": "secret-notes"}).get_json()["code"]
    for body in (
        {"seat": value, "name": "x"},
        {"seat": "player-1", "name": value},
        {"seat": "player-2", "name": "x", "invite": value},
    ):
        assert client.post(f"/api/tables/{code}/seats", json=body).status_code < 500
    assert client.post(f"/api/tables/{code}/undo", json=value, headers={"Authorization": "Bearer x"}).status_code < 500


def test_odd_html_forms_never_break_the_server(client, app):
    token = csrf(client)
    answer = client.post("/tables", data={"game": "secret-notes", "players": "many", "csrf_token": token})
    assert answer.status_code == 400
    code = client.post("/tables", data={"game": "secret-notes", "csrf_token": token}).headers["Location"].split("/")[2]
    phone = app.test_client()
    phone.post(f"/t/{code}/seats", data={"seat": "player-1", "name": "A", "csrf_token": csrf(phone)})
    headers = {"X-CSRF-Token": csrf(phone, f"/t/{code}/seat"), "HX-Request": "true"}
    for form in (
        {},
        {"type": "fly"},
        {"type": "write"},
        {"type": "write", "note": "x", "seen_seq": "soon"},
        {"type": "write", "as": "host"},
        {"type": "write", "client_action_id": "x" * 500, "note": "n"},
    ):
        assert phone.post(f"/t/{code}/act", data=form, headers=headers).status_code < 500, form
    for path in (f"/t/{code}/seats/player-9/free", f"/t/{code}/undo", "/t/nope/act", f"/t/{code}/seats"):
        assert phone.post(path, data={"seat": "x"}, headers=headers).status_code < 500, path
    for path in (f"/t/{code}/live?since=abc", "/t/%00/display", f"/t/{code}/invite/x/qr.svg", "/t/" + "Z" * 300):
        assert client.get(path).status_code < 500, path


@pytest.mark.parametrize("host", ["a" * 64, "tafel." + "b" * 64 + ".cz", "x" * 300])
def test_a_host_no_link_can_be_built_on_is_refused_in_words(client, service, host):
    """A Host header with a name part past 63 letters cannot be put in a URL: every page, the API and a table's
    socket answer 400 (the error page itself would need links on that address)."""
    code, _host_token = service.create("secret-notes", {"players": 2})
    for path in ("/", f"/t/{code}", f"/t/{code}/display", f"/t/{code}/live?view=display", f"/t/{code}/ws"):
        answer = client.get(path, headers={"Host": host})
        assert answer.status_code == 400, (path, answer.status_code)
        assert answer.get_data(as_text=True) == "Something went wrong. Please try again."
    answer = client.get(f"/api/tables/{code}/view", headers={"Host": host})
    assert answer.status_code == 400 and answer.json["error"]["code"] == "bad_request"
