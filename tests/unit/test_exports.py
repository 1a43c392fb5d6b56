"""The document-like exports of the hand-made sample graph, checked line by line, and the escaping of
hostile text in every format."""

from __future__ import annotations

import csv
import importlib.resources
import io
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from kg.errors import GraphImportError
from kg.export import json_graph
from kg.export.graphml import NS, to_graphml
from kg.export.html import to_html
from kg.export.markdown import md, to_markdown
from kg.export.mermaid import MermaidKind, text, to_mermaid
from kg.export.tabular import CsvTable, latex, to_bibtex, to_csv
from kg.ingest.write import stamp
from ontology.loader import get_schema
from ontology.records import NodeRecord
from tests.sample_graph import NOW, sample_graph

HOSTILE = 'Attack </script><script>alert(1)</script> & "q" #1 | *b* {x}_$%~^\\'


@pytest.fixture(scope="module")
def schema():
    return get_schema()


@pytest.fixture
def graph(schema):
    nodes, edges = sample_graph()
    return [stamp(n, schema, NOW) for n in nodes], [stamp(e, schema, NOW) for e in edges]


def _curate(nodes, edges, node_id=None, edge_key=None, status="verified"):
    """The graph with one node or edge given a curated status."""
    nodes = [replace(n, props={**n.props, "verification_status": status}) if n.id == node_id else n for n in nodes]
    edges = [replace(e, props={**e.props, "verification_status": status}) if e.key == edge_key else e for e in edges]
    return nodes, edges


def _hostile_title(nodes):
    return [replace(n, props={**n.props, "title": HOSTILE}) if n.id == "paper_a" else n for n in nodes]


# ------------------------------------------------------------------ markdown
def test_markdown_notes_of_a_paper(graph, schema):
    nodes, edges = _curate(*graph, node_id="res_a1", edge_key=("paper_a", "PROPOSES", "method_srt"))
    nodes, edges = _curate(nodes, edges, node_id="paper_a", status="flagged")
    notes = to_markdown(nodes, edges, schema)
    part = notes.split("\n---\n")[1]  # papers sort by title: "A Benchmark..." first
    assert part.startswith("\n# Sparse Routing Transformers\n")
    assert "- **Paper:** paper\\_a · srt.pdf · 9 pages · 2021 · DOI 10.1234/srt · ⚑ flagged" in part
    assert "- **Authors:** Ada Lee, Bo Kim" in part
    outline = part.split("## Outline\n\n")[1].split("\n\n")[0].splitlines()
    assert outline == ["- 1 Introduction (pp. 1–2)", "- 2 Method (pp. 2–4)", "  - 2.1 Routing Attention (p. 3)",
                       "- 3 Experiments (pp. 5–7)"]
    assert "- Proposes **Sparse Routing Transformer** (method; p. 1; confidence 0.92; ✓ verified)" in part
    assert "- **PG-19** (also: PG19, Project Gutenberg 19): evaluates on; p. 5; confidence 0.85" in part
    assert ("| Sparse Routing Transformer | PG-19 | perplexity | 33.2 | Table 1 | p. 6 | 0.90 | ✓ verified |"
            in part)
    assert "| Transformer | PG-19 | perplexity | 36.1 |  | p. 6 | 0.90 |  |" in part
    assert "| Figure 2 | Attention patterns of SRT. | 4 |  |" in part


def test_paper_shaped_exports_are_about_the_papers_asked_for(graph, schema):
    """paper_a's part of the graph holds paper_b (it cites paper_a); the notes and tables are about paper_a only."""
    assert to_markdown(*graph, schema, ["paper_a"]).count("\n---\n") == 0
    assert to_markdown(*graph, schema, ["paper_a", "paper_b"]).count("\n---\n") == 1
    rows = list(csv.DictReader(io.StringIO(to_csv(*graph, schema, CsvTable.PAPERS, ["paper_a"]))))
    assert [r["paper_id"] for r in rows] == ["paper_a"]
    bib = to_bibtex(*graph, schema, ["paper_b"])
    assert bib.startswith("@misc{paper_b,") and bib.count("@misc{") == 1
    assert '"Paper: A Benchmark' not in to_mermaid(*graph, schema, MermaidKind.FLOWCHART, ["paper_a"])
    assert to_mermaid(*graph, schema, MermaidKind.MINDMAP, ["paper_a"]).splitlines()[1:3] == [
        "  %% paper_a", '  n1(("Sparse Routing Transformers"))']


