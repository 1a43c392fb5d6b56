"""A definition question asked of one paper is answered by that paper: two generated papers define the same term
differently, and each answers 'What is X?' with its own definition, never with the other's (the graph keeps one
Concept for the term, whose stored definition comes from one of them)."""

from __future__ import annotations

import pytest

from extractors.model import paper_id
from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.qa.engine import ask
from ontology.loader import get_schema
from tests.ingest_support import run_ingest
from tests.pdf_factory import entities_paper, write

DEFINED = {
    "clipping": ("Stable Training of Recurrent Networks",
                 "Gradient clipping is a technique that rescales every gradient whose norm exceeds a fixed "
                 "threshold of five.", "rescales every gradient"),
    "pruning": ("Compact Recurrent Networks by Pruning",
                "Gradient clipping is a technique that drops the updates of every layer whose weights are "
                "already pruned.", "drops the updates"),
}


# a sentence that reads as a definition of the short form ('PSNR is ...') besides the one that spells it out
ACRONYM = ["PSNR is higher for the denoised images than for the noisy ones at every level of noise.",
           "We compare the methods by their peak signal to noise ratio (PSNR) on the test images."]


@pytest.fixture(scope="module")
def papers(driver, neo4j_settings, tmp_path_factory, reset_db):
    tmp = tmp_path_factory.mktemp("definitions")
    settings = neo4j_settings.model_copy(update={"data_dir": tmp / "data"})
    reset_db()
    paths = {name: write(tmp, f"{name}.pdf", entities_paper(title, [sentence]))
             for name, (title, sentence, _) in DEFINED.items()}
    paths["acronym"] = write(tmp, "acronym.pdf", entities_paper("Denoising Images with Deep Networks", ACRONYM))
    report = run_ingest(settings, driver, list(paths.values()))
    assert {p.status for p in report.papers} == {"ingested"}, report.as_json()
    return {name: paper_id(file_sha256(path)) for name, path in paths.items()}


def test_the_term_is_defined_by_both_papers(driver, papers):
    records = driver.execute_query(
        "MATCH (c:Chunk)-[:DEFINES]->(e) WHERE toLower(e.name) = 'gradient clipping' "
        "RETURN count(DISTINCT c.paper_sha256) AS papers").records
    assert records[0]["papers"] == 2  # else the test below would not tell one paper's definition from another's


@pytest.mark.parametrize("name", sorted(DEFINED))
def test_a_definition_question_is_answered_by_the_paper_asked(driver, papers, name):
    result = ask(Graph(driver), get_schema(), "What is gradient clipping?", papers[name], 5)
    own = DEFINED[name][2]
    other = next(words for key, (_, _, words) in DEFINED.items() if key != name)
    assert own in result.answer[:300] and other not in result.answer
    assert result.evidence and {e["paper_id"] for e in result.evidence} == {papers[name]}


def test_what_a_short_form_stands_for_is_its_spelled_out_form_not_a_sentence_about_it(driver, papers):
    result = ask(Graph(driver), get_schema(), "What does the evaluation metric PSNR stand for?", papers["acronym"], 5)
    assert result.intent == "definition"
    assert "peak signal to noise ratio" in (result.answer or "")[:300]
