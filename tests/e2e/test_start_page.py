"""The start page and what every page has: in sight on a 1080p screen, big enough to tap on a phone."""

from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.phone import SMALL_PHONE, in_first_screen
from tests.e2e.walk import NAMES
from tests.http import call

GAMES = ("Scotland Yard", "Downforce", "Mice and Mystics", "Eat your tourist!")


def test_on_a_1080p_screen_every_game_s_open_a_table_button_is_in_sight(server, phones):
    screen = phones(1920, 1080)
    screen.goto(server.url + "/")
    for name in GAMES:
        in_first_screen(screen, screen.locator(".game", has_text=name).get_by_role("button", name="Open a table"))


def test_a_variant_folded_under_more_options_still_opens_the_table_with_it(server, phones):
    screen = phones(1920, 1080)
    code = lobby.open_table(screen, server.url, "Scotland Yard", detectives="2", notebook=False)
    assert code
    assert screen.locator("#sy-notebook").count() == 0


def test_the_logo_link_and_the_history_are_at_least_44_px_tall_on_a_phone(server, phones):
    host, phone = phones(1280, 800), phones(**SMALL_PHONE)
    code = lobby.open_table(host, server.url, "Downforce", players="3")
    lobby.take_seat(phone, server.url, code, "Player 1", "Anna")
    for target in (phone.locator(".brand"), phone.locator("#history > summary")):
        assert target.bounding_box()["height"] >= 44, target


def test_with_five_seats_taken_by_the_longest_names_the_sixth_seat_is_claimed_in_the_first_screen(server, phones):
    status, table = call(server.url, "POST", "/api/tables", {"game": "scotland-yard", "options": {"detectives": 5}})
    assert status == 201, table
    for seat, name in zip(["mister-x", *[f"detective-{n}" for n in range(1, 5)]], NAMES, strict=False):
        status, claimed = call(server.url, "POST", f"/api/tables/{table['code']}/seats", {"seat": seat, "name": name})
        assert status == 201, claimed
    phone = phones(**SMALL_PHONE)
    phone.goto(f"{server.url}/t/{table['code']}")
    expect(phone.locator("form.claim")).to_have_count(1)
    in_first_screen(phone, phone.locator("form.claim").get_by_role("button", name="Take this seat"))
    lobby.take_seat(phone, server.url, table["code"], "Detective 5", NAMES[5])
