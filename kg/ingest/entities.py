"""Canonical entities across papers, in the write path: a paper's proposed Method/Dataset/Metric/Task/Concept
nodes are matched against the entities already in the graph. Same name or alias (by match key, or a near
spelling that differs only by case, hyphens or a plural) -> the existing node is reused as it is; a near but uncertain
spelling -> both nodes stay and a SAME_AS candidate edge goes to curators; anything else stays apart."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from neo4j import ManagedTransaction

from rapidfuzz import fuzz

from extractors.semantic.canonical import Identity, close_spellings, identity, match_key
from extractors.semantic.duplicates import Named
from kg.curation.cypher import EVENT_LABEL
from kg.ingest.runs import Run
from kg.ingest.validation import validate_batch
from kg.ingest.write import PLANNED_ONCE
from ontology.loader import Schema, get_schema
from ontology.records import EdgeRecord, NodeRecord


def entity_labels() -> tuple[str, ...]:
    """The ontology's entity classes (pkg:Entity), read when first needed rather than at import, which every `kg`
    command would pay for."""
    return get_schema().entity_labels


@lru_cache(maxsize=1)
def _existing() -> str:
    """The label disjunction is built from the ontology's labels (never from input; the loader admits plain
    identifiers only): it plans as a union of label scans, where `any(l IN labels(n) ...)` scanned every node of
    the graph, chunks included, per paper. One record holding every entity as a list: a record per entity cost the
    client more than the query."""
    return PLANNED_ONCE + f"""
MATCH (n:{'|'.join(entity_labels())})
RETURN collect([[l IN labels(n) WHERE l IN $labels][0], n.id, n.name, coalesce(n.aliases, []),
                n.verification_status = 'rejected']) AS entities
"""


# What an EntityCatalog checks before it answers from memory: how many entity nodes there are, and how many
# curation events (every verify, reject, flag, edit, merge, edge added or removed and undo, through the API or
# `kg curate`, records one in its own transaction; deleting a paper removes its orphan entities, which the first
# count sees). Each label's count is read from Neo4j's count store (NodeCountFromCountStore), so the check costs
# the same on a graph of any size, and sees the transaction's own writes.
@lru_cache(maxsize=1)
def _signature() -> str:
    labels = entity_labels()
    return PLANNED_ONCE + "\n".join(
        [f"CALL () {{ MATCH (n:`{label}`) RETURN count(n) AS c{i} }}" for i, label in enumerate(labels)]
        + [f"CALL () {{ MATCH (e:`{EVENT_LABEL}`) RETURN count(e) AS events }}",
           "RETURN " + " + ".join(f"c{i}" for i in range(len(labels))) + " AS entities, events"])


@dataclass(frozen=True)
class KnownEntity(Named):
    """An entity of the graph as ingest resolves names against it: the duplicate detector's view, plus whether a
    curator rejected it."""

    rejected: bool = False  # a curator rejected it (a merge rejects the duplicate and gives its name to the survivor)

    def preferred_to(self, other: KnownEntity) -> bool:
        """Which of two entities a name both carry resolves to: not rejected first, then the smaller id, so the
        answer does not depend on the order the graph (or a catalog) lists them in."""
        return (self.rejected, self.id) < (other.rejected, other.id)


def existing_entities(tx: ManagedTransaction) -> list[KnownEntity]:
    entities = tx.run(_existing(), labels=list(entity_labels())).single()["entities"]
    return [KnownEntity(label, node_id, name or "", tuple(aliases), bool(rejected))
            for label, node_id, name, aliases, rejected in entities]


@dataclass
class _LabelNames:
    """A label's known entities and the match key of each of their names, in the order they were added."""
    entities: list[KnownEntity] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)  # keys[i] is a name of entities[owners[i]]

    def close_to(self, names: list[str]) -> list[KnownEntity]:
        close = close_spellings([match_key(n) for n in names if n], self.keys)
        return [self.entities[i] for i in sorted({self.owners[c] for c in close})]


class EntityIndex:
    """The known entities keyed for resolve(): by (label, match key) of each name and alias, and per label for
    near spellings. Built once and extended, so that a catalog does not key every name of the graph per paper."""

    def __init__(self, known: Iterable[KnownEntity] = ()) -> None:
        self.by_key: dict[tuple[str, str], KnownEntity] = {}
        self.by_label: dict[str, _LabelNames] = {}
        for entity in known:
            self.add(entity)

    def add(self, entity: KnownEntity) -> None:
        names = self.by_label.setdefault(entity.label, _LabelNames())
        for name in entity.names:
            key = (entity.label, match_key(name))
            current = self.by_key.get(key)
            if current is None or entity.preferred_to(current):
                self.by_key[key] = entity
            names.keys.append(key[1])
            names.owners.append(len(names.entities))
        names.entities.append(entity)


