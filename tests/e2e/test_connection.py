"""The connection badge: a page that lost its server says so, holds its buttons, and catches up when back; an
action whose answer was lost, over the socket or posted, is sent again by itself and applied once."""

import json
import time
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.conftest import PATIENCE


def seated_table(server, phones):
    display, anna, bea = phones(1280, 800), phones(), phones()
    code = lobby.open_table(display, server.url, "Secret notes", players=2)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")
    return display, anna, bea


def write(page, note):
    page.locator("form[data-action=write] input[name=note]").fill(note)
    page.locator("form[data-action=write] button").click()


def posting_only(page):
    """The page's socket never opens (a proxy that passes no WebSocket): it polls, and posts its forms."""
    page.route_web_socket("**/ws?*", lambda page_socket: page_socket.close())
    page.reload()
    expect(page.locator("[data-connection]")).to_be_hidden(timeout=PATIENCE)


def relayed(page, to_server, to_page):
    """The page's socket through a relay: each message goes to the handler for its direction, with both ends."""

    def relay(page_socket):
        server_socket = page_socket.connect_to_server()
        page_socket.on_message(lambda message: to_server(message, page_socket, server_socket))
        server_socket.on_message(lambda message: to_page(message, page_socket, server_socket))

    page.route_web_socket("**/ws?*", relay)
    page.add_init_script(RECORD_SOCKETS)
    page.reload()
    # Open, not only not shown as lost (the badge is hidden before the socket opens too): a tap before that is posted.
    page.wait_for_function(SOCKET_OPEN)
    expect(page.locator("[data-connection]")).to_be_hidden()


# The page's sockets, recorded as it makes them; whether one is open (its page sends its forms over it).
RECORD_SOCKETS = """
  window.sockets = [];
  const NativeSocket = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const socket = new NativeSocket(url, protocols);
    window.sockets.push(socket);
    return socket;
  };
  window.WebSocket.prototype = NativeSocket.prototype;
"""
SOCKET_OPEN = "() => window.sockets.some((socket) => socket.readyState === 1)"  # WebSocket.OPEN


def passed_on(message, page_socket, server_socket):
    server_socket.send(message)


def wait_until(page, condition, seconds=15):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        page.wait_for_timeout(100)


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
    expect(bea.locator("[data-connection]")).to_be_hidden(timeout=PATIENCE)
    write(bea, "after the restart")
    for page in (display, anna, bea):
        expect(page.locator("[data-connection]")).to_be_hidden(timeout=PATIENCE)
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
    expect(anna.locator("[data-connection]")).to_be_hidden(timeout=PATIENCE)
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1")


def test_a_seats_tap_goes_over_its_socket_and_one_whose_answer_was_lost_is_sent_again_and_applied_once(server, phones):
    """The server stored the note, but the socket dropped as its answer came: the page sends it again, same id."""
    display, anna, bea = seated_table(server, phones)
    sent, answers = [], []  # (the way, the action id) of every send of a form; the answers over the socket

    def post(request):
        if request.method == "POST":
            sent.append(("post", parse_qs(request.post_data)["client_action_id"][0]))

    def send(message, page_socket, server_socket):
        if message.startswith("{"):
            sent.append(("socket", json.loads(message)["form"]["client_action_id"][0]))
        server_socket.send(message)

    def lose_the_first_answer(message, page_socket, server_socket):
        if message.startswith("{"):  # the answer, on the line before the view it brought
            answers.append(json.loads(message.partition("\n")[0])["status"])
            if len(answers) == 1:
                page_socket.close()  # the Wi-Fi drops just as the answer comes
                return
        page_socket.send(message)

    anna.on("request", post)
    relayed(anna, send, lose_the_first_answer)
    write(anna, "only once")
    expect(display.locator("#live")).to_have_attribute("data-seq", "1", timeout=PATIENCE)
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1", timeout=PATIENCE)  # caught up on a new socket
    wait_until(anna, lambda: len(sent) == 2)  # sent again by itself, over the new socket or posted if none yet
    assert sent[0][0] == "socket" and sent[0][1] == sent[1][1]  # the same action id: a repeat, not a second note
    expect(anna.locator("#history")).to_contain_text("Anna wrote a note.")
    assert anna.locator("#history li", has_text="Anna wrote a note.").count() == 1
    expect(display.locator("#live")).to_have_attribute("data-seq", "1")
    write(anna, "on second thought")  # a new action, over the new socket
    expect(display.locator("#live")).to_have_attribute("data-seq", "2")
    assert sent[2][0] == "socket" and sent[2][1] != sent[0][1]


