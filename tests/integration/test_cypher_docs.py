"""Every query in docs/cypher.md runs against the sample graph and returns exactly the rows expected here.

The sample graph gets a few elements curators rejected, each of which one of the content queries would show if it
did not leave rejected elements out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from neo4j.graph import Node, Relationship

from kg.db.graph import Graph
from kg.db.schema import init_schema
from kg.ingest.write import write_graph
from ontology.loader import get_schema
from ontology.records import EdgeRecord, NodeRecord
from tests.sample_graph import NOW, SHA_A, SHA_B, prov, sample_graph

DOC = Path(__file__).resolve().parents[2] / "docs" / "cypher.md"
PARAMS = {"paper_id": "paper_a", "dataset": "PG19", "query": "Gutenberg", "text_query": "perplexity",
          "min_confidence": 0.75}
SRT, BENCH = "Sparse Routing Transformers", "A Benchmark for Long Documents"

# One entry per query, in the order of the document: the rows, restricted to the columns given; a node is given by
# its id, a relationship by its type.
EXPECTED = [
    [{"p": "paper_b", "r": "USES", "x": "dataset_pg19"}, {"p": "paper_a", "r": "ADDRESSES", "x": "task_lm"},
     {"p": "paper_a", "r": "EVALUATES_ON", "x": "dataset_pg19"}, {"p": "paper_a", "r": "PROPOSES", "x": "method_srt"},
     {"p": "paper_a", "r": "USES", "x": "dataset_books"}, {"p": "paper_a", "r": "USES", "x": "method_transformer"}],
    [{"paper": SRT, "year": 2021, "methods": ["Sparse Routing Transformer", "Transformer"],
      "datasets": ["BookCorpus", "PG-19"], "tasks": ["language modeling"],
      "results": ["Sparse Routing Transformer: perplexity 33.2 on PG-19", "Transformer: perplexity 36.1 on PG-19"]},
     {"paper": BENCH, "year": 2022, "methods": [], "datasets": ["PG-19"], "tasks": [], "results": []}],
    [{"paper": "paper_a", "title": SRT, "year": 2021, "top_sections": 3, "figures": 2, "references": 1},
     {"paper": "paper_b", "title": BENCH, "year": 2022, "top_sections": 0, "figures": 0, "references": 1}],
    [{"paper": BENCH, "how": "USES", "confidence": 0.8}, {"paper": SRT, "how": "EVALUATES_ON", "confidence": 0.85}],
    [{"paper": BENCH, "proposed": []}, {"paper": SRT, "proposed": ["Sparse Routing Transformer"]}],
    [{"heading": "1 Introduction", "kind": "Introduction", "page": 1}, {"heading": "2 Method", "kind": "Method", "page": 2},
     {"heading": "    2.1 Routing Attention", "kind": "Method", "page": 3},
     {"heading": "3 Experiments", "kind": "Experiment", "page": 5}],
    [{"section": "Introduction", "page": 1}, {"section": "Routing Attention", "page": 3},
     {"section": "Experiments", "page": 5}],
    [{"method": "Sparse Routing Transformer", "confidence": 0.92, "pages": [1], "boxes": ["1:72,100,540,160"],
      "evidence": "Long documents need efficient attention; Figure 1 shows SRT."}],
    [{"paper": SRT, "kind": "Figure", "label": "2", "page": 4, "caption": "Attention patterns of SRT."}],
    [{"kind": "Dataset", "name": "PG-19", "aliases": ["PG19", "Project Gutenberg 19"]}],
    [{"paper": SRT, "page": 5, "text": "We evaluate SRT on PG-19 and report perplexity in Table 1."}],
    [{"dataset": "PG-19", "metric": "perplexity", "method": "Sparse Routing Transformer", "value": 33.2, "paper": SRT},
     {"dataset": "PG-19", "metric": "perplexity", "method": "Transformer", "value": 36.1, "paper": SRT}],
    [{"citing": BENCH, "listed_as": "Lee and Kim. Sparse Routing Transformers. 2021."}],
    [{"paper": SRT, "other": BENCH, "shared_datasets": ["PG-19"]}],
    [{"concept": "routing attention", "definition": "attention restricted to clustered keys",
      "section": "Routing Attention", "page": 3}],
    [{"paper": SRT, "relation": "ADDRESSES", "target": "language modeling", "confidence": 0.4},
     {"paper": SRT, "relation": "USES", "target": "Transformer", "confidence": 0.7}],
    [{"dataset": "PG-19", "page": 5, "bbox": [72.0, 300.0, 540.0, 350.0]}],
    [{"kind": "Method", "name": "SRT model", "candidate": "Sparse Routing Transformer", "confidence": 0.65}],
    [{"paper": SRT, "status": "succeeded", "extractors": ["paperkg-test@1.0"]}],
    [{"section": "1 Introduction", "sentence": "Long documents need efficient attention; Figure 1 shows SRT.",
      "page": 1, "char_start": 0},
     {"section": "2.1 Routing Attention", "sentence": "Routing attention is attention restricted to clustered keys.",
      "page": 3, "char_start": 60}],
    [{"domain": "Natural language processing", "paper": SRT, "score": 0.62, "matched": ["attention"],
      "pages": [1, 3]}],
    [{"related": BENCH, "shared": ["PG-19"], "count": 1}],  # BookCorpus: paper_b's use of it is rejected
    [{"paper": BENCH, "kind": "Dataset", "entity": "PG-19", "salience": 0.64},
     {"paper": SRT, "kind": "Method", "entity": "Sparse Routing Transformer", "salience": 0.93},
     {"paper": SRT, "kind": "Dataset", "entity": "PG-19", "salience": 0.71},
     {"paper": SRT, "kind": "Metric", "entity": "perplexity", "salience": 0.55},
     {"paper": SRT, "kind": "Task", "entity": "language modeling", "salience": 0.31}],  # Transformer: used, not central
]


def rejected_elements() -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """What curators rejected: a method paper_b would propose, a second use of PG-19 by paper_a, a result, a
    concept, and paper_b's use of a dataset paper_a uses too (which would make it a shared dataset)."""
    rejected = prov(None, status="rejected")
    nodes = [NodeRecord("Method", "method_fake", {**rejected, "name": "Fake Attention", "aliases": []}),
             NodeRecord("Dataset", "dataset_books", {**prov(None), "name": "BookCorpus", "aliases": []}),
             NodeRecord("Concept", "concept_fake", {**rejected, "name": "fake concept", "definition": "wrong"}),
             NodeRecord("Result", "res_fake", {**prov(SHA_A, status="rejected"), "value_text": "9.9", "value": 9.9})]
    edge = lambda type, source, target, sha, status="auto": EdgeRecord(  # noqa: E731
        type, *source, *target, prov(sha, status=status))
    a, b, srt = ("Paper", "paper_a"), ("Paper", "paper_b"), ("Method", "method_srt")
    books = ("Dataset", "dataset_books")
    edges = [edge("PROPOSES", b, ("Method", "method_fake"), SHA_B),
             edge("USES", a, ("Dataset", "dataset_pg19"), SHA_A, "rejected"),
             edge("USES", a, books, SHA_A),
             edge("USES", b, books, SHA_B, "rejected"),
             edge("DEFINES", ("Chunk", "chunk_a2"), ("Concept", "concept_fake"), SHA_A),
             edge("OF_EXPERIMENT", ("Result", "res_fake"), ("Experiment", "exp_a1"), SHA_A),
             edge("OF_METHOD", ("Result", "res_fake"), srt, SHA_A),
             edge("ON_DATASET", ("Result", "res_fake"), ("Dataset", "dataset_pg19"), SHA_A),
             edge("FOR_METRIC", ("Result", "res_fake"), ("Metric", "metric_ppl"), SHA_A)]
    return nodes, edges


