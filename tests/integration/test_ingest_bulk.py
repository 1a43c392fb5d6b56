"""`kg ingest --bulk` makes the graph the transactional ingest makes of the same files, and that graph takes
incremental ingests, re-ingests and curation as any other."""

from __future__ import annotations

import json

import pytest

from extractors.model import paper_id
from kg.db import store
from kg.db.graph import Graph
from kg.ingest.bulk import FIX_LABEL, bulk_load
from kg.curation.operations import Curation, NodeRef
from kg.db.dump import VOLATILE
from kg.errors import ConfigurationError
from kg.export.graph_read import read_graph
from kg.export.json_graph import dumps, to_document
from kg.db.filestore import file_sha256
from kg.ingest.pipeline import Ingestor
from kg.db.localserver import LocalNeo4j
from kg.db.schema import plan
from ontology.loader import get_schema
from tests import pdf_factory
from tests.ingest_support import SAMPLE_A, SAMPLE_B, ingest_settings, run_ingest, value  # noqa: F401
from tests.neo4j_harness import discard_neo4j, local_settings

# What differs between two loads of the same files at different times: when, and the run ids named after it.
_WHEN = (*VOLATILE, "started_at", "ended_at", "invocation")


def _export(driver) -> list[dict]:
    """The JSON export (`kg export json`) with times left out and each run id replaced by its paper's sha256."""
    records = read_graph(Graph(driver), get_schema(), include_rejected=True)
    document = json.loads(dumps(to_document(*records, get_schema())))
    runs = {n["id"]: f"run of {n['properties']['paper_sha256']}" for n in document["nodes"]
            if n["label"] == "IngestRun"}
    for element in document["nodes"] + document["edges"]:
        element["properties"] = {k: v for k, v in element["properties"].items() if k not in _WHEN}
        for end in (element, element.get("source", {}), element.get("target", {})):
            if end.get("id") in runs:
                end["id"] = runs[end["id"]]
    return sorted(document["nodes"] + document["edges"], key=lambda e: json.dumps(e, sort_keys=True))


@pytest.fixture
def bulk_settings(tmp_path):
    """A local server of the test's own: the bulk load stops and starts it."""
    settings = local_settings(tmp_path / "bulk")
    try:
        yield settings
    finally:
        discard_neo4j(LocalNeo4j(settings))


def test_bulk_load_is_the_transactional_graph_and_takes_later_work(ingest_settings, driver, bulk_settings, tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for sample in (SAMPLE_A, SAMPLE_B):  # they share an author: a node both papers propose
        (corpus / sample.name).write_bytes(sample.read_bytes())
    (corpus / "broken.pdf").write_bytes(b"%PDF-1.4 not really")  # a failed run in the ledger, both ways

    transactional = run_ingest(ingest_settings, driver, [corpus], embed=True)
    assert transactional.count("ingested") == 2 and transactional.count("failed") == 1
    expected = _export(driver)

    report = bulk_load([corpus], bulk_settings, workers=0, embed=True)
    assert (report.ingest.count("ingested"), report.ingest.count("failed")) == (2, 1)
    assert report.nodes + report.relationships == len(expected)
    with store.connect(bulk_settings) as bulk:
        assert _export(bulk) == expected
        assert value(bulk, f"MATCH (n:`{FIX_LABEL}`) RETURN count(n)") == 0
        assert value(bulk, "MATCH (:Chunk)-[r]-() WHERE r.source_chunk_ids = [] RETURN count(r)") > 0
        # line breaks, escaped in the CSV so that no file is read as multi-line, are back (the export above has them)
        assert value(bulk, "MATCH (c:Chunk) WHERE c.text CONTAINS '\\n' RETURN count(c)") > 0
        online = {r["name"] for r in bulk.execute_query("SHOW INDEXES YIELD name, state WHERE state = 'ONLINE' "
                                                        "RETURN name").records}
        constraints = {r["name"] for r in bulk.execute_query("SHOW CONSTRAINTS YIELD name").records}
        assert {s.name for s in plan(get_schema(), bulk_settings.embedding_dim)} <= online | constraints
        chunk = bulk.execute_query("MATCH (c:Chunk) WHERE c.embedding IS NOT NULL RETURN c.id AS id, "
                                   "c.embedding AS v LIMIT 1").records[0]
        hits = bulk.execute_query("CALL db.index.vector.queryNodes('chunk_embedding', 1, $v) YIELD node "
                                  "RETURN node.id AS id", v=chunk["v"]).records
        assert hits[0]["id"] == chunk["id"]

        # Later work on the bulk-loaded graph: a new paper, a curator's decision, a re-ingest that keeps it.
        extra = pdf_factory.write(tmp_path, "extra.pdf", pdf_factory.one_column_paper()[0])
        added = run_ingest(bulk_settings, bulk, [extra])
        assert added.count("ingested") == 1
        assert value(bulk, "MATCH (p:Paper) RETURN count(p)") == 3
        curated = paper_id(file_sha256(SAMPLE_A))
        outcome = Curation(Graph(bulk), get_schema(), "alice").verify(NodeRef("Paper", curated))
        assert outcome.element["properties"]["verification_status"] == "verified"
        again = Ingestor(bulk_settings, Graph(bulk), workers=0, embed=False, force=True).run([corpus / SAMPLE_A.name])
        assert again.count("ingested") == 1
        assert value(bulk, "MATCH (p:Paper {id: $id}) RETURN p.verification_status", id=curated) == "verified"
        assert value(bulk, "MATCH (:Paper {id: $id})-[:GENERATED_BY]->(r:IngestRun) RETURN count(r)", id=curated) == 2

    with pytest.raises(ConfigurationError, match="already holds a graph"):
        bulk_load([corpus], bulk_settings, workers=0, embed=False)
    # gzip-compressed CSV (--compress-csv), replacing the graph: the same graph again
    report = bulk_load([corpus], bulk_settings, replace=True, workers=0, embed=True, compressed=True)
    assert report.nodes + report.relationships == len(expected)
    with store.connect(bulk_settings) as bulk:
        assert _export(bulk) == expected
