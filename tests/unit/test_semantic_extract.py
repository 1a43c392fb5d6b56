"""extract_semantics and the mapper on a hand-built Document: annotations point at the words they were read from;
the records they make hold entities, results, links, provenance, and the schema accepts them."""

from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from extractors.bbox import format_bbox
from extractors.model import Audit, Box, Chunk, Document, Float, Metadata, Profile, Section, TextLine
from extractors.semantic import EXTRACTOR
from extractors.semantic.canonical import entity_id
from extractors.semantic.extract import extract_semantics
from extractors.semantic.passages import document_passages
from kg.ingest.semantic_mapping import map_semantics
from kg.ingest.validation import validate_batch
from kg.ingest.write import stamp
from ontology.loader import get_schema

SHA = "a" * 64
INTRO = ("We propose GraphRank, a new ranking model for citation recommendation. "
         "Citation recommendation is the task of suggesting papers to cite.")
METHOD = ("GraphRank is based on PageRank (Page et al., 1999). We define citation context as the sentence around "
          "a citation marker. GraphRank builds on PageRank with learned weights.")
EXPERIMENT = ("We evaluate GraphRank on the CiteBench dataset and compare with PageRank. Performance is measured by "
              "MRR and recall. GraphRank reaches an MRR of 41.2 on CiteBench (Table 1).")
TABLE = "Table 1: Results on CiteBench."


def _document() -> Document:
    parts = [("Introduction", INTRO), ("Method", METHOD), ("Experiment", EXPERIMENT)]
    text, sections, chunks, lines = "", [], [], []
    for n, (kind, body) in enumerate(parts, start=1):
        start = len(text)
        text += body + "\n\n"
        for k, (a, b) in enumerate(_line_spans(body)):  # a line per sentence, each a box of its own
            lines.append(TextLine(char_start=start + a, char_end=start + b, page=1,
                                  bbox=(50, 100 * n + 14 + 12 * k, 300, 100 * n + 24 + 12 * k)))
        sections.append(Section(id=f"sec{n}", number=str(n), title=kind, level=1, parent_id=None, ordinal=n, kind=kind,
                                page_start=1, page_end=1, box=Box(page=1, bbox=(50, 100 * n, 300, 100 * n + 12)),
                                char_start=start, char_end=start + len(body)))
        chunks.append(Chunk(id=f"chunk{n}", kind="text", text=body, section_id=f"sec{n}", section_path=[kind],
                            page_start=1, page_end=1, boxes=[Box(page=1, bbox=(50, 100 * n + 14, 300, 100 * n + 80))],
                            char_start=start, char_end=start + len(body), content_hash=f"h{n}"))
    start = len(text)
    text += TABLE
    table = Float(id="tab1", kind="table", label="1", caption="Results on CiteBench.", page=2, bbox=(50, 50, 300, 200),
                  caption_bbox=(50, 50, 300, 60), rows=[["Model", "MRR", "Recall"], ["PageRank", "35.0", "50.1"],
                                                        ["GraphRank", "41.2", "58.3"]], section_id="sec3")
    chunks.append(Chunk(id="chunk4", kind="table", text=TABLE, section_id="sec3", section_path=["Experiment"],
                        page_start=2, page_end=2, boxes=[Box(page=2, bbox=(50, 50, 300, 200))], char_start=start,
                        char_end=start + len(TABLE), content_hash="h4", element_id="tab1"))
    return Document(sha256=SHA, file_name="t.pdf", page_count=2, text=text,
                    metadata=Metadata(title="GraphRank: ranking citations"), sections=sections, tables=[table],
                    chunks=chunks, lines=lines, profile=Profile(text_kind="native", chars_per_page=1000, columns=1),
                    audit=Audit(sha256=SHA, page_count=2))