def plain(value):
    """A node as its id and a relationship as its type, so that graph rows compare with the expectations."""
    if isinstance(value, Node):
        return value["id"]
    return value.type if isinstance(value, Relationship) else value


def doc_queries() -> list[str]:
    return re.findall(r"```cypher\n(.*?)```", DOC.read_text(), re.S)


def test_every_query_has_an_expectation():
    assert len(doc_queries()) == len(EXPECTED) >= 12


@pytest.fixture(scope="module")
def sample_db(driver):
    """One sample graph for all queries (read-only tests), in a database emptied first."""
    with driver.session() as session:
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()
    init_schema(Graph(driver), get_schema(), 384)
    nodes, edges = sample_graph()
    more_nodes, more_edges = rejected_elements()
    assert write_graph(Graph(driver), nodes + more_nodes, edges + more_edges, get_schema(), now=NOW).ok
    driver.execute_query("CALL db.awaitIndexes(60)")
    return driver


@pytest.mark.parametrize("number", range(1, len(EXPECTED) + 1))
def test_doc_query(sample_db, number):
    query, expected = doc_queries()[number - 1], EXPECTED[number - 1]
    used = set(re.findall(r"\$(\w+)", query))
    records = sample_db.execute_query(query, {k: v for k, v in PARAMS.items() if k in used}).records
    assert [{key: plain(record[key]) for key in row} for record, row in zip(records, expected)] == expected
    assert len(records) == len(expected)
