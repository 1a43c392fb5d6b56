"""Semantic extraction on the real corpus: gold papers yield their datasets and metrics through parse_pdf,
the benchmark meets its floor, and through ingestion one entity node serves several papers while
different names stay apart; results are queryable across papers."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from extractors.semantic.benchmark import TYPES, gold_entities, score_paper, total
from extractors.semantic.canonical import normalize
from extractors.semantic.extract import extract_semantics
from kg.ingest.semantic_mapping import map_semantics
from tests.ingest_support import SAMPLE_A, SAMPLE_B, ingest_settings, run_ingest, value  # noqa: F401

GOLD = Path(__file__).resolve().parents[3] / "shared" / "gold"


@pytest.fixture(scope="module")
def extracted(corpus_dir, parsed_corpus):
    """Every gold paper, extracted and mapped to records."""
    return {p.stem: (json.loads(p.read_text()), _records(parsed_corpus(corpus_dir / f"{p.stem}.pdf")))
            for p in sorted(GOLD.glob("*.json"))}


def _records(doc):
    nodes, edges = map_semantics(doc, extract_semantics(doc).annotations)
    return SimpleNamespace(nodes=nodes, edges=edges)


def _names(extraction, label):
    return {normalize(n.props["name"]) for n in extraction.nodes if n.label == label} | {
        normalize(a) for n in extraction.nodes if n.label == label for a in n.props.get("aliases", [])}


@pytest.mark.parametrize("stem, label, name", [
    ("latex_2305.03393", "Dataset", "PubTabNet"), ("s2orc_2020.acl-main.207", "Method", "SPECTER"),
    ("s2orc_2020.acl-main.207", "Dataset", "MAG"), ("sp_smola10", "Dataset", "PubMed"),
    ("pm_papermage", "Dataset", "S2-VL"), ("latex_1911.02782", "Metric", "F1"), ("pm_papermage", "Metric", "F1"),
])
def test_gold_papers_yield_their_datasets_metrics_and_methods(extracted, stem, label, name):
    assert normalize(name) in _names(extracted[stem][1], label)


def test_benchmark_floor_on_the_gold_papers(extracted):
    """Regression floor under what the 22 gold papers score (2026-12-02: datasets 0.517, methods 0.476, metrics
    0.400, tasks 0.403; issue 27's targets are not met on the 12 papers the rules were not written against): a
    change that breaks a family shows."""
    totals = total([score_paper(gold_entities(g), {k: [n.props["name"] for n in x.nodes if n.label == lab]
                                                   for k, lab in TYPES.items()})
                    for g, x in extracted.values()])
    assert totals["metrics"].f1 >= 0.30 and totals["datasets"].f1 >= 0.42
    assert totals["methods"].f1 >= 0.38 and totals["tasks"].f1 >= 0.30


def test_no_element_without_provenance_and_confidences_vary(extracted):
    confidences = set()
    for _, extraction in extracted.values():
        for element in extraction.nodes + extraction.edges:
            assert element.props["extractor"].startswith("paperkg-semantic@")
            confidences.add(element.props["confidence"])
        for edge in extraction.edges:
            assert edge.props["source_chunk_ids"] and edge.props["pages"]
    assert len(confidences) > 50


def test_one_entity_node_across_papers_and_results_queryable(ingest_settings, driver):
    report = run_ingest(ingest_settings, driver, [SAMPLE_A, SAMPLE_B])
    assert report.count("ingested") == 2
    rows = driver.execute_query(
        "MATCH (p:Paper)-[r:PROPOSES|USES]->(m:Method {name: 'Sparse Routing Attention'}) "
        "RETURN type(r) AS t, r.paper_sha256 AS sha ORDER BY t").records
    assert [r["t"] for r in rows] == ["PROPOSES", "USES"] and len({r["sha"] for r in rows}) == 2
    assert value(driver, "MATCH (m:Method) WHERE m.name = 'Sparse Routing Attention' RETURN count(m)") == 1
    assert value(driver, "MATCH (d:Dataset) WHERE d.name IN ['PG-19', 'LongBench'] RETURN count(d)") == 2
    perplexity = driver.execute_query(
        "MATCH (r:Result)-[:FOR_METRIC]->(:Metric {name: 'perplexity'}), (r)-[:REPORTED_IN]->(t:Table) "
        "OPTIONAL MATCH (r)-[:OF_METHOD]->(m:Method) RETURN r.value AS v, t.label AS table, m.name AS method "
        "ORDER BY v").records
    assert [(r["v"], r["table"]) for r in perplexity] == [(32.4, "1"), (33.2, "1"), (36.3, "1")]
    assert [r["method"] for r in perplexity if r["v"] == 33.2] == ["Sparse Routing Attention"]
    assert value(driver, "MATCH ()-[r:MENTIONS]->(:Method) WHERE r.char_starts IS NULL RETURN count(r)") == 0


def test_scirex_benchmark_runs_through_the_cli(tmp_path):
    """`kg bench scirex` on the SciREX documents: it prints the tables and writes figures above a floor; on the
    held-out fifth the salience model never trained on, the central entities, what SciREX calls salient, are
    scored better than all the paper's entities (most of the methods a paper uses are not among SciREX's salient
    ones)."""
    from typer.testing import CliRunner

    from cli.main import app

    docs = GOLD.parent / "datasets" / "scirex_train_docs" / "docs"
    out = tmp_path / "scirex.json"
    result = CliRunner().invoke(app, ["bench", "scirex", "--docs", str(docs), "--json", str(out)])
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text())
    figures, held_out, every = written["scirex"], written["scirex held-out"], written["paper entities held-out"]
    assert set(figures) == set(every) == set(TYPES)
    assert "SciREX, central entities (salience model), 305 documents" in " ".join(result.output.split())
    assert figures["datasets"]["f1"] >= 0.25 and figures["metrics"]["f1"] >= 0.15
    assert held_out["methods"]["f1"] > every["methods"]["f1"]


def test_the_methods_papers_propose_are_central_far_more_often_than_those_they_use(extracted):
    """The salience model, trained on SciREX, never saw these papers: a method a paper proposes is what its results
    are about, a method it uses mostly is not."""
    central: dict[str, list[bool]] = {"PROPOSES": [], "USES": []}
    for _, x in extracted.values():
        for e in x.edges:
            if e.source_label == "Paper" and e.target_label == "Method" and e.type in central:
                central[e.type].append(e.props["central"])
    proposed, used = (sum(v) / len(v) for v in (central["PROPOSES"], central["USES"]))
    assert len(central["PROPOSES"]) >= 5 and len(central["USES"]) >= 20
    assert proposed > 0.5 and used < 0.2