def _line_spans(body: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    while start < len(body):
        end = body.find(". ", start)
        end = len(body) if end < 0 else end + 1
        spans.append((start, end))
        start = end + 1
    return spans


@pytest.fixture(scope="module")
def annotations():
    return extract_semantics(_document()).annotations


@pytest.fixture(scope="module")
def extraction(annotations):
    nodes, edges = map_semantics(_document(), annotations)
    return SimpleNamespace(nodes=nodes, edges=edges)


def test_annotations_point_at_the_words_they_were_read_from(annotations):
    doc = _document()
    graphrank = next(e for e in annotations.entities if e.entity.name == "GraphRank")
    assert graphrank.mentions and {doc.text[m.char_start:m.char_end] for m in graphrank.mentions} == {"GraphRank"}
    assert all(doc.chunk_at(m.char_start).id == m.element_id for m in graphrank.mentions)
    definition = next(d for d in annotations.definitions if d.term == "citation context")
    sentence = definition.sentence
    assert doc.text[sentence.char_start:sentence.char_end].startswith("We define citation context")


def test_a_mention_edge_has_the_boxes_of_the_lines_its_words_are_printed_on(extraction):
    """Not the chunk's region: each mention's own line (the fixture prints one sentence per line)."""
    doc = _document()
    [edge] = [e for e in extraction.edges if e.type == "MENTIONS" and e.source_id == "chunk3"
              and e.target_id == entity_id("Dataset", "CiteBench")]
    expected = [format_bbox(line.page, line.bbox) for line in doc.lines
                if any(line.char_start <= s < line.char_end for s in edge.props["char_starts"])]
    assert len(edge.props["char_starts"]) == 2 and len(expected) == 2  # two sentences name it
    assert edge.props["bboxes"] == expected
    assert format_bbox(1, doc.chunk("chunk3").boxes[0].bbox) not in edge.props["bboxes"]


def _edges(extraction, type_):
    return {(e.source_id, e.target_label, e.target_id) for e in extraction.edges if e.type == type_}


def test_salient_entities_by_type(extraction):
    names = {(n.label, n.props["name"]) for n in extraction.nodes if n.label in ("Method", "Dataset", "Metric", "Task")}
    assert {("Method", "GraphRank"), ("Method", "PageRank"), ("Dataset", "CiteBench"), ("Metric", "mean reciprocal rank"),
            ("Metric", "recall"), ("Task", "citation recommendation")} <= names


def test_section_headings_are_passages_of_their_section():
    headings = [(p.text, p.section_kind, p.page, p.chunk_id) for p in document_passages(_document()) if p.kind == "heading"]
    assert headings == [("Introduction", "Introduction", 1, "chunk1"), ("Method", "Method", 1, "chunk2"),
                        ("Experiment", "Experiment", 1, "chunk3")]


def test_proposed_versus_used(extraction):
    from extractors.model import paper_id

    paper = paper_id(SHA)
    assert (paper, "Method", entity_id("Method", "GraphRank")) in _edges(extraction, "PROPOSES")
    assert (paper, "Method", entity_id("Method", "PageRank")) in _edges(extraction, "USES")
    assert (paper, "Dataset", entity_id("Dataset", "CiteBench")) in _edges(extraction, "EVALUATES_ON")


def test_result_table_gives_experiment_and_results(extraction):
    results = {n.id: n.props for n in extraction.nodes if n.label == "Result"}
    of_method = {e.source_id: e.target_id for e in extraction.edges if e.type == "OF_METHOD"}
    metric = {e.source_id: e.target_id for e in extraction.edges if e.type == "FOR_METRIC"}
    facts = {(of_method.get(r), metric[r], p["value"]) for r, p in results.items()}
    graphrank, mrr = entity_id("Method", "GraphRank"), entity_id("Metric", "mean reciprocal rank")
    assert (graphrank, mrr, 41.2) in facts and (graphrank, entity_id("Metric", "recall"), 58.3) in facts
    assert len(results) == 4
    assert all(p["pages"] == [2] for p in results.values())


def test_definitions_and_dependencies(extraction):
    concept = next(n for n in extraction.nodes if n.label == "Concept")
    assert concept.props["name"] == "citation context"
    assert concept.props["definition"].startswith("We define citation context as")
    assert ("chunk2", "Concept", concept.id) in _edges(extraction, "DEFINES")
    assert (entity_id("Method", "GraphRank"), "Method", entity_id("Method", "PageRank")) in {
        (e.source_id, e.target_label, e.target_id) for e in extraction.edges if e.type == "DEPENDS_ON"}


def test_mentions_carry_spans_into_the_document_text(extraction):
    doc = _document()
    mention = next(e for e in extraction.edges if e.type == "MENTIONS" and e.target_id == entity_id("Dataset", "CiteBench"))
    assert [doc.text[s:e] for s, e in zip(mention.props["char_starts"], mention.props["char_ends"])] == ["CiteBench"] * \
        len(mention.props["char_starts"])


def test_every_element_has_provenance_and_confidences_vary(extraction):
    for element in extraction.nodes + extraction.edges:
        assert element.props["extractor"] == EXTRACTOR and element.props["verification_status"] == "auto"
        assert 0 < element.props["confidence"] <= 1
    for edge in extraction.edges:
        assert edge.props["source_chunk_ids"] and edge.props["pages"] and edge.props["paper_sha256"] == SHA
    assert len({e.props["confidence"] for e in extraction.nodes + extraction.edges}) > 5
    assert all("paper_sha256" not in n.props for n in extraction.nodes if n.label in ("Method", "Dataset", "Metric"))


def test_a_papers_edge_to_an_entity_says_how_central_the_entity_is(extraction):
    """The proposed method the title names and the results table reports is central; the method it builds on,
    cited in the method section and named once as a comparison, is used, not central."""
    props = {(e.type, e.target_id): e.props for e in extraction.edges if e.source_label == "Paper"
             and e.type in ("PROPOSES", "USES", "EVALUATES_ON", "MEASURES", "ADDRESSES")}
    proposed, used = props[("PROPOSES", entity_id("Method", "GraphRank"))], props[("USES", entity_id("Method", "PageRank"))]
    assert proposed["central"] is True and used["central"] is False
    assert 0.0 < used["salience"] < proposed["salience"] <= 1.0
    assert all(isinstance(p["salience"], float) and isinstance(p["central"], bool) for p in props.values())


def test_schema_accepts_everything(extraction):
    schema, now = get_schema(), datetime.now(timezone.utc)
    batch = validate_batch([stamp(n, schema, now) for n in extraction.nodes],
                           [stamp(e, schema, now) for e in extraction.edges], schema)
    assert batch.rejections == []


def test_a_table_headed_by_statistics_alone_is_no_result_table():
    from extractors.semantic.passages import TableGrid
    from extractors.semantic.results import table_experiment

    grid = TableGrid("t1", "2", "Characteristics of the participants.", (("Variable", "SD", "p-value"),
                     ("Age", "9.6", "0.001"), ("Education", "3.5", "0.01")), 1, "1:0,0,1,1", None)
    assert table_experiment(grid) is None
