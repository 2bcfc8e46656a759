"""Scotland Yard in real browsers: Mister X and two detectives play three rounds by tapping their phones."""

import pytest
from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.lobby import Seq
from tests.e2e.phone import SMALL_PHONE, count_taps, in_first_screen, taps


def tap_move(page, picks, avoid=None, first_screen=False):
    """Two taps: a station (a safe one if there is one), then a ticket in the sheet it opens.

    first_screen: both are in the phone's first screen, nobody scrolls for them.
    """
    safe = picks.locator(":scope:not(.warn)")
    choices = safe if safe.count() else picks
    for index in range(choices.count()):
        pick = choices.nth(index)
        if pick.get_attribute("data-to") != avoid:
            break
    station = pick.get_attribute("data-to")
    # By its station, not its place: a fresh view may reorder the safe stations between the two taps.
    pick = picks.and_(page.locator(f"[data-to='{station}']")).first
    for target in (pick.locator("summary"), pick.locator("button.go").first):
        if first_screen:
            in_first_screen(page, target)
        target.click()
    return station


def test_mister_x_and_two_detectives_play_three_rounds_and_the_display_shows_the_reveal(server, phones):
    display, mister_x, dora, dirk = phones(1280, 800), phones(), phones(), phones()
    code = lobby.open_table(display, server.url, "Scotland Yard", detectives="2")
    lobby.take_seat(mister_x, server.url, code, "Mister X", "Xena")
    lobby.take_seat(dora, server.url, code, "Detective 1", "Dora")
    lobby.take_seat(dirk, server.url, code, "Detective 2", "Dirk")
    seq = Seq([display, mister_x, dora, dirk])
    moves = {dora: ["detective-1", "bobby-1"], dirk: ["detective-2", "bobby-2"]}
    for round_number in (1, 2, 3):
        expect(display.locator(".sy-status .whose")).to_contain_text(f"Round {round_number}: Mister X is moving.")
        station = tap_move(mister_x, mister_x.locator("#sy-moves .station-grid details.pick"))
        seq.step()
        expect(mister_x.locator(".my-station .secret-station")).to_have_text(station)
        expect(mister_x.locator(f".slot[data-move='{round_number}'] .station")).to_have_text(station)
        if round_number == 3:
            for screen in (display, dora, dirk):
                expect(screen.locator(".banner")).to_have_text(f"Mister X shows himself at station {station}!")
                expect(screen.locator(".slot[data-move='3'] .log-station")).to_have_text(station)
        for screen in (display, dora, dirk):
            expect(screen.locator(".slot[data-move='1'] .hidden-station")).to_be_visible()
            expect(screen.locator(".secret-station")).to_have_count(0)
        expect(dora.locator(".sy-status .whose")).to_contain_text("the detectives and bobbies are moving")
        for phone, figures in moves.items():
            for figure in figures:
                picks = phone.locator(f".my-figure[data-figure='{figure}'] details.pick")
                if picks.count():
                    tap_move(phone, picks, avoid=station)  # the hunt goes on: nobody catches Mister X yet
                    seq.step()
    expect(display.locator(".sy-status .whose")).to_contain_text("Round 4: Mister X is moving.")
    expect(display.locator(".sy-status .move-counter")).to_have_text("3")
    expect(display.locator(".slot[data-move='3'] .log-station")).to_have_text(station)
    tickets = display.locator(".figure[data-figure='detective-1'] .count").all_inner_texts()
    assert sum(int(count) for count in tickets) == 23 - 3  # one ticket a round, public on the display


def still_to_move(phone):
    """The figures on a detective's phone that have not moved this round, in the order the phone shows them."""
    return phone.locator(".my-figure:has(details.pick)")


def test_on_a_small_phone_every_move_is_two_taps_in_the_first_screen_and_the_travel_log_reads_at_16_px(server, phones):
    display = phones(1280, 800)
    mister_x, dora, dirk = phones(**SMALL_PHONE), phones(**SMALL_PHONE), phones(**SMALL_PHONE)
    code = lobby.open_table(display, server.url, "Scotland Yard", detectives="2")
    lobby.take_seat(mister_x, server.url, code, "Mister X", "Xena")
    lobby.take_seat(dora, server.url, code, "Detective 1", "Dora")
    lobby.take_seat(dirk, server.url, code, "Detective 2", "Dirk")
    seq = Seq([display, mister_x, dora, dirk])
    for _round in (1, 2):
        station = tap_move(mister_x, mister_x.locator("#sy-moves .station-grid details.pick"), first_screen=True)
        seq.step()
        # In turn, each detective moves the first figure on their phone that still has to move (a bobby the other
        # detective has just moved is no longer one of them), until every figure has moved.
        while any(still_to_move(phone).count() for phone in (dora, dirk)):
            for phone in (dora, dirk):
                if still_to_move(phone).count():
                    tap_move(
                        phone, still_to_move(phone).first.locator("details.pick"), avoid=station, first_screen=True
                    )
                    seq.step()

    sizes = mister_x.locator("#sy-log .slot *").evaluate_all(
        "nodes => nodes.filter(n => n.textContent.trim()).map(n => parseFloat(getComputedStyle(n).fontSize))"
    )
    assert sizes and min(sizes) >= 16, sorted(set(sizes))


@pytest.mark.parametrize("lang", ["en", "cs", "nl"])
def test_on_a_small_phone_mister_x_s_double_move_is_three_taps_in_the_first_screen(server, phones, lang):
    display, mister_x, dora = phones(1280, 800), phones(**SMALL_PHONE), phones()
    code = lobby.open_table(display, server.url, "Scotland Yard", detectives="1")
    lobby.take_seat(mister_x, server.url, code, "Mister X", "Bartholomeus van Oos")
    lobby.take_seat(dora, server.url, code, "Detective 1", "Dora")
    mister_x.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    mister_x.reload()
    seq = Seq([display, mister_x])
    count_taps(mister_x)
    # The station, then a double move's ticket in its sheet (under the single move's), then the second station.
    first = mister_x.locator("#sy-moves details.pick:has(button.double)").first
    for target in (first.locator("summary"), first.locator("button.double").first):
        in_first_screen(mister_x, target)
        target.click()
    seq.step()
    second = mister_x.locator("#sy-moves .second-step button").first
    in_first_screen(mister_x, second)
    second.click()
    seq.step()
    assert taps(mister_x) == 3
    expect(mister_x.locator(".slot.used .double-mark")).to_have_count(2)
    expect(display.locator(".sy-status .move-counter")).to_have_text("2")
