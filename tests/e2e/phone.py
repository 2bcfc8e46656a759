"""What a player sees on a small phone without scrolling, and how many taps a thing takes there."""

from playwright.sync_api import expect

SMALL_PHONE = {"width": 360, "height": 740}

# Where the element ends and what a tap at its centre would reach instead of it (a bar held at the bottom, say; ""
# when it reaches it), read at one moment; null while the element is out of the layout (a push swapping it).
PLACED = """element => {
  const box = element.getBoundingClientRect();
  if (!element.isConnected || (box.width === 0 && box.height === 0)) { return null; }
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  const where = `(${box.x}, ${box.y}, ${box.width} x ${box.height}; window ${innerWidth} x ${innerHeight})`;
  const other = hit ? hit.outerHTML.slice(0, 300) : "nothing: outside the window";
  return {bottom: box.bottom, covered: element.contains(hit) ? "" : `${other} ${where}`};
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
    for _moment in range(50):  # a push may swap the target out as it is measured: the locator finds the new one
        if (placed := target.evaluate(PLACED)) is not None:
            break
        page.wait_for_timeout(100)
    assert placed is not None, f"{target} stayed out of the layout"
    bottom = placed["bottom"]
    assert bottom <= page.viewport_size["height"], f"{target} ends at {bottom:.0f} px, below the first screen"
    assert not placed["covered"], f"{target} is covered by {placed['covered']}"


def count_taps(page) -> None:
    """Start counting the player's taps on this page (a tap on a label is one tap, not two clicks)."""
    page.evaluate(COUNT_TAPS)


def taps(page) -> int:
    return page.evaluate("window.taps")
