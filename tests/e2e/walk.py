"""A walk of a game's state space: a seeded random player plays a whole game through the JSON API, and after every
action the table's screens are measured in Chromium.

The player picks among what the pages offer in that state (each seat's phone page, the host's page and the
display): a form the page shows is an action legal there, filled in at random (a radio, a select, a number within
its bounds, one of its buttons). Now and then the host undoes the last action. After every action:

- the display at 1920x1080 and 1280x720 fits the screen (no scroll either way) with no text under 24 px at 1080p;
- no two visible pieces of text on the display lie over each other;
- every player's name on the display is shown in full (not cut short, not clipped by its box), or where a game
  shortens it on purpose (.short-name), in full elsewhere on the same screen (the corner's list);
- every seat that the game waits on finds the control for it on its phone (360x740) in the first screen, with
  nothing (a sticky bar, a banner) over its centre;
- axe-core finds no WCAG 2.x A/AA or best-practice violation on any seat's phone, the host page (on a phone) or the
  display, looked at whenever one shows an element in a place (its ancestors' tags, classes and roles; in its
  language) that axe has not seen before (tests/e2e/accessibility.py), every other seed's devices in dark colours;
- every control on a seat's phone and the host page is a thumb's tap (44x44 px).

What breaks is collected as findings, one list per check; the walk goes on to the end of the game.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from urllib.request import Request, urlopen

from werkzeug.datastructures import MultiDict

from companion.forms import action_from_form, parse_options
from companion.games import load
from companion.games.base import RuleError
from companion.rng import Rng
from companion.tables import TableError
from tests.e2e.accessibility import axe_violations, element_paths, small_targets
from tests.e2e.conftest import PATIENCE
from tests.e2e.phone import SMALL_PHONE
from tests.html_tags import FORM_TAGS, TagReader
from tests.http import call

TV_SCREENS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
SMALLEST_TEXT = 24  # px at 1080p: legible from two metres
CHECKS = ("fits", "overlap", "names", "phone", "axe", "targets", "whole")
# What changes on a page whose layout does not: the sequence number and the CSRF token (masked afresh each time).
SEQ = re.compile(r'data-seq="\d+"|(data-csrf="|X-CSRF-Token": ")[^"]+')

# Whether the live part the pushes put together (a whole frame, then diffs: companion/web/frame_regions.py) is the
# one a fresh load of the page shows, given that page's HTML: what the page's own state adds (the frame's name, the
# sections open, htmx's and app.js' marks of a form being sent or typed in) aside.
SAME_AS_LOADED = """(html) => {
  const marks = ["data-frame", "hx-swap-oob", "open", "data-dirty", "data-sending", "data-action-key"];
  const bare = (live) => {
    const copy = live.cloneNode(true);
    for (const node of [copy, ...copy.querySelectorAll("*")]) {
      marks.forEach((mark) => node.removeAttribute(mark));
      node.classList.remove("htmx-request", "htmx-added", "htmx-settling", "htmx-swapping");
      if (node.hasAttribute("class") && !node.classList.length) { node.removeAttribute("class"); }
    }
    return copy.outerHTML;
  };
  const loaded = document.createElement("template");
  loaded.innerHTML = html;
  return bare(document.getElementById("live")) === bare(loaded.content.getElementById("live"));
}"""
# How long a page may take to show what a fresh load shows (a phone's coming changes the display's corner).
WHOLE_PATIENCE = 5.0

# The page shows the table after this many actions (Playwright's page and tests/e2e/engines.py's both wait for it).
AT_SEQ = "(seq) => document.querySelector('#live')?.dataset.seq === String(seq)"

# The longest names a seat takes (40 characters, the claim's cap), with Czech diacritics and Dutch IJs.
NAMES = (
    "Šárka Přemyslovna Novotná-Dvořáčková Žďá",
    "Bartholomeus Wilhelmus van Oostenwijk-IJ",
    "Jiří Dvořák-Žďárský z Vlčí Hory a Řečice",
    "Marijke Geertruida van de Steege-Wijnand",
    "Kateřina Škvorecká-Šťastná z Žluťoučkých",
    "IJsbrand Maximiliaan Wouters-Vermeulen W",
)
assert {len(name) for name in NAMES} == {40}
LANGUAGES = ("en", "cs", "nl")
SCHEMES = ("light", "dark")

# What overflows the screen and which visible text is smaller than SMALLEST_TEXT (at 1080p), measured in the page.
MEASURE = """(smallest) => {
  const root = document.documentElement;
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const element = node.parentElement;
    if (!node.textContent.trim() || !element.getClientRects().length) { continue; }
    const style = getComputedStyle(element);
    if (style.visibility === "hidden" || element.closest("[hidden], details:not([open]) > :not(summary)")) { continue; }
    if (parseFloat(style.fontSize) < smallest) {
      small.push(node.textContent.trim().slice(0, 40) + " " + style.fontSize);
    }
  }
  return {height: root.scrollHeight, width: root.scrollWidth, small: small.slice(0, 8)};
}"""

# The visible text of the page, one box per line of each text node (an element clipped to a pixel, as screen
# readers' text is, does not count): shared by the checks below.
TEXT_BOXES = """function textBoxes() {
  const boxes = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const element = node.parentElement;
    if (!node.textContent.trim() || !element.getClientRects().length) { continue; }
    const style = getComputedStyle(element);
    if (style.visibility === "hidden" || style.opacity === "0"
        || element.closest("[hidden], details:not([open]) > :not(summary), option, script, style")) { continue; }
    const clip = clipOf(element);
    range.selectNodeContents(node);
    for (const line of range.getClientRects()) {
      const rect = {left: Math.max(line.left, clip.left), right: Math.min(line.right, clip.right),
                    top: Math.max(line.top, clip.top), bottom: Math.min(line.bottom, clip.bottom)};
      rect.width = rect.right - rect.left;
      rect.height = rect.bottom - rect.top;
      if (rect.width > 1 && rect.height > 1) { boxes.push({node, element, rect}); }
    }
  }
  return boxes;
}
// What of the page an element's text can show: the boxes of its ancestors that hide their overflow.
const clips = new Map();
function clipOf(element) {
  if (!element || element === document.documentElement) {
    return {left: -Infinity, right: Infinity, top: -Infinity, bottom: Infinity};
  }
  if (!clips.has(element)) {
    const outer = clipOf(element.parentElement);
    const clip = {...outer};
    if (getComputedStyle(element).overflowX !== "visible") {
      const box = element.getBoundingClientRect();
      clip.left = Math.max(clip.left, box.left); clip.right = Math.min(clip.right, box.right);
      clip.top = Math.max(clip.top, box.top); clip.bottom = Math.min(clip.bottom, box.bottom);
    }
    clips.set(element, clip);
  }
  return clips.get(element);
}"""

# Pairs of text boxes of different text that cover each other (more than a sliver: lines set tight may touch).
OVERLAPS = (
    "() => {"
    + TEXT_BOXES
    + """
  const boxes = textBoxes();
  const found = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.node === b.node) { continue; }
      const wide = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
      const tall = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
      if (wide > 2 && tall > 0.3 * Math.min(a.rect.height, b.rect.height)) {
        found.push(`"${a.node.textContent.trim().slice(0, 30)}" over "${b.node.textContent.trim().slice(0, 30)}"`);
      }
    }
  }
  return found;
}"""
)

# Names cut short (the text holds the name's start but not all of it) or clipped by a box that hides its overflow;
# except a name shortened on purpose (in a .short-name) while the same screen shows it in full somewhere else.
CLIPPED_NAMES = (
    "(names) => {"
    + TEXT_BOXES
    + """
  const cut = [];
  const inFull = new Set();
  const seen = new Set();
  for (const {node, element} of textBoxes()) {
    if (seen.has(node)) { continue; }
    seen.add(node);
    const text = node.textContent.replace(/\\s+/g, " ");
    const onPurpose = element.closest(".short-name") !== null;
    for (const name of names) {
      if (!text.includes(name.slice(0, 6))) { continue; }
      if (!text.includes(name)) {
        cut.push({name, onPurpose, what: `cut short: "${text.trim().slice(0, 40)}"`});
        continue;
      }
      let clipped = null;
      for (let box = element; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box);
        const clips = style.overflowX !== "visible" || style.textOverflow === "ellipsis";
        if (clips && box.scrollWidth > box.clientWidth + 1) {
          const where = `${box.tagName.toLowerCase()}.${box.className}`;
          clipped = `clipped: "${name}" in ${where} ${box.scrollWidth}>${box.clientWidth}`;
          break;
        }
      }
      if (clipped) { cut.push({name, onPurpose, what: clipped}); } else { inFull.add(name); }
    }
  }
  return cut.filter(({name, onPurpose}) => !(onPurpose && inFull.has(name))).map(({what}) => what);
}"""
)

# For each action the seat is waited on for: the controls of its form (the first form, or every form) that are not
# in the first screen or are covered at their centre. A control folded in a closed <details> is its summary.
PHONE_CONTROLS = """(wanted) => {
  window.scrollTo(0, 0);
  const found = [];
  const shown = (element) => element.getClientRects().length && getComputedStyle(element).visibility !== "hidden";
  const controlOf = (element) => {
    const folded = element.closest("details:not([open])");
    if (folded && !element.closest("summary")) { return folded.querySelector("summary"); }
    if (element.matches("input[type=radio], input[type=checkbox]")) { return element.closest("label") || element; }
    return element;
  };
  for (const [action, every] of wanted) {
    let forms = [...document.querySelectorAll(`form[data-action="${action}"]`)];
    forms = forms.filter((form) => shown(controlOf(form)));
    if (!every) { forms = forms.slice(0, 1); }
    for (const form of forms) {
      const inputs = form.querySelectorAll("button:not([type=button]), select, input:not([type=hidden]), textarea");
      const controls = new Set([...inputs].map(controlOf).filter((control) => control && shown(control)));
      for (const control of controls) {
        const box = control.getBoundingClientRect();
        const label = `${action}: "${(control.textContent || control.name || "").trim().slice(0, 24)}"`;
        if (box.bottom > window.innerHeight) {
          found.push(`${label} ends at ${Math.round(box.bottom)} px`);
        } else if (!control.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2))) {
          const over = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          found.push(`${label} under ${over ? over.tagName.toLowerCase() + "." + over.className : "nothing"}`);
        }
      }
    }
  }
  return found;
}"""


class Forms(TagReader):
    """The action forms of a page and what each lets a player fill in: enough to fill one in at random."""

    attributes_of = FORM_TAGS

    def __init__(self, text: str):
        super().__init__()
        self.forms: list[dict] = []
        self._form = self._select = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: dict[str, str | None]) -> None:
        if tag == "form" and "data-action" in attrs:
            self._form = {"hidden": {}, "choices": {}, "numbers": {}, "texts": [], "ticks": [], "buttons": []}
            self.forms.append(self._form)
            return
        form, name = self._form, attrs.get("name")
        if form is None:
            return
        kind = attrs.get("type", "text")
        if tag == "input" and name and kind == "hidden":
            form["hidden"].setdefault(name, attrs.get("value", ""))
        elif tag == "input" and name and kind == "radio":
            form["choices"].setdefault(name, []).append(attrs.get("value", ""))
        elif tag == "input" and name and kind == "checkbox":
            form["ticks"].append((name, attrs.get("value", "on")))
        elif tag == "input" and name and kind == "number":
            form["numbers"][name] = (int(attrs.get("min") or 0), int(attrs.get("max") or 9))
        elif tag in ("input", "textarea") and name:
            form["texts"].append(name)
        elif tag == "select" and name:
            self._select = form["choices"].setdefault(name, [])
        elif tag == "option" and self._select is not None and attrs.get("value", "x") != "":
            self._select.append(attrs.get("value"))
        elif tag == "button" and attrs.get("type", "submit") == "submit":
            form["buttons"].append((name, attrs.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._form = None


def fill_in(form: dict, rng: random.Random) -> MultiDict:
    """What a player might send with this form: every choice made at random, one of its buttons pressed."""
    data = MultiDict(form["hidden"])
    for name, values in form["choices"].items():
        if values:
            data[name] = rng.choice(values)
    for name, (low, high) in form["numbers"].items():
        data[name] = str(rng.randint(low, min(high, low + 6)))
    for name in form["texts"]:
        data[name] = rng.choice(["", "Krysí hlídka u brány"])
    for name, value in form["ticks"]:
        if rng.random() < 0.5:
            data.add(name, value)
    if form["buttons"]:
        name, value = rng.choice(form["buttons"])
        if name:
            data[name] = value
    return data


@dataclass(frozen=True)
class Plan:
    """How the walk plays one game: which actions the game waits on (checked on the phones; True: every form of
    it, else the first), which the player favours, and which end the game (favoured once `budget` is spent)."""

    game: str
    waits_on: dict[str, bool]
    weights: dict[str, float] = field(default_factory=dict)
    endings: frozenset[str] = frozenset()
    budget: int = 400


@dataclass
class Findings:
    """What each check found, the state it was found in; and what the walk went through."""

    checks: dict[str, list[str]] = field(default_factory=lambda: {check: [] for check in CHECKS})
    heights: list[tuple[int, str]] = field(default_factory=list)
    actions: int = 0
    undos: int = 0
    ends: list[str] = field(default_factory=list)
    seconds: float = 0.0
    axed: set[str] = field(default_factory=set)  # the pages axe looked at: each seat's, "host" and "display"

    def add(self, check: str, state: str, found) -> None:
        for detail in found:
            self.checks[check].append(f"{state} | {detail}")

    def summary(self, check: str) -> str:
        found = self.checks[check]
        distinct = sorted({line.split(" | ", 1)[1] for line in found})
        return f"{len(found)} times, {len(distinct)} distinct, e.g.:\n  " + "\n  ".join(distinct[:12])


def options_for(game_id: str, seed: int) -> dict:
    """The most players the game allows (Scotland Yard's detectives: the most, two or one), every variant and house
    rule as the seed falls (as long as they go together: a house rule the box cannot play with that many players is
    drawn again)."""
    game = load([])[game_id]
    rng = random.Random(seed)
    for _draw in range(50):
        options = {}
        for option in game.options:
            if option.name == "detectives":
                # Fewer detective players move more figures each (two: a detective and both bobbies; one: two
                # detectives and two bobbies): the most, two and one in turn, three seeds each so that every
                # count meets every language.
                options[option.name] = (option.max, 2, option.min)[seed // len(LANGUAGES) % 3]
            elif option.name == "players":
                options[option.name] = option.max
            elif option.kind == "choice":
                options[option.name] = rng.choice(sorted(option.choices))
            elif option.kind == "bool":
                options[option.name] = rng.random() < 0.5
        options = parse_options(game, options, from_form=False)
        try:
            game.setup(options, Rng("walk", 0))
        except RuleError:
            continue
        return options
    raise AssertionError(f"no options of {game_id} that go together")


class Walk:
    """One seeded game: a table with every seat taken, its display in Chromium (unless told not to measure it), a
    phone per seat when needed, in the browser given (Chromium's, or Firefox's or WebKit's of tests/e2e/engines.py).
    Without the display, only the phones' first screens are checked: axe and the targets too are Chromium's."""

    def __init__(self, base: str, browser, plan: Plan, seed: int, options: dict | None = None, display: bool = True):
        self.base, self.plan, self.seed = base, plan, seed
        self.rng = random.Random(seed)
        self.game = load([])[plan.game]
        self.options = options or options_for(plan.game, seed)
        self.lang = LANGUAGES[seed % len(LANGUAGES)]
        # Every other seed's devices are set to dark colours: axe checks the dark scheme through whole games.
        self.scheme = SCHEMES[seed % len(SCHEMES)]
        seats = [spec.id for spec in self.game.seats(self.options)]
        shift = seed % len(NAMES)
        self.names = {seat: (NAMES[shift:] + NAMES[:shift])[n % len(NAMES)] for n, seat in enumerate(seats)}
        status, created = call(base, "POST", "/api/tables", {"game": plan.game, "options": self.options})
        assert status == 201, created
        self.code, self.tokens = created["code"], {"host": created["host_token"]}
        for seat, name in self.names.items():
            status, claimed = call(base, "POST", f"/api/tables/{self.code}/seats", {"seat": seat, "name": name})
            assert status == 201, claimed
            self.tokens[seat] = claimed["token"]
        self.browser = browser
        self.contexts = []
        self.display = self._page("host", TV_SCREENS[0], "display") if display else None
        self.phones: dict[str, object] = {}
        self.host_page = None
        self.measured: dict[str, str] = {}
        self.axed_paths: set[str] = set()
        self.seq = 0
        self.findings = Findings()

    def _page(self, who: str, viewport: dict, path: str):
        context = self.browser.new_context(viewport=viewport, color_scheme=self.scheme)
        context.set_default_timeout(PATIENCE)
        cookie = f"host_{self.code}" if who == "host" else f"seat_{self.code}"
        context.add_cookies(
            [
                {"name": cookie, "value": self.tokens[who], "url": self.base},
                {"name": "lang", "value": self.lang, "url": self.base},
            ]
        )
        self.contexts.append(context)
        page = context.new_page()
        page.goto(f"{self.base}/t/{self.code}/{path}")
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    # -- what each device may do now ------------------------------------------------------------------------

    def _html(self, who: str, path: str) -> str:
        cookie = f"host_{self.code}" if who == "host" else f"seat_{self.code}"
        request = Request(f"{self.base}/t/{self.code}/{path}")
        request.add_header("Cookie", f"{cookie}={self.tokens[who]}; lang={self.lang}")
        with urlopen(request, timeout=10) as answer:
            return answer.read().decode()

    def offers(self) -> dict[str, list[dict]]:
        """Each device's action forms now: every seat's phone, and the host's (its page and the display)."""
        self.pages = {seat: self._html(seat, "seat") for seat in self.names}
        self.pages["display"] = self._html("host", "display")
        self.pages["host"] = self._html("host", "host")
        offered = {seat: Forms(self.pages[seat]).forms for seat in self.names}
        offered["host"] = Forms(self.pages["host"]).forms + Forms(self.pages["display"]).forms
        return offered

    def changed(self, who: str) -> bool:
        """Whether the page of `who` reads differently from when it was last measured (the sequence number
        aside): a page that reads the same lays out the same, and is not measured again."""
        page = SEQ.sub("", self.pages[who])
        if self.measured.get(who) == page:
            return False
        self.measured[who] = page
        return True

    def _weight(self, kind: str) -> float:
        weight = self.plan.weights.get(kind, 1.0)
        if kind in self.plan.endings:  # rare until the budget is spent, then what the player does
            weight = 50.0 if self.findings.actions > self.plan.budget else 0.02
        return weight

    def step(self, offered: dict[str, list[dict]]) -> bool:
        """One action of a random player (a seat's form, else the host's); False when nothing was taken."""
        choices = [(who, form) for who, forms in offered.items() if who != "host" for form in forms]
        if not choices or self.rng.random() < 0.1:
            choices += [("host", form) for form in offered["host"]]
        for _attempt in range(12):
            if not choices:
                return False
            weights = [self._weight(form["hidden"]["type"]) for _who, form in choices]
            who, form = self.rng.choices(choices, weights)[0]
            try:
                action = action_from_form(self.game, fill_in(form, self.rng), (self.game,))
            except TableError:  # a filling the page would not let through (a required field left out)
                continue
            token = self.tokens["host" if form["hidden"].get("as") == "host" else who]
            status, body = call(self.base, "POST", f"/api/tables/{self.code}/actions", action, token)
            if status == 200:
                self.seq = body["seq"]
                self.findings.actions += 1
                self.last = f"{who} {action}"
                return True
            if form["choices"] or form["numbers"] or len(form["buttons"]) > 1:
                continue  # another filling of the same form may be legal
            choices.remove((who, form))
        return False

    def undo(self) -> bool:
        status, body = call(self.base, "POST", f"/api/tables/{self.code}/undo", {}, self.tokens["host"])
        if status == 200:
            self.seq = body["seq"]
            self.findings.undos += 1
            self.last = "the host's undo"
        return status == 200

    # -- the checks ------------------------------------------------------------------------------------------

    def state(self) -> str:
        return f"{self.plan.game} seed {self.seed} {self.lang} #{self.seq} after {self.last}"

    def check(self, offered: dict[str, list[dict]]) -> None:
        """Measure the display at both screens and the phones of the seats the game waits on (and each seat's
        once, for axe), and the host page."""
        state = self.state()
        for seat, forms in offered.items():
            waited_on = {form["hidden"]["type"] for form in forms} & set(self.plan.waits_on)
            unseen = self.display is not None and seat not in self.findings.axed
            if seat != "host" and (waited_on or unseen) and self.changed(seat):
                self.check_phone(seat, forms, state)
        if self.display is None:
            return
        if self.changed("host"):
            self.check_host(state)
        if not self.changed("display"):
            return
        self.display.wait_for_function(AT_SEQ, arg=self.seq)
        names = list(self.names.values())
        for screen in TV_SCREENS:
            self.display.set_viewport_size(screen)
            size = f"{screen['width']}x{screen['height']}"
            measured = self.display.evaluate(MEASURE, SMALLEST_TEXT)
            if measured["height"] > screen["height"]:
                self.findings.add("fits", state, [f"{size} {measured['height']} px tall"])
                self.findings.heights.append((measured["height"], f"{size} {state}"))
            if measured["width"] > screen["width"]:
                self.findings.add("fits", state, [f"{size} {measured['width']} px wide"])
            if screen is TV_SCREENS[0]:
                self.findings.add("fits", state, [f"text under {SMALLEST_TEXT} px: {t}" for t in measured["small"]])
            self.findings.add("overlap", state, [f"{size} {o}" for o in self.display.evaluate(OVERLAPS)])
            self.findings.add("names", state, [f"{size} {c}" for c in self.display.evaluate(CLIPPED_NAMES, names)])
        self.display.set_viewport_size(TV_SCREENS[0])
        self.check_axe(self.display, "display", f"{state} on the display")
        self.check_whole(self.display, "host", "display", f"{state} on the display")

    def check_phone(self, seat: str, forms: list[dict], state: str) -> None:
        """The controls of what the game waits on this seat for, in the first screen of its phone, uncovered."""
        wanted = sorted({form["hidden"]["type"] for form in forms} & set(self.plan.waits_on))
        if seat not in self.phones:
            self.phones[seat] = self._page(seat, SMALL_PHONE, "seat")
        phone = self.phones[seat]
        phone.wait_for_function(AT_SEQ, arg=self.seq)
        wanted_list = [[kind, self.plan.waits_on[kind]] for kind in wanted]
        self.findings.add("phone", f"{state} on {seat}'s phone", phone.evaluate(PHONE_CONTROLS, wanted_list))
        self.check_whole(phone, seat, "seat", f"{state} on {seat}'s phone")
        if self.display is not None:
            self.findings.add("targets", f"{state} on {seat}'s phone", small_targets(phone))
            self.check_axe(phone, seat, f"{state} on {seat}'s phone")

    def check_host(self, state: str) -> None:
        """The host page, on the host's phone: axe, and its controls a thumb's tap."""
        if self.host_page is None:
            self.host_page = self._page("host", SMALL_PHONE, "host")
        self.host_page.wait_for_function(AT_SEQ, arg=self.seq)
        self.findings.add("targets", f"{state} on the host page", small_targets(self.host_page))
        self.check_axe(self.host_page, "host", f"{state} on the host page")
        self.check_whole(self.host_page, "host", "host", f"{state} on the host page")

    def check_whole(self, page, who: str, path: str, state: str) -> None:
        """The live part as the pushes left it is the one a fresh load of the page shows."""
        deadline = time.monotonic() + WHOLE_PATIENCE
        while not page.evaluate(SAME_AS_LOADED, self._html(who, path)):
            if time.monotonic() > deadline:
                self.findings.add("whole", state, ["the live part differs from a fresh load's"])
                return
            time.sleep(0.2)

    def check_axe(self, page, who: str, state: str) -> None:
        """axe on the page when it shows an element in a place axe has not seen before (see element_paths): either
        way, every element the page shows now has been through axe, which `axed` notes of the page."""
        paths = element_paths(page)
        if not paths <= self.axed_paths:
            self.axed_paths |= paths
            self.findings.add("axe", state, axe_violations(page))
        self.findings.axed.add(who)

    # -- the walk --------------------------------------------------------------------------------------------

    def play(self, limit: int = 1500, undo_chance: float = 0.02) -> Findings:
        """Play to the end (or `limit` actions), checking after every action."""
        started = time.monotonic()
        self.last = "the table opened"
        offered = self.offers()
        self.check(offered)
        while self.findings.actions + self.findings.undos < limit:
            outcome = call(self.base, "GET", f"/api/tables/{self.code}/view", token=self.tokens["host"])[1]["outcome"]
            if outcome is not None:
                self.findings.ends.append(str(outcome.get("summary", {}).get("msg")))
                if len(self.findings.ends) > 1 or self.rng.random() < 0.6 or not self.undo():
                    break
            elif self.rng.random() < undo_chance and self.seq > 1:
                self.undo()
            elif not self.step(offered):
                break
            offered = self.offers()
            self.check(offered)
        self.findings.seconds = time.monotonic() - started
        return self.findings
