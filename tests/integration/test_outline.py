"""A paper's outline (issue 30): `GET /papers/{id}/outline` and `kg outline` on the really ingested sample paper. The
tree is the paper's sections in reading order with their numbers, titles and levels; every summary sentence is the
text of one of its section's chunks at the sentence's span, on the sentence's page; the paper is named as everywhere
else (id, DOI, title), and an unknown or ambiguous name is a 404 or 409."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.app import create_app
from cli.main import app as cli_app
from extractors.model import paper_id
from kg.errors import NotFoundError
from kg.db.filestore import file_sha256
from tests.ingest_support import SAMPLE_A, SAMPLE_B, run_ingest
from tests.pdf_factory import letter_paper, write

TITLE = "Sparse Routing Attention for Long Documents"
DOI = "10.5555/paperkg.sample.1"
# The sections of sample A as printed, in reading order: (number, title, level)
SECTIONS = [("1", "Introduction", 1), ("2", "Method", 1), ("3", "Experiments", 1), ("4", "Conclusion", 1),
            (None, "References", 1)]
PROSE = {"Introduction", "Method", "Experiments", "Conclusion"}  # a bibliography has no summary

_CHUNKS = """
MATCH (:Section {id: $id})-[:HAS_CHUNK]->(c:Chunk {kind: 'text'})
RETURN c.text AS text, c.char_start AS start, c.char_end AS end, c.pages AS pages
"""


@pytest.fixture(scope="module")
def letter(tmp_path_factory):
    """A REVTeX-style letter whose bibliography closes it without a heading, and its truth."""
    data, truth, _ = letter_paper()
    return write(tmp_path_factory.mktemp("letter"), "letter.pdf", data), truth


@pytest.fixture(scope="module")
def ingested(driver, neo4j_settings, tmp_path_factory, reset_db, letter):
    settings = neo4j_settings.model_copy(update={"data_dir": tmp_path_factory.mktemp("outline") / "data"})
    reset_db()
    report = run_ingest(settings, driver, [SAMPLE_A, SAMPLE_B, letter[0]])
    assert [p.status for p in report.papers] == ["ingested"] * 3, report.as_json()
    return paper_id(file_sha256(SAMPLE_A)), settings


@pytest.fixture(scope="module")
def client(ingested):
    with TestClient(create_app(ingested[1]), base_url="http://localhost") as test_client:
        yield test_client


def flat(sections: list[dict]) -> list[dict]:
    """The tree in pre-order: reading order when the tree is right."""
    return [s for section in sections for s in [section, *flat(section["children"])]]


def test_the_outline_is_the_section_tree_in_reading_order(client, ingested):
    response = client.get(f"/papers/{ingested[0]}/outline")
    assert response.status_code == 200, response.text
    outline = response.json()
    assert (outline["paper_id"], outline["title"]) == (ingested[0], TITLE)
    sections = flat(outline["sections"])
    assert [(s["number"], s["title"], s["level"]) for s in sections] == SECTIONS
    ordinals = [s["ordinal"] for s in sections]
    assert ordinals == sorted(ordinals) and len(set(ordinals)) == len(ordinals)


def test_a_section_without_a_printed_heading_says_so(client, ingested, letter, cli_env):
    """The letter's bibliography is a References section with no heading printed: the outline marks it (and only
    it), and `kg outline` says so beside it."""
    path, truth = letter
    sections = flat(client.get(f"/papers/{paper_id(file_sha256(path))}/outline").json()["sections"])
    assert [(s["title"], s["printed"]) for s in sections] == \
        [(t, True) for _, t, _, _ in truth.sections] + [("References", False)]
    assert all(s["printed"] for s in flat(client.get(f"/papers/{ingested[0]}/outline").json()["sections"]))
    tree = CliRunner().invoke(cli_app, ["outline", truth.title])
    assert tree.exit_code == 0, tree.output
    assert [line for line in tree.output.splitlines() if "no heading printed" in line] == \
        [next(line for line in tree.output.splitlines() if "References" in line)]


def test_every_summary_sentence_is_its_sections_text_at_its_span(client, ingested, driver):
    sections = flat(client.get(f"/papers/{ingested[0]}/outline").json()["sections"])
    assert {s["title"] for s in sections if s["summary"]} == PROSE
    for section in sections:
        chunks = driver.execute_query(_CHUNKS, id=section["id"]).records
        for sentence in section["summary"]:
            holding = [c for c in chunks if c["start"] <= sentence["char_start"] and sentence["char_end"] <= c["end"]]
            assert len(holding) == 1, (section["title"], sentence)
            chunk = holding[0]
            at = sentence["char_start"] - chunk["start"]
            assert chunk["text"][at:at + len(sentence["text"])] == sentence["text"]
            assert len(sentence["text"].split()) >= 6
            assert sentence["page"] in chunk["pages"] and sentence["bbox"].startswith(f"{sentence['page']}:")
        starts = [s["char_start"] for s in section["summary"]]
        assert starts == sorted(starts)


def test_the_paper_is_named_as_everywhere_else(client, ingested):
    by_id = client.get(f"/papers/{ingested[0]}/outline").json()
    assert client.get(f"/papers/{DOI}/outline").json() == by_id  # a DOI's slash stays part of the name
    assert client.get(f"/papers/{TITLE.lower()}/outline").json() == by_id
    assert client.get(f"/papers/{DOI}").json()["paper"]["id"] == ingested[0]  # the paper itself is unchanged
    missing = client.get("/papers/Attention Is All You Need/outline")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    ambiguous = client.get("/papers/long documents/outline")
    assert ambiguous.status_code == 409 and ambiguous.json()["error"]["code"] == "AMBIGUOUS_PAPER"


def test_kg_outline_prints_the_tree_and_the_api_json(client, ingested, cli_env, monkeypatch):
    runner = CliRunner()
    as_json = runner.invoke(cli_app, ["outline", DOI, "--json"])
    assert as_json.exit_code == 0, as_json.output
    outline = json.loads(as_json.output)
    assert outline == client.get(f"/papers/{ingested[0]}/outline").json()

    monkeypatch.setenv("COLUMNS", "400")  # one line per sentence
    tree = runner.invoke(cli_app, ["outline", TITLE])
    assert tree.exit_code == 0, tree.output
    lines = tree.output.splitlines()
    assert TITLE in lines[0]
    headings = [" ".join(filter(None, (n, t))) for n, t, _ in SECTIONS]
    at = [next(i for i, line in enumerate(lines) if heading in line) for heading in headings]
    assert at == sorted(at)  # in reading order
    for section in flat(outline["sections"]):
        for sentence in section["summary"]:
            assert any(" ".join(sentence["text"].split()) in line for line in lines), sentence["text"]

    unknown = runner.invoke(cli_app, ["outline", "Attention Is All You Need"])  # main() prints it as an error
    assert isinstance(unknown.exception, NotFoundError) and "no paper matches" in unknown.exception.message
