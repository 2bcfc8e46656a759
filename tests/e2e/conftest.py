"""Headless Chromium from Debian (/usr/bin/chromium) driven by Playwright; Firefox ESR and WebKitGTK from Debian
driven by Selenium (tests/e2e/engines.py); never a downloaded browser."""

from __future__ import annotations

import os
import shutil

import pytest
from playwright.sync_api import expect

from tests.e2e import engines

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
# Milliseconds a page's action or an expectation may take: on a box loaded by other work a pushed frame can take
# seconds to arrive, and Playwright's own defaults (5 s for an expectation) failed there. No test's point is a deadline
# this long: one that checks speed says so with its own timeout.
PATIENCE = 30_000
expect.set_options(timeout=PATIENCE)


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


def devices(browser, timeout: int = PATIENCE, **defaults):
    """A factory of browser contexts, one per device at the table (its own cookies), a phone-sized screen unless
    told otherwise; every context is closed when the test is done."""
    contexts = []

    def device(width=390, height=844, **options):
        context = browser.new_context(viewport={"width": width, "height": height}, **{**defaults, **options})
        context.set_default_timeout(timeout)
        contexts.append(context)
        return context.new_page()

    yield device
    for context in contexts:
        context.close()


@pytest.fixture
def phones(browser):
    yield from devices(browser, locale="en-US")


@pytest.fixture(scope="session")
def firefox(tmp_path_factory):
    yield from engines.firefox(tmp_path_factory.mktemp("firefox-profile"))


@pytest.fixture(scope="session")
def webkit(tmp_path_factory):
    yield from engines.webkit(tmp_path_factory.mktemp("webkit-config"))


@pytest.fixture(params=["chromium", "firefox", "webkit"])
def engine(request):
    """Each of the three engines in turn, as a browser that opens contexts (one per device) the same way."""
    return request.getfixturevalue("browser" if request.param == "chromium" else request.param)
