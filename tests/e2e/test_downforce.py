"""Downforce in real browsers: three phones seal their bids at the same moment and the display turns all three over."""

from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.lobby import Seq
from tests.e2e.phone import SMALL_PHONE, count_taps, in_first_screen, taps
from tests.e2e.walk import LANGUAGES, NAMES
from tests.http import call

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

    for name, (amount, _stripes, wild) in BIDS.items():
        form = seats[name].locator("form[data-action=bid]")
        form.locator(f"input[name=amount][value='{amount}']").check(force=True)
        form.locator(f"input[name=wild][value='{wild}']").check(force=True)
    # All three sealed cards go out together: nobody waits for an answer before the next one is sent.
    for name, (_amount, stripes, _wild) in BIDS.items():
        button = f"form[data-action=bid] button[name=stripes][value='{stripes}']"
        seats[name].evaluate(f'document.querySelector("{button}").click()')

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


def test_on_a_small_phone_the_bid_the_driver_power_and_the_bet_are_in_the_first_screen(server, phones):
    display = phones(1280, 800)
    code = lobby.open_table(display, server.url, "Downforce", players="3")
    seats = [phones(**SMALL_PHONE) for _ in PLAYERS]
    for page, (label, name) in zip(seats, PLAYERS.items(), strict=True):
        lobby.take_seat(page, server.url, code, label, name)
    seq = Seq([display, *seats])

    # Six cars, each bought by the next player in turn with one card while the others pass.
    for lot in range(6):
        bidder = seats[lot % 3]
        form = bidder.locator("form[data-action=bid]")
        stripes = form.get_by_role("button", name="2", exact=True)
        in_first_screen(bidder, stripes)
        # A new car starts with nothing ticked: not the number this phone ticked for its last car.
        expect(form.locator("input[name=amount]:checked")).to_have_count(0)
        count_taps(bidder)
        form.locator("label.df-choice", has_text="5").click()  # the number in the car's colour stripe
        form.locator("label.df-choice", has_text="the card has a wild stripe").click()
        stripes.click()  # its colour stripes: the third tap places the sealed bid
        seq.step()
        assert taps(bidder) <= 3
        in_first_screen(bidder, bidder.locator(".df-my-bid"))
        for other in seats:
            if other is not bidder:
                other.get_by_role("button", name="No stripe of this colour (pass)").click()
                seq.step()

    # Two cars each: every player keeps one of their two driver powers.
    for page in seats:
        power = page.locator("form[data-action=keep_power] button").first
        in_first_screen(page, power)
        power.click()
        seq.step()

    # The race: the last sale's banner is gone from the phones (the display keeps the news), the betting round
    # opens from a phone, each bet is one tap and its confirmation shows at once.
    expect(seats[0].locator(".banner")).to_have_count(0)
    opener = seats[0].get_by_role("button", name="Open betting round 1")
    in_first_screen(seats[0], opener)
    opener.click()
    seq.step()
    for page in seats:
        bet = page.locator("form[data-action=bet]").get_by_role("button", name="red car")
        in_first_screen(page, bet)
        count_taps(page)
        bet.click()
        seq.step()
        assert taps(page) == 1
        in_first_screen(page, page.locator(".secret-bet", has_text="Your bet 1:"))
    expect(seats[0].locator(".banner")).to_have_text("All bets of round 1 are in.")

    # The cars cross the finish line: on a phone every car still racing, and the end of the race, in the first
    # screen however many cars are home.
    finish = seats[1].locator("form[data-action=finish]")
    for car in ("red car", "blue car", "green car", "black car", "yellow car"):
        for button in finish.get_by_role("button").all():
            in_first_screen(seats[1], button)
        in_first_screen(seats[1], seats[1].locator(".df-end-race > summary"))
        finish.get_by_role("button", name=car).click()
        seq.step()


def test_on_a_small_phone_a_perfect_tie_s_re_bid_is_whole_in_the_first_screen_in_every_language(server, phones):
    status, created = call(server.url, "POST", "/api/tables", {"game": "downforce", "options": {"players": 6}})
    assert status == 201, created
    code, tokens = created["code"], {}
    for number, name in enumerate(NAMES, 1):
        seat = f"player-{number}"
        status, claimed = call(server.url, "POST", f"/api/tables/{code}/seats", {"seat": seat, "name": name})
        tokens[seat] = claimed["token"]
    car = call(server.url, "GET", f"/api/tables/{code}/view", token=tokens["player-1"])[1]["view"]["auction"]["car"]
    tie = {"type": "bid", "car": car, "amount": 1, "stripes": 1}  # six equal cards: house rule Q6's re-bid
    for token in tokens.values():
        status, answer = call(server.url, "POST", f"/api/tables/{code}/actions", tie, token)
    assert answer["view"]["auction"]["rebid"], answer

    for lang in LANGUAGES:
        phone = phones(**SMALL_PHONE)
        phone.context.add_cookies(
            [
                {"name": f"seat_{code}", "value": tokens["player-6"], "url": server.url},
                {"name": "lang", "value": lang, "url": server.url},
            ]
        )
        phone.goto(f"{server.url}/t/{code}/seat")
        expect(phone.locator(".banner")).to_be_visible()  # the tie's news, said once on a phone
        form = phone.locator("form[data-action=bid]")
        for control in (*form.locator("label.df-choice").all(), *form.locator("button").all()):
            in_first_screen(phone, control)
