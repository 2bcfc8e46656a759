"""What axe-core (vendored in tests/e2e/axe/, MPL-2.0) finds on a page, and the phone targets too small for a thumb:
shared by the walk (tests/e2e/walk.py) and tests/e2e/test_accessibility.py."""

from __future__ import annotations

from pathlib import Path

AXE_SOURCE = (Path(__file__).parent / "axe" / "axe.min.js").read_text()
# WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
PHONE = {"width": 390, "height": 844}
SMALLEST_TARGET = 44  # px each way: a thumb's tap

# axe's violations, one line each: the rule, how bad, the elements it names and what it says of the first.
RUN_AXE = """async (tags) => {
  const results = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return results.violations.map((rule) => {
    const targets = rule.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(", ");
    const why = (rule.nodes[0].failureSummary || "").replace(/\\s+/g, " ").slice(0, 200);
    return `${rule.id} (${rule.impact}) on ${targets}: ${why}`;
  });
}"""

# What a page is made of: the paths from the root to each shown element, an element named by its tag, classes and
# role, each path once (a grid of stations or a list of lines is one path), without text; each starts with the page's
# language. An element whose path axe has seen (in another state, or on another page) has its colours, name and role.
# What a closed <details> folds away is not shown, so axe did not see it: only its summary counts.
PATHS = """() => {
  const paths = new Set();
  const walk = (element, path) => {
    if (element.hidden) { return; }
    const here = `${path}/${element.tagName}.${element.className}|${element.getAttribute("role") || ""}`;
    paths.add(here);
    const folded = element.tagName === "DETAILS" && !element.open;
    for (const child of element.children) {
      if (!folded || child.tagName === "SUMMARY") { walk(child, here); }
    }
  };
  walk(document.documentElement, document.documentElement.lang);
  return [...paths];
}"""

# Every control a thumb taps whose hit area (its box, or the label around it) is under `smallest` px either way.
SMALL_TARGETS = """(smallest) => {
  const found = [];
  const controls = document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary");
  for (const control of controls) {
    // What a closed <details> folds away is not laid out: its summary is the target until it is opened.
    if (!control.checkVisibility({visibilityProperty: true})) { continue; }
    const hit = control.closest("label") || control;
    const box = hit.getBoundingClientRect();
    if (box.width <= 1 && box.height <= 1) { continue; }  // visually hidden: its label is the target
    if (box.width < smallest || box.height < smallest) {
      const name = (hit.textContent || control.name || control.type || "").replace(/\\s+/g, " ").trim().slice(0, 30);
      found.push(`${control.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return found;
}"""


def axe_violations(page) -> list[str]:
    """axe-core's violations of WCAG 2.x A/AA and its best practices on the page as it is now."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE_SOURCE)  # evaluated, not a <script>: the pages' CSP lets no inline script run
    return page.evaluate(RUN_AXE, AXE_TAGS)


def element_paths(page) -> set[str]:
    return set(page.evaluate(PATHS))


def small_targets(page) -> list[str]:
    """The controls of a phone page smaller than a thumb's tap."""
    return page.evaluate(SMALL_TARGETS, SMALLEST_TARGET)
