"""What a player sees on a small phone without scrolling, and how many taps a thing takes there."""

from playwright.sync_api import expect

SMALL_PHONE = {"width": 360, "height": 740}

# What a tap at the element's centre would reach instead of it (a bar held at the bottom, say); "" when it reaches it.
COVERED_BY = """element => {
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  if (element.contains(hit)) { return ""; }
  const where = `(${box.x}, ${box.y}, ${box.width} x ${box.height}; window ${innerWidth} x ${innerHeight})`;
  return `${hit ? hit.outerHTML.slice(0, 300) : "nothing: outside the window"} ${where}`;
}"""


# Counting starts again from 0; the page has one listener however often it starts.
COUNT_TAPS = """() => {
  if (window.taps === undefined) { document.addEventListener("pointerdown", () => { window.taps += 1; }, true); }
  window.taps = 0;
}"""


def in_first_screen(page, target) -> None:
    """The target is visible, uncovered and ends inside the first screen of the page, scrolled to the top."""
    page.evaluate("window.scrollTo(0, 0)")
    expect(target).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    box = target.bounding_box()
    bottom = box["y"] + box["height"]
    assert bottom <= page.viewport_size["height"], f"{target} ends at {bottom:.0f} px, below the first screen"
    covered_by = target.evaluate(COVERED_BY)
    assert not covered_by, f"{target} is covered by {covered_by}"


def count_taps(page) -> None:
    """Start counting the player's taps on this page (a tap on a label is one tap, not two clicks)."""
    page.evaluate(COUNT_TAPS)


def taps(page) -> int:
    return page.evaluate("window.taps")
