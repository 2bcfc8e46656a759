"""A table in real browsers: open it, join two seats by the join URL, live updates, a server restart."""

from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.conftest import PATIENCE
from tests.http import call


def test_an_action_in_one_seat_appears_in_the_other_and_on_the_display_without_a_reload(server, phones):
    display, anna, bea = phones(1280, 800), phones(), phones()
    code = lobby.open_table(display, server.url, "Secret notes", players=2)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")
    expect(display.locator("#table-corner")).to_contain_text("Anna")
    bea.get_by_text("History").click()  # an open section stays open through live updates
    anna.locator("form[data-action=write] input[name=note]").fill("hello")
    anna.locator("form[data-action=write] button").click()
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1")
    expect(bea.locator("#live")).to_have_attribute("data-seq", "1")
    expect(display.locator("#live")).to_have_attribute("data-seq", "1")
    expect(bea.locator("#history")).to_contain_text("Anna wrote a note.")
    expect(bea.locator("#history")).to_have_attribute("open", "")
    expect(bea.locator("#live")).not_to_contain_text("hello")


def test_a_seat_page_survives_the_server_restarting(server, phones):
    display, anna, bea = phones(1280, 800), phones(), phones()
    code = lobby.open_table(display, server.url, "Secret notes", players=2)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")
    server.kill()
    server.start()
    anna.locator("form[data-action=write] input[name=note]").fill("after restart")
    anna.locator("form[data-action=write] button").click()
    expect(bea.locator("#live")).to_have_attribute("data-seq", "1", timeout=PATIENCE)
    expect(display.locator("#live")).to_have_attribute("data-seq", "1")


def test_the_host_undoes_from_the_host_page_the_display_links_to(server, phones):
    display, anna = phones(1280, 800), phones()
    code = lobby.open_table(display, server.url, "Secret notes", players=2)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    anna.locator("form[data-action=write] input[name=note]").fill("oops")
    anna.locator("form[data-action=write] button").click()
    expect(display.locator("#live")).to_have_attribute("data-seq", "1")
    display.get_by_role("link", name="Host", exact=True).click()
    expect(display.locator("#history")).to_contain_text("Anna wrote a note.")
    display.get_by_text("Undo the last action…").click()
    expect(display.get_by_role("button", name="Yes, undo it")).to_be_visible()
    # A phone taking a seat meanwhile is news for the host page, not a reason to close its question.
    bea = phones()
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")
    expect(display.locator("#host-panel")).to_contain_text("Bea")
    display.get_by_role("button", name="Yes, undo it").click()
    expect(display.locator("#history")).to_contain_text("The host undid the last action.")
    expect(anna.locator("#history")).to_contain_text("The host undid the last action.")
    expect(anna.locator("form[data-action=write]")).to_be_visible()


def test_a_page_that_cannot_open_a_websocket_still_works_by_polling(server, phones):
    display, anna, bea = phones(1280, 800), phones(), phones()
    bea.add_init_script("delete window.WebSocket;")
    code = lobby.open_table(display, server.url, "Secret notes", players=2)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")
    anna.locator("form[data-action=write] input[name=note]").fill("polled")
    anna.locator("form[data-action=write] button").click()
    expect(bea.locator("#live")).to_have_attribute("data-seq", "1", timeout=PATIENCE)


def test_a_refusal_on_a_phone_goes_once_the_table_moves_on(server, phones):
    display, anna, bea = phones(1280, 800), phones(), phones()
    code = lobby.open_table(display, server.url, "Secret notes", players=2)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")
    for page in (anna, bea):
        page.locator("form[data-action=write] input[name=note]").fill("a note")
        page.locator("form[data-action=write] button").click()
    # Both notes on Anna's page first: a frame arriving after the refusal would clear it before it could be seen.
    expect(anna.locator("#live")).to_have_attribute("data-seq", "2")
    anna.locator("form[data-action=write] input[name=note]").fill("a note")  # refused: all notes are in
    anna.locator("form[data-action=write] button").click()
    expect(anna.locator("#notice .notice-error")).to_contain_text("All notes are in")

    bea.locator("form[data-action=roll] button").click()
    expect(anna.locator("#live")).to_have_attribute("data-seq", "3")
    expect(anna.locator("#notice")).to_be_empty()


