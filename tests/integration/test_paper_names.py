"""Papers by name (issue 29, item 4): every endpoint and command that takes a paper accepts its id, DOI, arXiv id
or title, through kg.read.queries.resolve_paper; a question that names a paper is answered from it alone when the name
fits one paper well; "no answer" is null with a reason and no evidence. On really ingested PDFs: the two samples
(titles, DOIs) and a generated paper with an arXiv stamp."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from cli.main import app as cli_app
from extractors.model import paper_id
from kg.db.graph import Graph
from kg.errors import AmbiguousPaperError, InvalidQueryError, NotFoundError
from kg.db.filestore import file_sha256
from kg.qa.engine import NAMES_TRIED, ask
from kg.read.queries import _PAPER_NAMES, resolve_paper
from ontology.loader import get_schema
from tests.ingest_support import SAMPLE_A, SAMPLE_B, run_ingest
from tests.pdf_factory import BOLD, Writer, prose

ARXIV_TITLE = "Windowed Attention Revisited"
ARXIV_ID = "2301.01234"


def arxiv_paper() -> bytes:
    """A one-page paper with an arXiv stamp (version 2) and no DOI."""
    w = Writer()
    w.line(ARXIV_TITLE, size=18, font=BOLD, full_width=True, center=True)
    w.line("Eve Novak", size=11, full_width=True, center=True)
    w.line(f"arXiv:{ARXIV_ID}v2 [cs.CL] 5 Jan 2023", size=9, full_width=True, center=True)
    w.line("Abstract", size=12, font=BOLD, center=True)
    w.paragraph("We revisit windowed attention for long inputs. " + prose(3), full_width=True)
    w.heading("1 Introduction")
    w.paragraph(prose(6))
    return w.bytes()


@pytest.fixture(scope="module")
def papers(driver, neo4j_settings, tmp_path_factory, reset_db):
    """The three papers ingested into an otherwise empty graph; their ids by short name, and the settings."""
    tmp = tmp_path_factory.mktemp("names")
    third = tmp / "windowed.pdf"
    third.write_bytes(arxiv_paper())
    settings = neo4j_settings.model_copy(update={"data_dir": tmp / "data", "qa_vectors": False})
    reset_db()
    report = run_ingest(settings, driver, [SAMPLE_A, SAMPLE_B, third])
    assert [p.status for p in report.papers] == ["ingested"] * 3, report.as_json()
    ids = {name: paper_id(file_sha256(path)) for name, path in (("a", SAMPLE_A), ("b", SAMPLE_B), ("w", third))}
    return ids, settings


@pytest.fixture(scope="module")
def client(papers):
    with TestClient(create_app(papers[1]), base_url="http://localhost") as test_client:
        yield test_client


# ------------------------------------------------------------------ the resolver

@pytest.mark.parametrize("name, paper, matched_by", [
    ("10.5555/paperkg.sample.1", "a", "doi"),
    ("https://doi.org/10.5555/PAPERKG.SAMPLE.1", "a", "doi"),
    ("doi:10.5555/paperkg.sample.2", "b", "doi"),
    (ARXIV_ID, "w", "arxiv"),
    (f"arXiv:{ARXIV_ID}", "w", "arxiv"),
    (f"arxiv:{ARXIV_ID}v1", "w", "arxiv"),  # another version of the same paper
    (f"https://arxiv.org/abs/{ARXIV_ID}v2", "w", "arxiv"),
    ("sparse routing attention for long documents", "a", "title"),
    ("  SPARSE ROUTING ATTENTION FOR LONG DOCUMENTS ", "a", "title"),
    ("Sparse Routing Atention for Long Documents", "a", "title"),  # a slip
    ("LongBench", "b", "short title"),
    ("longbench", "b", "short title"),
    ("windowed attention", "w", "title words"),
])
def test_a_paper_by_doi_arxiv_id_or_title(driver, papers, name, paper, matched_by):
    ids, _ = papers
    found = resolve_paper(Graph(driver), name)
    assert (found.id, found.matched_by) == (ids[paper], matched_by)


def test_a_paper_by_id_or_file_hash(driver, papers):
    ids, _ = papers
    assert resolve_paper(Graph(driver), ids["b"]).id == ids["b"]
    assert resolve_paper(Graph(driver), file_sha256(SAMPLE_B)).id == ids["b"]


def test_words_of_two_titles_are_ambiguous_and_list_both(driver, papers):
    ids, _ = papers
    with pytest.raises(AmbiguousPaperError) as raised:
        resolve_paper(Graph(driver), "long documents")
    assert {c["id"] for c in raised.value.details["candidates"]} == {ids["a"], ids["b"]}
    assert {c["title"] for c in raised.value.details["candidates"]} == {
        "Sparse Routing Attention for Long Documents", "LongBench: A Benchmark for Reading Long Documents"}


def test_no_match_and_weak_matches(driver, papers):
    with pytest.raises(NotFoundError, match="no paper matches 'Attention Is All You Need'"):
        resolve_paper(Graph(driver), "Attention Is All You Need")
    with pytest.raises(NotFoundError):
        resolve_paper(Graph(driver), "LongBnch")  # short names match exactly only
    with pytest.raises(NotFoundError):
        resolve_paper(Graph(driver), "windowed attention", loose=False)  # words of a title are not its name
    with pytest.raises(InvalidQueryError):
        resolve_paper(Graph(driver), "   ")


# ------------------------------------------------------------------ every endpoint

def test_endpoints_take_a_paper_by_name(client, papers):
    ids, _ = papers
    assert client.get("/papers/10.5555/paperkg.sample.2").json()["paper"]["id"] == ids["b"]  # a DOI's slash
    assert client.get("/papers/LongBench").json()["paper"]["title"].startswith("LongBench:")
    assert client.get(f"/coverage/arXiv:{ARXIV_ID}").json()["paper_id"] == ids["w"]
    located = client.get("/locate", params={"q": "PG-19", "paper_id": "Sparse Routing Attention for Long Documents"})
    assert located.status_code == 200 and {i["paper_id"] for i in located.json()["items"]} == {ids["a"]}
    exported = client.get("/export/json", params={"paper_id": ["LongBench", f"arXiv:{ARXIV_ID}"]}).json()
    assert exported["scope"]["papers"] == sorted([ids["b"], ids["w"]])
    asked = client.post("/ask", json={"question": "Which benchmark is introduced?", "paper_id": "longbench"}).json()
    assert asked["paper_id"] == ids["b"] and {e["paper_id"] for e in asked["evidence"]} == {ids["b"]}


def test_ambiguous_name_is_409_with_candidates_and_unknown_is_404(client, papers):
    ids, _ = papers
    for response in (client.get("/papers/long documents"), client.get("/coverage/long documents"),
                     client.get("/locate", params={"q": "PG-19", "paper_id": "long documents"}),
                     client.post("/ask", json={"question": "What is SRA?", "paper_id": "long documents"})):
        assert response.status_code == 409, response.text
        error = response.json()["error"]
        assert error["code"] == "AMBIGUOUS_PAPER"
        assert {c["id"] for c in error["details"]["candidates"]} == {ids["a"], ids["b"]}
    missing = client.post("/ask", json={"question": "What is SRA?", "paper_id": "Attention Is All You Need"})
    assert missing.status_code == 404
    assert missing.json()["error"]["message"] == \
        "no paper matches 'Attention Is All You Need' by id, DOI, arXiv id or title"


def test_commands_take_a_paper_by_name(papers, cli_env):
    ids, _ = papers
    result = CliRunner().invoke(cli_app, ["coverage", "10.5555/paperkg.sample.1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["paper_id"] == ids["a"]
    refused = CliRunner().invoke(cli_app, ["delete", "long documents"])  # not loose: words name no paper to delete
    assert isinstance(refused.exception, NotFoundError) and "'long documents'" in refused.exception.message


# ------------------------------------------------------------------ questions that name a paper

def answer(driver, question: str, paper: str | None = None):
    return ask(Graph(driver), get_schema(), question, paper, 5)


@pytest.mark.parametrize("question", [
    "In the LongBench paper, where do the books and articles come from?",
    "Where do the books and articles of the LongBench paper come from?",
    'In "LongBench: A Benchmark for Reading Long Documents", where do the books and articles come from?',
    "Where do the books and articles of doi:10.5555/paperkg.sample.2 come from?",
])
def test_a_question_naming_a_paper_is_answered_from_it_alone(driver, papers, question):
    ids, _ = papers
    result = answer(driver, question)
    assert result.paper_id == ids["b"]
    assert "public-domain books and open-access articles" in result.answer
    assert result.evidence and {e["paper_id"] for e in result.evidence} == {ids["b"]}


def test_the_same_question_without_a_name_reads_every_paper(driver, papers):
    ids, _ = papers
    result = answer(driver, "Where do the books and articles come from?")
    assert result.paper_id is None
    assert {e["paper_id"] for e in result.evidence} - {ids["b"]}, result.evidence  # not only LongBench's


@pytest.mark.parametrize("question", [
    "Where do the books of the long documents paper come from?",  # words of two titles
    "Where do the books of the windowed paper come from?",  # a word of one title: too weak
    'What does "Sparse Routing" mean?',  # a quoted term, not a title
])
def test_a_weak_or_ambiguous_name_does_not_scope(driver, papers, question):
    assert answer(driver, question).paper_id is None


def test_a_question_gets_a_bounded_number_of_name_lookups(driver, papers):
    ids, _ = papers
    others = " ".join(f"the x{n} paper," for n in range(NAMES_TRIED - 1))
    assert answer(driver, f"Beside {others} where do the books of the LongBench paper come from?").paper_id == ids["b"]
    others += f" the x{NAMES_TRIED} paper,"
    assert answer(driver, f"Beside {others} where do the books of the LongBench paper come from?").paper_id is None


class CountingDriver:
    """The session's driver, counting the queries that read every paper's names."""

    def __init__(self, driver):
        self.driver, self.name_reads = driver, 0

    def execute_query(self, query, *args, **kwargs):
        self.name_reads += query == _PAPER_NAMES
        return self.driver.execute_query(query, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.driver, name)


def test_a_question_reads_the_papers_names_once_for_all_the_names_it_tries(driver, papers):
    ids, _ = papers
    counting = CountingDriver(driver)
    others = " ".join(f"the x{n} paper," for n in range(NAMES_TRIED - 1))
    question = f"Beside {others} where do the books of the LongBench paper come from?"
    assert ask(Graph(counting), get_schema(), question).paper_id == ids["b"]
    assert counting.name_reads == 1


def test_no_answer_is_null_with_a_reason_and_no_evidence(driver, papers, client):
    ids, _ = papers
    result = answer(driver, "What is the boiling point of mercury?", ids["a"])
    assert (result.answer, result.confidence, result.evidence) == (None, 0.0, [])
    assert result.reason and "the paper" in result.reason and result.graph == {"nodes": [], "edges": []}
    body = client.post("/ask", json={"question": "What is the boiling point of mercury?"}).json()
    assert body["answer"] is None and body["evidence"] == [] and "any paper" in body["reason"]
