"""The rules gaps of issue 12 as the screens show them: what happened, and the house rules the app decides."""

from __future__ import annotations

import re

from tests import pages
from tests.games import test_scotland_yard_web as scotland_yard
from tests.leaks import DISPLAY
from tests.pages import api, page, visible_text

NAMES = {"player-1": "Anna", "player-2": "Bea", "player-3": "Cyril"}


def shown(page_html: str) -> str:
    return re.sub(r"\s+", " ", visible_text(page_html))


# -- Downforce: the last cars when the players without one pass (DF-8 against DF-10) ---------------------


def downforce_auction_where_only_anna_bids(client, **options) -> tuple[str, dict]:
    """Anna buys the first four cars; Bea and Cyril pass on everything; forced bids show the stripe 1."""
    code, tokens = pages.open_table(client, "downforce", {"players": 3, **options}, NAMES)
    view = api(client, code, tokens["host"])
    while view["phase"] == "auction":
        lot = view["auction"]
        if lot["forced"]:
            api(client, code, tokens[lot["forced"]], type="forced_bid", **{"from": "none"})
        for seat in lot["eligible"] if not lot["forced"] else ():
            bid = {"amount": 1, "stripes": 1} if seat == "player-1" else {"pass": True}
            api(client, code, tokens[seat], type="bid", **bid)
        view = api(client, code, tokens["host"])
    return code, tokens


def test_the_screens_say_that_the_last_cars_race_without_an_owner_when_the_carless_pass(client, app):
    code, tokens = downforce_auction_where_only_anna_bids(client)
    for who in (DISPLAY, "player-2"):
        text = shown(page(app, code, tokens, who))
        assert "Without a car: Bea, Cyril." in text  # DF-10 against DF-8
        assert "House rule: every player gets a car" in text


def test_with_the_house_rule_each_carless_player_takes_a_car_by_a_forced_bid(client, app):
    code, tokens = pages.open_table(client, "downforce", {"players": 3, "car_for_everyone": True}, NAMES)
    view = api(client, code, tokens["host"])
    assert "House rule: when the players without a car" in shown(page(app, code, tokens, DISPLAY))
    while view["auction"]["eligible"] == ["player-1", "player-2", "player-3"]:
        api(client, code, tokens["player-1"], type="bid", amount=1, stripes=1)
        api(client, code, tokens["player-2"], type="bid", **{"pass": True})
        view = api(client, code, tokens["player-3"], type="bid", **{"pass": True})
    api(client, code, tokens["player-2"], type="bid", **{"pass": True})
    api(client, code, tokens["player-3"], type="bid", **{"pass": True})
    display = shown(page(app, code, tokens, DISPLAY))
    assert "A forced bid (house rule)" in display and "Bea has no car, so they take this one" in display
    assert "This car is yours" in shown(page(app, code, tokens, "player-2"))


def test_a_re_bid_that_both_carless_players_pass_shows_only_the_forced_bid_of_the_house_rule(client, app):
    code, tokens = pages.open_table(client, "downforce", {"players": 3, "car_for_everyone": True}, NAMES)
    view = api(client, code, tokens["host"])
    while view["auction"]["eligible"] == ["player-1", "player-2", "player-3"]:
        api(client, code, tokens["player-1"], type="bid", amount=1, stripes=1)
        api(client, code, tokens["player-2"], type="bid", **{"pass": True})
        view = api(client, code, tokens["player-3"], type="bid", **{"pass": True})
    for seat in ("player-2", "player-3"):  # a perfect tie: Q6's re-bid (house rule)
        view = api(client, code, tokens[seat], type="bid", amount=2, stripes=1)
    assert view["auction"]["rebid"]
    # The banner tells the tie; under it the TV's label is short and a phone, short of room, does not say it again.
    for who, label in ((DISPLAY, True), ("player-2", False)):
        text = shown(page(app, code, tokens, who))
        assert "A perfect tie for the" in text and ("A perfect tie: bidding again" in text) == label, text
    for seat in ("player-2", "player-3"):
        api(client, code, tokens[seat], type="bid", **{"pass": True})
    for who in (DISPLAY, "player-2", "player-3"):
        text = shown(page(app, code, tokens, who))
        assert "A forced bid (house rule)" in text, text
        assert "A perfect tie:" not in text, text


# -- Scotland Yard: undoing the end of the game (house rule) ------------------------------------------------


def test_undoing_the_end_of_scotland_yard_hides_mister_x_again_and_says_so(client):
    code, tokens = scotland_yard.open_table(client)
    scotland_yard.play_to_the_end(client, code, tokens)
    answer = client.post(f"/api/tables/{code}/undo", json={}, headers={"Authorization": f"Bearer {tokens['host']}"})
    assert answer.status_code == 200, answer.json
    reveals = {entry["station"] for entry in answer.json["view"]["known_reveals"]}
    for who in ("detective-1", "host"):
        text = page(client.application, code, tokens, who)
        assert "House rule: the end of the game was undone." in shown(text)
        assert {int(station) for station in scotland_yard.LOG_STATION.findall(text)} <= reveals