# Every message the page's sockets receive, and how many answers to its requests htmx has handled.
HEARD_FRAMES = """
  window.heardFrames = [];
  window.answers = 0;  // posted forms' answers, and forms' answers over the socket
  const nativeSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    this.addEventListener("loadend", () => { window.answers += 1; });  // after htmx's own handler of the answer
    return nativeSend.call(this, body);
  };
  const NativeSocket = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const socket = new NativeSocket(url, protocols);
    socket.addEventListener("message", (event) => {
      const message = String(event.data);
      if (message.startsWith('{"answer"')) { window.answers += 1; } else { window.heardFrames.push(message); }
    });
    return socket;
  };
  window.WebSocket.prototype = NativeSocket.prototype;
"""

COUNT_SWAPS = """() => {
  window.swaps = 0;
  window.answers = 0;
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) { if (node.id === "live") { window.swaps += 1; } }
    }
  }).observe(document.getElementById("live").parentNode, {childList: true});
}"""


def test_a_seats_own_action_over_its_socket_puts_its_live_part_in_place_once(server, phones):
    display, anna = phones(1280, 800), phones()
    code = lobby.open_table(display, server.url, "Secret notes", players=2)
    anna.add_init_script(HEARD_FRAMES)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    anna.evaluate(COUNT_SWAPS)
    anna.locator("form[data-action=write] input[name=note]").fill("hello")
    anna.locator("form[data-action=write] button").click()
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1")
    anna.wait_for_function("() => window.answers > 0")
    assert anna.evaluate("window.swaps") == 1


def test_a_posted_form_puts_its_live_part_in_place_once(server, phones):
    """The host's undo is posted: the answer brings the fresh live part, and the socket's frame of the same view
    changes nothing (a second swap would replace the buttons under the player's finger)."""
    host = phones(1280, 800)
    host.add_init_script(HEARD_FRAMES)
    code = lobby.open_table(host, server.url, "Secret notes", players=2)
    host.goto(f"{server.url}/t/{code}/host")
    host.locator("form[data-action=roll] button").click()  # over the socket: the host page's speaks for the host
    expect(host.locator("#live")).to_have_attribute("data-seq", "1")
    host.evaluate(COUNT_SWAPS)
    host.locator("#host-panel details.confirm summary").click()
    with host.expect_response("**/t/*/undo"):
        host.locator("#host-panel form[hx-post$='/undo'] button").click()
    expect(host.locator("#live")).to_have_attribute("data-seq", "2")
    # Whichever came first, both the answer and the socket's frame are in.
    host.wait_for_function("() => window.answers > 0")
    host.wait_for_function("() => window.heardFrames.some((frame) => frame.includes('data-seq=\"2\"'))")
    assert host.evaluate("window.swaps") == 1


def test_a_player_typing_when_the_table_moves_on_keeps_the_focus_and_what_was_typed(server, phones):
    display, anna = phones(1280, 800), phones()
    code = lobby.open_table(display, server.url, "Secret notes", players=2)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    status, bea = call(server.url, "POST", f"/api/tables/{code}/seats", {"seat": "player-2", "name": "Bea"})
    assert status == 201, bea
    note = anna.locator("form[data-action=write] input[name=note]")
    note.click()
    anna.keyboard.type("hel")
    status, answer = call(
        server.url, "POST", f"/api/tables/{code}/actions", {"type": "write", "note": "x"}, bea["token"]
    )
    assert status == 200, answer
    expect(anna.locator("#live")).to_have_attribute("data-seq", "1")  # a fresh form in place of the one typed in
    anna.keyboard.type("lo")
    expect(note).to_have_value("hello")
