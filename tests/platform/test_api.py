"""The JSON API: the documented endpoints, and bad input of any kind answered with a clear 4xx."""

import re

import jsonschema_rs
import pytest

from companion.forms import SEAT_BODY


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def table(client):
    created = client.post("/api/tables", json={"game": "secret-notes", "options": {"players": 2}})
    assert created.status_code == 201
    body = created.get_json()
    seat = client.post(f"/api/tables/{body['code']}/seats", json={"seat": "player-1", "name": "Anna"})
    assert seat.status_code == 201
    return body["code"], body["host_token"], seat.get_json()["token"]


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"ok": True, "tables_in_memory": 0}


def test_games_lists_every_game_with_its_seats_and_options(client):
    games = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    notes = games["secret-notes"]
    assert [s["id"] for s in notes["seats"]] == ["player-1", "player-2", "player-3"]
    assert notes["options"][0]["name"] == "players"


def test_creating_a_table_returns_its_code_token_urls_and_seats(client):
    body = client.post("/api/tables", json={"game": "secret-notes", "options": {"players": 2}}).get_json()
    assert set(body) == {"code", "host_token", "join_url", "display_url", "seats"}
    assert body["join_url"].endswith(f"/t/{body['code']}")
    assert [seat["id"] for seat in body["seats"]] == ["player-1", "player-2"]


def test_an_action_returns_the_seats_own_view(client, table):
    code, _host, token = table
    answer = client.post(f"/api/tables/{code}/actions", json={"type": "write", "note": "hi"}, headers=bearer(token))
    assert answer.status_code == 200
    assert answer.get_json()["seq"] == 1
    assert answer.get_json()["view"]["my_note"] == "hi"


def test_the_host_token_alone_gets_the_public_display_view(client, table):
    code, host, token = table
    client.post(f"/api/tables/{code}/actions", json={"type": "write", "note": "hi"}, headers=bearer(token))
    view = client.get(f"/api/tables/{code}/view", headers=bearer(host)).get_json()
    assert view["seat"] is None
    assert view["view"]["my_note"] is None


def test_a_retried_action_returns_the_first_result(client, table):
    code, _host, token = table
    body = {"type": "write", "note": "hi", "client_action_id": "same"}
    first = client.post(f"/api/tables/{code}/actions", json=body, headers=bearer(token)).get_json()
    again = client.post(f"/api/tables/{code}/actions", json=body, headers=bearer(token)).get_json()
    assert (first["applied_seq"], first["repeated"]) == (1, False)
    assert (again["applied_seq"], again["repeated"]) == (1, True)


def test_the_host_can_undo(client, table):
    code, host, token = table
    client.post(f"/api/tables/{code}/actions", json={"type": "write", "note": "hi"}, headers=bearer(token))
    undone = client.post(f"/api/tables/{code}/undo", json={"seen_seq": 1}, headers=bearer(host))
    assert undone.status_code == 200
    assert undone.get_json()["view"]["written"] == []


@pytest.mark.parametrize(
    ("method", "path", "body", "headers", "status", "code"),
    [
        ("get", "/api/tables/ZZZZZZ/view", None, "seat", 404, "not_found"),
        ("get", "/api/tables/{code}/view", None, None, 401, "unauthorized"),
        ("get", "/api/tables/{code}/view", None, "forged", 403, "forbidden"),
        ("post", "/api/tables/{code}/actions", "not json", "seat", 400, "bad_request"),
        ("post", "/api/tables/{code}/actions", [1, 2], "seat", 400, "bad_request"),
        ("post", "/api/tables/{code}/actions", {"type": "fly"}, "seat", 400, "bad_request"),
        ("post", "/api/tables/{code}/actions", {"type": "bid"}, "seat", 422, "illegal_action"),
        ("post", "/api/tables/{code}/actions", {"type": "write", "note": 7}, "seat", 400, "bad_request"),
        (
            "post",
            "/api/tables/{code}/actions",
            {"type": "write", "note": "x", "seen_seq": "1"},
            "seat",
            400,
            "bad_request",
        ),
        ("post", "/api/tables/{code}/actions", {"type": "next_round"}, "seat", 422, "illegal_action"),
        ("post", "/api/tables/{code}/undo", {}, "seat", 403, "forbidden"),
        ("post", "/api/tables/{code}/undo", {}, "host", 409, "conflict"),
        ("post", "/api/tables", {"game": "chess"}, None, 404, "not_found"),
        ("post", "/api/tables", {"game": "secret-notes", "options": {"players": 99}}, None, 400, "bad_request"),
        ("post", "/api/tables", {"game": "secret-notes", "options": "many"}, None, 400, "bad_request"),
        ("post", "/api/tables/{code}/seats", {"seat": "player-9", "name": "X"}, None, 422, "no_such_seat"),
        ("post", "/api/tables/{code}/seats", {"seat": "player-1", "name": "X"}, None, 409, "conflict"),
        ("post", "/api/tables/{code}/seats", {"seat": "player-2", "name": "   "}, None, 400, "bad_request"),
        ("post", "/api/tables/{code}/seats", {"seat": 2}, None, 400, "bad_request"),
        ("delete", "/api/tables", None, None, 405, "method_not_allowed"),
        ("get", "/api/nothing-here", None, None, 404, "not_found"),
    ],
)
def test_bad_input_gets_a_clear_4xx_never_a_500(client, table, method, path, body, headers, status, code):
    table_code, host, token = table
    auth = {"seat": bearer(token), "host": bearer(host), "forged": bearer("forged"), None: {}}[headers]
    kwargs = {"data": body} if isinstance(body, str) else {"json": body} if body is not None else {}
    answer = getattr(client, method)(path.format(code=table_code), headers=auth, **kwargs)
    assert answer.status_code == status
    error = answer.get_json()["error"]
    assert error["code"] == code
    assert error["message"] and "Traceback" not in error["message"]


