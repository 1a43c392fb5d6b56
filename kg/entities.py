"""Canonical entities across papers, in the write path: a paper's proposed Method/Dataset/Metric/Task/Concept
nodes are matched against the entities already in the graph. Same name or alias (by match key, or a near
spelling that differs only by case, hyphens or a plural) -> the existing node is reused as it is; a near but uncertain
spelling -> both nodes stay and a SAME_AS candidate edge goes to curators; anything else stays apart."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from neo4j import ManagedTransaction

from rapidfuzz import fuzz

from extractors.semantic.canonical import Identity, close_spellings, identity, match_key
from kg.records import EdgeRecord, NodeRecord
from kg.runs import Run
from kg.validation import validate_batch
from kg.write import PLANNED_ONCE
from ontology.loader import Schema

ENTITY_LABELS = ("Method", "Dataset", "Metric", "Task", "Concept")
# The label disjunction is built from the constant above (never from input): it plans as a union of label
# scans, where `any(l IN labels(n) ...)` scanned every node of the graph, chunks included, per paper.
# One record holding every entity as a list: a record per entity cost the client more than the query (every
# paper reads them all: 0.1 s a paper once the corpus was in the graph).
_EXISTING = PLANNED_ONCE + f"""
MATCH (n:{'|'.join(ENTITY_LABELS)})
RETURN collect([[l IN labels(n) WHERE l IN $labels][0], n.id, n.name, coalesce(n.aliases, [])]) AS entities
"""


@dataclass(frozen=True)
class KnownEntity:
    label: str
    id: str
    name: str
    aliases: tuple[str, ...] = ()


def existing_entities(tx: ManagedTransaction) -> list[KnownEntity]:
    entities = tx.run(_EXISTING, labels=list(ENTITY_LABELS)).single()["entities"]
    return [KnownEntity(label, node_id, name or "", tuple(aliases)) for label, node_id, name, aliases in entities]


@dataclass
class _LabelNames:
    """A label's known entities and the match key of each of their names, in the order the graph gave them."""
    entities: list[KnownEntity] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)  # keys[i] is a name of entities[owners[i]]

    def close_to(self, names: list[str]) -> list[KnownEntity]:
        close = close_spellings([match_key(n) for n in names if n], self.keys)
        return [self.entities[i] for i in sorted({self.owners[c] for c in close})]


def resolve(nodes: list[NodeRecord], edges: list[EdgeRecord], known: list[KnownEntity]
            ) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """The records with proposed entities that the graph knows by a name or alias left out (the graph's node
    stays as it is; edges are remapped to it), plus a SAME_AS candidate edge from each new entity to each known
    entity whose name is close but not sure."""
    by_key: dict[tuple[str, str], KnownEntity] = {}
    by_label: dict[str, _LabelNames] = {}
    for entity in known:
        names = by_label.setdefault(entity.label, _LabelNames())
        for name in (entity.name, *entity.aliases):
            if name:
                by_key[(entity.label, key := match_key(name))] = entity
                names.keys.append(key)
                names.owners.append(len(names.entities))
        names.entities.append(entity)
    remap: dict[tuple[str, str], KnownEntity] = {}
    out_nodes, same_as = [], []
    for node in nodes:
        if node.label not in ENTITY_LABELS:
            out_nodes.append(node)
            continue
        names = [node.props.get("name", ""), *node.props.get("aliases", [])]
        match = next((by_key[(node.label, match_key(n))] for n in names if (node.label, match_key(n)) in by_key), None)
        if match is not None:
            remap[(node.label, node.id)] = match  # the node is in the graph already and stays as it is
            continue
        out_nodes.append(node)
        same_as += _candidates(node, names, by_label.get(node.label, _LabelNames()).close_to(names), edges)
    moved = [_moved(e, remap) for e in edges] if remap else edges
    return out_nodes, moved + same_as


def _moved(edge: EdgeRecord, remap: dict[tuple[str, str], KnownEntity]) -> EdgeRecord:
    source = remap.get((edge.source_label, edge.source_id))
    target = remap.get((edge.target_label, edge.target_id))
    return replace(edge, source_id=source.id if source else edge.source_id, target_id=target.id if target else edge.target_id)


def _candidates(node: NodeRecord, names: list[str], known: list[KnownEntity], edges: list[EdgeRecord]) -> list[EdgeRecord]:
    """SAME_AS to each known entity with an uncertain identity, carrying the evidence of the paper's own edge
    to the new entity; confidence grows with the spelling similarity and stays below 0.6: curators decide."""
    evidence = next((e.props for e in edges if e.source_label == "Paper" and e.target_id == node.id), None)
    out = []
    for k in known:
        pairs = [(n, m) for n in names for m in (k.name, *k.aliases) if identity(n, m) is Identity.CANDIDATE]
        if k.id != node.id and pairs:
            similarity = max(fuzz.ratio(match_key(n), match_key(m)) for n, m in pairs) / 100
            props = {key: v for key, v in (evidence or node.props).items()
                     if key in ("source_chunk_ids", "pages", "bboxes", "extractor", "verification_status", "paper_sha256")}
            out.append(EdgeRecord("SAME_AS", node.label, node.id, k.label, k.id,
                                  {**props, "confidence": round(0.6 * similarity, 3)}))
    return out


def resolve_in_transaction(tx: ManagedTransaction, schema: Schema, run: Run, nodes: list[NodeRecord],
                           edges: list[EdgeRecord]) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """resolve() against the graph as this transaction sees it; the SAME_AS candidates it adds are stamped
    and validated like every other edge of the paper (a refused one is dropped). A paper that proposes no entity
    has nothing to resolve, and does not read the graph's entities."""
    if not any(n.label in ENTITY_LABELS for n in nodes):
        return nodes, edges
    nodes, edges = resolve(nodes, edges, existing_entities(tx))
    fresh = [e for e in edges if e.type == "SAME_AS" and "created_at" not in e.props]
    checked = validate_batch([], [run.stamped(e, schema) for e in fresh], schema).edges
    return nodes, [e for e in edges if not (e.type == "SAME_AS" and "created_at" not in e.props)] + checked
