"""A table in the app's test client: opened and played through the JSON API, seen and played through its pages.

Games' web tests reuse this: `open_table` and `api` set a table up, `Device` is a phone or the display
in a browser of its own that sends only the forms its page offers, the way htmx does, and
`english_pieces` with `visible_text` find English left on a page that should be in Czech or Dutch.
"""

from __future__ import annotations

import functools
import html
import random
import re

from babel.messages.pofile import read_po

from companion.catalogs import ROOT, Source
from tests.html_tags import FORM_TAGS, TagReader

HX = {"HX-Request": "true"}
CSRF = re.compile(r'data-csrf="([^"]+)"')


# -- the JSON API ----------------------------------------------------------------------------------------


def open_table(client, game: str, options: dict, names: dict[str, str] | tuple) -> tuple[str, dict[str, str]]:
    """A table with the named seats taken (a tuple of names: the table's seats in order, as many as there are
    names): its code and the tokens {"host": ..., seat id: ...}."""
    answer = client.post("/api/tables", json={"game": game, "options": options})
    assert answer.status_code == 201, answer.json
    code, tokens = answer.json["code"], {"host": answer.json["host_token"]}
    if not isinstance(names, dict):
        names = dict(zip((seat["id"] for seat in answer.json["seats"]), names, strict=False))
    for seat, name in names.items():
        claimed = client.post(f"/api/tables/{code}/seats", json={"seat": seat, "name": name})
        assert claimed.status_code == 201, claimed.json
        tokens[seat] = claimed.json["token"]
    return code, tokens


def api(client, code: str, token: str, **action) -> dict:
    """The view of the token's holder (no action), or the view after the action it sends (which must be taken)."""
    headers = {"Authorization": f"Bearer {token}"}
    if not action:
        return client.get(f"/api/tables/{code}/view", headers=headers).json["view"]
    answer = client.post(f"/api/tables/{code}/actions", json=action, headers=headers)
    assert answer.status_code == 200, answer.json
    return answer.json["view"]


# -- the pages ---------------------------------------------------------------------------------------------


class Forms(TagReader):
    """The action forms of a page: hidden fields, typed fields, selects with their options, and the buttons.

    Each form: {"action", "hidden": {name: value}, "fields": {name: value}, "selects": {name: {"options",
    "selected"}}, "buttons": [{"name", "value", "text"}]}; a select's "selected" is what a browser sends
    untouched (the option marked selected, else the first); unticked checkboxes send nothing and are left out.
    """

    attributes_of = FORM_TAGS

    def __init__(self, text: str):
        super().__init__()
        self.forms: list[dict] = []
        self._form = self._select = self._button = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: dict[str, str | None]) -> None:
        if tag == "form" and "data-action" in attrs:
            self._form = {"action": attrs["data-action"], "hidden": {}, "fields": {}, "selects": {}, "buttons": []}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input" and attrs.get("name") and attrs.get("type") == "hidden":
            self._form["hidden"].setdefault(attrs["name"], attrs.get("value", ""))
        elif tag == "input" and attrs.get("name") and attrs.get("type") != "checkbox":
            self._form["fields"].setdefault(attrs["name"], attrs.get("value", ""))
        elif tag == "textarea" and attrs.get("name"):
            self._form["fields"][attrs["name"]] = ""
        elif tag == "select":
            self._select = self._form["selects"].setdefault(attrs["name"], {"options": [], "selected": None})
        elif tag == "option" and self._select is not None:
            self._select["options"].append(attrs.get("value", ""))
            if self._select["selected"] is None or "selected" in attrs:
                self._select["selected"] = attrs.get("value", "")
        elif tag == "button":
            self._button = {"name": attrs.get("name"), "value": attrs.get("value"), "text": ""}
            self._form["buttons"].append(self._button)

    def handle_data(self, data):
        if self._button is not None:
            self._button["text"] += data

    def handle_endtag(self, tag):
        if tag == "button" and self._button is not None:
            self._button["text"] = " ".join(self._button["text"].split())
            self._button = None
        elif tag == "select":
            self._select = None
        elif tag == "form":
            self._form = None


def browser(app, code: str, seat: str | None = None, host: str | None = None):
    """A test client of its own: a phone (a seat's token in its cookie), the display (the host's), or a guest's."""
    client = app.test_client()
    if seat:
        client.set_cookie(f"seat_{code}", seat)
    if host:
        client.set_cookie(f"host_{code}", host)
    return client