def test_error_messages_follow_the_language(client, table):
    code, _host, _token = table
    answer = client.get(f"/api/tables/{code}/view", headers={"Accept-Language": "cs"})
    assert answer.status_code == 401
    assert answer.get_json()["error"]["message"] != "Send your seat or host token as a Bearer token."


def test_the_openapi_document_describes_every_games_actions(client):
    document = client.get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.")
    assert "/api/tables/{code}/actions" in document["paths"]
    for game in client.get("/api/games").get_json()["games"]:
        for action in game["actions"]:
            assert f"{game['id']}.{action}" in document["components"]["schemas"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", {"game": "secret-notes", "options": None}),
        ("/api/tables", {"game": "secret-notes", "colour": "red"}),
        ("/api/tables", {"game": "secret-notes", "options": {"players": 2, "ghosts": 3}}),
        ("/api/tables", {"game": "secret-notes", "options": {"players": "2"}}),
        ("/api/tables", {"game": "secret-notes", "options": {"players": None}}),
        ("/api/tables/{code}/seats", {"seat": "player-2", "name": "Bo", "colour": "red"}),
        ("/api/tables/{code}/seats", {"seat": "player-2", "name": "Bo", "invite": None}),
        ("/api/tables/{code}/actions", {"type": "write", "note": "hi", "colour": "red"}),
        ("/api/tables/{code}/undo", {"seen_seq": 0, "colour": "red"}),
    ],
)
def test_a_body_with_a_field_the_document_does_not_allow_or_a_null_is_refused(client, table, path, body):
    code, host, token = table
    auth = bearer(host if path.endswith("undo") else token)
    answer = client.post(path.format(code=code), json=body, headers=auth)
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "bad_request"


def test_every_request_body_in_the_document_refuses_fields_it_does_not_name(client):
    document = client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    bodies = [
        op["requestBody"]["content"]["application/json"]["schema"]
        for op in _operations(document)
        if "requestBody" in op
    ]
    objects = [
        schemas[b["$ref"].split("/")[-1]] if "$ref" in b else b
        for body in bodies
        for b in body.get("anyOf", body.get("oneOf", [body]))
    ]
    assert objects and all(schema["additionalProperties"] is False for schema in objects)


def test_the_document_links_a_new_table_and_a_new_seat_to_the_operations_that_take_their_tokens(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    table_links = paths["/api/tables"]["post"]["responses"]["201"]["links"]
    seat_links = paths["/api/tables/{code}/seats"]["post"]["responses"]["201"]["links"]
    assert table_links["takeSeat"]["parameters"] == {"path.code": "$response.body#/code"}
    assert table_links["undo"]["parameters"]["header.Authorization"] == "Bearer {$response.body#/host_token}"
    assert seat_links["act"]["parameters"] == {
        "path.code": "$request.path.code",
        "header.Authorization": "Bearer {$response.body#/token}",
    }
    assert paths["/api/tables/{code}/undo"]["post"]["security"] == [{"hostToken": []}]


def _operations(document):
    return [operation for path in document["paths"].values() for operation in path.values()]


@pytest.mark.parametrize("path", ["/healthz", "/api/games", "/t/ZZZZZZ/display"])
def test_a_method_a_route_does_not_take_is_answered_405_with_allow_before_the_csrf_check(client, path):
    answer = client.post(path)
    assert answer.status_code == 405
    assert "GET" in answer.headers["Allow"]


def test_a_name_the_document_calls_blank_is_exactly_one_a_table_refuses():
    """The pattern holds for Python (the server) and for the Rust regex engine schemathesis validates with."""
    pattern = SEAT_BODY["properties"]["name"]["pattern"]
    rust = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    for char in (chr(point) for point in range(1, 0x10000) if not 0xD800 <= point <= 0xDFFF):
        named = bool(" ".join(char.split()))  # what Tables.claim keeps of a name
        assert (re.search(pattern, char) is not None) == named == rust.is_valid(char), hex(ord(char))
