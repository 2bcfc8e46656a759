"""Downforce in real browsers: three phones seal their bids at the same moment and the display turns all three over."""

from playwright.sync_api import expect

from tests.e2e import lobby

PLAYERS = {"Player 1": "Anna", "Player 2": "Bea", "Player 3": "Cyril"}
# Cyril's six beats Anna's six on colour stripes; Bea's wild card is lower.
BIDS = {"Anna": ("6", "2", ""), "Bea": ("3", "1", "true"), "Cyril": ("6", "3", "")}


def test_three_phones_bid_at_the_same_moment_and_the_display_reveals_all_three_at_once(server, phones):
    display = phones(1280, 800)
    code = lobby.open_table(display, server.url, "Downforce", players="3")
    seats = {}
    for label, name in PLAYERS.items():
        seats[name] = phones()
        lobby.take_seat(seats[name], server.url, code, label, name)
    offer = display.locator("#df-offer")
    expect(offer.locator("#df-bid-status")).to_have_text("0 of 3 bids in")
    car = offer.get_attribute("data-car")

    for name, (amount, stripes, wild) in BIDS.items():
        form = seats[name].locator("form[data-action=bid]")
        form.locator("select[name=amount]").select_option(amount)
        form.locator("select[name=stripes]").select_option(stripes)
        form.locator("select[name=wild]").select_option(wild)
    # All three sealed cards go out together: nobody waits for an answer before the next one is sent.
    for phone in seats.values():
        phone.evaluate("document.querySelector('form[data-action=bid] button.primary').click()")

    reveal = display.locator(f"#df-reveal[data-car={car}]")
    expect(reveal.locator(".df-bidcard")).to_have_count(3)
    expect(reveal.locator(".df-bidcard.df-won .df-bidder")).to_have_text("Cyril")
    for name, (amount, _stripes, _wild) in BIDS.items():
        expect(reveal.locator(f".df-bidcard:has-text('{name}') .df-bid-amount")).to_have_text(amount)
    expect(reveal.locator(".df-bidcard:has-text('Bea') .df-wild")).to_be_visible()
    expect(reveal.locator(".df-result")).to_have_text("Cyril takes the car and its driver power for 6 million.")
    for phone in seats.values():
        expect(phone.locator(f"#df-reveal[data-car={car}] .df-bidcard")).to_have_count(3)
        expect(phone.locator(".secret-bid")).to_have_count(0)
    expect(seats["Cyril"].locator(f".df-mine .df-car[data-car={car}]")).to_be_visible()
    expect(offer.locator("#df-bid-status")).to_have_text("0 of 3 bids in")  # the next car is on offer
    assert offer.get_attribute("data-car") != car
