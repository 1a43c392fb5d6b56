"""Cross-paper questions ("which papers use X") over generated papers: the papers whose own experiments use a
dataset are listed, each with evidence from its own text, and a paper naming the dataset only in related work is
not (bench/cross_paper_questions.tsv's definition of a positive)."""

from __future__ import annotations

import pytest

from extractors.model import paper_id
from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.ingest.pipeline import Ingestor
from kg.qa.engine import ask
from ontology.loader import get_schema
from tests.pdf_factory import experiments_paper, prose, write

USES = {
    "tagger.pdf": ("Prototype Tagging of English Sentences",
                   "We evaluate our tagger on the Penn Treebank. We train on sections 02-21 of the Penn Treebank and "
                   "report accuracy on section 23. " + prose(3, offset=2)),
    "parser.pdf": ("A Fast Shift-Reduce Constituency Parser",
                   "Our parser is trained and evaluated on the Penn Treebank. On the Penn Treebank test set it "
                   "reaches an F1 score of 90.1. " + prose(3, offset=3)),
}
MENTIONS = ("speech.pdf", "Acoustic Models for Narrative Retelling",
            "We evaluate our acoustic model on the Switchboard corpus. " + prose(3, offset=4))
RELATED = "Earlier work on syntax relied on treebanks such as the Penn Treebank [1]. " + prose(2, offset=5)
# Papers naming a method only by its initialism, one of them an initialism of another method
INITIALS = {
    "svm.pdf": ("Relation Extraction With Few Labels",
                "We classify each sentence with a linear SVM trained on bag-of-words features. The SVM reaches an "
                "accuracy of 81.2 on the held-out sentences. " + prose(3, offset=7)),
    "lda.pdf": ("Compact Features for Speaker Recognition",
                "We reduce the features with linear discriminant analysis (LDA) before classification. The LDA "
                "projection keeps ten dimensions. " + prose(3, offset=8)),
    # 'EM' is also the lexicon's initialism of the metric exact match
    "em.pdf": ("Short Answers From Long Documents",
               "We report exact match (EM) and F1 on the development set. Our reader reaches an EM of 71.2 and an "
               "F1 of 80.3 on the held-out questions. " + prose(3, offset=9)),
}
# A paper stating its task by the task's object alone ('comment spam', not 'comment spam detection')
SPAM = ("spam.pdf", "Combating Comment Spam With Rules",
        f"We filter comment spam on news sites with hand-written rules. {prose(16, offset=2)} The rules catch most "
        "comment spam within a day of its posting.")
# A task the speaker paper names in two passages of its own, and addresses neither in its title nor its abstract
ASIDES = ("Unlike relation extraction, speaker recognition needs no labelled sentences. ",
          "The projection would serve relation extraction as well, which we leave to others. ")


@pytest.fixture(scope="module")
def papers(driver, neo4j_settings, tmp_path_factory, reset_db):
    folder = tmp_path_factory.mktemp("cross")
    settings = neo4j_settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("cross-data")})
    paths = {name: write(folder, name, experiments_paper(title, text, prose(2, offset=6)))
             for name, (title, text) in USES.items()}
    name, title, text = MENTIONS
    paths[name] = write(folder, name, experiments_paper(title, text, RELATED))
    paths |= {name: write(folder, name, experiments_paper(title, text, prose(2, offset=6)))
              for name, (title, text) in INITIALS.items()}
    title, text = INITIALS["lda.pdf"]
    long_text = f"{ASIDES[0]}{text} {prose(16, offset=1)} {ASIDES[1]}"  # longer than a chunk: two passages
    paths["lda.pdf"] = write(folder, "lda.pdf", experiments_paper(title, long_text, prose(2, offset=6)))
    name, title, text = SPAM
    paths[name] = write(folder, name, experiments_paper(title, text, prose(2, offset=6)))
    reset_db()
    report = Ingestor(settings, Graph(driver), workers=0, embed=False).run(list(paths.values()))
    assert [p.status for p in report.papers] == ["ingested"] * 7, report.as_json()
    return {name: paper_id(file_sha256(path)) for name, path in paths.items()}


