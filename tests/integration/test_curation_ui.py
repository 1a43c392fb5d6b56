"""The curator page in headless Chromium against the real API (uvicorn) and a real Neo4j holding an ingested
PDF: a curator lists the paper's sections, sees an item's evidence image, verifies one item (with the keyboard),
edits another and flags a third with the panel's buttons; the graph and the history then show exactly those
changes. (The keyboard shortcuts, filters and bulk work: test_workbench_ui.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from kg.curation import history
from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from tests.browser_support import headless_chromium, wait_on_page
from tests.curation_support import KEYS, curated_settings
from tests.live_api import served

pytestmark = pytest.mark.browser

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample-sparse-routing.pdf"


@pytest.fixture
def api_url(schema_db, neo4j_settings, tmp_path) -> Iterator[str]:
    """The ingested sample served by uvicorn."""
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data")
    assert Ingestor(settings, Graph(schema_db), workers=0, embed=False).run([SAMPLE]).count("ingested") == 1
    with served(settings) as url:
        yield url


def test_curator_reviews_the_queue_in_a_browser(api_url, schema_db):
    sha = file_sha256(SAMPLE)
    sections = [r["id"] for r in schema_db.execute_query(
        "MATCH (s:Section {paper_sha256: $sha}) RETURN s.id AS id ORDER BY s.id", sha=sha).records]
    with headless_chromium() as browser:
        browser.get(api_url + "/ui")
        browser.find_element(By.ID, "api-key").send_keys(KEYS["curator"])
        browser.find_element(By.ID, "use-key").click()
        wait_on_page(browser, "who is signed in", lambda b: "alice (curator)" in b.find_element(By.ID, "whoami").text)
        wait_on_page(browser, "the label filter filled",
                     lambda b: len(b.find_elements(By.CSS_SELECTOR, "#f-label option")) > 1)
        Select(browser.find_element(By.ID, "f-label")).select_by_visible_text("Section")
        browser.find_element(By.ID, "apply-filters").click()

        def section_rows(b):
            rows = b.find_elements(By.CSS_SELECTOR, "#items tbody tr")
            return rows if {r.find_elements(By.TAG_NAME, "td")[2].text for r in rows} == {"Section"} else None
        rows = wait_on_page(browser, "section rows only in the list", section_rows)
        chosen = [r.get_attribute("data-element") for r in rows[:3]]
        assert len(chosen) == 3 and set(chosen) <= set(sections)

        def open_item(node_id: str) -> None:
            def click(b) -> bool:  # the list re-renders after a change: a row found a moment ago may be stale
                b.find_element(By.CSS_SELECTOR, f'#items tbody tr[data-element="{node_id}"] button.link').click()
                return True
            wait_on_page(browser, f"the list row of {node_id}", click)
            wait_on_page(browser, f"the element page of {node_id}",
                 lambda b: b.find_element(By.ID, "element-title").text.endswith(node_id))

        def status_becomes(value: str) -> None:
            wait_on_page(browser, f"status {value}", lambda b: b.find_element(By.ID, "status").text == value)

        def row_shows(node_id: str, status: str, reason: str) -> None:
            wait_on_page(browser, f"{node_id} {status} in the list", lambda b: [c.text for c in b.find_elements(
                By.CSS_SELECTOR, f'#items tr[data-element="{node_id}"] td')][-2:] == [status, reason])

        open_item(chosen[0])
        width = wait_on_page(browser, "the evidence image", lambda b: b.execute_script(
            "const i = document.getElementById('evidence'); return i.complete && i.naturalWidth;"))
        assert width > 100
        browser.find_element(By.ID, "verify").send_keys(Keys.ENTER)  # keyboard, not mouse
        row_shows(chosen[0], "verified", "")
        open_item(chosen[0])
        status_becomes("verified")
        wait_on_page(browser, "the verify event in the history",
             lambda b: " alice verify" in b.find_element(By.ID, "history").text)

        open_item(chosen[1])
        browser.find_element(By.CSS_SELECTOR, "#edit-box summary").click()
        browser.find_element(By.ID, "edit-json").send_keys('{"title": "Edited <b>in</b> the browser"}')
        browser.find_element(By.ID, "save-edit").click()
        status_becomes("edited")
        browser.find_element(By.CSS_SELECTOR, "#properties-box summary").click()  # the raw values, folded
        cell = wait_on_page(browser, "the edited title", lambda b: [
            r for r in b.find_elements(By.CSS_SELECTOR, "#properties tr")
            if r.find_element(By.TAG_NAME, "th").text == "title"])[0]
        assert cell.find_element(By.TAG_NAME, "td").text == "Edited <b>in</b> the browser"  # shown as text
        assert cell.find_elements(By.TAG_NAME, "b") == []

        open_item(chosen[2])
        browser.find_element(By.ID, "reason").send_keys("heading looks split")
        browser.find_element(By.ID, "flag").click()
        row_shows(chosen[2], "flagged", "heading looks split")

    statuses = {r["id"]: r["status"] for r in schema_db.execute_query(
        "MATCH (s:Section {paper_sha256: $sha}) RETURN s.id AS id, s.verification_status AS status", sha=sha).records}
    assert {i: statuses[i] for i in chosen} == dict(zip(chosen, ["verified", "edited", "flagged"]))
    assert sorted(set(statuses.values())) == ["auto", "edited", "flagged", "verified"]
    title = schema_db.execute_query("MATCH (s:Section {id: $id}) RETURN s.title AS t", id=chosen[1]).records[0]["t"]
    assert title == "Edited <b>in</b> the browser"
    events = history.read(Graph(schema_db))
    assert [(e.action, e.element, e.actor, e.reason) for e in reversed(events)] == [
        ("verify", chosen[0], "alice", None), ("edit", chosen[1], "alice", None),
        ("flag", chosen[2], "alice", "heading looks split")]
