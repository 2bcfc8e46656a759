"""Scotland Yard in real browsers: Mister X and two detectives play three rounds by tapping their phones."""

from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.lobby import Seq


def tap_move(page, picks, avoid=None):
    """Two taps: a station (a safe one if there is one), then the button that confirms the move."""
    safe = picks.locator(":scope:not(.warn)")
    choices = safe if safe.count() else picks
    for index in range(choices.count()):
        pick = choices.nth(index)
        if pick.get_attribute("data-to") != avoid:
            break
    station = pick.get_attribute("data-to")
    # By its station, not its place: a fresh view may reorder the safe stations between the two taps.
    pick = picks.and_(page.locator(f"[data-to='{station}']")).first
    pick.locator("summary").click()
    pick.locator("button.go").click()
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
        station = tap_move(mister_x, mister_x.locator("#sy-moves > .ticket-group details.pick"))
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
