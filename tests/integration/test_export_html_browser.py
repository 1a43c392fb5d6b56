"""`kg export html` opens in headless Chromium with the network off, draws the paper's nodes in their
type colors, and a click on a node shows its provenance and evidence text."""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from typer.testing import CliRunner

from cli.main import app
from kg.db.graph import Graph
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from tests.browser_support import headless_chromium
from tests.sample_graph import NOW, sample_graph

pytestmark = pytest.mark.browser

# Every node of paper_a's part of the graph that the page draws (chunks and ingest runs are evidence, not drawn).
DRAWN = 24  # with the Domain node paper_a and its section are tagged with
_PIXELS_OF = """
const canvas = document.querySelector('#graph canvas');
const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
const [r, g, b] = arguments[0];
let count = 0;
for (let i = 0; i < pixels.length; i += 4) {
  if (pixels[i] === r && pixels[i + 1] === g && pixels[i + 2] === b) count++;
}
return count;
"""


def _rgb(color: str) -> list[int]:
    return [int(color[i:i + 2], 16) for i in (1, 3, 5)]


@pytest.fixture
def page(schema_db, cli_env, tmp_path):
    schema = get_schema()
    assert write_graph(Graph(schema_db), *sample_graph(), schema, now=NOW).ok
    out = tmp_path / "paper_a.html"
    result = CliRunner().invoke(app, ["export", "html", "--paper", "paper_a", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_page_works_offline_and_shows_provenance(page, tmp_path):
    schema = get_schema()
    with headless_chromium() as browser:
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Network.emulateNetworkConditions",
                                {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        browser.get(page.as_uri())
        deadline = time.monotonic() + 60
        while browser.execute_script("return document.body.dataset.ready") != "true":
            assert time.monotonic() < deadline, "the graph did not finish its layout in 60 s"
            time.sleep(0.2)
        browser.save_screenshot(str(tmp_path / "graph.png"))
        assert (tmp_path / "graph.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
        assert browser.execute_script("return window.paperkgGraph.network.body.data.nodes.length") == DRAWN
        assert browser.title == "Sparse Routing Transformers · paperkg knowledge graph"
        for label in ("Paper", "Method", "Dataset", "Result"):  # each type's color is painted on the canvas
            assert browser.execute_script(_PIXELS_OF, _rgb(schema.nodes[label].color)) > 20, label

        canvas = browser.find_element(By.CSS_SELECTOR, "#graph canvas")
        details = browser.find_element(By.ID, "details")
        deadline = time.monotonic() + 20
        while "Result: 33.2" not in details.text:  # a click where the node was an instant ago may miss it: again
            assert time.monotonic() < deadline, f"clicking the result showed: {details.text!r}"
            spot = browser.execute_script(
                "const n = window.paperkgGraph.network; return n.canvasToDOM(n.getPosition('Result/res_a1'));")
            ActionChains(browser).move_to_element_with_offset(
                canvas, spot["x"] - canvas.rect["width"] / 2, spot["y"] - canvas.rect["height"] / 2).click().perform()
            time.sleep(0.5)
        browser.save_screenshot(str(tmp_path / "clicked.png"))
        shown = details.text.splitlines()
        for name, value in (("verification_status", "auto"), ("confidence", "0.9"), ("pages", "6"),
                            ("paper_sha256", "a" * 64), ("extractor", "paperkg-test@1.0")):
            assert shown[shown.index(name) + 1] == value
        evidence = details.find_elements(By.CSS_SELECTOR, "blockquote.evidence")
        assert [e.text for e in evidence] == ["We evaluate SRT on PG-19 and report perplexity in Table 1."]
