"""Document + semantic annotations → graph records: entities, concepts, experiments, results and the links between
them, each with provenance computed here from the annotation's anchors (kg.ingest.mapping.provenance). Pure: no
database, no clock.

Ids: an entity's derives from its label and normalised name (one node for every paper that names it); an
experiment's and a result's from the paper and the table (and cell) they were read from. A shared entity's node
holds only what its name determines (the lexicons' aliases and their confidence in the name), so deleting or
re-ingesting one paper leaves it as the other papers made it; what this paper says about it is on its edges.
"""

from __future__ import annotations

from collections.abc import Iterable

from extractors.annotations import Anchor, Annotations, EntityRef, ExperimentAnnotation
from extractors.bbox import format_bbox
from extractors.model import Box, Document, hashed_id, paper_id
from extractors.semantic import EXTRACTOR
from extractors.semantic.canonical import entity_id
from extractors.semantic.lexicons import known_aliases
from extractors.semantic.patterns import DATASET, METHOD, METRIC, TASK, name_confidence
from kg.ingest.mapping import provenance
from ontology.records import EdgeRecord, NodeRecord

_PAPER_EDGE = {DATASET: "EVALUATES_ON", METRIC: "MEASURES", TASK: "ADDRESSES"}


class _Records:
    """The records of one paper as they are built, each node once."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.nodes: list[NodeRecord] = []
        self.edges: list[EdgeRecord] = []
        self._node_ids: set[tuple[str, str]] = set()

    def place(self, anchor: Anchor) -> tuple[str | None, list[Box]]:
        """The chunk and the boxes an anchor stands for: the lines its words are printed on (the chunk's first
        region for a whole chunk, or words outside the body's lines, such as a caption's), a heading's box (read
        with the first chunk of its section), a table's region (and its chunk), the title's box."""
        doc = self.doc
        if anchor.kind == "chunk":
            chunk = doc.chunk(anchor.element_id)
            words = doc.boxes_of(anchor.char_start, anchor.char_end) if anchor.char_start is not None else []
            return chunk.id, words or chunk.boxes[:1]
        if anchor.kind == "heading":
            heading = doc.heading_chunk(anchor.element_id)
            return heading.id if heading else None, [doc.section(anchor.element_id).box]
        if anchor.kind == "cells":
            table, chunk = doc.table(anchor.element_id), doc.chunk_of(anchor.element_id)
            return chunk.id if chunk else None, [Box(page=table.page, bbox=table.bbox)]
        return None, [doc.metadata.title_box] if doc.metadata.title_box else []

    def evidence(self, anchors: Iterable[Anchor], confidence: float, extractor: str) -> dict:
        """Provenance of a record resting on `anchors`: their chunks, pages and boxes, this paper's hash."""
        places = [self.place(a) for a in dict.fromkeys(anchors)]
        return provenance(self.doc.sha256, boxes=[b for _, boxes in places for b in boxes],
                          chunks=[c for c, _ in places if c], confidence=confidence, extractor=extractor)

    def node(self, label: str, id_: str, props: dict) -> None:
        if (label, id_) not in self._node_ids:
            self._node_ids.add((label, id_))
            self.nodes.append(NodeRecord(label, id_, props))

    def entity(self, ref: EntityRef) -> str:
        """The shared node of an entity (made once), its id."""
        id_ = entity_id(ref.label, ref.name)
        self.node(ref.label, id_, {"name": ref.name, "aliases": known_aliases(ref.label, ref.name),
                                   **provenance(None, confidence=name_confidence(ref.label, ref.name),
                                                extractor=EXTRACTOR)})
        return id_

    def edge(self, type_: str, source: tuple[str, str], target: tuple[str, str], props: dict) -> None:
        self.edges.append(EdgeRecord(type_, *source, *target, props))


def map_semantics(doc: Document, annotations: Annotations) -> tuple[list[NodeRecord], list[EdgeRecord]]:
    """Every record the annotations of one paper make."""
    out = _Records(doc)
    paper = ("Paper", paper_id(doc.sha256))
    for e in annotations.entities:
        target = (e.entity.label, out.entity(e.entity))
        type_ = "PROPOSES" if e.proposed else _PAPER_EDGE.get(e.entity.label, "USES")
        out.edge(type_, paper, target, {**out.evidence(e.evidence, e.confidence, e.extractor),
                                        "salience": e.salience, "central": e.central})
        by_chunk: dict[str, list[Anchor]] = {}
        for m in e.mentions:
            by_chunk.setdefault(m.element_id, []).append(m)
        for chunk, spans in by_chunk.items():
            confidence = min(1.0, e.confidence * (0.8 + 0.05 * len(spans)))
            out.edge("MENTIONS", ("Chunk", chunk), target, {
                **out.evidence(spans, confidence, e.extractor),
                "char_starts": [m.char_start for m in spans], "char_ends": [m.char_end for m in spans]})
    for d in annotations.definitions:
        concept = entity_id("Concept", d.term)
        out.node("Concept", concept, {
            "name": d.term, "aliases": list(d.aliases), "definition": d.definition, "concept_type": d.concept_type,
            "importance": d.importance, **provenance(None, confidence=d.confidence, extractor=d.extractor)})
        source = ("Equation", d.equation_id) if d.equation_id else ("Chunk", out.place(d.sentence)[0])
        if source[1]:
            out.edge("DEFINES", source, ("Concept", concept), out.evidence([d.sentence], d.link_confidence, d.extractor))
    for x in annotations.experiments:
        _experiment(out, paper, x)
    for link in annotations.links:
        source = (link.source_label, link.source_id or out.entity(link.source_entity))
        out.edge(link.type, source, (link.target.label, out.entity(link.target)),
                 out.evidence(link.anchors, link.confidence, link.extractor))
    return out.nodes, out.edges


def _experiment(out: _Records, paper: tuple[str, str], x: ExperimentAnnotation) -> None:
    """A result table's Experiment, what it measures and evaluates on, and a Result per value with its cell's box."""
    sha, table = out.doc.sha256, out.doc.table(x.table_id)
    experiment = ("Experiment", hashed_id("experiment", sha, x.table_id))
    evidence = out.evidence(x.table, x.confidence, x.extractor)
    out.node(*experiment, {"name": f"Table {x.table_label}", "description": x.caption, **evidence})
    out.edge("HAS_EXPERIMENT", paper, experiment, evidence)
    for metric in x.metrics:
        out.edge("MEASURES", experiment, (METRIC, out.entity(EntityRef(METRIC, metric))), evidence)
    datasets = [(DATASET, out.entity(EntityRef(DATASET, d))) for d in x.datasets]
    for dataset in datasets:
        out.edge("EVALUATES_ON", experiment, dataset, evidence)
    for r in x.results:
        result = ("Result", hashed_id("result", sha, x.table_id, r.row, r.col))
        at = {**evidence, "pages": [table.page], "bboxes": [format_bbox(table.page, r.cell_box)]} if r.cell_box else evidence
        out.node(*result, {"value_text": r.value_text, **at, **({"value": r.value} if r.value is not None else {})})
        method = (METHOD, entity_id(METHOD, r.method)) if r.method else None
        for type_, target in (("OF_EXPERIMENT", experiment),
                              *((("FOR_METRIC", (METRIC, entity_id(METRIC, r.metric))),) if r.metric else ()),
                              ("REPORTED_IN", ("Table", x.table_id)),
                              *((("OF_METHOD", method),) if method else ()),
                              *(("ON_DATASET", d) for d in datasets[:1])):
            out.edge(type_, result, target, at)
        if method:
            out.edge("USES", experiment, method, evidence)
