"""Research domains in the graph: the records of a paper's tags (written with the paper at ingest), re-tagging
every paper from new seeds without re-parsing, and the reads of the API and CLI. All the Cypher of domains is
here.

A Domain node is shared by the papers (no paper_sha256, like an Author); an IN_DOMAIN edge belongs to its paper
(its sha256), so a re-ingest or a delete of the paper replaces or removes it with the rest of the paper's graph.
Re-tagging reads each paper's text chunks and their stored embeddings, so it needs no PDF and no parse: it
replaces every automatic IN_DOMAIN edge and leaves the ones a curator verified, edited or rejected alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from typing import Any

from neo4j import ManagedTransaction

from extractors.domains import EXTRACTOR, VERSION, Domain, Passage, Seeds, Tag, Tagger
from extractors.model import paper_id
from kg.db.graph import Graph
from kg.ingest.mapping import provenance
from kg.ingest.papers import lock_paper
from kg.read.queries import resolve_paper
from kg.ingest.validation import validate_batch
from kg.ingest.write import stamp, write_in_transaction
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

TAGGER = f"{EXTRACTOR}@{VERSION}"
DOMAIN_CONFIDENCE = 1.0  # a Domain node is as the seeds define it

_PAPERS = "MATCH (p:Paper) RETURN p.sha256 AS sha ORDER BY p.sha256"
# A paper's text chunks in reading order, each with its section (none for text outside any section).
_PASSAGES = """
MATCH (p:Paper {sha256: $sha})
CALL (p) {
  MATCH (p)-[:HAS_CHUNK]->(c:Chunk) RETURN c, null AS s
  UNION
  MATCH (p)-[:HAS_SECTION]->(:Section)-[:HAS_SUBSECTION*0..]->(s:Section)-[:HAS_CHUNK]->(c:Chunk) RETURN c, s
}
WITH c, s WHERE c.kind = 'text'
RETURN c.id AS id, c.text AS text, c.page_start AS page, c.embedding AS vector, s.id AS section,
       coalesce(s.core_kind, 'body') AS core_kind
ORDER BY c.char_start
"""
_DELETE_AUTO_TAGS = """
MATCH (:Paper|Section)-[r:IN_DOMAIN]->(:Domain) WHERE r.verification_status = 'auto'
DELETE r RETURN count(r) AS deleted
"""
_CURATED_TAGS = "MATCH (s:Paper|Section)-[r:IN_DOMAIN]->(d:Domain) RETURN s.id AS source, d.id AS target"
# Domains the seeds no longer define, once nothing links them; a curator's own stay.
_DELETE_STALE_DOMAINS = """
MATCH (d:Domain) WHERE NOT d.id IN $keep AND NOT (d)--() AND d.verification_status = 'auto'
DELETE d RETURN count(d) AS deleted
"""
_DOMAINS = """
MATCH (d:Domain)
OPTIONAL MATCH (p:Paper)-[r:IN_DOMAIN]->(d) WHERE r.verification_status <> 'rejected'
WITH d, count(DISTINCT p) AS papers
OPTIONAL MATCH (s:Section)-[r:IN_DOMAIN]->(d) WHERE r.verification_status <> 'rejected'
RETURN d.id AS id, d.name AS name, coalesce(d.phrases, []) AS phrases, coalesce(d.venues, []) AS venues, papers,
       count(DISTINCT s) AS sections
ORDER BY papers DESC, d.id
"""
_PAPER_DOMAINS = """
MATCH (p:Paper {id: $id})-[r:IN_DOMAIN]->(d:Domain) WHERE r.verification_status <> 'rejected'
RETURN d.id AS id, d.name AS name, properties(r) AS props
ORDER BY r.score DESC, d.id
"""
_SECTION_DOMAINS = """
MATCH (p:Paper {id: $id})-[:HAS_SECTION]->(:Section)-[:HAS_SUBSECTION*0..]->(s:Section)-[r:IN_DOMAIN]->(d:Domain)
WHERE r.verification_status <> 'rejected'
RETURN s.id AS section, s.title AS title, d.id AS id, d.name AS name, properties(r) AS props
ORDER BY s.ordinal, r.score DESC, d.id
"""


def domain_node(domain: Domain) -> NodeRecord:
    props: dict[str, Any] = {"name": domain.name, "phrases": list(domain.phrases),
                             **provenance(None, confidence=DOMAIN_CONFIDENCE, extractor=TAGGER)}
    if domain.venues:  # no empty list: Neo4j cannot tell its type
        props["venues"] = list(domain.venues)
    return NodeRecord("Domain", domain.node_id, props)


def records(sha: str, paper_id: str, tags: Sequence[Tag], seeds: Seeds) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """The Domain nodes a paper's tags point at and its IN_DOMAIN edges, each with its score and evidence: the
    matched phrases, the venues cited, the chunks they occur in and those chunks' pages."""
    nodes = {t.score.domain.id: domain_node(t.score.domain) for t in tags}
    edges = []
    for t in tags:
        s = t.score
        props: dict[str, Any] = {"score": s.score, "keyword_hits": s.keyword_hits, "seeds": seeds.digest,
                                 **provenance(sha, chunks=s.chunk_ids, confidence=s.score, extractor=TAGGER)}
        props["pages"] = list(s.pages)
        if s.similarity is not None:
            props["similarity"] = s.similarity
        if s.matched:  # no empty list: Neo4j cannot tell its type
            props["matched"] = list(s.matched)
        if s.venues:
            props["venue_hits"], props["cited_venues"] = s.venue_hits, list(s.venues)
        source = ("Section", t.section_id) if t.section_id else ("Paper", paper_id)
        edges.append(EdgeRecord("IN_DOMAIN", *source, "Domain", s.domain.node_id, props))
    return list(nodes.values()), edges


