"""Play again (issue 17, item 6): the host taps once at the end, and every phone lands in its seat at the new table."""

import re

from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.phone import SMALL_PHONE
from tests.http import call

NAMES = {"Player 1": "Šárka Přemyslovna", "Player 2": "Bartholomeus", "Player 3": "Cyril"}
# Eat your tourist, run by the host to its end: every tourist escapes but the last, whom a ghost eats.
TO_THE_END = [
    *({"type": "tourist_escapes", "colour": colour} for colour in ["blue"] * 4 + ["yellow"] * 4 + ["red"] * 4),
    *({"type": "tourist_escapes", "colour": "green"} for _ in range(3)),
    {"type": "next"},
    {"type": "enter_ghost"},
    {"type": "eat", "colour": "green"},
]


def test_the_host_taps_play_again_and_every_phone_lands_in_its_seat_at_the_new_table(server, phones):
    display = phones(1280, 720)
    code = lobby.open_table(display, server.url, "Eat your tourist!", players="3", starting_player="player-1")
    seated = {name: phones(**SMALL_PHONE) for name in NAMES.values()}
    for (label, name), phone in zip(NAMES.items(), seated.values(), strict=True):
        lobby.take_seat(phone, server.url, code, label, name)
    host_token = next(c["value"] for c in display.context.cookies() if c["name"] == f"host_{code}")
    host = display.context.new_page()
    host.goto(f"{server.url}/t/{code}/host")

    for action in TO_THE_END:
        status, answer = call(server.url, "POST", f"/api/tables/{code}/actions", action, host_token)
        assert status == 200, answer
    for page in (*seated.values(), display, host):
        expect(page.locator(".outcome")).to_be_visible()
    for page in (*seated.values(), host):  # the phones and the host page offer the play for BG Stats; the TV does not
        expect(page.locator("[data-bgstats]")).to_have_attribute("href", re.compile(r"^https://app\.bgstatsapp\.com/"))
    expect(display.locator("[data-bgstats]")).to_have_count(0)

    host.get_by_role("button", name="Play again: same game, same players").click()

    new_table = re.compile(rf"/t/(?!{code})([A-Z0-9]{{6}})/host$")
    expect(host).to_have_url(new_table)
    new = new_table.search(host.url).group(1)
    for name, phone in seated.items():
        expect(phone).to_have_url(f"{server.url}/t/{new}/seat")
        expect(phone.locator(".who")).to_have_text(f"You are {name}")
    expect(display).to_have_url(f"{server.url}/t/{new}/display")
    expect(display.locator(".join-panel.join-open")).to_have_count(0)  # every seat is taken: nobody scans again
    expect(host.locator("#host-panel")).to_contain_text(NAMES["Player 2"])
