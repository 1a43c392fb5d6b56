"""Property tests (hypothesis) of every exporter's escaping: whatever text a PDF puts into a title, each format
either gives it back unchanged when read by its own parser, or keeps it inert (no formula, no markup, no
broken structure)."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
import rdflib
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kg.export import json_graph, rdf
from kg.export.graphml import NS, to_graphml
from kg.export.html import to_html
from kg.export.markdown import md
from kg.export.mermaid import text as mermaid_text
from kg.export.tabular import CsvTable, cell, latex, to_bibtex, to_csv, verbatim
from kg.ingest.write import stamp
from ontology.loader import get_schema
from tests.sample_graph import NOW, sample_graph

SCHEMA = get_schema()
NODES, EDGES = ([stamp(n, SCHEMA, NOW) for n in part] for part in sample_graph())
FORMULA_STARTS = "=+-@\t\r\n"
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", re.ASCII)
# Text as PDFs give it, with the characters each format treats specially made likely.
TEXT = st.text(st.one_of(st.characters(codec="utf-8"), st.sampled_from(list("=+-@\t\r\n\"'<>&{}\\$%#_^~*|`[]0123456789.eE:;,"))),
               max_size=40)
EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def titled(title: str) -> list:
    return [replace(n, props={**n.props, "title": title}) if n.id == "paper_a" else n for n in NODES]


# ------------------------------------------------------------------ CSV

@pytest.mark.parametrize("text", ["-1+2", "-1+A1", "-2-cmd|' /C calc'!A0", "=1+1", "+A1", "@SUM(A1)", "\t=1", "\r=1",
                                  "-", "--1"])
def test_csv_guards_every_formula_that_is_not_a_plain_number(text):
    assert cell(text) == "'" + text


@pytest.mark.parametrize("text", ["-0.5", "-1", "+3", "1e-5", "-2.5E+3", "42", ".5", "0.90", "", "Table 1"])
def test_csv_leaves_plain_numbers_and_text_alone(text):
    assert cell(text) == text


@EXAMPLES
@given(TEXT)
def test_csv_cell_is_the_text_or_the_guarded_text(text):
    out = cell(text)
    if text[:1] and text[0] in FORMULA_STARTS and not PLAIN_NUMBER.fullmatch(text):
        assert out == "'" + text
    else:
        assert out == text
    assert not (out[:1] and out[0] in FORMULA_STARTS) or PLAIN_NUMBER.fullmatch(out)


@EXAMPLES
@given(TEXT)
def test_csv_round_trips_any_title_as_one_guarded_cell(title):
    rows = list(csv.DictReader(io.StringIO(to_csv(titled(title), EDGES, SCHEMA, CsvTable.PAPERS), newline="")))
    assert [r["paper_id"] for r in rows].count("paper_a") == 1 and len(rows) == 2
    assert next(r for r in rows if r["paper_id"] == "paper_a")["title"] == cell(title)


# ------------------------------------------------------------------ BibTeX

def _balanced(tex: str) -> bool:
    depth = 0
    for token in re.findall(r"\\.|[{}]", tex, re.DOTALL):
        depth += {"{": 1, "}": -1}.get(token, 0)
        if depth < 0:
            return False
    return depth == 0


@EXAMPLES
@given(TEXT)
def test_latex_leaves_no_special_character_unescaped(title):
    escaped = latex(title)
    bare = re.sub(r"\\(textbackslash|textasciicircum|textasciitilde)\{\}|\\[{}$&%#_]", "", escaped)
    assert not set(bare) & set("\\{}$&%#_^~") and "\n" not in escaped


@EXAMPLES
@given(TEXT, TEXT)
@example("", "\n@")  # a line of the DOI field beginning like a new entry
def test_bibtex_entries_stay_balanced(title, doi):
    nodes = [replace(n, props={**n.props, "title": title, "doi": doi}) if n.id == "paper_a" else n for n in NODES]
    entries = to_bibtex(nodes, EDGES, SCHEMA).split("\n@")
    assert len(entries) == 2 and all(_balanced(e) for e in entries)
    assert not set(verbatim(doi)) & set("{}\\")


# ------------------------------------------------------------------ Markdown, Mermaid

@EXAMPLES
@given(TEXT)
def test_markdown_inline_text_has_no_live_markup(text):
    bare = re.sub(r"\\.", "", md(text))
    assert not set(bare) & set("\\`*_[]<>|~&#") and "\n" not in md(text)


@EXAMPLES
@given(TEXT)
def test_mermaid_label_is_one_quoted_string(text):
    label = mermaid_text(text)
    inner = label[1:-1]
    assert label[0] == label[-1] == '"' and not set(inner) & set('"<>`*_#\n\r')


# ------------------------------------------------------------------ HTML, GraphML, RDF, JSON

@EXAMPLES
@given(TEXT)
def test_html_data_island_holds_the_title_and_nothing_escapes_it(title):
    page = to_html(titled(title), EDGES, SCHEMA)
    assert page.count("</script") == to_html(titled("plain"), EDGES, SCHEMA).count("</script")
    raw = page.split('<script type="application/json" id="graph-data">')[1].split("</script>")[0]
    paper = next(n for n in json.loads(raw)["nodes"] if n["key"] == "Paper/paper_a")
    assert paper["props"]["title"] == title


@EXAMPLES
@given(TEXT)
def test_graphml_is_well_formed_and_keeps_the_title(title):
    root = ET.fromstring(to_graphml(titled(title), EDGES, SCHEMA))
    key = next(k.get("id") for k in root.iter(f"{{{NS}}}key") if (k.get("for"), k.get("attr.name")) == ("node", "title"))
    paper = root.find(f".//{{{NS}}}node[@id='Paper/paper_a']")
    written = next((d.text or "") for d in paper if d.get("key") == key)
    expected = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "", title)  # what XML 1.0 can hold
    # an XML parser normalises line ends: a lone CR reads back as LF
    assert written == expected.replace("\r\n", "\n").replace("\r", "\n")


@EXAMPLES
@given(TEXT)
@pytest.mark.parametrize("fmt", [rdf.RdfFormat.TURTLE, rdf.RdfFormat.JSON_LD])
def test_rdf_parses_back_with_the_title(fmt, title):
    text = rdf.serialize(rdf.to_rdf(titled(title), EDGES, SCHEMA), fmt)
    graph = rdflib.Graph().parse(data=text, format="turtle" if fmt == rdf.RdfFormat.TURTLE else "json-ld")
    subject = rdf.node_iri("Paper", "paper_a")
    assert title in {str(o) for o in graph.objects(subject) if isinstance(o, rdflib.Literal)}


@EXAMPLES
@given(TEXT)
def test_json_round_trips_the_title(title):
    document = json.loads(json_graph.dumps(json_graph.to_document(titled(title), EDGES, SCHEMA)))
    nodes, _ = json_graph.from_document(document, SCHEMA)
    assert next(n for n in nodes if n.id == "paper_a").props["title"] == title
