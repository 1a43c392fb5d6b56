"""The duplicate candidates of the curator page in headless Chromium against the real API (uvicorn) and a real
Neo4j holding two generated papers that name one corpus and one method differently: the curator sees both ends of
a candidate side by side, merges one pair by keeping the short name (confirmed in a dialog that shows both, after
one cancelled), undoes the merge by keyboard (the two nodes come back as they were) and merges again, and rejects
the other; the graph then holds exactly those decisions."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from selenium.webdriver.common.by import By

from kg.curation.duplicates import detect
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from ontology.loader import get_schema
from tests.browser_support import headless_chromium, wait_on_page
from tests.curation_support import KEYS, curated_settings
from tests.integration.test_duplicates import PAPER_A, PAPER_B
from tests.live_api import served
from tests.pdf_factory import entities_paper, write

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts" / "curator-workbench"


@pytest.fixture
def api_url(schema_db, neo4j_settings, tmp_path) -> Iterator[str]:
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data")
    paths = [write(tmp_path, "a.pdf", entities_paper("Citation Graphs at Scale", PAPER_A)),
             write(tmp_path, "b.pdf", entities_paper("Mining Scholarly Text", PAPER_B))]
    assert Ingestor(settings, Graph(schema_db), workers=0, embed=False).run(paths).count("ingested") == 2
    detect(Graph(schema_db), get_schema())
    with served(settings) as url:
        yield url


def _candidate(browser, names: set[str]):
    """The candidate whose two ends are named `names`, or None."""
    for box in browser.find_elements(By.CSS_SELECTOR, "#duplicates article.candidate"):
        shown = {h.text.split(": ", 1)[1] for h in box.find_elements(By.CSS_SELECTOR, ".end h3")}
        if shown == names:
            return box
    return None


def _datasets(db, names: set[str]) -> list[tuple]:
    """The named Dataset nodes as a curator sees them: name, status, aliases and every relationship with its other
    end."""
    return sorted((r["name"], r["status"], r["aliases"], sorted(r["edges"])) for r in db.execute_query(
        "MATCH (n:Dataset) WHERE n.name IN $names "
        "OPTIONAL MATCH (n)-[r]-(m) WHERE NOT m:CurationEvent "
        "RETURN n.name AS name, n.verification_status AS status, n.aliases AS aliases, "
        "collect(type(r) + '/' + coalesce(m.id, '')) AS edges", names=sorted(names)).records)


def test_curator_merges_one_candidate_and_rejects_another_side_by_side(api_url, schema_db, tmp_path: Path):
    corpus = {"S2ORC", "Semantic Scholar Open Research Corpus"}
    method = {"Sparse Routing Transformer", "Sparse Routing Transfromer"}
    with headless_chromium() as browser:
        browser.get(api_url + "/ui")
        browser.find_element(By.ID, "api-key").send_keys(KEYS["curator"])
        browser.find_element(By.ID, "use-key").click()
        wait_on_page(browser, "who is signed in", lambda b: "alice (curator)" in b.find_element(By.ID, "whoami").text)
        browser.find_element(By.ID, "load-duplicates").click()
        box = wait_on_page(browser, "the corpus candidate", lambda b: _candidate(b, corpus))
        assert "initials" in box.find_element(By.TAG_NAME, "p").text
        ends = {e.find_element(By.TAG_NAME, "h3").text: e.text for e in box.find_elements(By.CSS_SELECTOR, ".end")}
        assert "Citation Graphs at Scale" in ends["Dataset: S2ORC"]
        assert "Mining Scholarly Text" in ends["Dataset: Semantic Scholar Open Research Corpus"]
        browser.save_screenshot(str(tmp_path / "duplicates.png"))
        keep = next(e for e in box.find_elements(By.CSS_SELECTOR, ".end")
                    if e.find_element(By.TAG_NAME, "h3").text == "Dataset: S2ORC")

        def confirm_shows() -> object:
            keep.find_element(By.TAG_NAME, "button").click()
            dialog = wait_on_page(browser, "the merge confirmation", lambda b: b.find_element(By.ID, "merge-dialog")
                                  if b.find_element(By.ID, "merge-dialog").is_displayed() else None)
            sides = [browser.find_element(By.ID, side).text for side in ("merge-survivor", "merge-duplicate")]
            assert sides[0].startswith("Stays\nDataset: S2ORC"), sides
            assert sides[1].startswith("Merged into it (then rejected)\nDataset: Semantic Scholar Open Research "
                                       "Corpus"), sides
            return dialog
        confirm_shows()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "9-merge-confirmation.png"))
        browser.find_element(By.ID, "merge-cancel").click()  # cancelled: nothing merged
        assert schema_db.execute_query("MATCH (e:CurationEvent) RETURN count(e) AS n").records[0]["n"] == 0
        assert _candidate(browser, corpus) is not None
        before = _datasets(schema_db, corpus)
        confirm_shows()
        browser.find_element(By.ID, "merge-confirm").click()
        wait_on_page(browser, "the merge recorded", lambda b: b.find_element(By.ID, "message").text == "merge recorded")
        assert _candidate(browser, corpus) is None
        assert _datasets(schema_db, corpus) != before
        browser.find_element(By.TAG_NAME, "body").send_keys("u")  # undo, by keyboard: the merge is split again
        wait_on_page(browser, "the undo recorded", lambda b: b.find_element(By.ID, "message").text == "split recorded")
        assert _datasets(schema_db, corpus) == before
        browser.find_element(By.ID, "load-duplicates").click()
        box = wait_on_page(browser, "the corpus candidate again", lambda b: _candidate(b, corpus))
        keep = next(e for e in box.find_elements(By.CSS_SELECTOR, ".end")
                    if e.find_element(By.TAG_NAME, "h3").text == "Dataset: S2ORC")
        confirm_shows()
        browser.find_element(By.ID, "merge-confirm").click()
        wait_on_page(browser, "the merge recorded", lambda b: b.find_element(By.ID, "message").text == "merge recorded")
        assert _candidate(browser, corpus) is None
        browser.find_element(By.ID, "duplicate-reason").send_keys("a misprint of another model")
        wait_on_page(browser, "the method candidate", lambda b: _candidate(b, method)).find_element(
            By.CSS_SELECTOR, ":scope > button").click()
        wait_on_page(browser, "the rejection recorded", lambda b: b.find_element(By.ID, "message").text == "reject recorded")
        assert _candidate(browser, method) is None

    nodes = {r["name"]: (r["status"], r["aliases"]) for r in schema_db.execute_query(
        "MATCH (n:Dataset) WHERE n.name IN $names RETURN n.name AS name, n.verification_status AS status, "
        "n.aliases AS aliases", names=sorted(corpus)).records}
    assert nodes["Semantic Scholar Open Research Corpus"][0] == "rejected"
    assert nodes["S2ORC"] == ("edited", ["Semantic Scholar Open Research Corpus"])
    rejected = schema_db.execute_query(
        "MATCH (a:Method)-[r:SAME_AS]-(b:Method) WHERE a.name IN $names AND b.name IN $names "
        "RETURN DISTINCT r.verification_status AS status", names=sorted(method)).records
    assert [r["status"] for r in rejected] == ["rejected"]
    reasons = schema_db.execute_query("MATCH (e:CurationEvent) RETURN e.action AS action, e.reason AS reason "
                                      "ORDER BY e.id").records
    assert [(r["action"], r["reason"]) for r in reasons] == [("merge", None), ("split", None), ("merge", None),
                                                             ("reject", "a misprint of another model")]
