"""Every query in docs/cypher.md runs against the sample graph and returns exactly the rows expected here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg.schema import init_schema
from kg.write import write_graph
from ontology.loader import get_schema
from tests.sample_graph import NOW, sample_graph

DOC = Path(__file__).resolve().parents[2] / "docs" / "cypher.md"
PARAMS = {"paper_id": "paper_a", "dataset": "PG19", "query": "Gutenberg", "text_query": "perplexity",
          "min_confidence": 0.75}
SRT, BENCH = "Sparse Routing Transformers", "A Benchmark for Long Documents"

# One entry per query, in the order of the document: the rows, restricted to the columns given.
EXPECTED = [
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
]


def doc_queries() -> list[str]:
    return re.findall(r"```cypher\n(.*?)```", DOC.read_text(), re.S)


def test_every_query_has_an_expectation():
    assert len(doc_queries()) == len(EXPECTED) >= 12


@pytest.fixture(scope="module")
def sample_db(driver):
    """One sample graph for all queries (read-only tests), in a database emptied first."""
    with driver.session() as session:
        session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()
    init_schema(driver, get_schema(), 384)
    nodes, edges = sample_graph()
    assert write_graph(driver, nodes, edges, get_schema(), now=NOW).ok
    driver.execute_query("CALL db.awaitIndexes(60)")
    return driver


@pytest.mark.parametrize("number", range(1, len(EXPECTED) + 1))
def test_doc_query(sample_db, number):
    query, expected = doc_queries()[number - 1], EXPECTED[number - 1]
    used = set(re.findall(r"\$(\w+)", query))
    records = sample_db.execute_query(query, {k: v for k, v in PARAMS.items() if k in used}).records
    assert [{key: record[key] for key in row} for record, row in zip(records, expected)] == expected
    assert len(records) == len(expected)
