"""Duplicate candidates in the graph: run the detector (extractors/semantic/duplicates.py) over every entity and
write what it proposes as SAME_AS candidate edges for curators; list them, best first, for review.

Nothing is merged automatically: a candidate is an `auto` edge a curator merges (kg.curation.merge, which turns
it into the verified decision) or rejects. Re-running replaces every `auto` candidate (the ingest-time ones too:
the detector judges their pairs again with more evidence) and keeps what curators decided, so a rejected
candidate stays rejected and its pair is never proposed again, and a verified one is not duplicated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from neo4j import ManagedTransaction

from extractors.semantic.duplicates import (EXTRACTOR, VERSION, Candidate, Definition, Embed, Named, acronym_letters,
                                            propose)
from extractors.semantic.passages import Passage
from kg.curation import cypher
from kg.curation.operations import now_utc
from kg.db.graph import Graph
from kg.ingest.validation import validate_batch
from ontology.loader import Schema
from ontology.records import EdgeRecord


@dataclass(frozen=True)
class DetectReport:
    entities: int
    passages: int  # passages read for abbreviation definitions
    proposed: int  # candidates the detector found
    kept_apart: int  # of those, pairs a curator decided already
    replaced: int  # earlier automatic candidates removed
    written: int
    embeddings: bool

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def detect(graph: Graph, schema: Schema, *, embed: Embed | None = None
           ) -> tuple[DetectReport, list[Candidate]]:
    """Propose candidates over the whole graph and write them, replacing the earlier automatic ones."""
    from extractors.semantic.abbreviations import analyse  # loads spaCy: imported by detection, not by every `kg`

    labels = list(schema.entity_labels)
    read = graph.read
    entities = [Named(r["label"], r["id"], r["name"] or "", tuple(r["aliases"]))
                for r in read(cypher.DUPLICATE_ENTITIES.format(labels=_disjunction(labels)), labels=labels)]
    short = [e.id for e in entities if any(acronym_letters(n) for n in e.names)]
    passages = [Passage(r["text"], "", chunk_id=r["id"])
                for r in read(cypher.DUPLICATE_PASSAGES.format(labels=_disjunction(labels)), ids=short)]
    _, pairs = analyse(passages) if passages else ([], [])
    definitions = [Definition(p.short, p.long, passages[p.passage].chunk_id) for p in pairs]
    found = propose(entities, definitions, embed)
    with graph.write_session() as session:
        replaced, kept_apart, written = session.execute_write(_write, schema, found)
    report = DetectReport(len(entities), len(passages), len(found), kept_apart, replaced, written, embed is not None)
    return report, found


def _disjunction(labels: Sequence[str]) -> str:
    return "|".join(f"`{label}`" for label in labels)


def _write(tx: ManagedTransaction, schema: Schema, found: list[Candidate]) -> tuple[int, int, int]:
    replaced = tx.run(cypher.DELETE_AUTO_CANDIDATES).single()["deleted"]
    decided = {frozenset((r["a"], r["b"])) for r in tx.run(cypher.SAME_AS_PAIRS)}
    fresh = [c for c in found if frozenset((c.source, c.target)) not in decided]
    now = now_utc()
    edges = [EdgeRecord("SAME_AS", c.label, c.source, c.label, c.target,
                        {"confidence": c.score, "score": c.score, "reasons": list(c.reasons),
                         "extractor": f"{EXTRACTOR}@{VERSION}", "verification_status": "auto",
                         "source_chunk_ids": list(c.chunk_ids), "created_at": now, "updated_at": now})
             for c in fresh]
    accepted = validate_batch([], edges, schema).edges
    written = 0
    for label in sorted({e.source_label for e in accepted}):
        rows = [{"source": e.source_id, "target": e.target_id, "props": e.props}
                for e in accepted if e.source_label == label]
        written += tx.run(cypher.CREATE_CANDIDATES.format(label=label), rows=rows).single()["created"]
    return replaced, len(found) - len(fresh), written


def candidates(graph: Graph, schema: Schema, *, statuses: Sequence[str] = ("auto",), offset: int = 0,
               limit: int = 50) -> dict[str, Any]:
    """A page of SAME_AS edges in the given curation statuses, best first: each with its score, reasons and both
    entities (name, aliases, papers, evidence count)."""
    read = graph.read
    total = read(cypher.DUPLICATE_COUNT, statuses=list(statuses))[0]["total"]
    items = []
    for r in read(cypher.DUPLICATE_PAGE, statuses=list(statuses), offset=offset, limit=limit,
                  labels=list(schema.entity_labels)):
        props = dict(r["props"])
        source, target = (dict(end) for end in r["ends"])
        items.append({"edge_id": r["edge_id"], "key": f"{source['id']}|SAME_AS|{target['id']}",
                      "score": props.get("score", props.get("confidence")), "reasons": props.get("reasons") or [],
                      "status": props.get("verification_status"), "extractor": props.get("extractor"),
                      "source_chunk_ids": props.get("source_chunk_ids") or [], "source": source, "target": target})
    return {"total": total, "offset": offset, "limit": limit, "items": items}