def test_a_refusal_over_the_socket_shows_its_notice_until_the_table_moves_on(server, phones):
    display, anna, bea = seated_table(server, phones)
    write(bea, "first")
    write(anna, "second")
    expect(anna.locator("#live")).to_have_attribute("data-seq", "2")
    write(anna, "one more")
    expect(anna.locator("#notice .notice-error")).to_have_text("All notes are in; start the next round.")
    bea.locator("form[data-action=next_round] button").click()
    expect(anna.locator("#live")).to_have_attribute("data-seq", "3")
    expect(anna.locator("#notice")).to_be_empty()
    write(anna, "next round")
    expect(display.locator("#live")).to_have_attribute("data-seq", "4")


@pytest.mark.parametrize("lost", ["dropped connection", "proxy's 502"])
def test_a_posted_tap_whose_answer_was_lost_is_sent_again_and_applied_once(server, phones, lost):
    """The server stored the note but the answer never arrived: the page posts it again by itself, same id."""
    display, anna, bea = seated_table(server, phones)
    posting_only(anna)
    sent, answers_lost = [], []

    def lose_the_first_answer(route):
        sent.append(parse_qs(route.request.post_data)["client_action_id"][0])
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
    expect(display.locator("#live")).to_have_attribute("data-seq", "1", timeout=PATIENCE)
    wait_until(anna, lambda: len(sent) == 2)
    assert answers_lost == [200] and sent[0] == sent[1]  # the same action id: a repeat, not a second note
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1", timeout=PATIENCE)
    expect(anna.locator("#history")).to_contain_text("Anna wrote a note.", timeout=PATIENCE)
    assert anna.locator("#history li", has_text="Anna wrote a note.").count() == 1
    expect(display.locator("#live")).to_have_attribute("data-seq", "1")


def test_an_action_the_server_was_too_busy_for_over_the_socket_is_sent_again_by_itself(server, phones):
    display, anna, bea = seated_table(server, phones)
    refused = []

    def busy_once(message, page_socket, server_socket):
        if refused or not message.startswith("{"):
            server_socket.send(message)
            return
        refused.append(message)  # answered as the server answers when its store is busy
        sent_id = json.loads(message)["form"]["client_action_id"][0]
        page_socket.send(json.dumps({"answer": sent_id, "status": 503, "notice": '<div id="notice"></div>'}))

    relayed(anna, busy_once, lambda message, page_socket, server_socket: page_socket.send(message))
    write(anna, "once the server has time")
    expect(display.locator("#live")).to_have_attribute("data-seq", "1", timeout=PATIENCE)  # no second tap
    expect(anna.locator("#history")).to_contain_text("Anna wrote a note.", timeout=PATIENCE)
    assert len(refused) == 1


def test_a_posted_action_the_server_was_too_busy_for_is_sent_again_by_itself(server, phones):
    display, anna, bea = seated_table(server, phones)
    posting_only(anna)
    refused = []

    def busy_once(route):
        if refused:
            route.continue_()
        else:
            refused.append(route.request.post_data)
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="busy")

    anna.route("**/t/*/act", busy_once)
    write(anna, "once the server has time")
    expect(display.locator("#live")).to_have_attribute("data-seq", "1", timeout=PATIENCE)  # no second tap
    expect(anna.locator("#history")).to_contain_text("Anna wrote a note.", timeout=PATIENCE)
    assert len(refused) == 1
