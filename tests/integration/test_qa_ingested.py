"""QA per intent on a really ingested paper (grobid_sample_dutot.pdf from the shared corpus, 7 figures):
exact answers from the graph, extractive answers with their evidence pages, and no answer without support."""

from __future__ import annotations

import pytest

from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from extractors.model import paper_id
from kg.qa.answer import locate_in_chunk
from kg.qa import graph as q
from kg.qa.engine import ask
from ontology.loader import get_schema

PAPER = "grobid_sample_dutot.pdf"


@pytest.fixture(scope="module")
def ingested(driver, neo4j_settings, corpus_dir, tmp_path_factory, reset_db):
    settings = neo4j_settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("qa-data")})
    reset_db()
    report = Ingestor(settings, Graph(driver), workers=0, embed=False).run([corpus_dir / PAPER])
    assert [p.status for p in report.papers] == ["ingested"], report.as_json()
    return settings, paper_id(file_sha256(corpus_dir / PAPER))


def answer(driver, ingested, question):
    settings, pid = ingested
    return ask(Graph(driver), get_schema(), question, pid, 5)


def test_where_is_a_figure(driver, ingested):
    result = answer(driver, ingested, "Where is Figure 2?")
    assert (result.intent, result.answer) == ("where_element", "Figure 2 is on page 3: Principle of the algorithm.")
    assert [(e["page"], e["text"]) for e in result.evidence] == [(3, "Figure 2: Principle of the algorithm.")]
    assert any("x.label = $number" in cypher for cypher in result.cypher)


def test_what_a_figure_shows(driver, ingested):
    result = answer(driver, ingested, "What does Figure 4 show?")
    assert result.intent == "element_content"
    assert result.answer == "Figure 4: Performance ratio for the simulation on 200 processors, highly parallel tasks"
    assert result.evidence[0]["page"] == 6


def test_where_is_a_section(driver, ingested):
    result = answer(driver, ingested, "Where is Section 3?")
    assert (result.intent, result.answer) == ("where_element", "Section 3 is on page 3: A NEW BICRITERIA EFFICIENT SOLUTION")


def test_extractive_answer_with_its_page(driver, ingested):
    result = answer(driver, ingested, "How many PC machines does Icluster1 have?")
    assert result.intent == "search"
    assert "Icluster1, a 225 PC machine" in result.answer[:300]
    assert result.evidence[0]["page"] == 2 and result.evidence[0]["section"] is not None
    assert result.answer.startswith(result.evidence[0]["text"])  # the answer is the evidence's own sentence


def test_a_sentence_of_a_chunk_over_two_pages_has_its_own_page(driver, ingested):
    # In the PDF, "More formally, we detail below the algorithm" ends page 3 and "First, our algorithm calls a
    # dual approximation" begins page 4: one chunk holds both.
    records = driver.execute_query(
        "MATCH (c:Chunk) WHERE c.text CONTAINS 'First, our algorithm calls' "
        "RETURN c {.text, .bboxes, .box_starts, .page_start} AS c").records
    chunk = records[0]["c"]
    assert len(records) == 1 and len(chunk["box_starts"]) == len(chunk["bboxes"])
    assert locate_in_chunk(chunk, chunk["text"].index("More formally, we detail"))[0] == 3
    assert locate_in_chunk(chunk, chunk["text"].index("First, our algorithm calls"))[0] == 4


def test_no_support_no_answer(driver, ingested):
    result = answer(driver, ingested, "What is the boiling point of mercury?")
    assert (result.answer, result.confidence, result.evidence) == (None, 0.0, [])
    assert result.reason == "no sentence of the paper holds enough of the question's words to answer it"


def test_paper_scoped_fulltext_is_filtered_by_the_index_with_unchanged_scores(driver, ingested):
    """The chunk_text index holds each chunk's paper: scoped to the (only) paper, the hits and BM25 scores are
    those of the unscoped search; scoped to another paper, there are none."""
    settings, pid = ingested
    sha = driver.execute_query("MATCH (p:Paper {id: $id}) RETURN p.sha256 AS sha", id=pid).records[0]["sha"]
    reader = q.GraphReader(Graph(driver), get_schema())
    index = reader.index("fulltext", "Chunk", "text")

    def hits(scope):
        rows = reader.chunks(q.FULLTEXT_CHUNKS, index=index, text="algorithm OR processors", sha=scope, k=20)
        return [(c["id"], c["score"]) for c in rows]

    unscoped = hits(None)
    assert len(unscoped) == 20 and unscoped[0][1] > unscoped[-1][1] > 0
    assert hits(sha) == unscoped
    assert hits("0" * 64) == []
    assert hits(sha[:-1] + ("0" if sha[-1] != "0" else "1")) == []
