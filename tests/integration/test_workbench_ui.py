"""The curator workbench in headless Chromium against the real API (uvicorn) and a real Neo4j holding two generated
papers: a curator's working pass by keyboard. Find one paper's items with the filters, verify one (v), reject the
next with a reason (r, asked in a dialog), move back and forth (k, j), bulk-verify two items selected with a click
and a shift-click, undo the last change (u). After each step the graph in Neo4j is checked, not only the page;
a screenshot of each view is kept under build/test-artifacts/curator-workbench for review."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import httpx
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from extractors.semantic.canonical import entity_id
from kg.curation import history
from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from ontology.loader import get_schema
from tests.browser_support import click_on_page, headless_chromium, select_on_page, wait_on_page
from tests.curation_support import ANY_VERSION, KEYS, as_role, curated_settings
from tests.integration.test_duplicates import PAPER_A, PAPER_B
from tests.live_api import served
from tests.pdf_factory import entities_paper, write

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts" / "curator-workbench"


@pytest.fixture
def papers(schema_db, neo4j_settings, tmp_path) -> Iterator[tuple[str, dict[str, str]]]:
    """The API over two ingested papers; yields its URL and each paper's id by file SHA-256."""
    settings = curated_settings(neo4j_settings, data_dir=tmp_path / "data")
    paths = [write(tmp_path, "a.pdf", entities_paper("Citation Graphs at Scale", PAPER_A)),
             write(tmp_path, "b.pdf", entities_paper("Mining Scholarly Text", PAPER_B))]
    assert Ingestor(settings, Graph(schema_db), workers=0, embed=False).run(paths).count("ingested") == 2
    ids = {r["sha"]: r["id"] for r in schema_db.execute_query(
        "MATCH (p:Paper) RETURN p.sha256 AS sha, p.id AS id").records}
    with served(settings) as url:
        yield url, {"a": ids[file_sha256(paths[0])], "b": ids[file_sha256(paths[1])]}


def statuses(driver, ids: list[str]) -> list[str]:
    found = {r["id"]: r["status"] for r in driver.execute_query(
        "MATCH (n) WHERE n.id IN $ids RETURN n.id AS id, n.verification_status AS status", ids=ids).records}
    return [found[i] for i in ids]


