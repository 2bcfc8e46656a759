"""Sežer svého turistu! in real browsers: three players on three phones and the display, two full turns."""

import pytest
from playwright.sync_api import expect

from tests.e2e import lobby
from tests.e2e.phone import SMALL_PHONE, in_first_screen
from tests.e2e.walk import TV_SCREENS
from tests.http import open_table

# The words of the phase chips that the browser broke across two lines ("Frigh/t", "Lekn/utí"): a word on one line
# is one box, a word split is two.
SPLIT_CHIP_WORDS = """() => {
  const split = [];
  const range = document.createRange();
  for (const chip of document.querySelectorAll(".eyt-phase")) {
    const walker = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (const word of node.textContent.matchAll(/\\S+/g)) {
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
        if (lines.size > 1) { split.push(word[0]); }
      }
    }
  }
  return split;
}"""


class Table:
    """The devices at the table, and the sequence number every screen must reach after each tap."""

    def __init__(self, display, phones):
        self.display, self.phones, self.seq = display, phones, 0

    def tap(self, phone, action, name=None, form_text=None, first_screen=True):
        """Tap a button of an action form on a phone, then wait for every screen to show the result.

        A button of the turn's main steps must be in the phone's first screen: nobody scrolls to find it.
        """
        forms = phone.locator(f"#eyt-controls form[data-action={action}]")
        if form_text:
            forms = forms.filter(has_text=form_text)
        button = (forms.get_by_role("button", name=name, exact=True) if name else forms.locator("button")).first
        if first_screen:
            in_first_screen(phone, button)
        button.click()
        self.seq += 1
        for page in (self.display, *self.phones):
            expect(page.locator("#live")).to_have_attribute("data-seq", str(self.seq))


def test_three_players_play_two_full_turns_on_their_phones(server, phones):
    display = phones(1920, 1080)
    anna, bea, cyril = phones(**SMALL_PHONE), phones(**SMALL_PHONE), phones(**SMALL_PHONE)
    code = lobby.open_table(display, server.url, "Eat your tourist!", players="3", starting_player="player-1")
    for phone, seat, name in ((anna, "Player 1", "Anna"), (bea, "Player 2", "Bea"), (cyril, "Player 3", "Cyril")):
        lobby.take_seat(phone, server.url, code, seat, name)
    table = Table(display, (anna, bea, cyril))
    expect(display.locator("#eyt-turn")).to_contain_text("Anna is on turn")
    expect(bea.locator("#eyt-controls")).to_contain_text("Anna is playing")

    # Turn 1, Anna. Fright: the table die shows 4 and a blue tourist runs out of the castle.
    table.tap(anna, "roll_fright", "4")
    expect(display.locator("#eyt-turn")).to_contain_text("Escapes this turn cost Bea −1.")
    table.tap(anna, "tourist_escapes", "Escaped", first_screen=False)  # rarer: below the dice
    expect(display.locator("#eyt-tourists .eyt-count").first).to_have_text("3")
    table.tap(anna, "next", "Go on to the hunt")
    # Hunt: a ghost comes in, walks 2 squares, then eats a red tourist one square further: the squares are
    # the move buttons, eating is one tap on the colour.
    expect(display.locator(".eyt-phase.eyt-now")).to_contain_text("Hunt")
    table.tap(anna, "enter_ghost")
    table.tap(anna, "move_ghost", "2")
    table.tap(anna, "move_ghost", "1")
    table.tap(anna, "eat", "Red")
    expect(anna.locator("#eyt-movement .eyt-movement-left")).to_have_text("2")
    expect(display.locator(".eyt-movement-card .eyt-movement-left")).to_have_text("2")
    table.tap(anna, "next", "Go on to the panic")
    # Panic: a 3 moves the red tourists; the display highlights row 3.
    table.tap(anna, "roll_panic", "3")
    expect(display.locator("#eyt-panic tr.eyt-highlight")).to_contain_text("Move all red tourists by 3")
    table.tap(anna, "next", "End the turn")

    # Turn 2, Bea. Fright with the app's die; a yellow tourist dies of fright.
    expect(bea.locator("#eyt-turn")).to_contain_text("Your turn")
    expect(anna.locator("#eyt-turn")).to_contain_text("Bea is on turn")
    table.tap(bea, "roll_fright", "Roll for a tourist")
    expect(bea.locator(".eyt-rolls .eyt-die")).to_have_count(1)
    bea.locator(".eyt-fate", has_text="Yellow").get_by_role("button", name="Died of fright").click()
    table.seq += 1
    expect(display.locator("#live")).to_have_attribute("data-seq", str(table.seq))
    table.tap(bea, "next", "Go on to the hunt")
    # Hunt: Bea's ghost attacks Anna's; both roll on their own phones and Bea wins 5 to 2.
    table.tap(bea, "enter_ghost")
    table.tap(bea, "fight", "Anna's ghost")
    expect(anna.locator("#eyt-turn")).to_contain_text("Your ghost is attacked: roll for it!")
    expect(display.locator(".eyt-movement-card")).to_contain_text("Ghost fight: Bea against Anna")
    table.tap(anna, "fight_roll", "2")
    table.tap(bea, "fight_roll", "5", form_text=None)
    expect(bea.locator("#eyt-controls")).to_contain_text("(Bea wins)")
    table.tap(bea, "next", "Go on to the panic")
    # Panic: a 6 moves the opponents' ghosts and turns up an event.
    table.tap(bea, "roll_panic", "6")
    expect(display.locator("#eyt-event .eyt-event-number")).to_be_visible()
    expect(display.locator(".banner")).to_contain_text("New event")
    table.tap(bea, "next", "End the turn")

    # Turn 3 is Cyril's; the score: Anna 2 (one eaten), Bea −1 (Anna's escape), Cyril 0.
    expect(cyril.locator("#eyt-turn")).to_contain_text("Your turn")
    expect(cyril.locator("#eyt-controls form[data-action=roll_fright]").first).to_be_visible()
    expect(display.locator("#eyt-turn")).to_contain_text("Turn 3")
    rows = display.locator("#eyt-score tbody tr")
    expect(rows.nth(0)).to_contain_text("Anna")
    expect(rows.nth(0).locator(".eyt-points")).to_have_text("2")
    expect(rows.nth(2)).to_contain_text("Bea")
    expect(rows.nth(2).locator(".eyt-points")).to_have_text("-1")
    expect(display.locator("#eyt-tourists h2")).to_contain_text("13")
    expect(cyril.locator("#history")).to_contain_text("Bea wins the ghost fight; the ghost of Anna leaves the board")


@pytest.mark.parametrize("lang", ["en", "cs", "nl"])
def test_no_phase_chip_breaks_a_word_on_a_small_phone_or_the_tv(server, phones, lang):
    table = open_table(server.url, "eat-your-tourist", {"players": 4}, ["player-1"])
    code = table["code"]
    for who, path, screen in (
        ("player-1", "seat", SMALL_PHONE),
        ("host", "display", TV_SCREENS[0]),
        ("host", "display", TV_SCREENS[1]),
    ):
        page = phones(**screen)
        cookie = f"host_{code}" if who == "host" else f"seat_{code}"
        page.context.add_cookies(
            [
                {"name": cookie, "value": table[who], "url": server.url},
                {"name": "lang", "value": lang, "url": server.url},
            ]
        )
        page.goto(f"{server.url}/t/{code}/{path}")
        expect(page.locator("#eyt-turn .eyt-phase")).to_have_count(3)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        assert page.evaluate(SPLIT_CHIP_WORDS) == [], f"{lang} {path} at {screen['width']} px"
