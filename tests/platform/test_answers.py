"""Answers say what the README's error table promises: the right status for each refusal, Allow on a 405."""

import pytest


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def auction(client):
    """A two-player Downforce table at its first auction: (code, host token, player-1's token, the car up)."""
    created = client.post("/api/tables", json={"game": "downforce", "options": {"players": 2}}).get_json()
    code = created["code"]
    token = client.post(f"/api/tables/{code}/seats", json={"seat": "player-1", "name": "Anna"}).get_json()["token"]
    car = client.get(f"/api/tables/{code}/view", headers=bearer(token)).get_json()["view"]["auction"]["car"]
    return code, created["host_token"], token, car


def test_a_bid_for_a_car_whose_auction_is_over_is_a_409_stale(client, auction):
    code, _host, token, car = auction
    other_car = next(c for c in ("red", "blue", "green", "yellow", "black", "orange") if c != car)
    answer = client.post(
        f"/api/tables/{code}/actions", json={"type": "bid", "car": other_car, "amount": 3}, headers=bearer(token)
    )
    assert answer.status_code == 409
    assert answer.get_json()["error"]["code"] == "stale"


def test_an_action_the_seat_may_not_take_at_all_is_a_403(client, auction):
    code, host, _token, car = auction
    answer = client.post(
        f"/api/tables/{code}/actions", json={"type": "bid", "car": car, "amount": 3}, headers=bearer(host)
    )
    assert answer.status_code == 403
    assert answer.get_json()["error"]["code"] == "not_your_seat"


def test_a_move_on_another_players_mouse_is_a_403_as_mice_and_mystics_declares(client):
    created = client.post("/api/tables", json={"game": "mice-and-mystics", "options": {"players": 2}}).get_json()
    code, host = created["code"], bearer(created["host_token"])
    token = client.post(f"/api/tables/{code}/seats", json={"seat": "player-2", "name": "Bea"}).get_json()["token"]
    collin = {"type": "add_mouse", "hero": "collin", "life": 5, "seat": "player-1"}
    assert client.post(f"/api/tables/{code}/actions", json=collin, headers=host).status_code == 200
    answer = client.post(
        f"/api/tables/{code}/actions", json={"type": "remove_mouse", "mouse": "collin"}, headers=bearer(token)
    )
    assert answer.status_code == 403
    assert answer.get_json()["error"]["code"] == "not_your_mouse"


@pytest.mark.parametrize("method, path", [("delete", "/api/tables"), ("put", "/"), ("get", "/tables")])
def test_a_405_says_which_methods_are_allowed(client, method, path):
    answer = getattr(client, method)(path)
    assert answer.status_code == 405
    assert "POST" in answer.headers["Allow"] or "GET" in answer.headers["Allow"]