def resolve(nodes: list[NodeRecord], edges: list[EdgeRecord], known: EntityIndex | Iterable[KnownEntity]
            ) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """The records with proposed entities that the graph knows by a name or alias left out (the graph's node
    stays as it is; edges are remapped to it), plus a SAME_AS candidate edge from each new entity to each known
    entity whose name is close but not sure."""
    index = known if isinstance(known, EntityIndex) else EntityIndex(known)
    by_key, by_label = index.by_key, index.by_label
    remap: dict[tuple[str, str], KnownEntity] = {}
    out_nodes, same_as = [], []
    labels = entity_labels()
    for node in nodes:
        if node.label not in labels:
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


@dataclass(frozen=True)
class Signature:
    entities: int
    events: int


def read_signature(tx: ManagedTransaction) -> Signature:
    record = tx.run(_signature()).single()
    return Signature(record["entities"], record["events"])


@dataclass(frozen=True)
class CatalogUpdate:
    """What a paper's transaction left of the graph's entities, for its EntityCatalog once it has committed:
    the entities it created and the signature with them, or None when the catalog cannot tell (it reads again)."""

    created: tuple[KnownEntity, ...]
    signature: Signature | None


class EntityCatalog:
    """The graph's entities kept between the papers of one writer (kg.ingest.tuned_writer.TunedWriter), so that
    resolving a paper does not read and key every entity of the graph: that cost grows with every paper ingested, so
    a large folder would get slower paper after paper (`kg bench ingest --writer-entities` measures the writer with
    many entities in the graph). A paper's transaction reads the
    signature instead (entity nodes and curation events, from the count store) and reads the entities again
    only when it differs from what this catalog's papers left: another writer's entities, a deletion, any
    curation; or when an entity it remembers is gone (kg.ingest.papers checks the ends of the paper's edges). Papers use
    it one at a time: the tuned writer resolves a paper only once the one before it is done."""

    def __init__(self) -> None:
        self._index: EntityIndex | None = None
        self._signature: Signature | None = None
        self.full_reads = 0  # by every attempt of a transaction, retried ones too
        self.from_memory = False  # whether the last index() answered without reading the graph's entities

    def index(self, tx: ManagedTransaction) -> tuple[EntityIndex, Signature]:
        signature = read_signature(tx)
        self.from_memory = self._index is not None and signature == self._signature
        if not self.from_memory:
            self._index, self._signature = EntityIndex(existing_entities(tx)), signature
            self.full_reads += 1
        return self._index, signature

    def committed(self, update: CatalogUpdate) -> None:
        if self._index is None or update.signature is None:
            self.forget()
            return
        for entity in update.created:
            self._index.add(entity)
        self._signature = update.signature

    def forget(self) -> None:
        """Read the graph's entities again at the next paper."""
        self._index = None


def catalog_update(tx: ManagedTransaction, before: Signature, written: list[NodeRecord], orphans: bool
                   ) -> CatalogUpdate:
    """The update for the entity nodes a paper's transaction wrote (`written`), once all its writes are done
    (`orphans`: it removed shared nodes nothing links any more, maybe entities). They were new to the graph if the
    count grew by exactly as many; otherwise (a MERGE found the node, an orphan entity went, another writer
    committed meanwhile) the catalog is told to read again."""
    created = tuple(KnownEntity(n.label, n.id, n.props.get("name") or "", tuple(n.props.get("aliases") or ()),
                                n.props.get("verification_status") == "rejected") for n in written)
    if not created and not orphans:
        return CatalogUpdate((), before)
    after = read_signature(tx)
    expected = Signature(before.entities + len(created), before.events)
    return CatalogUpdate(created, after if after == expected else None)


def resolve_in_transaction(tx: ManagedTransaction, schema: Schema, run: Run, nodes: list[NodeRecord],
                           edges: list[EdgeRecord], catalog: EntityCatalog | None = None
                           ) -> tuple[list[NodeRecord], list[EdgeRecord], Signature | None]:
    """resolve() against the graph as this transaction sees it (through `catalog` when given); the SAME_AS
    candidates it adds are stamped and validated like every other edge of the paper (a refused one is dropped).
    A paper that proposes no entity has nothing to resolve, and does not read the graph's entities. Also returns
    the signature the catalog checked (None without a catalog or entities), for catalog_update."""
    if not any(n.label in entity_labels() for n in nodes):
        return nodes, edges, None
    index, signature = catalog.index(tx) if catalog is not None else (EntityIndex(existing_entities(tx)), None)
    return *resolve_checked(schema, run, nodes, edges, index), signature


def resolve_checked(schema: Schema, run: Run, nodes: list[NodeRecord], edges: list[EdgeRecord], index: EntityIndex
                    ) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """resolve() against `index`, with the SAME_AS candidates it adds stamped with `run` and validated (a refused
    one is dropped): the transactional writer's resolution and the bulk loader's (kg.ingest.bulk) are this one."""
    nodes, edges = resolve(nodes, edges, index)
    fresh = [e for e in edges if e.type == "SAME_AS" and "created_at" not in e.props]
    checked = validate_batch([], [run.stamped(e, schema) for e in fresh], schema).edges
    return nodes, [e for e in edges if not (e.type == "SAME_AS" and "created_at" not in e.props)] + checked
