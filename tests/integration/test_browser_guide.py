"""Neo4j Browser greets explorers (issues 29 and 30): on connecting to a server that `kg db start`'s code
configured, Browser applies paperkg's style sheet and opens the paperkg guide, both fetched from the API; a click
on the guide's first query and a run draw the papers with their methods, datasets and tasks in the sheet's colours,
a paper captioned with its title, and nothing curators rejected. The README's link opens Browser with that query
in its editor. Screenshots of the guide and the result are kept in the test's tmp_path."""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from selenium.webdriver.common.by import By

from api import browser_guide
from bench.neo4j import free_port, throwaway_settings
from kg.db import store
from kg.db.graph import Graph
from kg.db.schema import init_schema
from kg.settings import BROWSER_GUIDE_PATH, Settings
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from ontology.style import grass
from tests.browser_support import NeoBrowser, headless_chromium
from tests.integration.test_cypher_docs import rejected_elements
from tests.live_api import served
from tests.neo4j_harness import throwaway_neo4j
from tests.sample_graph import sample_graph

pytestmark = pytest.mark.browser

TITLES = ("Sparse Routing Transformers", "A Benchmark for Long Documents")


@pytest.fixture(scope="module")
def served_graph(tmp_path_factory) -> Iterator[tuple[Settings, str]]:
    """A Neo4j of this module's own, whose neo4j.conf points Browser at an API on a free port (the session's server
    points at the default port, where somebody else's API may answer), holding the sample graph and a few rejected
    elements; and that API."""
    settings = throwaway_settings(tmp_path_factory.mktemp("guide-neo4j"), api_port=free_port())
    with throwaway_neo4j(settings):
        driver = store.connect(settings)
        with driver:
            init_schema(Graph(driver), get_schema(), settings.embedding_dim)
            nodes, edges = sample_graph()
            more_nodes, more_edges = rejected_elements()
            assert write_graph(Graph(driver), nodes + more_nodes, edges + more_edges, get_schema()).ok
            with served(settings, port=settings.api_port) as url:
                yield settings, url


@contextmanager
def _connected(url: str, settings: Settings, evidence: Path) -> Iterator[NeoBrowser]:
    with headless_chromium() as driver:
        browser = NeoBrowser(driver, evidence)
        browser.open(url)
        status = browser.login("bolt://", f"localhost:{settings.bolt_port}", settings.neo4j_user,
                               settings.neo4j_password.get_secret_value())
        if status:
            browser.fail(f"login failed: {status}")
        yield browser


def _sheet_colours() -> dict[str, tuple[str, str]]:
    """Each label's fill and border colour as the style sheet gives them."""
    blocks = re.findall(r"node\.(\w+) \{\n(.*?)\n\}", grass(get_schema()), re.S)
    return {label: (re.search(r"  color: (#\w+);", body).group(1), re.search(r"border-color: (#\w+);", body).group(1))
            for label, body in blocks}


def _drawn_nodes(frame) -> list[tuple[str, str, str]]:
    """(caption, fill, border) of each node the frame's graph view draws."""
    nodes = []
    for node in frame.find_elements(By.CSS_SELECTOR, "svg g.node"):
        circle = node.find_element(By.CSS_SELECTOR, "circle.b-outline")
        caption = " ".join(t.text.strip() for t in node.find_elements(By.CSS_SELECTOR, "text.caption"))
        nodes.append((caption, circle.get_attribute("fill").upper(), circle.get_attribute("stroke").upper()))
    return nodes


def test_browser_opens_the_guide_on_connect_and_its_first_query_draws_styled(served_graph, tmp_path):
    settings, api = served_graph
    with _connected(settings.browser_url, settings, tmp_path / "browser-evidence") as browser:
        command = f":play {api}{BROWSER_GUIDE_PATH}"
        guide = browser.wait_for("the paperkg guide", lambda _: (f := browser.frame(command)) is not None
                                 and "What the papers are about" in f.text and f)
        browser.driver.save_screenshot(str(tmp_path / "guide.png"))
        first = guide.find_element(By.CSS_SELECTOR, "pre.runnable")
        if first.text.strip() != browser_guide.first_query():
            browser.fail(f"the guide's first runnable block is {first.text!r}, not the documented first query")
        first.click()
        browser.element("editor-Run").click()

        def drawn(_):
            newest = browser.driver.find_elements(By.CSS_SELECTOR, "[data-testid=stream] [data-testid=frame]")[0]
            label = newest.find_element(By.CSS_SELECTOR, "[data-testid=frameCommand]").text
            return label.startswith("MATCH (p:Paper)") and len(_drawn_nodes(newest)) >= 7 and newest

        frame = browser.wait_for("the first query's graph", drawn)
        browser.driver.save_screenshot(str(tmp_path / "result.png"))
        nodes = _drawn_nodes(frame)
        colours = _sheet_colours()
        by_colour = {colour: label for label, colour in colours.items()}
        labels = [by_colour.get((fill, border)) for _, fill, border in nodes]
        # two papers, their two methods, PG-19 and BookCorpus, language modeling; the rejected method is not drawn
        if sorted(map(str, labels)) != ["Dataset", "Dataset", "Method", "Method", "Paper", "Paper", "Task"]:
            browser.fail(f"the nodes should be drawn in the style sheet's colours {colours}, they are {nodes}")
        papers = [caption for (caption, *_), label in zip(nodes, labels) if label == "Paper"]
        if not all(any(title.startswith(caption.removesuffix("…").strip()) for title in TITLES) and len(caption) > 3
                   for caption in papers):
            browser.fail(f"each paper should be captioned with its title, the captions are {papers}")
        if any("Fake" in caption for caption, *_ in nodes):
            browser.fail(f"a method curators rejected is drawn: {nodes}")


def test_the_readme_link_opens_browser_with_the_first_query_in_the_editor(served_graph, tmp_path):
    settings, _ = served_graph
    link = browser_guide.browser_link(settings.browser_url, browser_guide.first_query())
    with _connected(link, settings, tmp_path / "browser-evidence") as browser:
        editor = browser.element("activeEditor").find_element(By.CSS_SELECTOR, ".view-lines")
        held = browser.wait_for("the linked query in the editor", lambda _: editor.text.replace("\xa0", " ").strip())
        browser.driver.save_screenshot(str(tmp_path / "linked.png"))
        if held.split() != browser_guide.first_query().split():
            browser.fail(f"the editor holds {held!r}, not the linked query")
