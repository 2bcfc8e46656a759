"""Mice and Mystics in real browsers: two mice on two phones, the host page pressing Next, cheese on the display."""

import re

from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.lobby import Seq
from tests.e2e.phone import SMALL_PHONE, in_first_screen


def add_mouse(phone, hero, life="5"):
    form = phone.locator("form[data-action=add_mouse]")
    form.locator("select[name=hero]").select_option(hero)
    form.locator("input[name=life]").fill(life)
    button = form.get_by_role("button", name="Add this mouse")
    in_first_screen(phone, button)
    button.click()


def test_two_mice_on_two_phones_and_the_host_page_pressing_next(server, phones):
    display, anna, bea = phones(1920, 1080), phones(360, 800), phones(360, 800)
    code = lobby.open_table(display, server.url, "Mice and Mystics", players="2")
    host = display.context.new_page()  # the host's tools, off the display that nobody touches
    host.goto(f"{server.url}/t/{code}/host")
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")

    add_mouse(anna, "collin")
    expect(bea.locator(".mm-party")).to_contain_text("Prince Collin")
    add_mouse(bea, "lily")
    expect(display.locator("#mm-glance")).to_contain_text("Lily")
    anna.get_by_role("button", name="Start the chapter").click()

    track = display.locator("#mm-track")
    expect(track.locator(".mm-card")).to_have_count(2)
    first = track.locator(".mm-card.active .mm-card-name").inner_text()
    up, waiting = (anna, bea) if first == "Prince Collin" else (bea, anna)
    expect(up.locator("#mm-turn")).to_have_class(re.compile(r"\byours\b"))
    expect(waiting.locator("#mm-turn")).to_have_class(re.compile(r"\bnext\b"))

    host.locator("form[data-action=next] button").click()
    expect(track.locator(".mm-card.active .mm-card-name")).not_to_have_text(first)
    expect(waiting.locator("#mm-turn")).to_have_class(re.compile(r"\byours\b"))
    expect(up.locator("#mm-turn")).to_have_class(re.compile(r"\bnext\b"))

    anna.locator("#mm-add-cheese").get_by_role("button", name="+1 cheese").click()
    wheel = display.locator(".mm-wheel-card")
    expect(wheel.locator("[data-cheese]")).to_have_attribute("data-cheese", "1")
    expect(wheel.locator(".mm-slot.filled")).to_have_count(1)

    # The last mouse on the track acts with no minions about: time is running out, one more cheese.
    host.locator("form[data-action=next] button").click()
    expect(wheel.locator("[data-cheese]")).to_have_attribute("data-cheese", "2")
    expect(bea.locator(".mm-wheel [data-cheese]")).to_have_attribute("data-cheese", "2")
    expect(display.locator("#mm-initiative")).to_contain_text("Round 2")


def test_on_a_small_phone_the_turn_and_my_mouse_come_first_and_the_rest_is_folded(server, phones):
    display = phones(1280, 800)
    code = lobby.open_table(display, server.url, "Mice and Mystics", players="2")
    anna, bea = phones(**SMALL_PHONE), phones(**SMALL_PHONE)
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    lobby.take_seat(bea, server.url, code, "Player 2", "Bea")
    seq = Seq([display, anna, bea])
    add_mouse(anna, "collin")
    seq.step()
    add_mouse(bea, "lily", life="4")
    seq.step()

    # Rats at the start, from the folded part of Anna's setup; then her start button is in her first screen.
    anna.get_by_text("Story track and minions at the start").click()
    anna.locator("form[data-action=add_minions] select[name=minion]").select_option("rats")
    anna.get_by_role("button", name="Add minions coming into play").click()
    seq.step()
    start = anna.get_by_role("button", name="Start the chapter")
    in_first_screen(anna, start)
    start.click()
    seq.step()

    # Once round the track: the card's player has "Done" in the first screen, the other phone says whom it waits for.
    waiting_for = set()
    for _card in range(3):
        up = anna if anna.locator("#mm-turn.yours").count() else bea
        other = bea if up is anna else anna
        done = up.get_by_role("button", name="Done: next card")
        in_first_screen(up, done)
        doing = other.locator("#mm-turn .mm-doing")
        in_first_screen(other, doing)
        waiting_for.add(doing.inner_text())
        in_first_screen(other, other.get_by_role("button", name="+1 wound"))  # minions attack on others' turns
        done.click()
        seq.step()
    assert {line for line in waiting_for if "runs the minions: Rats." in line}, waiting_for
    assert {"Anna plays Prince Collin.", "Bea plays Lily."} & waiting_for, waiting_for

    # The rest of the sheet, the tracks, the minions, the tools and the party sheet open from rows below.
    for phone in (anna, bea):
        assert phone.evaluate("document.documentElement.scrollHeight") < 2.5 * SMALL_PHONE["height"]  # was 4821 px
    anna.get_by_text("Prince Collin: status, search cards, abilities").click()
    anna.get_by_role("button", name="Webbed").click()
    seq.step()
    expect(anna.get_by_role("button", name="Webbed")).to_have_class(re.compile(r"\bon\b"))  # the fold stayed open
    anna.get_by_text("Initiative and story track").click()
    expect(anna.locator("#mm-track .mm-card")).to_have_count(3)
    markers = anna.locator("#mm-story .mm-marker").evaluate_all("nodes => nodes.map(n => getComputedStyle(n).fontSize)")
    assert len(markers) == 2 and all(float(size.removesuffix("px")) >= 16 for size in markers), markers


def test_a_revealed_card_with_its_surge_minions_recorded_then_a_surge_puts_them_on_the_track(server, phones):
    display, anna = phones(1920, 1080), phones(**SMALL_PHONE)
    code = lobby.open_table(display, server.url, "Mice and Mystics", players="1")
    lobby.take_seat(anna, server.url, code, "Player 1", "Anna")
    add_mouse(anna, "collin")
    anna.get_by_role("button", name="Start the chapter").click()
    track = display.locator("#mm-track")
    expect(track.locator(".mm-card")).to_have_count(1)

    # MM-25 and Q13: the card's row and its surge, recorded once with taps on the quick picks.
    anna.locator("#mm-fold-minions > summary").click()
    reveal = anna.locator("form[data-action=reveal_encounter]")
    reveal.locator("input[name=name]").fill("Rat patrol")
    rats = reveal.locator("tr[data-minion=rats]")
    rats.locator("select[name='minions.surge_figures']").select_option("2")
    assert rats.locator("select").first.bounding_box()["height"] >= 44
    reveal.get_by_role("button", name="Reveal the encounter").click()
    expect(display.locator("#mm-surge")).to_contain_text("Rat patrol: 2 × Rats")
    assert anna.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]

    # MM-30 and MM-26 step 4: six cheese, and the surge summons the rats by itself.
    cheese = anna.locator("#mm-add-cheese").get_by_role("button", name="+3 cheese")
    cheese.click()
    expect(display.locator(".mm-wheel-card [data-cheese]")).to_have_attribute("data-cheese", "3")
    cheese.click()
    expect(track.locator(".mm-card", has_text="Rats")).to_have_count(1)
    for screen in (display, anna):
        expect(screen.locator(".banner")).to_contain_text("From the encounter card Rat patrol: 2 × Rats arrive.")
    expect(display.locator("#mm-story")).to_contain_text("page 2")
