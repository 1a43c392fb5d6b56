"""Re-ingestion keeps human work (docs/ingestion.md): verified/edited elements and curator additions survive
unchanged, rejected elements stay rejected and get no new links, automatic leftovers are removed."""

from __future__ import annotations

from extractors.model import paper_id
from extractors.semantic import EXTRACTOR as SEMANTIC_EXTRACTOR
from kg.db.filestore import file_sha256
from kg.ingest.mapping import EXTRACTOR
from tests.ingest_support import SAMPLE_A, ingest_settings, run_ingest, value  # noqa: F401


def test_curated_elements_survive_reextraction(ingest_settings, driver):
    sha = file_sha256(SAMPLE_A)
    pid = paper_id(sha)
    run_ingest(ingest_settings, driver, [SAMPLE_A])
    # A curator edits a section title, rejects the figure, verifies a chunk and adds a node and an edge of her own.
    driver.execute_query("MATCH (s:Section {paper_sha256: $sha, title: 'Method'}) "
                         "SET s.title = 'Method (curated)', s.verification_status = 'edited'", sha=sha)
    driver.execute_query("MATCH (f:Figure {paper_sha256: $sha}) SET f.verification_status = 'rejected'", sha=sha)
    chunk = driver.execute_query("MATCH (c:Chunk {paper_sha256: $sha, kind: 'text'}) RETURN c.id AS id, c.text AS text "
                                 "ORDER BY c.char_start LIMIT 1", sha=sha).records[0]
    driver.execute_query("MATCH (c:Chunk {id: $id}) SET c.verification_status = 'verified', c.text = 'checked'",
                         id=chunk["id"])
    driver.execute_query("""
        MATCH (p:Paper {id: $pid}), (c:Chunk {id: $cid})
        CREATE (x:Chunk {id: 'chunk_curator_note', text: 'a curator note', kind: 'text', paper_sha256: $sha,
                         verification_status: 'verified', extractor: 'curator:ann@paperkg-ui', confidence: 1.0})
        CREATE (p)-[:HAS_CHUNK {paper_sha256: $sha, verification_status: 'verified', extractor: 'curator:ann@paperkg-ui',
                                confidence: 1.0}]->(x)""", pid=pid, cid=chunk["id"], sha=sha)
    # An automatic chunk the old extraction made and the new one does not.
    driver.execute_query("""
        MATCH (p:Paper {id: $pid})
        CREATE (p)-[:HAS_CHUNK {paper_sha256: $sha, verification_status: 'auto', extractor: 'paperkg-extractors@0.0.1',
                                confidence: 1.0}]->(:Chunk {id: 'chunk_stale', text: 'old', paper_sha256: $sha,
                                verification_status: 'auto', extractor: 'paperkg-extractors@0.0.1', confidence: 1.0})""",
                         pid=pid, sha=sha)
    figure_edges = value(driver, "MATCH (f:Figure {paper_sha256: $sha})--() RETURN count(*)", sha=sha)

    report = run_ingest(ingest_settings, driver, [SAMPLE_A], force=True)
    outcome = report.papers[0]
    assert outcome.status == "ingested" and outcome.kept >= 3 and outcome.nodes_deleted == 1

    assert value(driver, "MATCH (s:Section {paper_sha256: $sha, verification_status: 'edited'}) RETURN s.title",
                 sha=sha) == "Method (curated)"
    assert value(driver, "MATCH (s:Section {title: 'Method'}) RETURN count(s)") == 0  # not re-created beside it
    assert value(driver, "MATCH (c:Chunk {id: $id}) RETURN c.text", id=chunk["id"]) == "checked"
    assert value(driver, "MATCH (f:Figure {paper_sha256: $sha}) RETURN f.verification_status", sha=sha) == "rejected"
    assert value(driver, "MATCH (f:Figure {paper_sha256: $sha})--() RETURN count(*)", sha=sha) == figure_edges
    assert value(driver, "MATCH (:Paper {id: $pid})-[:HAS_CHUNK]->(x {id: 'chunk_curator_note'}) RETURN x.text",
                 pid=pid) == "a curator note"
    assert value(driver, "MATCH (c:Chunk {id: 'chunk_stale'}) RETURN count(c)") == 0
    assert value(driver, "MATCH (n) WHERE n.paper_sha256 = $sha AND n.verification_status = 'auto' "
                         "AND NOT n.extractor IN [$structure, $semantic] RETURN count(n)", sha=sha,
                 structure=EXTRACTOR, semantic=SEMANTIC_EXTRACTOR) == 0  # experiments and results are current too


def test_a_curated_node_cut_off_from_its_paper_is_kept_on_reingest(ingest_settings, driver):
    """The writer CREATEs the paper's nodes its subgraph lacks; a node of the paper that a curator cut off from it
    (every edge removed) is not in that subgraph, yet its id comes again: the write falls back to MERGE and the
    curator's node stays as she left it, with the paper ingested, not failed."""
    sha = file_sha256(SAMPLE_A)
    run_ingest(ingest_settings, driver, [SAMPLE_A])
    chunk = value(driver, "MATCH (c:Chunk {paper_sha256: $sha, kind: 'text'}) RETURN c.id ORDER BY c.char_start "
                          "LIMIT 1", sha=sha)
    driver.execute_query("MATCH (c:Chunk {id: $id})-[r]-() DELETE r", id=chunk)
    driver.execute_query("MATCH (c:Chunk {id: $id}) SET c.text = 'kept apart', c.verification_status = 'edited'",
                         id=chunk)

    report = run_ingest(ingest_settings, driver, [SAMPLE_A], force=True)

    assert [p.status for p in report.papers] == ["ingested"], report.papers[0].reason
    assert value(driver, "MATCH (c:Chunk {id: $id}) RETURN count(c)", id=chunk) == 1
    assert value(driver, "MATCH (c:Chunk {id: $id}) RETURN c.text + '|' + c.verification_status",
                 id=chunk) == "kept apart|edited"
