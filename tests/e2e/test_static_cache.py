"""The service worker keeps only static files whose URL names their content, so it cannot serve a stale one."""

from urllib.parse import urlsplit

from playwright.sync_api import expect

KEPT = """async () => {
  const cache = await caches.open("companion-static-v2");
  return (await cache.keys()).map(request => request.url);
}"""
LINKED = """selector => Array.from(document.querySelectorAll(selector), element => element.src || element.href)"""


def test_the_service_worker_keeps_exactly_the_versioned_files_the_page_uses(server, phones):
    page = phones()
    page.goto(server.url + "/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()  # now every static file goes through the worker
    expect(page.locator("main")).to_be_visible()
    needed = page.evaluate(LINKED, "script[src], link[rel=stylesheet]")
    linked = page.evaluate(LINKED, "[src*='/static/'], [href*='/static/']")
    assert needed and all("?v=" in url for url in linked)
    page.wait_for_function(f"({KEPT})().then(urls => {needed!r}.every(url => urls.includes(url)))")
    kept = page.evaluate(KEPT)
    assert set(kept) <= set(linked)  # only versioned URLs, and only the current versions
    assert len({urlsplit(url).path for url in kept}) == len(kept)  # one version per file
