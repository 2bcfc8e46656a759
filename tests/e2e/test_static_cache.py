"""The service worker keeps only static files whose URL names their content, so it cannot serve a stale one."""

from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.e2e.service_worker import controlled

# Functions, not expressions: the page's CSP forbids the eval that Playwright's polling of an expression needs.
KEPT_ONCE_THERE = """async needed => {
  for (let tries = 0; tries < 100; tries++) {
    const kept = (await (await caches.open("companion-static-v2")).keys()).map(request => request.url);
    if (needed.every(url => kept.includes(url))) { return kept; }
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  return null;
}"""
LINKED = """selector => Array.from(document.querySelectorAll(selector), element => element.src || element.href)"""


def test_the_service_worker_keeps_exactly_the_versioned_files_the_page_uses(server, phones):
    page = phones()
    page.goto(server.url + "/")
    controlled(page)
    page.reload()  # now every static file goes through the worker
    expect(page.locator("main")).to_be_visible()
    needed = page.evaluate(LINKED, "script[src], link[rel=stylesheet]")
    linked = page.evaluate(LINKED, "[src*='/static/'], [href*='/static/']")
    assert needed and all("?v=" in url for url in linked)
    kept = page.evaluate(KEPT_ONCE_THERE, needed)
    assert kept is not None, "the worker did not keep the page's scripts and styles"
    assert set(kept) <= set(linked)  # only versioned URLs, and only the current versions
    assert len({urlsplit(url).path for url in kept}) == len(kept)  # one version per file
