"""Section summaries (issue 30) on a generated paper whose sections each hold one sentence that gathers the key terms
the section's other sentences share, and filler that shares none of them: the central sentence is the summary's
first pick, filler is never picked, a section without prose of its own gets none, and every sentence is the text at
its span, on the page it is printed on. The mapped records pass the validator and the SHACL shapes."""

from __future__ import annotations

import pymupdf
import pytest
from pyshacl import validate
from rdflib import Graph

from extractors.pipeline import parse_pdf
from extractors.summaries import MAX_SENTENCES, summarize_sections
from kg.export.rdf import to_rdf
from kg.ingest.mapping import map_document
from kg.ingest.validation import Reason, validate_batch
from kg.ingest.write import stamp
from ontology.loader import ONTOLOGY_FILE, SHAPES_FILE, get_schema
from ontology.records import NodeRecord
from tests.pdf_factory import BOLD, Writer, write
from tests.sample_graph import NOW

# (section, central sentence, sentences sharing its key terms, filler sharing none)
ROUTING = ("2 Method",
           "Sparse routing attention sends every token to learned clusters, so each token attends only to tokens "
           "of its own cluster.",
           ["Routing decisions depend on the clusters that tokens join during training.",
            "Attention inside one cluster costs far less than dense attention over every token.",
            "Clusters are refreshed whenever tokens move, which keeps routing cheap."],
           ["Laboratory walls got painted pale green last spring.",
            "Coffee plus biscuits arrived for visiting committee members.",
            "Several chairs in our seminar room were replaced recently."])
BENCHMARK = ("3 Evaluation",
             "Perplexity on the long document benchmark drops when document length grows past the benchmark's "
             "median length.",
             ["Each benchmark document exceeds eight thousand words in length.",
              "Perplexity is reported per benchmark split, averaged over documents.",
              "Longer context lowers perplexity most for the longest documents."],
             ["Our parking garage closes at midnight during holidays.",
              "Volunteers watered tomato plants beside the old greenhouse.",
              "Heavy snow delayed several trains near the northern border."])
INTRODUCTION = ["Long inputs make dense attention expensive for language models of every size.",
                "This paper studies a cheaper alternative built from clusters of tokens."]
EMPTY_PARENT = "4 Analysis"  # directly followed by its subsection: no prose of its own


def summaries_paper() -> bytes:
    w = Writer()
    w.line("Routing Tokens Through Clusters", size=18, font=BOLD, full_width=True, center=True)
    w.line("Ada Lee", size=11, full_width=True, center=True)
    w.line("Abstract", size=12, font=BOLD, center=True)
    w.paragraph("We route tokens through clusters and measure perplexity on long documents.", full_width=True)
    w.heading("1 Introduction")
    w.paragraph(" ".join(INTRODUCTION))
    for title, central, related, filler in (ROUTING, BENCHMARK):
        w.heading(title)
        # the central sentence in the middle, so that position decides nothing
        w.paragraph(" ".join([filler[0], related[0], related[1], central]))
        w.paragraph(" ".join([filler[1], related[2], filler[2]]))
    w.heading(EMPTY_PARENT)
    w.heading("4.1 Memory", size=11)
    w.paragraph("Memory use stays flat as inputs grow because clusters have a fixed size. "
                "Peak memory is measured on one accelerator for every configuration.")
    w.heading("References")
    w.paragraph("[1] A. Author. A cited paper about routing tokens through clusters. Journal of Tests, 2020.")
    return w.bytes()


@pytest.fixture(scope="module")
def document(tmp_path_factory):
    return parse_pdf(write(tmp_path_factory.mktemp("summaries"), "summaries.pdf", summaries_paper()))


def squashed(text: str) -> str:
    return " ".join(text.split())


def by_heading(document) -> dict:
    return {" ".join(filter(None, (s.number, s.title))): s for s in document.sections}


@pytest.mark.parametrize("case", [ROUTING, BENCHMARK], ids=["routing", "benchmark"])
def test_the_central_sentence_is_picked_and_filler_never(document, case):
    title, central, related, filler = case
    summary = [squashed(s.text) for s in by_heading(document)[title].summary]
    assert len(summary) == MAX_SENTENCES  # seven sentences: one pick in three of them
    assert central in summary
    assert set(summary) <= {central, *related}
    assert not set(summary) & set(filler)


def test_with_one_sentence_allowed_it_is_the_central_one(document):
    sections = {" ".join(filter(None, (s.number, s.title))): s
                for s in summarize_sections(document.sections, document.chunks, max_sentences=1)}
    assert [squashed(s.text) for s in sections[ROUTING[0]].summary] == [ROUTING[1]]
    assert [squashed(s.text) for s in sections[BENCHMARK[0]].summary] == [BENCHMARK[1]]


def test_sections_without_prose_get_no_summary(document):
    sections = by_heading(document)
    assert sections[EMPTY_PARENT].summary == []
    assert sections["References"].summary == []  # a bibliography is a list, not prose
    assert len(sections["4.1 Memory"].summary) == 1  # two sentences: one pick
    # two sentences sharing no term: neither is central, and the first stands for the section
    assert [squashed(s.text) for s in sections["1 Introduction"].summary] == [INTRODUCTION[0]]


def test_every_sentence_is_the_text_at_its_span_in_reading_order_on_its_page(document):
    pdf = pymupdf.open(stream=summaries_paper(), filetype="pdf")
    picked = [s for section in document.sections for s in section.summary]
    assert picked
    for section in document.sections:
        starts = [s.char_start for s in section.summary]
        assert starts == sorted(starts)
        for s in section.summary:
            assert document.text[s.char_start:s.char_end] == s.text
            assert section.char_start <= s.char_start < s.char_end <= max(section.char_end, len(document.text))
            words = squashed(pdf[s.page - 1].get_text()).split()
            assert " ".join(s.text.split()[:4]) in " ".join(words)
            x0, y0, x1, y1 = s.bbox
            assert x0 < x1 and y0 < y1


def test_the_mapped_sections_pass_the_validator_and_the_shapes(document):
    schema = get_schema()
    nodes, edges = map_document(document)
    stamped_nodes = [stamp(n, schema, NOW) for n in nodes]
    stamped_edges = [stamp(e, schema, NOW) for e in edges]
    sections = [n for n in stamped_nodes if n.label == "Section" and "summary" in n.props]
    assert len(sections) >= 4
    for node in sections:
        props = node.props
        assert len(props["summary"]) == len(props["summary_starts"]) == len(props["summary_ends"]) \
            == len(props["summary_bboxes"])
        assert all(document.text[a:b] == text for text, a, b in
                   zip(props["summary"], props["summary_starts"], props["summary_ends"]))
    assert validate_batch(stamped_nodes, stamped_edges, schema).rejections == []
    conforms, _, report = validate(to_rdf(stamped_nodes, stamped_edges, schema),
                                   shacl_graph=Graph().parse(SHAPES_FILE), ont_graph=Graph().parse(ONTOLOGY_FILE))
    assert conforms, report
    broken = NodeRecord("Section", sections[0].id, {**sections[0].props, "summary_bboxes": ["page one"]})
    rejection = validate_batch([broken], [], schema).rejections
    assert [(r.reason, r.property) for r in rejection] == [(Reason.INVALID_VALUE, "summary_bboxes")]
