"""The start page and what every page has: in sight on a 1080p screen, big enough to tap on a phone."""

from tests.e2e import lobby
from tests.e2e.phone import SMALL_PHONE, in_first_screen

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