def test_which_papers_use_a_dataset_lists_exactly_its_users_with_their_evidence(driver, papers):
    result = ask(Graph(driver), get_schema(), "Which papers use the Penn Treebank?")
    assert result.intent == "papers_with"
    listed = {p["paper_id"]: p for p in result.papers}
    assert set(listed) == {papers["tagger.pdf"], papers["parser.pdf"]}  # not speech.pdf's related work
    for name in USES:
        paper = listed[papers[name]]
        assert paper["title"] == USES[name][0]
        assert paper["evidence"], paper
        for item in paper["evidence"]:
            assert item["paper_id"] == papers[name] and "Penn Treebank" in item["text"]
            assert item["page"] == 1 and item["bbox"]
    assert all(cypher.count("$") for cypher in result.cypher)  # parameterised


def test_a_name_with_no_typed_edge_falls_back_to_the_papers_text(driver, papers):
    result = ask(Graph(driver), get_schema(), "List papers that mention section 23")
    assert result.intent == "papers_with"
    assert [p["paper_id"] for p in result.papers] == [papers["tagger.pdf"]]
    assert result.papers[0]["relations"] == ["MENTIONS"]
    assert "section 23" in result.papers[0]["evidence"][0]["text"]


def test_a_name_no_paper_uses_lists_no_paper(driver, papers):
    result = ask(Graph(driver), get_schema(), "Which papers use ImageNet?")
    assert not result.papers


def test_a_name_asked_with_the_noun_of_its_kind_finds_the_papers_naming_it_alone(driver, papers):
    result = ask(Graph(driver), get_schema(), "Which papers use the Penn Treebank corpus?")
    assert {p["paper_id"] for p in result.papers or []} == {papers["tagger.pdf"], papers["parser.pdf"]}


def test_a_method_asked_by_its_long_name_finds_the_papers_writing_its_initialism(driver, papers):
    result = ask(Graph(driver), get_schema(), "Which papers use support vector machines?")
    assert [p["paper_id"] for p in result.papers or []] == [papers["svm.pdf"]]
    assert all("SVM" in item["text"] for item in result.papers[0]["evidence"])


def test_an_initialism_the_paper_defines_as_something_else_is_not_the_method_asked(driver, papers):
    result = ask(Graph(driver), get_schema(), "Which papers use latent Dirichlet allocation?")
    assert papers["lda.pdf"] not in {p["paper_id"] for p in result.papers or []}
    result = ask(Graph(driver), get_schema(), "Which papers use linear discriminant analysis?")
    assert [p["paper_id"] for p in result.papers or []] == [papers["lda.pdf"]]


def test_a_task_is_addressed_by_the_paper_that_states_it_up_front_not_by_one_naming_it_aside(driver, papers):
    result = ask(Graph(driver), get_schema(), "Which papers address relation extraction?")
    assert [p["paper_id"] for p in result.papers or []] == [papers["svm.pdf"]]


def test_a_task_no_paper_names_whole_is_found_by_its_object_in_a_title(driver, papers):
    result = ask(Graph(driver), get_schema(), "Which papers address comment spam detection?")
    assert [p["paper_id"] for p in result.papers or []] == [papers["spam.pdf"]]
    assert all("comment spam" in item["text"].lower() for item in result.papers[0]["evidence"])


def test_an_initialism_of_another_kind_is_not_the_thing_its_kind_noun_names(driver, papers):
    """'the EM algorithm' is a method: the paper measuring exact match (EM) does not use it."""
    result = ask(Graph(driver), get_schema(), "Which papers use the EM algorithm?")
    assert papers["em.pdf"] not in {p["paper_id"] for p in result.papers or []}
    result = ask(Graph(driver), get_schema(), "Which papers report exact match?")
    assert [p["paper_id"] for p in result.papers or []] == [papers["em.pdf"]]