def test_markdown_escapes_markup(graph, schema):
    assert md("a*b_c [l](u) <b> | `x` #h &amp;\nnext") == r"a\*b\_c \[l\](u) \<b\> \| \`x\` \#h \&amp; next"
    notes = to_markdown(_hostile_title(graph[0]), graph[1], schema)
    assert r"# Attack \</script\>\<script\>alert(1)\</script\> \& " in notes
    assert "<script>" not in notes


# ------------------------------------------------------------------ mermaid
def test_mermaid_flowchart_edges_and_marks(graph, schema):
    nodes, edges = _curate(*graph, edge_key=("paper_a", "PROPOSES", "method_srt"))
    chart = to_mermaid(nodes, edges, schema, MermaidKind.FLOWCHART).splitlines()
    assert chart[0] == "flowchart LR"
    assert '  n2["Paper: Sparse Routing Transformers"]:::Paper' in chart
    assert '  n4["Method: Sparse Routing Transformer"]:::Method' in chart
    assert '  n2 -->|"proposes (p. 1, ✓ verified)"| n4' in chart
    assert '  n10 -->|"of method"| n4' in chart
    assert "  classDef Method fill:#DA7194,color:#000" in chart


def test_mermaid_mindmap_outline(graph, schema):
    lines = to_mermaid(*graph, schema, MermaidKind.MINDMAP).splitlines()
    assert lines[:3] == ["mindmap", '  n1(("2 papers"))', "    %% paper_b"]
    assert '        n9["2.1 Routing Attention (p. 3)"]' not in lines  # nested one level deeper than its parent
    assert '          n9["2.1 Routing Attention (p. 3)"]' in lines
    assert '        n23["Table 1: Perplexity on PG-19. (p. 6)"]' in lines


def test_mermaid_labels_are_entity_coded(graph, schema):
    assert text('a "b" #1 <c> & *d* _e_ `f`\ng') == \
        '"a &quot;b&quot; &num;1 &lt;c&gt; &amp; &ast;d&ast; &lowbar;e&lowbar; &grave;f&grave; g"'
    chart = to_mermaid(_hostile_title(graph[0]), graph[1], schema, MermaidKind.MINDMAP)
    assert '"q"' not in chart and "<script>" not in chart and "&quot;q&quot;" in chart


# ------------------------------------------------------------------ tabular
def test_csv_results_table(graph, schema):
    rows = list(csv.reader(io.StringIO(to_csv(*graph, schema, CsvTable.RESULTS))))
    assert rows == [
        ["paper_id", "result_id", "method", "dataset", "metric", "value", "reported_in", "pages", "confidence",
         "verification_status"],
        ["paper_a", "res_a1", "Sparse Routing Transformer", "PG-19", "perplexity", "33.2", "Table 1", "p. 6", "0.90",
         "auto"],
        ["paper_a", "res_a2", "Transformer", "PG-19", "perplexity", "36.1", "", "p. 6", "0.90", "auto"]]


def test_csv_papers_quotes_and_defuses_formulas(graph, schema):
    nodes = [replace(n, props={**n.props, "title": '=HYPERLINK("x"), "quoted"\nline'}) if n.id == "paper_b" else n
             for n in graph[0]]
    rows = list(csv.DictReader(io.StringIO(to_csv(nodes, graph[1], schema, CsvTable.PAPERS))))
    assert [r["paper_id"] for r in rows] == ["paper_b", "paper_a"]
    assert rows[0]["title"] == '\'=HYPERLINK("x"), "quoted"\nline'
    assert rows[1] | {"sha256": "", "title": ""} == {
        "paper_id": "paper_a", "title": "", "authors": "Ada Lee; Bo Kim", "year": "2021", "doi": "10.1234/srt",
        "arxiv_id": "", "file_name": "srt.pdf", "page_count": "9", "sha256": "", "extractor": "paperkg-test@1.0",
        "confidence": "1.0", "verification_status": "auto"}


def test_bibtex(graph, schema):
    bib = to_bibtex(_hostile_title(graph[0]), graph[1], schema)
    entry = bib.split("\n\n")[1]
    assert entry.splitlines() == [
        "@misc{paper_a,",
        r"  title = {{Attack </script><script>alert(1)</script> \& " '"q" '
        r"\#1 | *b* \{x\}\_\$\%\textasciitilde{}\textasciicircum{}\textbackslash{}}},",
        "  author = {Ada Lee and Bo Kim},",
        "  year = {2021},",
        "  doi = {10.1234/srt},",
        "  file = {srt.pdf},",
        r"  note = {paperkg paper\_a; PDF sha256 " + "a" * 64 + "; extractor paperkg-test@1.0; confidence 1.0; "
        "verification auto}",
        "}"]
    assert latex("50% of {x}") == r"50\% of \{x\}"


