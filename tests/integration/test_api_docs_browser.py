"""/docs (Swagger UI) and /redoc (ReDoc) in headless Chromium with the network cut off (every request but the
loopback's goes to a proxy where nothing listens): both render the API's operations from files the API serves,
under the pages' Content-Security-Policy, and /docs authorises with an API key and calls an operation with it."""

from __future__ import annotations

from typing import Iterator

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser_support import headless_chromium, offline_flags, wait_on_page
from tests.curation_support import KEYS, curated_settings
from tests.live_api import served
from tests.neo4j_harness import free_port

pytestmark = pytest.mark.browser


@pytest.fixture
def api_url(neo4j_settings, tmp_path) -> Iterator[str]:
    with served(curated_settings(neo4j_settings, data_dir=tmp_path / "data")) as url:
        yield url


@pytest.fixture
def offline_browser(tmp_path) -> Iterator[WebDriver]:
    with headless_chromium(offline_flags(free_port())) as browser:
        browser.evidence_dir = tmp_path / "browser"
        yield browser


def blocked(browser: WebDriver, origin: str) -> list[str]:
    """What the page's policy blocked, except images from other hosts (ReDoc's logo, asked of its maker's CDN):
    keeping those out is what the policy is for. Anything else blocked is a part of the page that did not run."""
    return [entry["message"] for entry in browser.get_log("browser")
            if "Content Security Policy" in entry["message"]
            and not ("Loading the image 'http" in entry["message"] and f"image '{origin}" not in entry["message"])]


def body_text(browser: WebDriver) -> str:
    return browser.find_element(By.TAG_NAME, "body").text


def test_the_network_is_cut_off(offline_browser, api_url):
    """The condition of the tests below: an outside address fails to load, the API's loads."""
    with pytest.raises(WebDriverException, match="ERR_PROXY_CONNECTION_FAILED"):
        offline_browser.get("http://example.com/")
    offline_browser.get(api_url + "/health")
    assert '"status"' in body_text(offline_browser)


def test_swagger_ui_renders_offline_and_authorises_with_a_key(offline_browser, api_url):
    browser = offline_browser
    browser.get(api_url + "/docs")
    wait_on_page(browser, "the operation list", lambda b: {"/papers", "/curation/whoami", "/ask"} <= {
        e.text for e in b.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")})
    assert blocked(browser, api_url) == []

    browser.find_element(By.CSS_SELECTOR, "button.authorize").click()
    schemes = wait_on_page(browser, "the key schemes in the Authorize dialog",
                   lambda b: b.find_elements(By.CSS_SELECTOR, ".modal-ux .auth-container"))
    api_key = next(s for s in schemes if "X-API-Key" in s.text)
    api_key.find_element(By.CSS_SELECTOR, "input").send_keys(KEYS["curator"])
    api_key.find_element(By.CSS_SELECTOR, "button.authorize").click()
    wait_on_page(browser, "the scheme authorised", lambda b: "Logout" in api_key.text)
    browser.find_element(By.CSS_SELECTOR, ".modal-ux button.btn-done").click()

    whoami = next(op for op in browser.find_elements(By.CSS_SELECTOR, ".opblock")
                  if op.find_element(By.CSS_SELECTOR, ".opblock-summary-path").text == "/curation/whoami")
    whoami.find_element(By.CSS_SELECTOR, ".opblock-summary").click()
    wait_on_page(browser, "Try it out", lambda b: whoami.find_element(By.CSS_SELECTOR, "button.try-out__btn")).click()
    wait_on_page(browser, "Execute", lambda b: whoami.find_element(By.CSS_SELECTOR, "button.execute")).click()
    answer = wait_on_page(browser, "the answer of /curation/whoami", lambda b: whoami.find_element(
        By.CSS_SELECTOR, ".live-responses-table .response-col_description pre").text)
    assert '"name": "alice"' in answer and '"role": "curator"' in answer, answer
    assert blocked(browser, api_url) == []


def test_redoc_renders_offline(offline_browser, api_url):
    browser = offline_browser
    browser.get(api_url + "/redoc")
    text = wait_on_page(browser, "the operations", lambda b: "/curation/whoami" in body_text(b) and body_text(b))
    assert "List Papers" in text and "/papers/{paper_id}" in text
    assert "Something went wrong" not in text
    assert blocked(browser, api_url) == []
