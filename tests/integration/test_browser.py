"""Neo4j Browser, as served by our local server, logs in and runs Cypher in a real (headless) browser.

`kg db start` points users at the Browser URL; these tests prove that the jar we assemble from Maven Central
serves a working Browser, and that it really authenticates against our server.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from kg.settings import Settings
from tests.browser_support import AUTH_ERRORS, NeoBrowser, headless_chromium

pytestmark = pytest.mark.browser

QUERY = "RETURN 1 AS ok"


@pytest.fixture
def browser(neo4j_settings: Settings, tmp_path) -> Iterator[NeoBrowser]:
    """Neo4j Browser of the session's local server, opened in a fresh headless Chromium."""
    with headless_chromium() as driver:
        page = NeoBrowser(driver, tmp_path / "browser-evidence")
        page.open(neo4j_settings.browser_url)
        yield page


def test_login_and_run_cypher(browser: NeoBrowser, neo4j_settings: Settings):
    status = browser.login("bolt://", f"localhost:{neo4j_settings.bolt_port}", neo4j_settings.neo4j_user,
                           neo4j_settings.neo4j_password.get_secret_value())
    if status:
        browser.fail(f"login with the settings' password failed: {status}")

    frame = browser.run(QUERY)
    if error := browser.error(frame):
        browser.fail(f"{QUERY} failed in Neo4j Browser: {error}")
    if browser.table(frame) != (["ok"], [["1"]]):
        browser.fail(f"{QUERY} should show one row with 1 under 'ok', the table shows {browser.table(frame)}")


def test_wrong_password_is_refused(browser: NeoBrowser, neo4j_settings: Settings):
    status = browser.login("bolt://", f"localhost:{neo4j_settings.bolt_port}", neo4j_settings.neo4j_user,
                           "not-" + neo4j_settings.neo4j_password.get_secret_value())
    if not status.startswith(AUTH_ERRORS):
        browser.fail("a wrong password should give an authentication error, the connect frame shows "
                     f"{status!r}" if status else "a wrong password should be refused, but Browser connected")

    frame = browser.run(QUERY)
    headers, rows = browser.table(frame)
    if headers or rows or not browser.error(frame):
        browser.fail(f"{QUERY} should fail without a connection, the frame shows {headers} {rows}, "
                     f"error {browser.error(frame)!r}")
