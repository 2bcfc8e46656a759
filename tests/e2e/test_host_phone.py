"""Nobody touches the TV: the host page shows a one-time link, a phone opens it and runs the table from there."""

import re

from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.lobby import Seq
from tests.e2e.phone import SMALL_PHONE


def host_link(display, base: str, code: str) -> str:
    """The one-time host link, made on the host page (the TV's discreet link leads there), then back to the display."""
    display.get_by_role("link", name="Host", exact=True).click()
    display.get_by_role("button", name="Run the table from a phone…").click()
    qr = display.get_by_role("img", name="QR code that makes a phone a host of this table")
    expect(qr).to_be_visible()
    # decode() waits for the image to arrive (the page goes on while it loads) and fails on a broken one.
    assert qr.evaluate("image => image.decode().then(() => image.naturalWidth)") > 0
    link = display.locator(".url").inner_text()
    display.goto(f"{base}/t/{code}/display")
    return link


def test_a_phone_opens_the_host_link_once_and_runs_the_table_from_its_host_page(server, phones):
    display = phones(1920, 1080)
    code = lobby.open_table(display, server.url, "Eat your tourist!", players="2", starting_player="player-1")
    anna, bea = phones(**SMALL_PHONE), phones(**SMALL_PHONE)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")
    link = host_link(display, server.url, code)
    assert re.fullmatch(rf"http://127\.0\.0\.1:\d+/t/{code}/host-link/[\w-]{{40,}}", link), link

    host = phones(**SMALL_PHONE)
    host.goto(link)
    host.get_by_role("button", name="Yes, run the table from here").click()
    expect(host).to_have_url(f"{server.url}/t/{code}/host")
    seq = Seq([display, anna, bea, host])

    # The host's phone records for the player on turn: on to the hunt, seen on the TV and on every phone.
    host.get_by_text("Record on this screen…").click()
    host.locator("#eyt-controls form[data-action=next] button").click()
    seq.step()
    expect(display.locator(".eyt-phase.eyt-now")).to_contain_text("Hunt")
    expect(bea.locator(".eyt-phase.eyt-now")).to_contain_text("Hunt")
    expect(host.locator("#history")).to_contain_text("Anna")

    # The link worked once: another phone that opens it is turned away and gets no host page.
    late = phones(**SMALL_PHONE)
    late.goto(link)
    expect(late.locator("main")).to_contain_text("This host link has been used already.")
    late.goto(f"{server.url}/t/{code}/host")
    expect(late.locator("main")).to_contain_text("Only the host can do that.")
