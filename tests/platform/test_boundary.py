"""Text from outside passes one boundary: what no store or page can keep is a clear 400, and the tables go on."""

import pytest
from flask import request
from werkzeug.datastructures import MultiDict

from companion.boundary import BadInput, Form, form_from_json, parse_json_text
from tests.platform.test_pages import csrf

SURROGATE, NUL = r"\ud800", r"\u0000"
DEEP = "[" * 100_000 + "]" * 100_000


def post_raw(client, path: str, text: str, token: str | None = None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(path, data=text.encode(), content_type="application/json", headers=headers)


def a_table(client, game="secret-notes") -> tuple[str, str]:
    created = client.post("/api/tables", json={"game": game})
    assert created.status_code == 201
    return created.get_json()["code"], created.get_json()["host_token"]


def another_table_still_works(client) -> None:
    code, host = a_table(client)
    claimed = client.post(f"/api/tables/{code}/seats", json={"seat": "player-1", "name": "Anna"})
    assert claimed.status_code == 201
    acted = client.post(
        f"/api/tables/{code}/actions",
        json={"type": "write", "note": "still here"},
        headers={"Authorization": f"Bearer {claimed.get_json()['token']}"},
    )
    assert acted.status_code == 200
    assert client.get(f"/t/{code}/display").status_code == 200


@pytest.mark.parametrize("bad", [SURROGATE, NUL, "x" * 4001])
def test_a_seat_name_no_store_can_keep_is_refused_and_the_next_claim_works(client, bad):
    code, _host = a_table(client)
    answer = post_raw(client, f"/api/tables/{code}/seats", f'{{"seat": "player-2", "name": "x{bad}"}}')
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "bad_request"
    another_table_still_works(client)


@pytest.mark.parametrize("bad", [SURROGATE, NUL])
def test_an_action_field_with_bad_text_never_reaches_the_table(client, bad):
    code, host = a_table(client, "mice-and-mystics")
    body = f'{{"type": "add_mouse", "hero": "custom", "name": "M{bad}M", "life": 5}}'
    assert post_raw(client, f"/api/tables/{code}/actions", body, host).status_code == 400
    assert client.get(f"/t/{code}/display").status_code == 200
    assert client.get(f"/t/{code}/live").status_code == 200


@pytest.mark.parametrize("bad", [SURROGATE, NUL, "x" * 101])
def test_a_client_action_id_with_bad_text_is_refused(client, bad):
    code, host = a_table(client)
    body = f'{{"type": "roll", "client_action_id": "id{bad}"}}'
    assert post_raw(client, f"/api/tables/{code}/actions", body, host).status_code == 400
    another_table_still_works(client)


@pytest.mark.parametrize("path", ["/api/tables", "/api/tables/{code}/seats", "/api/tables/{code}/actions"])
def test_deeply_nested_json_is_a_400_on_every_json_endpoint(client, path):
    code, host = a_table(client)
    answer = post_raw(client, path.format(code=code), DEEP, host)
    assert answer.status_code in (400, 413)
    shallow_but_too_deep = '{"type": "write", "note": ' + "[" * 50 + "]" * 50 + "}"
    assert post_raw(client, path.format(code=code), shallow_but_too_deep, host).status_code == 400


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e400", "3.7", "true", '"3.7"', "9" * 5000])
def test_options_take_whole_numbers_only(client, number):
    answer = post_raw(client, "/api/tables", f'{{"game": "secret-notes", "options": {{"players": {number}}}}}')
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"]


def test_a_text_option_must_be_text(client):
    answer = client.post("/api/tables", json={"game": "eat-your-tourist", "options": {"event_titles": ["a", "b"]}})
    assert answer.status_code == 400


def test_an_option_from_the_lobby_form_is_still_read_as_a_number(client):
    answer = client.post("/tables", data={"game": "secret-notes", "players": " 4 ", "csrf_token": csrf(client)})
    assert answer.status_code == 302


@pytest.mark.parametrize("path", ["/api/tables", "/tables"])
def test_a_body_over_64_kib_is_a_413(client, path):
    answer = client.post(path, data=b'{"game": "' + b"x" * 70_000 + b'"}', content_type="application/json")
    assert answer.status_code == 413


def test_a_body_that_is_not_utf8_is_refused(client):
    answer = client.post("/api/tables", data=b'{"game": "secret-\xff"}', content_type="application/json")
    assert answer.status_code == 400


@pytest.mark.parametrize("path", ["/t/%00/display", "/t/AB%00CD", "/api/tables/%00/view", "/t/x/ws?since=%00"])
def test_a_nul_in_a_path_or_query_is_a_400(client, path):
    assert client.get(path).status_code == 400


def test_a_nul_in_a_form_field_is_a_400(client):
    code, _host = a_table(client)
    answer = client.post(f"/t/{code}/seats", data={"seat": "player-1", "name": "A\x00", "csrf_token": csrf(client)})
    assert answer.status_code == 400
    another_table_still_works(client)


def test_the_error_for_bad_text_is_in_the_callers_language(client):
    answer = client.post(
        "/api/tables/ABCDEF/seats",
        data=b'{"seat": "player-1", "name": "\\u0000"}',
        content_type="application/json",
        headers={"Accept-Language": "nl"},
    )
    assert answer.status_code == 400
    assert "not allowed" not in answer.get_json()["error"]["message"]


@pytest.mark.parametrize(
    "frame", [DEEP, "[]", "null", "{", '{"a": NaN}', '{"a": 1e999}', '{"\\ud800": 1}', '{"a": "\\u0000"}']
)
def test_a_socket_frame_is_parsed_by_the_same_rules(frame):
    with pytest.raises(BadInput):
        parse_json_text(frame)


def test_a_good_socket_frame_comes_back_as_sent():
    assert parse_json_text('{"type": "bid", "amount": 3, "car": "red", "x": [1.5, {"y": null}]}') == {
        "type": "bid",
        "amount": 3,
        "car": "red",
        "x": [1.5, {"y": None}],
    }


@pytest.mark.parametrize(
    ("name", "default", "kind"),
    [
        ("amount", None, None),
        ("amount", 0, int),
        ("note", "", None),
        ("as", None, None),
        ("as", 7, int),
        ("note", 1, int),
        ("empty", 5, None),
    ],
)
def test_a_form_gets_a_field_as_werkzeugs_does(name, default, kind):
    """Posted or sent over a socket: present or missing, with a type or one that fails, the same answer."""
    fields = {"amount": ["12", "13"], "note": ["twelve"], "empty": []}
    assert Form(fields).get(name, default, kind) == MultiDict(fields).get(name, default, kind)


def test_a_posted_form_and_a_socket_form_are_one_kind(client):
    with client.application.test_request_context("/", method="POST", data={"amount": "3"}):
        assert isinstance(request.form, Form) and request.form.get("amount", type=int) == 3
    assert isinstance(form_from_json({"amount": ["3"]}), Form)
