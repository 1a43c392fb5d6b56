"""The curator page in headless Chromium against the real API (uvicorn) and a real Neo4j holding an ingested
PDF: a curator opens the queue, sees an item's evidence image, verifies one item (with the keyboard), edits
another and flags a third; the graph and the history then show exactly those changes."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from kg.curation import history
from kg.filestore import file_sha256
from kg.ingest import Ingestor
from tests.browser_support import headless_chromium, wait_on_page
from tests.curation_support import KEYS, curated_settings
from tests.live_api import served

pytestmark = pytest.mark.browser

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample-sparse-routing.pdf"


@pytest.fixture
def api_url(empty_db, neo4j_settings, tmp_path) -> Iterator[str]:
    """The ingested sample served by uvicorn; every automatic element counts as low confidence (threshold
    above 1) so the queue has sections to review."""
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data", curation_low_confidence=1.01)
    assert Ingestor(settings, empty_db, workers=0, embed=False).run([SAMPLE]).count("ingested") == 1
    with served(settings) as url:
        yield url


def test_curator_reviews_the_queue_in_a_browser(api_url, empty_db):
    sha = file_sha256(SAMPLE)
    sections = [r["id"] for r in empty_db.execute_query(
        "MATCH (s:Section {paper_sha256: $sha}) RETURN s.id AS id ORDER BY s.id", sha=sha).records]
    with headless_chromium() as browser:
        browser.get(api_url + "/ui")
        browser.find_element(By.ID, "api-key").send_keys(KEYS["curator"])
        browser.find_element(By.ID, "use-key").click()
        wait_on_page(browser, "who is signed in", lambda b: "alice (curator)" in b.find_element(By.ID, "whoami").text)
        rows = wait_on_page(browser, "section rows in the queue", lambda b: [
            r for r in b.find_elements(By.CSS_SELECTOR, "#queue tbody tr")
            if r.find_elements(By.TAG_NAME, "td")[1].text == "Section"])
        chosen = [r.get_attribute("data-element") for r in rows[:3]]
        assert len(chosen) == 3 and set(chosen) <= set(sections)

        def open_item(node_id: str) -> None:
            def click(b) -> bool:  # the queue re-renders after a change: a row found a moment ago may be stale
                row = b.find_element(By.CSS_SELECTOR, f'#queue tbody tr[data-element="{node_id}"]')
                row.find_element(By.TAG_NAME, "button").click()
                return True
            wait_on_page(browser, f"the queue row of {node_id}", click)
            wait_on_page(browser, f"the element page of {node_id}",
                 lambda b: b.find_element(By.ID, "element-title").text.endswith(node_id))

        def status_becomes(value: str) -> None:
            wait_on_page(browser, f"status {value}", lambda b: b.find_element(By.ID, "status").text == value)

        open_item(chosen[0])
        width = wait_on_page(browser, "the evidence image", lambda b: b.execute_script(
            "const i = document.getElementById('evidence'); return i.complete && i.naturalWidth;"))
        assert width > 100
        browser.find_element(By.ID, "verify").send_keys(Keys.ENTER)  # keyboard, not mouse
        status_becomes("verified")
        wait_on_page(browser, "the verify event in the history",
             lambda b: " alice verify" in b.find_element(By.ID, "history").text)

        open_item(chosen[1])
        browser.find_element(By.CSS_SELECTOR, "#edit-box summary").click()
        browser.find_element(By.ID, "edit-json").send_keys('{"title": "Edited <b>in</b> the browser"}')
        browser.find_element(By.ID, "save-edit").click()
        status_becomes("edited")
        cell = wait_on_page(browser, "the edited title", lambda b: [
            r for r in b.find_elements(By.CSS_SELECTOR, "#properties tr")
            if r.find_element(By.TAG_NAME, "th").text == "title"])[0]
        assert cell.find_element(By.TAG_NAME, "td").text == "Edited <b>in</b> the browser"  # shown as text
        assert cell.find_elements(By.TAG_NAME, "b") == []

        open_item(chosen[2])
        browser.find_element(By.ID, "reason").send_keys("heading looks split")
        browser.find_element(By.ID, "flag").click()
        status_becomes("flagged")
        wait_on_page(browser, "the flagged item first in the queue", lambda b: b.find_element(
            By.CSS_SELECTOR, "#queue tbody tr").get_attribute("data-element") == chosen[2])

    statuses = {r["id"]: r["status"] for r in empty_db.execute_query(
        "MATCH (s:Section {paper_sha256: $sha}) RETURN s.id AS id, s.verification_status AS status", sha=sha).records}
    assert {i: statuses[i] for i in chosen} == dict(zip(chosen, ["verified", "edited", "flagged"]))
    assert sorted(set(statuses.values())) == ["auto", "edited", "flagged", "verified"]
    title = empty_db.execute_query("MATCH (s:Section {id: $id}) RETURN s.title AS t", id=chosen[1]).records[0]["t"]
    assert title == "Edited <b>in</b> the browser"
    events = history.read(empty_db)
    assert [(e.action, e.element, e.actor, e.reason) for e in reversed(events)] == [
        ("verify", chosen[0], "alice", None), ("edit", chosen[1], "alice", None),
        ("flag", chosen[2], "alice", "heading looks split")]
