"""A server upgraded under open pages: each page learns the new build, and reloads itself once at a quiet moment
(no action of its own unanswered), on the same seat, keeping what its player was typing."""

import contextlib

from playwright.sync_api import Error, expect

from tests.e2e.test_connection import posting_only, seated_table, write

NEXT_BUILD = "the next release"
# Milliseconds to wait for what a restart brings: a loaded box may take half a minute to start the server (and a page
# backs off up to 10 s between tries); the deadline is not the point.
RESTART = 90_000


def loads_of(page) -> list:
    """The page's loads from now on (a reload adds one)."""
    loads = []
    page.on("load", lambda: loads.append(page.url))
    return loads


def test_pages_open_across_an_upgrade_reload_once_when_quiet_on_the_same_seat_keeping_what_was_typed(server, phones):
    display, anna, bea = seated_table(server, phones)
    host = display.context.new_page()
    host.goto(display.url.removesuffix("/display") + "/host")
    posting_only(bea)  # her tap is posted, so that the test can hold its answer
    held, answering = [], []

    def hold(route):
        """Bea's note goes nowhere until the test lets it (htmx gives up on it after 15 s and sends it again)."""
        if answering:
            route.continue_()
        else:
            held.append(route)

    bea.route("**/t/*/act", hold)
    first_build = anna.evaluate("document.body.dataset.build")
    assert first_build and first_build != NEXT_BUILD
    loads = {page: loads_of(page) for page in (display, host, anna, bea)}
    anna.locator("form[data-action=write] input[name=note]").fill("half a no")  # typed, not sent
    with bea.expect_request(lambda request: request.url.endswith("/act")):
        write(bea, "sent as the server went")

    server.stop()
    server.env["COMPANION_BUILD"] = NEXT_BUILD
    server.start()

    for page in (display, host, anna):
        expect(page.locator("body")).to_have_attribute("data-build", NEXT_BUILD, timeout=RESTART)
        expect(page.locator("[data-connection]")).to_be_hidden(timeout=RESTART)
    expect(anna.locator(".who")).to_have_text("You are Anna")
    expect(anna.locator("form[data-action=write] input[name=note]")).to_have_value("half a no")
    expect(host.locator(".host-side")).to_be_visible()
    # Bea's page hears of the new build by its next poll, and waits: her note has no answer yet.
    with bea.expect_response(lambda answer: "/live?" in answer.url and answer.status == 200, timeout=RESTART):
        pass
    # It went on polling, unreloaded.
    bea.wait_for_event("request", lambda request: "/live?" in request.url, timeout=RESTART)
    assert loads[bea] == [] and bea.evaluate("document.body.dataset.build") == first_build
    answering.append(True)  # the answer comes (from the new server): now it is quiet
    for route in held:
        with contextlib.suppress(Error):  # given up by the page already
            route.continue_()
    expect(bea.locator("body")).to_have_attribute("data-build", NEXT_BUILD, timeout=RESTART)
    expect(bea.locator("#history li", has_text="Bea wrote a note.")).to_have_count(1)
    expect(display.locator("#live")).to_have_attribute("data-seq", "1")
    assert [len(loads[page]) for page in (display, host, anna, bea)] == [1, 1, 1, 1], "each reloaded once"
