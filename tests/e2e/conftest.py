"""Headless Chromium from Debian (/usr/bin/chromium) driven by Playwright; Firefox ESR and WebKitGTK from Debian
driven by Selenium (tests/e2e/engines.py); never a downloaded browser."""

from __future__ import annotations

import os
import shutil

import pytest

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


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phones(browser):
    """A factory of browser contexts, one per device at the table, each with a phone-sized screen."""
    contexts = []

    def phone(width=390, height=844, locale="en-US"):
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield phone
    for context in contexts:
        context.close()


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