# ------------------------------------------------------------------ graphml
def test_graphml_is_valid_xml_with_typed_attributes(graph, schema):
    nodes = [replace(n, props={**n.props, "caption": HOSTILE + "\x0c"}) if n.id == "fig_a1" else n for n in graph[0]]
    root = ET.fromstring(to_graphml(nodes, graph[1], schema))
    keys = {(k.get("for"), k.get("attr.name")): (k.get("id"), k.get("attr.type")) for k in root.iter(f"{{{NS}}}key")}
    assert keys[("node", "page")][1] == "long" and keys[("node", "confidence")][1] == "double"
    figure = root.find(f".//{{{NS}}}node[@id='Figure/fig_a1']")
    data = {k: d.text for d in figure for (scope, k), (key_id, _) in keys.items() if d.get("key") == key_id}
    assert data["label"] == "Figure 1" and data["prop_label"] == "1" and data["neo4j_label"] == "Figure"
    assert data["caption"] == HOSTILE  # the form feed, which XML cannot hold, is dropped
    assert json.loads(data["bboxes"]) == ["2:72,80,300,250"]
    assert len(root.findall(f".//{{{NS}}}node")) == 30 and len(root.findall(f".//{{{NS}}}edge")) == 51


# ------------------------------------------------------------------ html
def test_html_page_is_self_contained_and_data_cannot_escape(graph, schema):
    page = to_html(_hostile_title(graph[0]), graph[1], schema)
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)  # nothing loaded from anywhere
    assert page.count("<script>alert(1)") == 0 and "alert(1)" in page
    raw = page.split('<script type="application/json" id="graph-data">')[1].split("</script>")[0]
    data = json.loads(raw)
    assert {n["label"] for n in data["nodes"]} == {"Paper", "Author", "Section", "Figure", "Table", "Equation",
                                                   "Reference", "Method", "Dataset", "Metric", "Task", "Concept",
                                                   "Experiment", "Result", "Domain"}  # chunks and runs: evidence
    paper = next(n for n in data["nodes"] if n["key"] == "Paper/paper_a")
    assert paper["caption"] == HOSTILE and paper["props"]["verification_status"] == "auto"
    assert data["evidence"]["chunk_a3"] == "We evaluate SRT on PG-19 and report perplexity in Table 1."
    assert "<title>2 papers · paperkg knowledge graph</title>" in page
    one = to_html(_hostile_title(graph[0]), graph[1], schema, ["paper_a"])
    assert "<title>Attack &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;" in one


def test_html_page_inlines_the_vendored_vis_network_build_whose_licence_ships_beside_it(graph, schema):
    vendor = importlib.resources.files("kg.export") / "vendor"
    notice = (vendor / "NOTICE.vis-network.md").read_text()
    build = (vendor / "vis-network.min.js").read_text()
    version = re.search(r"@version (\S+)", build).group(1)
    assert int(version.split(".")[0]) >= 10 and f"vis-network {version}" in notice and "MIT License" in notice
    assert build in to_html(*graph, schema)


# ------------------------------------------------------------------ json
def test_json_document_round_trips_records(graph, schema):
    nodes, edges = graph
    document = json.loads(json_graph.dumps(json_graph.to_document(nodes, edges, schema, ["paper_a"])))
    assert (document["format"], document["version"], document["scope"]) == ("paperkg-graph", 1, {"papers": ["paper_a"]})
    assert document["nodes"][0]["properties"]["created_at"] == "2026-11-29T12:00:00+00:00"
    back_nodes, back_edges = json_graph.from_document(document, schema)
    key = lambda n: (n.label, n.id)  # noqa: E731
    assert sorted(back_nodes, key=key) == sorted(nodes, key=key)
    assert sorted(back_edges, key=lambda e: e.key) == sorted(edges, key=lambda e: e.key)


@pytest.mark.parametrize("document, message", [
    ({"format": "other"}, "not a paperkg-graph file"),
    ({"format": "paperkg-graph", "version": 2, "nodes": [], "edges": []}, "version 2 is not supported"),
    ({"format": "paperkg-graph", "version": 1, "nodes": [{"label": "Paper"}], "edges": []}, "lacks 'id'"),
])
def test_json_refuses_other_files(document, message, schema):
    with pytest.raises(GraphImportError, match=message):
        json_graph.from_document(document, schema)


def test_json_keeps_text_that_is_not_a_datetime_for_the_validator(schema):
    document = {"format": "paperkg-graph", "version": 1, "edges": [],
                "nodes": [{"label": "Author", "id": "a", "properties": {"created_at": "yesterday"}}]}
    assert json_graph.from_document(document, schema)[0] == [NodeRecord("Author", "a", {"created_at": "yesterday"})]
