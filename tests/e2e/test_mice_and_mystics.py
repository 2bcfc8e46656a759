"""Mice and Mystics in real browsers: two mice on two phones, the display pressing Next, cheese reaching the display."""

import re

from playwright.sync_api import expect

from tests.e2e import lobby


def add_mouse(phone, hero):
    form = phone.locator("form[data-action=add_mouse]")
    form.locator("select[name=hero]").select_option(hero)
    form.get_by_role("button", name="Add this mouse").click()


def test_two_mice_on_two_phones_and_the_display_pressing_next(server, phones):
    display, anna, bea = phones(1920, 1080), phones(360, 800), phones(360, 800)
    code = lobby.open_table(display, server.url, "Mice and Mystics", players="2")
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")

    add_mouse(anna, "collin")
    expect(bea.locator(".mm-party")).to_contain_text("Prince Collin")
    add_mouse(bea, "lily")
    expect(display.locator(".mm-party")).to_contain_text("Lily")
    anna.get_by_role("button", name="Start the chapter").click()

    track = display.locator("#mm-track")
    expect(track.locator(".mm-card")).to_have_count(2)
    first = track.locator(".mm-card.active .mm-card-name").inner_text()
    up, waiting = (anna, bea) if first == "Prince Collin" else (bea, anna)
    expect(up.locator("#mm-turn")).to_have_class(re.compile(r"\byours\b"))
    expect(waiting.locator("#mm-turn")).to_have_class(re.compile(r"\bnext\b"))

    display.locator("form[data-action=next] button").click()
    expect(track.locator(".mm-card.active .mm-card-name")).not_to_have_text(first)
    expect(waiting.locator("#mm-turn")).to_have_class(re.compile(r"\byours\b"))
    expect(up.locator("#mm-turn")).to_have_class(re.compile(r"\bnext\b"))

    anna.locator("#mm-add-cheese").get_by_role("button", name="+1 cheese").click()
    wheel = display.locator(".mm-wheel-card")
    expect(wheel.locator("[data-cheese]")).to_have_attribute("data-cheese", "1")
    expect(wheel.locator(".mm-slot.filled")).to_have_count(1)

    # The last mouse on the track acts with no minions about: time is running out, one more cheese.
    display.locator("form[data-action=next] button").click()
    expect(wheel.locator("[data-cheese]")).to_have_attribute("data-cheese", "2")
    expect(bea.locator(".mm-wheel [data-cheese]")).to_have_attribute("data-cheese", "2")
    expect(display.locator("#mm-initiative")).to_contain_text("Round 2")
