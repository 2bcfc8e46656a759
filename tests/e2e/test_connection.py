"""The connection badge: a page that lost its server says so, holds its buttons, and catches up when back."""

import pytest
from playwright.sync_api import expect

from tests.e2e import lobby


def seated_table(server, phones):
    display, anna, bea = phones(1280, 800), phones(), phones()
    code = lobby.open_table(display, server.url, "Secret notes", players=2)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")
    return display, anna, bea


def write(page, note):
    page.locator("form[data-action=write] input[name=note]").fill(note)
    page.locator("form[data-action=write] button").click()


def test_a_phone_that_goes_offline_says_reconnecting_holds_its_buttons_and_catches_up(server, phones):
    display, anna, bea = seated_table(server, phones)
    badge, button = anna.locator("[data-connection]"), anna.locator("form[data-action=write] button")
    expect(badge).to_be_hidden()
    top_of_live = anna.locator("#live").bounding_box()["y"]

    anna.context.set_offline(True)
    expect(badge).to_be_visible()
    expect(badge).to_have_text("Reconnecting…")
    expect(button).to_be_disabled()
    assert badge.evaluate("badge => getComputedStyle(badge).position") == "fixed"
    assert float(badge.evaluate("badge => getComputedStyle(badge).fontSize").removesuffix("px")) >= 24
    assert anna.locator("#live").bounding_box()["y"] == top_of_live  # the badge pushes nothing down
    write(bea, "while Anna is away")
    expect(bea.locator("#live")).to_have_attribute("data-seq", "1")

    anna.context.set_offline(False)
    expect(badge).to_be_hidden()
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1")
    expect(anna.locator("#history")).to_contain_text("Bea wrote a note.")
    expect(button).to_be_enabled()
    write(anna, "back")
    expect(display.locator("#live")).to_have_attribute("data-seq", "2")


def test_pages_whose_server_went_away_say_reconnecting_until_it_is_back(server, phones):
    display, anna, bea = seated_table(server, phones)
    server.kill()  # every socket is closed from the server's side
    for page in (display, anna, bea):
        expect(page.locator("[data-connection]")).to_be_visible()
    expect(anna.locator("form[data-action=write] button")).to_be_disabled()

    server.start()
    expect(bea.locator("[data-connection]")).to_be_hidden(timeout=15_000)
    write(bea, "after the restart")
    for page in (display, anna, bea):
        expect(page.locator("[data-connection]")).to_be_hidden(timeout=15_000)
        expect(page.locator("#live")).to_have_attribute("data-seq", "1")
    expect(anna.locator("form[data-action=write] button")).to_be_enabled()


def test_a_socket_that_stops_answering_without_closing_is_given_up_and_opened_anew(server, phones):
    display, anna, bea = seated_table(server, phones)
    silent = {"on": False}

    def relay(page_socket):
        """Between the page and the server; while silent it drops everything both ways, as a dead Wi-Fi does."""
        server_socket = page_socket.connect_to_server()
        page_socket.on_message(lambda message: silent["on"] or server_socket.send(message))
        server_socket.on_message(lambda message: silent["on"] or page_socket.send(message))

    anna.route_web_socket("**/ws?*", relay)
    anna.reload()
    expect(anna.locator("[data-connection]")).to_be_hidden()
    silent["on"] = True
    expect(anna.locator("[data-connection]")).to_be_visible(timeout=30_000)  # within two heartbeats (10 s each)
    silent["on"] = False
    write(bea, "noticed")
    expect(anna.locator("[data-connection]")).to_be_hidden(timeout=15_000)
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1")


@pytest.mark.parametrize("lost", ["dropped connection", "proxy's 502"])
def test_a_tap_sent_again_after_its_answer_was_lost_is_applied_once(server, phones, lost):
    """The server stored the note but the answer never arrived: the same tap again carries the same action id."""
    display, anna, bea = seated_table(server, phones)
    answers_lost = []

    def lose_the_first_answer(route):
        if answers_lost:
            route.continue_()
            return
        stored = route.fetch()  # the request reaches the server, which stores the note
        answers_lost.append(stored.status)
        if lost == "dropped connection":
            route.abort("connectionreset")
        else:
            route.fulfill(status=502, body="Bad Gateway")

    anna.route("**/t/*/act", lose_the_first_answer)
    write(anna, "only once")
    expect(display.locator("#live")).to_have_attribute("data-seq", "1", timeout=15_000)
    # The push came; the answer did not.
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1", timeout=15_000)
    expect(anna.locator("form[data-action=write] button")).to_be_enabled(timeout=15_000)
    with anna.expect_response("**/t/*/act") as answer:
        write(anna, "only once")  # the player, unsure, taps again
    assert answers_lost == [200] and answer.value.status == 200
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1", timeout=15_000)
    expect(anna.locator("#history")).to_contain_text("Anna wrote a note.", timeout=15_000)
    assert anna.locator("#history li", has_text="Anna wrote a note.").count() == 1
    expect(display.locator("#live")).to_have_attribute("data-seq", "1", timeout=15_000)


def test_an_action_the_server_was_too_busy_for_is_sent_again_by_itself(server, phones):
    display, anna, bea = seated_table(server, phones)
    refused = []

    def busy_once(route):
        if refused:
            route.continue_()
        else:
            refused.append(route.request.post_data)
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="busy")

    anna.route("**/t/*/act", busy_once)
    write(anna, "once the server has time")
    expect(display.locator("#live")).to_have_attribute("data-seq", "1", timeout=15_000)  # no second tap
    expect(anna.locator("#history")).to_contain_text("Anna wrote a note.", timeout=15_000)
    assert len(refused) == 1