@dataclass(frozen=True)
class RetagReport:
    papers: int
    domains: int  # in the seeds
    seeds: str  # their digest
    deleted: int  # automatic IN_DOMAIN edges removed
    written: int  # IN_DOMAIN edges written
    kept: int  # tags a curator decided, left as they were
    domains_removed: int  # Domain nodes the seeds no longer define
    embeddings: bool  # whether meaning was scored (else keywords alone)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def retag(graph: Graph, schema: Schema, tagger: Tagger) -> RetagReport:
    """Tag every paper again with `tagger`'s seeds, from the text and embeddings in the graph, in one transaction:
    only IN_DOMAIN edges and Domain nodes change."""
    with graph.write_session() as session:
        return session.execute_write(_retag, schema, tagger)


def _retag(tx: ManagedTransaction, schema: Schema, tagger: Tagger) -> RetagReport:
    shas = [r["sha"] for r in tx.run(_PAPERS)]
    for sha in shas:  # the lock order of every writer: papers first, then shared nodes
        lock_paper(tx, sha)
    seeds = tagger.seeds
    nodes = [domain_node(d) for d in seeds.domains]
    edges: list[EdgeRecord] = []
    for sha in shas:
        passages = [Passage(r["id"], r["text"] or "", r["page"], r["vector"], r["section"], r["core_kind"])
                    for r in tx.run(_PASSAGES, sha=sha)]
        edges += records(sha, paper_id(sha), tagger.tag_paper(passages), seeds)[1]
    deleted = tx.run(_DELETE_AUTO_TAGS).single()["deleted"]
    curated = {(r["source"], r["target"]) for r in tx.run(_CURATED_TAGS)}
    fresh = [e for e in edges if (e.source_id, e.target_id) not in curated]
    now = datetime.now(timezone.utc)
    batch = validate_batch([stamp(n, schema, now) for n in nodes], [stamp(e, schema, now) for e in fresh], schema)
    if batch.rejections:  # our own records: a refusal is a bug, not data to skip
        raise ValueError(f"the ontology refuses a domain tag: {batch.rejections[0].message}")
    _, written, _ = write_in_transaction(tx, batch.nodes, batch.edges)
    removed = tx.run(_DELETE_STALE_DOMAINS, keep=[n.id for n in nodes]).single()["deleted"]
    return RetagReport(papers=len(shas), domains=len(seeds.domains), seeds=seeds.digest, deleted=deleted,
                       written=written, kept=len(edges) - len(fresh), domains_removed=removed,
                       embeddings=tagger.embed is not None)


def domains(graph: Graph) -> list[dict[str, Any]]:
    """Every domain with the number of papers and sections tagged with it (rejected tags not counted)."""
    return [dict(r) for r in graph.read(_DOMAINS)]


def paper_domains(graph: Graph, name: str) -> dict[str, Any]:
    """The domains of the paper `name` stands for (kg.read.queries.resolve_paper) and its sections', best first, each
    with its score and evidence; rejected tags left out."""
    match = resolve_paper(graph, name)
    read = lambda q: graph.read(q, id=match.id)  # noqa: E731
    return {"paper_id": match.id, "title": match.title,
            "domains": [{"id": r["id"], "name": r["name"], **_evidence(r["props"])} for r in read(_PAPER_DOMAINS)],
            "sections": [{"section_id": r["section"], "section_title": r["title"], "id": r["id"], "name": r["name"],
                          **_evidence(r["props"])} for r in read(_SECTION_DOMAINS)]}


def _evidence(props: dict[str, Any]) -> dict[str, Any]:
    return {"score": props.get("score"), "similarity": props.get("similarity"),
            "keyword_hits": props.get("keyword_hits"), "matched": props.get("matched") or [],
            "venue_hits": props.get("venue_hits") or 0, "cited_venues": props.get("cited_venues") or [],
            "seeds": props.get("seeds"), "source_chunk_ids": props.get("source_chunk_ids") or [],
            "pages": props.get("pages") or [], "extractor": props.get("extractor"),
            "verification_status": props.get("verification_status")}