def test_a_curators_working_pass_by_keyboard(papers, schema_db):
    url, paper = papers
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    sections_a = {r["id"] for r in schema_db.execute_query(
        "MATCH (s:Section)<-[:HAS_SECTION]-(:Paper {id: $id}) RETURN s.id AS id", id=paper["a"]).records}
    own_b = {r["id"] for r in schema_db.execute_query(
        "MATCH (p:Paper {id: $id}) MATCH (n) WHERE n.paper_sha256 = p.sha256 AND NOT n:Chunk RETURN n.id AS id",
        id=paper["b"]).records}
    assert sections_a and own_b
    with headless_chromium() as browser:
        browser.evidence_dir = ARTIFACTS / "failure"

        def press(key: str) -> None:
            ActionChains(browser).send_keys(key).perform()

        def shot(name: str) -> None:
            browser.save_screenshot(str(ARTIFACTS / f"{name}.png"))

        def message(text: str) -> None:
            wait_on_page(browser, repr(text), lambda b: b.find_element(By.ID, "message").text == text)

        def open_item() -> str:
            return browser.find_element(By.ID, "element-title").text.split(" ")[-1]

        def opened(node_id: str) -> None:
            wait_on_page(browser, f"{node_id} open, its row marked", lambda b: open_item() == node_id and
                         b.find_element(By.CSS_SELECTOR, "#items tr.open").get_attribute("data-element") == node_id)

        browser.get(url + "/ui")
        browser.find_element(By.ID, "api-key").send_keys(KEYS["curator"], Keys.ENTER)
        wait_on_page(browser, "who is signed in", lambda b: "alice (curator)" in b.find_element(By.ID, "whoami").text)
        wait_on_page(browser, "the review list", lambda b: b.find_elements(By.CSS_SELECTOR, "#items tbody tr"))

        # find paper A's items: the filter runs in the API, so paper B's own nodes leave the list
        browser.find_element(By.ID, "f-paper").send_keys(paper["a"], Keys.ENTER)

        def listed(b) -> list[str] | None:
            shown = [r.get_attribute("data-element") for r in b.find_elements(By.CSS_SELECTOR, "#items tbody tr")]
            return shown if shown and not set(shown) & own_b and sections_a <= set(shown) else None
        rows = wait_on_page(browser, "paper A's items only", listed)
        assert len(rows) >= 5
        progress = browser.find_element(By.ID, "progress").text
        assert progress.startswith(f"0 verified, 0 rejected of {len(rows)} in view"), progress
        shot("1-list-filtered-by-paper")
        browser.execute_script("document.activeElement.blur()")  # keys go to the page, not the paper field

        press("j")
        opened(rows[0])
        shot("2-item-open")
        browser.find_element(By.CSS_SELECTOR, "#edit-box summary").click()  # an edit begun, not saved
        browser.find_element(By.ID, "edit-json").send_keys('{"name": "meant for this item only"}')
        browser.execute_script("document.activeElement.blur()")
        press("v")
        message("verify recorded")
        assert statuses(schema_db, rows[:2]) == ["verified", "auto"]
        opened(rows[1])  # automatic advance
        assert browser.find_element(By.ID, "edit-json").get_attribute("value") == ""  # fields are per item
        assert browser.find_element(By.ID, "edit-box").get_attribute("open") is None
        assert browser.execute_script("const r = document.getElementById('element-panel').getBoundingClientRect();"
                                      "return r.top >= 0 && r.top < window.innerHeight;"), "the item is out of view"

        press("r")
        dialog = wait_on_page(browser, "the reason dialog", lambda b: b.find_element(By.ID, "reason-dialog")
                              if b.find_element(By.ID, "reason-dialog").is_displayed() else None)
        wait_on_page(browser, "the reason field focused", lambda b: b.switch_to.active_element.get_attribute("id")
                     == "dialog-reason")
        press("a running header, not content")
        shot("3-reject-asks-a-reason")
        press(Keys.ENTER)
        message("reject recorded")
        assert not dialog.is_displayed()
        assert statuses(schema_db, rows[:3]) == ["verified", "rejected", "auto"]
        last = history.read(Graph(schema_db), limit=1)[0]
        assert (last.action, last.element, last.actor, last.reason) == \
            ("reject", rows[1], "alice", "a running header, not content")
        opened(rows[2])
        row = browser.find_element(By.CSS_SELECTOR, f'#items tr[data-element="{rows[1]}"]')
        assert [c.text for c in row.find_elements(By.TAG_NAME, "td")[-2:]] == \
            ["rejected", "a running header, not content"]
        assert "1 verified, 1 rejected of" in browser.find_element(By.ID, "progress").text

        press("k")
        opened(rows[1])
        press("j")
        opened(rows[2])
        assert statuses(schema_db, rows[:4]) == ["verified", "rejected", "auto", "auto"]  # moving changes nothing
        assert len(history.read(Graph(schema_db))) == 2

        # bulk: a click on one box, a shift-click on the next selects both; verify them through the operations
        boxes = {r.get_attribute("data-element"): r.find_element(By.CSS_SELECTOR, "input[type=checkbox]")
                 for r in browser.find_elements(By.CSS_SELECTOR, "#items tbody tr")}
        boxes[rows[3]].click()
        ActionChains(browser).key_down(Keys.SHIFT).click(boxes[rows[4]]).key_up(Keys.SHIFT).perform()
        wait_on_page(browser, "two selected", lambda b: b.find_element(By.ID, "selected-count").text == "2 selected")
        shot("4-bulk-selection")
        browser.find_element(By.ID, "bulk-verify").click()
        message("verify recorded for 2 of 2 selected items")
        assert statuses(schema_db, rows[:5]) == ["verified", "rejected", "auto", "verified", "verified"]
        assert [(e.action, e.element) for e in history.read(Graph(schema_db), limit=2)] == \
            [("verify", rows[4]), ("verify", rows[3])]
        assert "3 verified, 1 rejected of" in browser.find_element(By.ID, "progress").text

        browser.execute_script("document.activeElement.blur()")
        press("u")
        message("undo recorded")
        assert statuses(schema_db, rows[:5]) == ["verified", "rejected", "auto", "verified", "auto"]
        undo, undone = history.read(Graph(schema_db), limit=2)
        assert (undo.action, undo.element, undo.undoes) == ("undo", rows[4], undone.id)
        opened(rows[4])
        wait_on_page(browser, "the panel's status refreshed", lambda b: b.find_element(By.ID, "status").text == "auto")
        log = browser.find_element(By.ID, "log").text
        assert all(m in log for m in ("verify recorded", "reject recorded", "undo recorded"))
        shot("5-after-undo-with-log")

        press("?")
        wait_on_page(browser, "the keyboard help", lambda b: b.find_element(By.ID, "help-dialog").is_displayed())
        shot("6-keyboard-help")
        press(Keys.ESCAPE)
        wait_on_page(browser, "the help closed", lambda b: not b.find_element(By.ID, "help-dialog").is_displayed())

    actions = [e.action for e in reversed(history.read(Graph(schema_db)))]
    assert actions == ["verify", "reject", "verify", "verify", "undo"]


