"""`kg papers` against a real Neo4j holding the sample graph (tests/sample_graph.py): every paper with its id,
title, year and counts, as a table and as JSON; rejected elements are not counted."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()

# Read off tests/sample_graph.py. Paper A: sections sec_a1, sec_a2, sec_a21 (a subsection), sec_a3; chunks
# chunk_a1..3 (under sections); entities method_srt (proposed), method_transformer (used), dataset_pg19 (evaluated
# on, and mentioned by chunk_a3), metric_ppl, task_lm, and concept_routing (defined by chunk_a2). Paper B: no
# section, chunk_b1 directly under the paper, and dataset_pg19 (used).
PAPER_A = {"id": "paper_a", "title": "Sparse Routing Transformers", "year": 2021, "sections": 4, "chunks": 3,
           "entities": 6}
PAPER_B = {"id": "paper_b", "title": "A Benchmark for Long Documents", "year": 2022, "sections": 0, "chunks": 1,
           "entities": 1}


def listed(*args: str) -> list[dict]:
    result = runner.invoke(app, ["papers", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_json_lists_every_paper_by_title_with_its_counts(cli_env, sample_db):
    assert listed() == [PAPER_B, PAPER_A]


def test_rejected_elements_are_not_counted(cli_env, sample_db):
    sample_db.execute_query("MATCH (n) WHERE n.id IN ['dataset_pg19', 'sec_a21', 'chunk_a2'] "
                            "SET n.verification_status = 'rejected'")
    # without dataset_pg19 and chunk_a2 (and so concept_routing, which only chunk_a2 defines)
    assert listed() == [{**PAPER_B, "entities": 0}, {**PAPER_A, "sections": 3, "chunks": 2, "entities": 4}]


def test_table(cli_env, sample_db, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    result = runner.invoke(app, ["papers"])
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:-1]]
            for line in result.output.splitlines() if line.count("│") == 7 and "paper_" in line}
    assert rows == {p["id"]: [p["title"], str(p["year"]), str(p["sections"]), str(p["chunks"]), str(p["entities"])]
                    for p in (PAPER_A, PAPER_B)}
    assert "2 papers" in result.output


def test_an_empty_graph_says_how_to_add_papers(cli_env, schema_db):
    result = runner.invoke(app, ["papers"])
    assert result.exit_code == 0 and "kg ingest" in result.output
    assert listed() == []