class Device:
    """A phone (seat=its token), the display (host=the host token, or neither: a guest's) or, with host and
    view="host", the host page, in a browser of its own.

    It reads its page and sends only the forms the page offers, the way htmx does. A live device reloads
    its page before each form, as a phone listening to the table would; `live=False` keeps the page as
    last loaded, so a form goes out from a page the table may have moved past.
    """

    def __init__(
        self, app, code: str, seat: str | None = None, host: str | None = None, lang=None, live=True, view=None
    ):
        self.code, self.live = code, live
        self.browser = browser(app, code, seat, host)
        self.path = f"/t/{code}/{view or ('seat' if seat else 'display')}"
        self.refresh(lang)

    @classmethod
    def of(cls, app, code: str, tokens: dict, who: str, **kwargs) -> Device:
        """The host page when `who` is "host", the display (with the host's cookie) when it is "display", else
        the phone of seat `who`."""
        if who in ("host", "display"):
            return cls(app, code, host=tokens["host"], view="host" if who == "host" else None, **kwargs)
        return cls(app, code, seat=tokens[who], **kwargs)

    def refresh(self, lang: str | None = None) -> str:
        answer = self.browser.get(self.path + (f"?lang={lang}" if lang else ""))
        assert answer.status_code == 200, answer.get_data(as_text=True)[-800:]
        self.page = answer.get_data(as_text=True)
        return self.page

    def offers(self, action: str) -> list[dict]:
        return [form for form in Forms(self.page).forms if form["action"] == action]

    def form(self, action: str, button: str | None = None, **hidden) -> dict:
        """The first form for `action` whose hidden fields match (and that has the button labelled `button`)."""
        found = [
            form
            for form in self.offers(action)
            if all(form["hidden"].get(name) == str(value) for name, value in hidden.items())
            and (button is None or any(b["text"] == button for b in form["buttons"]))
        ]
        assert found, f"the page offers no {action} form with {hidden} / {button}: {self.offers(action)}"
        return found[0]

    def submit(self, action: str, button: str | None = None, choose=None, expect: int = 200, **hidden) -> str:
        """Send the form for `action` whose hidden fields match, pressing the button labelled `button` (else the
        first); `choose` fills in selects (each value one of its options) and typed fields the form has."""
        if self.live:
            self.refresh()
        form = self.form(action, button, **hidden)
        data = {**form["hidden"], **form["fields"]}
        data |= {name: select["selected"] for name, select in form["selects"].items() if select["options"]}
        for name, value in (choose or {}).items():
            assert name in form["fields"] or name in form["selects"], f"{action} has no field {name}"
            if name in form["selects"]:
                options = form["selects"][name]["options"]
                assert str(value) in options, (name, value, options)
            data[name] = str(value)
        pressed = next((b for b in form["buttons"] if button is None or b["text"] == button), None)
        if pressed and pressed["name"]:
            data[pressed["name"]] = pressed["value"]
        answer = self.post(data)
        body = answer.get_data(as_text=True)
        assert answer.status_code == expect, body[-600:]
        if expect == 200:
            assert "notice-error" not in body, body[-600:]
        self.refresh()
        return body

    def post(self, data: dict):
        """Post an action from this page as htmx does: the page's CSRF token in a header."""
        headers = {**HX, "X-CSRF-Token": CSRF.search(self.page).group(1)}
        return self.browser.post(f"/t/{self.code}/act", data=data, headers=headers)


def page(app, code: str, tokens: dict, who: str, lang: str = "en") -> str:
    """The page of `who` (a seat, "host" for the host page, "display") in a browser of its own, in `lang`."""
    return Device.of(app, code, tokens, who, lang=lang).page


# -- random play ------------------------------------------------------------------------------------------

NAMES = ("Anna", "Bea", "Cyril", "Dana", "Emil", "Franta")
# Each game's options with the most seats, and the longest names a player may give.
MOST_SEATS = {
    "scotland-yard": {"detectives": 5},
    "downforce": {"players": 6},
    "mice-and-mystics": {"players": 4},
    "eat-your-tourist": {"players": 4},
}
LONG_NAMES = tuple(f"Šárka Přemyslovna z Lipové {number}" for number in range(1, 7))