def test_a_flagged_edge_needs_attention_and_is_verified_there(papers, schema_db):
    """The old review queue (flagged nodes and edges, duplicates, unlinked figures) is the workbench's queue
    "needs attention": a flagged edge is listed there with its paper, leaves it when the paper filter names the
    other paper, opens in the item panel and is verified by key; another
    flagged edge gets another type the ontology allows between its ends, and u undoes that."""
    url, paper = papers
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    edge = schema_db.execute_query(
        "MATCH (p:Paper {id: $id}) MATCH (c:Chunk)-[r:MENTIONS]->(e) WHERE c.paper_sha256 = p.sha256 "
        "RETURN elementId(r) AS id, c.id + '|MENTIONS|' + e.id AS key ORDER BY key LIMIT 1", id=paper["a"]).records[0]
    paper_edge = schema_db.execute_query(
        "MATCH (p:Paper {id: $id})-[r]->(d:Dataset) RETURN elementId(r) AS id, type(r) AS type, d.id AS dataset "
        "ORDER BY d.id LIMIT 1", id=paper["a"]).records[0]
    for flag in (edge["id"], paper_edge["id"]):
        flagged = httpx.post(f"{url}/curation/edges/{flag}/flag", json={"reason": "the wrong entity"},
                             headers={**as_role("curator"), **ANY_VERSION})
        assert flagged.status_code == 200, flagged.text
    other_type = {"USES": "EVALUATES_ON", "EVALUATES_ON": "USES"}[paper_edge["type"]]

    def types_between() -> dict[str, str]:
        return {r["type"]: r["status"] for r in schema_db.execute_query(
            "MATCH (:Paper {id: $p})-[r]->(:Dataset {id: $d}) RETURN type(r) AS type, r.verification_status AS status",
            p=paper["a"], d=paper_edge["dataset"]).records}

    def edge_status() -> str:
        return schema_db.execute_query("MATCH ()-[r]->() WHERE elementId(r) = $id RETURN r.verification_status AS s",
                                       id=edge["id"]).records[0]["s"]
    assert edge_status() == "flagged"
    with headless_chromium() as browser:
        browser.evidence_dir = ARTIFACTS / "failure"
        browser.get(url + "/ui")
        browser.find_element(By.ID, "api-key").send_keys(KEYS["curator"], Keys.ENTER)
        wait_on_page(browser, "the review list", lambda b: b.find_elements(By.CSS_SELECTOR, "#items tbody tr"))
        Select(browser.find_element(By.ID, "f-queue")).select_by_value("attention")
        browser.find_element(By.ID, "apply-filters").click()
        selector = f'#items tr[data-element="{edge["id"]}"]'

        def listed(b) -> tuple[str, list[str]] | None:  # read at once: a re-rendered list makes a kept row stale
            found = b.find_elements(By.CSS_SELECTOR, selector)
            return found and (found[0].get_attribute("data-kind"),
                              [c.text for c in found[0].find_elements(By.TAG_NAME, "td")])
        kind, cells = wait_on_page(browser, "the flagged edge listed", listed)
        assert kind == "edge"
        assert cells[2] == "MENTIONS" and cells[-2:] == ["flagged", "flagged by a curator: the wrong entity"], cells
        assert cells[1] == "Citation Graphs at Scale", cells  # the edge's paper
        assert browser.find_element(By.ID, "progress").text.split(" ")[:2] != ["0", "need"]
        browser.save_screenshot(str(ARTIFACTS / "7-needs-attention-queue.png"))
        browser.find_element(By.ID, "f-paper").send_keys(paper["b"])  # the list's filters narrow this queue too
        browser.find_element(By.ID, "apply-filters").click()
        wait_on_page(browser, "the other paper's items only", lambda b: not b.find_elements(By.CSS_SELECTOR, selector)
                     and b.find_elements(By.CSS_SELECTOR, "#items tbody tr"))
        browser.find_element(By.ID, "f-paper").clear()
        browser.find_element(By.ID, "apply-filters").click()
        click_on_page(browser, "the flagged edge back", selector + " button.link")
        wait_on_page(browser, "the edge open", lambda b: "-[MENTIONS]->" in b.find_element(By.ID, "element-title").text
                     and b.find_element(By.ID, "status").text == "flagged")
        browser.save_screenshot(str(ARTIFACTS / "8-flagged-edge-open.png"))
        browser.execute_script("document.activeElement.blur()")
        ActionChains(browser).send_keys("v").perform()
        wait_on_page(browser, "verify recorded", lambda b: b.find_element(By.ID, "message").text == "verify recorded")
        assert edge_status() == "verified"
        last = history.read(Graph(schema_db), limit=1)[0]
        assert (last.action, last.element, last.actor) == ("verify", edge["key"], "alice")
        wait_on_page(browser, "the edge out of the queue", lambda b: not b.find_elements(By.CSS_SELECTOR, selector))

        other = f'#items tr[data-element="{paper_edge["id"]}"] button.link'
        click_on_page(browser, "the other flagged edge", other)
        wait_on_page(browser, "the paper's edge open", lambda b: f"-[{paper_edge['type']}]->" in
                     b.find_element(By.ID, "element-title").text)
        click_on_page(browser, "the merge and link box", "#merge-box summary")
        select_on_page(browser, "the other type picked", "retype", other_type)
        # the item read again before the save (the list advancing to the row the curator clicked) keeps the pick
        browser.execute_async_script("openElement(current.kind, current.ref).then(arguments[arguments.length - 1])")
        assert Select(browser.find_element(By.ID, "retype")).first_selected_option.get_attribute("value") == other_type
        browser.save_screenshot(str(ARTIFACTS / "10-change-an-edges-type.png"))
        click_on_page(browser, "the retype button", "#save-retype")
        wait_on_page(browser, "retype recorded", lambda b: b.find_element(By.ID, "message").text == "retype recorded")
        assert types_between() == {paper_edge["type"]: "rejected", other_type: "edited"}
        assert history.read(Graph(schema_db), limit=1)[0].action == "retype"
        wait_on_page(browser, "the new edge open", lambda b: f"-[{other_type}]->" in
                     b.find_element(By.ID, "element-title").text)
        browser.execute_script("document.activeElement.blur()")
        ActionChains(browser).send_keys("u").perform()
        wait_on_page(browser, "undo recorded", lambda b: b.find_element(By.ID, "message").text == "undo recorded")
        assert types_between() == {paper_edge["type"]: "flagged"}


