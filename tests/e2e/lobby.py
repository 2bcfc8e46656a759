"""What every browser test does first: open a table from the lobby, take seats by the join page; then follow
the table's sequence number on every screen."""

import re

from playwright.sync_api import expect


def open_table(page, base: str, game_name: str, **options) -> str:
    """Open a table of the game from the lobby with these option values; returns the join code."""
    page.goto(base + "/")
    card = page.locator(".game", has_text=game_name)
    for name, value in options.items():
        field = card.locator(f"[name={name}]")
        if not field.is_visible():  # a variant or house rule, folded under "More options"
            card.locator(".more-options > summary").click()
        if field.evaluate("element => element.tagName") == "SELECT":
            field.select_option(str(value))
        elif field.get_attribute("type") == "checkbox":
            field.set_checked(bool(value))
        else:
            field.fill(str(value))
    card.get_by_role("button", name="Open a table").click()
    expect(page).to_have_url(re.compile(r"/t/[A-Z0-9]{6}/display$"))
    return page.url.split("/")[-2]


def take_seat(page, base: str, code: str, seat_label: str, name: str) -> None:
    page.goto(f"{base}/t/{code}")
    form = page.locator("form.claim", has_text=seat_label)
    form.locator("input[name=name]").fill(name)
    form.get_by_role("button", name="Take this seat").click()
    expect(page.locator(".who")).to_have_text(f"You are {name}")


class Seq:
    """The table's sequence number, which every accepted action moves on by one, on every screen."""

    def __init__(self, screens):
        self.screens = screens
        self.value = int(screens[0].locator("#live").get_attribute("data-seq"))

    def step(self):
        self.value += 1
        for screen in self.screens:
            expect(screen.locator("#live")).to_have_attribute("data-seq", str(self.value))