class PlayedTable:
    """A table with every seat taken (by `names`, in the seats' order), played by random taps on the forms that the
    host page and the phones offer."""

    def __init__(self, app, client, game: str, seed: int, options: dict | None = None, names=NAMES):
        self.random = random.Random(seed)
        self.code, self.tokens = open_table(client, game, options or {}, names)
        self.app, self.client = app, client
        self.screens = [Device(app, self.code, host=self.tokens["host"], view="host")] + [
            Device(app, self.code, seat=token) for who, token in self.tokens.items() if who != "host"
        ]

    def step(self) -> tuple[Device, object] | None:
        """One tap on a random form of a random screen that offers one (refusals by the rules are part of play);
        mostly on a phone whose turn it is, so that the game moves on rather than changing its mind. The screen
        tapped and the answer; None when no screen offered a form."""
        screens = self.random.sample(self.screens, len(self.screens))
        for screen in screens:
            screen.refresh()
        if self.random.random() < 0.5:
            screens.sort(key=lambda screen: 'data-your-turn="true"' not in screen.page)
        for screen in screens:
            forms = Forms(screen.page).forms
            if forms:
                break
        else:
            return None
        form = self.random.choice(forms)
        data = {**form["hidden"]}
        data |= {name: value or str(self.random.randint(1, 6)) for name, value in form["fields"].items()}
        data |= {name: self.random.choice(each["options"]) for name, each in form["selects"].items() if each["options"]}
        if form["buttons"]:
            pressed = self.random.choice(form["buttons"])
            if pressed["name"]:
                data[pressed["name"]] = pressed["value"]
        answer = screen.post(data)
        assert answer.status_code < 500, answer.get_data(as_text=True)[-600:]
        return screen, answer

    def display(self) -> str:
        """The table display as the host's TV shows it."""
        return Device(self.app, self.code, host=self.tokens["host"]).page

    def public_lines(self) -> list[str]:
        """The banner and the history lines everyone sees, in English, as the host page shows them."""
        host_page = Device(self.app, self.code, host=self.tokens["host"], view="host", lang="en").page
        banner = re.findall(r'<div class="banner"[^>]*>(.*?)</div>', host_page, re.S)
        history = re.findall(r"<li[^>]*>(.*?)</li>", host_page.split('id="history"')[1], re.S)
        return [visible_text(line).strip() for line in banner + history]


# -- English left on a translated page ---------------------------------------------------------------------


def visible_text(page_html: str) -> str:
    """What a reader sees or hears: text between tags and the title and aria-label attributes."""
    labels = re.findall(r'(?:title|aria-label)="([^"]*)"', page_html)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page_html, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body) + " " + " ".join(labels))


def package(game: str):
    """A game's package folder ("scotland-yard": companion/games/scotland_yard)."""
    return ROOT / "companion" / "games" / game.replace("-", "_")


def translations(game: str):
    return package(game) / "translations"


@functools.cache
def catalog(game: str, lang: str):
    """A game's catalogue (its .po file) in one language."""
    with (translations(game) / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=lang)


@functools.cache
def english_pieces(game: str, lang: str) -> tuple[str, ...]:
    """The English words of a game's templates that the language's catalogue says differently.

    Every string of the templates must have a translation that is not fuzzy; each is split at its
    placeholders, and a piece of 5 characters or more that the translation does not hold is returned.
    """
    templates = tuple(sorted((package(game) / "templates").rglob("*.html")))
    translated_catalog = catalog(game, lang)
    pieces = []
    for message in Source(translations(game), (), templates).messages():
        if not message.id:
            continue
        translated = translated_catalog.get(message.id)
        assert translated is not None and translated.string, f"{lang}: no translation of {message.id!r}"
        assert not translated.fuzzy, f"{lang}: a fuzzy translation of {message.id!r}"
        texts = message.id if isinstance(message.id, tuple) else (message.id,)  # a plural's every form
        translation = " ".join(translated.string) if isinstance(translated.string, tuple) else translated.string
        for piece in (piece for text in texts for piece in re.split(r"%\(\w+\)s", text)):
            piece = piece.strip(" .:…()")
            if len(piece) >= 5 and piece not in translation:
                pieces.append(piece)
    return tuple(pieces)