def test_an_entitys_evidence_side_by_side(papers, schema_db):
    """An entity has no page of its own: its item shows each of its edges with the PDF crop beside the passage,
    the mention marked, and the provenance in words."""
    url, _ = papers
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    s2orc = schema_db.execute_query("MATCH (d:Dataset) WHERE toLower(d.name) = 's2orc' RETURN d.id AS id, "
                                    "d.name AS name").records[0]
    edges = {r["id"]: (r["type"], r["title"] + ": found by " + r["extractor"]) for r in schema_db.execute_query(
        "MATCH (:Dataset {id: $id})-[r]-() WHERE r.paper_sha256 IS NOT NULL AND size(r.source_chunk_ids) > 0 "
        "MATCH (p:Paper {sha256: r.paper_sha256}) "
        "RETURN elementId(r) AS id, type(r) AS type, p.title AS title, r.extractor AS extractor",
        id=s2orc["id"]).records}
    assert "MENTIONS" in {t for t, _ in edges.values()}
    with headless_chromium() as browser:
        browser.evidence_dir = ARTIFACTS / "failure"
        browser.get(url + "/ui")
        browser.find_element(By.ID, "api-key").send_keys(KEYS["curator"], Keys.ENTER)
        wait_on_page(browser, "the review list", lambda b: b.find_elements(By.CSS_SELECTOR, "#items tbody tr"))
        browser.find_element(By.ID, "f-q").send_keys(s2orc["name"], Keys.ENTER)
        click_on_page(browser, "the entity listed", f'#items tr[data-element="{s2orc["id"]}"] button.link')

        def shown(b) -> list | None:
            items = b.find_elements(By.CSS_SELECTOR, "#evidence-items .evidence-item")
            loaded = b.execute_script("return [...document.querySelectorAll('#evidence-items img.crop')]"
                                      ".every((i) => i.complete && i.naturalWidth > 0);")
            return items if len(items) == len(edges) and loaded else None
        items = wait_on_page(browser, "each edge's evidence", shown)
        assert {i.get_attribute("data-edge") for i in items} == set(edges)
        for item in items:
            assert item.find_elements(By.CSS_SELECTOR, "img.crop"), "a crop of the PDF beside the passage"
            kind, words = edges[item.get_attribute("data-edge")]
            marks = {m.text.lower() for m in item.find_elements(By.TAG_NAME, "mark")}
            assert marks == {"s2orc"} if kind == "MENTIONS" else marks, marks
            assert item.find_element(By.CSS_SELECTOR, ".provenance").text.startswith(words)
        assert not browser.find_element(By.ID, "properties").is_displayed()  # the raw values are folded
        browser.save_screenshot(str(ARTIFACTS / "11-entity-evidence-side-by-side.png"))


