"""Headless Chromium from Debian (/usr/bin/chromium) driven by Playwright; never a downloaded browser."""

from __future__ import annotations

import os
import shutil

import pytest
from playwright.sync_api import expect

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


@pytest.fixture
def phones(browser):
    """A factory of browser contexts, one per device at the table, each with a phone-sized screen."""
    contexts = []

    def phone(width=390, height=844, locale="en-US"):
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        context.set_default_timeout(PATIENCE)
        contexts.append(context)
        return context.new_page()

    yield phone
    for context in contexts:
        context.close()
