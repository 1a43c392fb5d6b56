"""Drives Neo4j Browser in headless Chromium for the browser tests.

Chromium and chromedriver come from Debian packages at fixed paths so that selenium never tries to download
a driver (there is no network in CI). Every wait that runs out, and every failed check, saves a screenshot
and the page source and names their directory in the assertion message.
"""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeVar

import pytest
from selenium import webdriver
from selenium.common.exceptions import (ElementClickInterceptedException, StaleElementReferenceException,
                                        TimeoutException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
]
TIMEOUT_S = 60.0
AUTH_ERRORS = ("Neo.ClientError.Security.Unauthorized", "Neo.ClientError.Security.AuthenticationRateLimit")

T = TypeVar("T")


def offline_flags(closed_port: int) -> list[str]:
    """Chromium with no network but the loopback: every other request goes to a proxy on a loopback port where
    nothing listens, so it fails as on a machine without a network, while Chromium reaches loopback addresses
    directly (it never proxies them)."""
    return [f"--proxy-server=http://127.0.0.1:{closed_port}"]


@contextmanager
def headless_chromium(extra_flags: Sequence[str] = ()) -> Iterator[WebDriver]:
    """A fresh headless Chromium with a throw-away profile, so no stored Browser credentials leak between tests.
    The page's console is kept (`driver.get_log("browser")`), Content-Security-Policy violations included."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        pytest.fail(f"browser tests need {' and '.join(missing)}: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    with tempfile.TemporaryDirectory(prefix="paperkg-chromium-") as profile:
        for flag in (*CHROMIUM_FLAGS, *extra_flags, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        try:
            yield driver
        finally:
            driver.quit()


def wait_on_page(browser: WebDriver, what: str, condition: Callable[[WebDriver], T], timeout_s: float = TIMEOUT_S) -> T:
    """The first truthy value of condition on one of the API's pages; re-renders make elements go stale and a
    message (a toast shown for a few seconds) may lie over a button, so retry on those. On time-out the test fails
    with the page's text, and keeps a screenshot and the page source in the browser's `evidence_dir` when a
    fixture gave it one."""
    passing = (StaleElementReferenceException, ElementClickInterceptedException)
    try:
        return WebDriverWait(browser, timeout_s, ignored_exceptions=passing).until(condition)
    except TimeoutException:
        kept, evidence = "", getattr(browser, "evidence_dir", None)
        if evidence is not None:
            evidence.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(evidence / "screenshot.png"))
            (evidence / "page.html").write_text(browser.page_source)
            kept = f" (screenshot and page source in {evidence})"
        pytest.fail(f"the page did not show {what} within {timeout_s:.0f} s{kept}; page text:\n"
                    f"{browser.find_element(By.TAG_NAME, 'body').text[:3000]}", pytrace=False)


def click_on_page(browser: WebDriver, what: str, css: str, timeout_s: float = TIMEOUT_S) -> None:
    """Click the first element matching css once the page shows one. A list that re-renders between finding the
    element and clicking it makes it stale, and a message may cover it for a while, so both are retried together."""
    def clicked(b: WebDriver) -> bool:
        found = b.find_elements(By.CSS_SELECTOR, css)
        if found:
            found[0].click()
        return bool(found)

    wait_on_page(browser, what, clicked, timeout_s)


def select_on_page(browser: WebDriver, what: str, element_id: str, value: str, timeout_s: float = TIMEOUT_S) -> None:
    """Pick `value` in the select `element_id` once the page offers it: a panel filled in after it opens re-renders
    the select between finding an option and clicking it, so the pick is retried until it holds."""
    def picked(b: WebDriver) -> bool:
        select = Select(b.find_element(By.ID, element_id))
        if value not in {o.get_attribute("value") for o in select.options}:
            return False
        select.select_by_value(value)
        return select.first_selected_option.get_attribute("value") == value

    wait_on_page(browser, what, picked, timeout_s)


class NeoBrowser:
    """The few Neo4j Browser interactions the tests need, found by Browser's own data-testid attributes."""

    def __init__(self, driver: WebDriver, evidence_dir: Path):
        self.driver = driver
        self.evidence_dir = evidence_dir

    # ----------------------------------------------------------------- evidence
    def fail(self, message: str) -> None:
        self.evidence_dir.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(self.evidence_dir / "screenshot.png"))
        (self.evidence_dir / "page.html").write_text(self.driver.page_source)
        pytest.fail(f"{message}\n(screenshot and page source in {self.evidence_dir})", pytrace=False)

    def wait_for(self, what: str, condition: Callable[[WebDriver], T], timeout_s: float = TIMEOUT_S) -> T:
        """The first truthy value of condition; React re-renders make elements go stale, so retry on that."""
        wait = WebDriverWait(self.driver, timeout_s, ignored_exceptions=(StaleElementReferenceException,))
        try:
            return wait.until(condition)
        except TimeoutException:
            self.fail(f"Neo4j Browser did not show {what} within {timeout_s:.0f} s")

    def element(self, testid: str, root: WebElement | None = None) -> WebElement:
        return self.wait_for(f"[data-testid={testid}]",
                             lambda d: (root or d).find_element(By.CSS_SELECTOR, f"[data-testid={testid}]"))

    # ----------------------------------------------------------------- frames
    def frame(self, command: str) -> WebElement | None:
        """The newest result frame for command (Browser puts new frames at the top of the stream)."""
        for frame in self.driver.find_elements(By.CSS_SELECTOR, "[data-testid=stream] [data-testid=frame]"):
            label = frame.find_elements(By.CSS_SELECTOR, "[data-testid=frameCommand]")
            if label and label[0].text.strip() == command:
                return frame
        return None

    @staticmethod
    def status(frame: WebElement) -> str:
        bars = frame.find_elements(By.CSS_SELECTOR, "[data-testid=frameStatusbar]")
        return bars[0].text.strip() if bars else ""

    # ----------------------------------------------------------------- actions
    def open(self, url: str) -> None:
        """Load Browser and let its own first connection attempt (no credentials) end before the form is used."""
        self.driver.get(url)
        self.element("disconnectedBanner")

    def login(self, scheme: str, address: str, user: str, password: str) -> str:
        """Submit the connect form; returns the connect frame's status bar text ("" when connected)."""
        form = self.wait_for("the :server connect frame", lambda _: self.frame(":server connect"))
        Select(self.element("bolt-scheme-select", form)).select_by_value(scheme)
        for testid, value in (("boltaddress", address), ("username", user), ("password", password)):
            field = self.element(testid, form)
            field.send_keys(Keys.CONTROL, "a", Keys.DELETE)  # clear() bypasses React's change handler
            field.send_keys(value)
            if (held := field.get_attribute("value")) != value:
                self.fail(f"the connect form's {testid} field holds {held!r}, not the typed value")
        self.element("connect", form).click()

        def outcome(_):
            frame = self.frame(":server connect")
            if frame is None:
                return None
            if f"You are connected as user {user}" in frame.text:
                return "connected"
            return self.status(frame) or None

        result = self.wait_for("a login outcome (connected, or an error in the connect frame)", outcome)
        return "" if result == "connected" else result

    def run(self, query: str) -> WebElement:
        """Type query into the Monaco editor, run it, and return its frame once it shows a table or an error."""
        editor = self.element("activeEditor")
        editor.find_element(By.CSS_SELECTOR, ".monaco-editor").click()
        editor.find_element(By.CSS_SELECTOR, "textarea").send_keys(query)
        self.element("editor-Run").click()

        def settled(_):
            frame = self.frame(query)
            done = frame is not None and frame.find_elements(
                By.CSS_SELECTOR, "[role=cell], [data-testid=cypherFrameErrorMessage]")
            return frame if done else None

        return self.wait_for(f"a result or an error for {query!r}", settled)

    @staticmethod
    def table(frame: WebElement) -> tuple[list[str], list[list[str]]]:
        """Column names and cell texts of a frame's table view."""
        headers = [th.text.strip() for th in frame.find_elements(By.CSS_SELECTOR, "[role=columnheader]")]
        rows = [[td.text.strip() for td in tr.find_elements(By.CSS_SELECTOR, "[role=cell]")]
                for tr in frame.find_elements(By.CSS_SELECTOR, "tbody [role=row]")]
        return headers, rows

    @staticmethod
    def error(frame: WebElement) -> str:
        messages = frame.find_elements(By.CSS_SELECTOR, "[data-testid=cypherFrameErrorMessage]")
        return messages[0].text.strip() if messages else ""