def test_relabel_an_entity_then_undo_it_from_the_history_feed(papers, schema_db):
    """An entity of the wrong label (a Dataset that is really a Method): its label changed in the item panel (a
    new node, its edges moved, the old node rejected), found again in the history feed filtered by curator and
    operation, and undone there."""
    url, _ = papers
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # an automatic entity whose every edge the ontology also allows at another entity label
    schema = get_schema()
    rows = schema_db.execute_query(
        "MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels) AND n.verification_status = 'auto' "
        "MATCH (n)-[r]-(m) WHERE type(r) IN $types "
        "RETURN [l IN labels(n) WHERE l IN $labels][0] AS label, n.id AS id, n.name AS name, "
        "collect([type(r), startNode(r) = n, [l IN labels(m) WHERE l IN $all][0]]) AS edges ORDER BY id",
        labels=list(schema.entity_labels), all=list(schema.labels), types=list(schema.relationships)).records

    def fits(label: str, edges: list) -> bool:
        return all(((label, other) if out else (other, label)) in schema.relationships[t].patterns
                   for t, out, other in edges)
    found = [(r["label"], r["id"], r["name"], to) for r in rows for to in sorted(schema.entity_labels)
             if to != r["label"] and fits(to, r["edges"])]
    assert found, "the generated papers have an entity that fits another label"
    old_label, old_id, name, new_label = found[0]
    new_id = entity_id(new_label, name)

    def content_edges(node_id: str) -> list[tuple]:
        return sorted((r["s"], r["type"], r["t"]) for r in schema_db.execute_query(
            "MATCH (s)-[r]->(t) WHERE $id IN [s.id, t.id] AND type(r) <> 'WAS_REVISION_OF' "
            "RETURN s.id AS s, type(r) AS type, t.id AS t", id=node_id).records)
    edges_before = content_edges(old_id)
    assert edges_before
    with headless_chromium() as browser:
        browser.evidence_dir = ARTIFACTS / "failure"
        browser.get(url + "/ui")
        browser.find_element(By.ID, "api-key").send_keys(KEYS["curator"], Keys.ENTER)
        wait_on_page(browser, "the review list", lambda b: b.find_elements(By.CSS_SELECTOR, "#items tbody tr"))
        browser.find_element(By.ID, "f-q").send_keys(name, Keys.ENTER)
        click_on_page(browser, "the entity listed", f'#items tr[data-element="{old_id}"] button.link')
        wait_on_page(browser, "the entity open", lambda b: b.find_element(By.ID, "element-title").text ==
                     f"{old_label} {old_id}")
        browser.find_element(By.CSS_SELECTOR, "#merge-box summary").click()
        options = [o.text for o in Select(browser.find_element(By.ID, "relabel")).options]
        assert new_label in options and old_label not in options
        select_on_page(browser, "the new label picked", "relabel", new_label)
        browser.find_element(By.ID, "reason").send_keys("a model, not a corpus")
        browser.save_screenshot(str(ARTIFACTS / "12-change-an-entitys-label.png"))
        browser.find_element(By.ID, "save-relabel").click()
        wait_on_page(browser, "relabel recorded", lambda b: b.find_element(By.ID, "message").text == "relabel recorded")
        wait_on_page(browser, "the new node open", lambda b: b.find_element(By.ID, "element-title").text ==
                     f"{new_label} {new_id}")
        assert not browser.find_elements(By.CSS_SELECTOR, "#log li.error"), "a stale load reported a failure"
        assert statuses(schema_db, [old_id, new_id]) == ["rejected", "edited"]
        assert content_edges(old_id) == []
        assert content_edges(new_id) == sorted(tuple(new_id if end == old_id else end for end in edge)
                                               for edge in edges_before)
        [event] = history.read(Graph(schema_db), action="relabel")
        assert (event.actor, event.reason) == ("alice", "a model, not a corpus")

        browser.find_element(By.ID, "h-actor").send_keys("alice")
        Select(browser.find_element(By.ID, "h-operation")).select_by_visible_text("verify")
        browser.find_element(By.ID, "load-feed").click()
        wait_on_page(browser, "an empty feed", lambda b: b.find_element(By.ID, "feed-more") is not None and
                     not b.find_elements(By.CSS_SELECTOR, "#feed li"))
        Select(browser.find_element(By.ID, "h-operation")).select_by_visible_text("relabel")
        browser.find_element(By.ID, "load-feed").click()
        entry = wait_on_page(browser, "the relabel in the feed", lambda b: b.find_elements(
            By.CSS_SELECTOR, f'#feed li[data-event="{event.id}"]'))[0]
        assert len(browser.find_elements(By.CSS_SELECTOR, "#feed li")) == 1
        assert "alice relabel " + new_id + ": a model, not a corpus" in entry.text
        browser.execute_script("arguments[0].scrollIntoView()", entry)
        browser.save_screenshot(str(ARTIFACTS / "13-history-feed-filtered.png"))
        click_on_page(browser, "the relabel's undo", f'#feed li[data-event="{event.id}"] button')
        wait_on_page(browser, "undo recorded", lambda b: b.find_element(By.ID, "message").text == "undo recorded")
        assert statuses(schema_db, [old_id]) == ["auto"]
        assert schema_db.execute_query("MATCH (n {id: $id}) RETURN count(n) AS n", id=new_id).records[0]["n"] == 0
        assert content_edges(old_id) == edges_before
        wait_on_page(browser, "the feed marks it undone", lambda b: "(undone)" in b.find_element(
            By.CSS_SELECTOR, f'#feed li[data-event="{event.id}"]').text)
        browser.save_screenshot(str(ARTIFACTS / "14-relabel-undone-from-the-feed.png"))
