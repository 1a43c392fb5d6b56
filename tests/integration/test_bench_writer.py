"""The writer part of `kg bench ingest`: a batch of synthetic papers through the ingest's writer (after a warm-up),
counted and timed per part, then removed again; with vectors, they land in the chunks the vector index covers. And
the corpus's own papers, deleted and written again as their ingest wrote them."""

from __future__ import annotations

import pytest

import bench.ingest as benchmark
from bench.ingest import papers_writer_throughput, server_runtime, synthetic_sha, writer_throughput
from kg.db.dump import canonical_dump
from kg.db.filestore import file_sha256
from kg.db.graph import Graph
from kg.db.localserver.java import checked_java
from kg.db.schema import init_schema
from ontology.loader import get_schema
from tests.ingest_support import GENERATED, SAMPLE_A, SAMPLE_B, ingest_settings, run_ingest, value  # noqa: F401
from tests.neo4j_harness import docker_engine_answers


def test_writer_counts_every_element_times_each_part_and_leaves_nothing(empty_db):
    init_schema(Graph(empty_db), get_schema(), 8)
    sections, per_section = 3, 4
    chunks = sections * per_section
    for dim in (0, 8):
        result = writer_throughput(Graph(empty_db), sections=sections, chunks_per_section=per_section,
                                   embedding_dim=dim, papers=2)
        assert result.papers == 2
        assert result.nodes == 2 * (1 + sections + chunks)  # paper, sections, chunks; the warm-up not counted
        assert result.edges == 2 * (sections + chunks + (chunks - 1))  # HAS_SECTION, HAS_CHUNK, NEXT_CHUNK
        assert set(result.parts) == {"read", "statements", "wait", "commit"}
        assert all(seconds >= 0 for seconds in result.parts.values()) and result.seconds > 0
        assert set(result.split()) == {"statements", "commit"}
        left = empty_db.execute_query("MATCH (n) WHERE n.paper_sha256 IN $shas OR n.sha256 IN $shas RETURN count(n) AS n",
                                      shas=[synthetic_sha(n) for n in range(3)]).records[0]["n"]
        assert left == 0


def test_writer_with_vectors_stores_them_on_every_chunk(empty_db, monkeypatch):
    init_schema(Graph(empty_db), get_schema(), 8)
    seen = {}
    original = benchmark.delete_subgraph

    def keep(graph, sha, schema):  # look before the bench removes its paper
        seen["dims"] = [r["d"] for r in graph.read(
            "MATCH (c:Chunk) WHERE c.paper_sha256 = $sha RETURN size(c.embedding) AS d", sha=sha)]
        return original(graph, sha, schema)

    monkeypatch.setattr(benchmark, "delete_subgraph", keep)
    writer_throughput(Graph(empty_db), sections=2, chunks_per_section=3, embedding_dim=8, papers=1)
    assert seen["dims"] == [8] * 6


def test_the_benchmark_names_the_server_s_java_its_inlining_and_whether_lucene_can_score_with_simd(
        driver, neo4j_settings):
    runtime = server_runtime(driver)
    assert runtime.neo4j.startswith("5.26.") and runtime.java
    if docker_engine_answers():
        pytest.skip("the container runs the image's Java, not one `kg db start` would start here")
    java = checked_java(neo4j_settings.java_home)
    assert runtime.java.split(".")[0].split("+")[0] == str(java.major)
    assert runtime.simd is (java.major == 21)  # the one supported Java on which Lucene 9.11 vectorises
    # the inlining budgets `kg db start` passes reach the server's JVM, and the benchmark's title names them
    assert runtime.inlining == ("-XX:FreqInlineSize=100", "-XX:InlineSmallCode=1000", "-XX:MaxInlineLevel=9")
    assert "JIT inlining -XX:FreqInlineSize=100 -XX:InlineSmallCode=1000 -XX:MaxInlineLevel=9," in runtime.describe()
    assert runtime.describe().endswith("Lucene SIMD vector scoring " + ("on" if java.major == 21 else "off"))


def test_writer_on_real_papers_writes_again_what_their_ingest_wrote(ingest_settings, driver, monkeypatch):
    written = []
    first = run_ingest(ingest_settings, driver, GENERATED, on_written=written.append)
    assert sorted(p.run.sha256 for p in written) == sorted(file_sha256(path) for path in (SAMPLE_A, SAMPLE_B))
    ledger = ("PaperKGSchema", "IngestRun")
    before = canonical_dump(Graph(driver), skip_labels=ledger)
    runs = _generated_by(driver)
    deleted = []
    original = benchmark.delete_subgraph

    def recorded(graph, sha, schema):  # the papers are really gone before they are written again
        deleted.append(sha)
        removed = original(graph, sha, schema)
        assert value(graph.driver, "MATCH (n {paper_sha256: $sha}) WHERE NOT n:IngestRun RETURN count(n)", sha=sha) == 0
        return removed

    monkeypatch.setattr(benchmark, "delete_subgraph", recorded)
    result = papers_writer_throughput(Graph(driver), written)
    assert sorted(deleted) == sorted(runs)
    assert result.papers == 2
    assert (result.nodes, result.edges) == (first.totals()["nodes_written"], first.totals()["edges_written"])
    assert set(result.parts) == {"read", "statements", "wait", "commit"} and result.seconds > 0
    assert canonical_dump(Graph(driver), skip_labels=ledger) == before
    assert _generated_by(driver) == runs


def _generated_by(driver) -> dict[str, str]:
    """Each paper's sha256 and the id of the run that generated it."""
    return {r["p"]: r["run"] for r in driver.execute_query(
        "MATCH (p:Paper)-[:GENERATED_BY]->(r:IngestRun) RETURN p.sha256 AS p, r.id AS run").records}


def test_writer_on_real_papers_in_a_larger_graph_has_the_extra_entities_only_meanwhile(ingest_settings, driver,
                                                                                        monkeypatch):
    written = []
    first = run_ingest(ingest_settings, driver, GENERATED, on_written=written.append)
    before = canonical_dump(Graph(driver), skip_labels=("PaperKGSchema", "IngestRun"))
    extra = "MATCH (n:Method|Dataset|Metric|Task|Concept) WHERE n.id STARTS WITH 'bench_entity_' RETURN count(n)"
    seen, timed = [], benchmark._written

    def counted(futures, began):  # while the papers are written
        seen.append(value(driver, extra))
        return timed(futures, began)

    monkeypatch.setattr(benchmark, "_written", counted)
    result = papers_writer_throughput(Graph(driver), written, entities=503)
    assert seen == [503]
    assert value(driver, extra) == 0
    assert (result.nodes, result.edges) == (first.totals()["nodes_written"], first.totals()["edges_written"])
    assert canonical_dump(Graph(driver), skip_labels=("PaperKGSchema", "IngestRun")) == before
