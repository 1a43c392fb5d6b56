"""extract_semantics(doc): the semantic subgraph of one paper as schema records, every element with its
evidence (chunks, pages, boxes), a confidence computed from that evidence and the extractor's name@version.

Entities (Method, Dataset, Metric, Task, Concept) are canonical across papers: their id comes from the label
and the normalised name only, and they carry no paper hash; what one paper says about them (proposes, uses,
evaluates on, measures, addresses, mentions) lives on the edges, with that paper's provenance.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from extractors.bbox import format_bbox
from extractors.model import BBox, Document, paper_id
from extractors.semantic import EXTRACTOR
from extractors.semantic.canonical import entity_id, match_key
from extractors.semantic.concepts import (abbreviation_terms, find_definitions, importance, in_front,
                                          symbol_definitions)
from extractors.semantic.entities import Analysis, analyse_passages
from extractors.semantic.lexicons import known_aliases
from extractors.semantic.linkage import relations_in
from extractors.semantic.non_entities import of_document
from extractors.semantic.passages import Passage, document_passages, document_tables
from extractors.semantic.patterns import DATASET, METHOD, METRIC, TASK, name_confidence
from extractors.semantic.results import table_experiment
from extractors.semantic.salience import Entity, MentionSpan
from ontology.records import EdgeRecord, NodeRecord

if TYPE_CHECKING:
    from spacy.language import Language

_PAPER_EDGE = {DATASET: "EVALUATES_ON", METRIC: "MEASURES", TASK: "ADDRESSES"}


@dataclass
class SemanticExtraction:
    nodes: list[NodeRecord] = field(default_factory=list)
    edges: list[EdgeRecord] = field(default_factory=list)
    analysis: Analysis | None = None

    def names(self, label: str) -> list[str]:
        return [n.props["name"] for n in self.nodes if n.label == label]


def _evidence(passages: list[Passage], indexes, confidence: float, sha256: str | None) -> dict:
    """Provenance properties from the passages an element rests on."""
    chosen = [passages[i] for i in dict.fromkeys(indexes)]
    props = {"source_chunk_ids": list(dict.fromkeys(p.chunk_id for p in chosen if p.chunk_id)),
             "pages": sorted({p.page for p in chosen if p.page}),
             "bboxes": list(dict.fromkeys(b for p in chosen for b in p.bboxes[:1])),
             "confidence": round(min(max(confidence, 0.0), 1.0), 4), "extractor": EXTRACTOR,
             "verification_status": "auto"}
    if sha256:
        props["paper_sha256"] = sha256
    return props


def _entity_node(label: str, canonical: str) -> NodeRecord:
    """The node papers share: its properties depend on the canonical name only (never on which paper wrote it
    last), so deleting or re-ingesting one paper leaves the node as the other papers made it. What a paper says
    about the entity, with that paper's evidence and confidence, is on its edges."""
    return NodeRecord(label, entity_id(label, canonical), {
        "name": canonical, "aliases": known_aliases(label, canonical), **_evidence([], [], name_confidence(label, canonical), None)})


def _evidence_passages(e: Entity) -> list[int]:
    """Where the entity was found by a pattern, then where else it is mentioned (at most 8 places)."""
    return list(dict.fromkeys([l.passage for l in e.evidence] + [m.passage for m in e.mentions]))[:8]


def extract_semantics(doc: Document, tagger: Language | None = None) -> SemanticExtraction:
    """`tagger`: the trained mention tagger (tagger.load()), a source of cues besides the patterns; None: patterns only."""
    passages = document_passages(doc)
    analysis = analyse_passages(passages, non_entities=of_document(doc), tagger=tagger)
    return build_records(doc.sha256, paper_id(doc.sha256), passages, analysis, doc)


def build_records(sha: str, paper: str, passages: list[Passage], analysis: Analysis, doc: Document) -> SemanticExtraction:
    out = SemanticExtraction(analysis=analysis)
    keys: dict[tuple[str, str], Entity] = {}
    for e in analysis.entities:
        key = (e.label, entity_id(e.label, e.canonical))
        if key in keys:
            continue
        keys[key] = e
        out.nodes.append(_entity_node(e.label, e.canonical))
        type_ = "PROPOSES" if e.proposed else _PAPER_EDGE.get(e.label, "USES")
        out.edges.append(EdgeRecord(type_, "Paper", paper, e.label, key[1],
                                    _evidence(passages, _evidence_passages(e), e.score, sha)))
        out.edges += _mention_edges(e, key[1], passages, sha)
    _concepts(out, analysis, passages, sha, keys)
    _equation_concepts(out, doc, analysis, passages, sha)
    _tables(out, doc, passages, analysis, sha, paper)
    _figures(out, doc, passages, analysis, sha)
    _relations(out, analysis, passages, sha)
    return out


def _mention_edges(e: Entity, node_id: str, passages: list[Passage], sha: str) -> list[EdgeRecord]:
    """One MENTIONS edge per (chunk, entity) with the character spans (in Document.text) of each mention."""
    by_chunk: dict[str, list[MentionSpan]] = defaultdict(list)
    for m in e.mentions:
        p = passages[m.passage]
        if p.chunk_id and p.char_start is not None and p.kind != "title":
            by_chunk[p.chunk_id].append(m)
    edges = []
    for chunk, spans in by_chunk.items():
        p = passages[spans[0].passage]
        props = _evidence(passages, [spans[0].passage], min(1.0, e.score * (0.8 + 0.05 * len(spans))), sha)
        props |= {"char_starts": [p.char_start + m.start for m in spans], "char_ends": [p.char_start + m.end for m in spans]}
        edges.append(EdgeRecord("MENTIONS", "Chunk", chunk, e.label, node_id, props))
    return edges


def _concepts(out: SemanticExtraction, analysis: Analysis, passages: list[Passage], sha: str,
              taken: dict[tuple[str, str], Entity]) -> None:
    named = {match_key(n) for e in taken.values() for n in [e.name, *e.aliases]}
    seen: set[str] = set()
    for d in [*find_definitions(analysis.sentences, passages),
              *abbreviation_terms(analysis.abbreviations, analysis.sentences)]:
        if {match_key(d.term), match_key(d.alias or d.term)} & named or match_key(d.term) in seen:
            continue
        seen.add(match_key(d.term))
        node_id = entity_id("Concept", d.term)
        text_lower = d.term.lower()
        places = {i for i, p in enumerate(passages) if text_lower in p.text.lower()}
        mentions = sum(p.text.lower().count(text_lower) for p in passages)
        confidence = d.strength * (0.7 + 0.3 * min(mentions, 5) / 5)
        out.nodes.append(NodeRecord("Concept", node_id, {
            "name": d.term, "aliases": [d.alias] if d.alias else [], "definition": d.sentence.text.strip(),
            "concept_type": d.kind, "importance": importance(mentions, in_front(passages, places)),
            **_evidence(passages, [], confidence, None)}))
        source = passages[d.sentence.passage]
        if source.chunk_id:
            out.edges.append(EdgeRecord("DEFINES", "Chunk", source.chunk_id, "Concept", node_id,
                                        _evidence(passages, [d.sentence.passage], confidence, sha)))


def _equation_concepts(out: SemanticExtraction, doc: Document, analysis: Analysis, passages: list[Passage],
                       sha: str) -> None:
    """DEFINES from an equation to the concept a following 'where X is the ...' sentence names, when exactly one
    display equation sits on that sentence's page in its section (otherwise the link is not guessed)."""
    chunks = {c.id: c for c in doc.chunks}
    for d in symbol_definitions(analysis.sentences, passages):
        chunk = chunks.get(passages[d.sentence.passage].chunk_id or "")
        if chunk is None:
            continue
        near = [e for e in doc.equations if e.page == chunk.page_start and e.section_id == chunk.section_id]
        if len(near) != 1:
            continue
        node_id = entity_id("Concept", d.term)
        if not any(n.id == node_id for n in out.nodes):
            out.nodes.append(NodeRecord("Concept", node_id, {
                "name": d.term, "aliases": [], "definition": d.sentence.text.strip(), "concept_type": d.kind,
                "importance": "supporting", **_evidence(passages, [], d.strength, None)}))
        out.edges.append(EdgeRecord("DEFINES", "Equation", near[0].id, "Concept", node_id,
                                    _evidence(passages, [d.sentence.passage], d.strength, sha)))


def _result_id(sha: str, *parts: object) -> str:
    return "result_" + hashlib.sha256("\x1f".join([sha, *map(str, parts)]).encode()).hexdigest()[:20]


def _tables(out: SemanticExtraction, doc: Document, passages: list[Passage], analysis: Analysis, sha: str,
            paper: str) -> None:
    """Experiments and Results from result tables; SUMMARIZES from each table to what its cells and caption name."""
    index = {p.element_id: i for i, p in enumerate(passages) if p.element_id and p.kind == "table"}
    by_name = {(e.label, match_key(n)): e for e in analysis.entities for n in [e.name, *e.aliases]}
    for grid in document_tables(doc):
        place = [index[grid.table_id]] if grid.table_id in index else []
        experiment = table_experiment(grid)
        caption_entities = [e for e in analysis.entities
                            if any(passages[m.passage].element_id == grid.table_id for m in e.mentions)]
        for e in caption_entities:
            out.edges.append(EdgeRecord("SUMMARIZES", "Table", grid.table_id, e.label, entity_id(e.label, e.canonical),
                                        _evidence(passages, place, e.score * 0.8, sha)))
        if experiment is None or not experiment.results:
            continue
        exp_id = "experiment_" + hashlib.sha256(f"{sha}\x1f{grid.table_id}".encode()).hexdigest()[:20]
        confidence = 0.5 + 0.4 * min(len(experiment.results), 10) / 10
        out.nodes.append(NodeRecord("Experiment", exp_id, {
            "name": f"Table {grid.label}", "description": grid.caption, **_evidence(passages, place, confidence, sha)}))
        out.edges.append(EdgeRecord("HAS_EXPERIMENT", "Paper", paper, "Experiment", exp_id,
                                    _evidence(passages, place, confidence, sha)))
        datasets = [e for e in caption_entities if e.label == DATASET]
        for label, name in [(METRIC, m) for m in experiment.metrics]:
            _ensure(out, label, name)
            out.edges.append(EdgeRecord("MEASURES", "Experiment", exp_id, label, entity_id(label, name),
                                        _evidence(passages, place, confidence, sha)))
        for d in datasets:
            out.edges.append(EdgeRecord("EVALUATES_ON", "Experiment", exp_id, DATASET, entity_id(DATASET, d.canonical),
                                        _evidence(passages, place, confidence, sha)))
        for fact in experiment.results:
            method = by_name.get((METHOD, match_key(fact.method)))
            rid = _result_id(sha, grid.table_id, fact.row, fact.col)
            evidence = _cell_evidence(_evidence(passages, place, confidence, sha), grid.page, fact.bbox)
            props = {"value_text": fact.value_text, **evidence}
            if fact.value is not None:
                props["value"] = fact.value
            out.nodes.append(NodeRecord("Result", rid, props))
            for type_, label, target in (("OF_EXPERIMENT", "Experiment", exp_id),
                                         *((("FOR_METRIC", METRIC, entity_id(METRIC, fact.metric)),) if fact.metric else ()),
                                         ("REPORTED_IN", "Table", grid.table_id),
                                         *((("OF_METHOD", METHOD, entity_id(METHOD, method.canonical)),) if method else ()),
                                         *(("ON_DATASET", DATASET, entity_id(DATASET, d.canonical)) for d in datasets[:1])):
                out.edges.append(EdgeRecord(type_, "Result", rid, label, target, evidence))
            if method:
                out.edges.append(EdgeRecord("USES", "Experiment", exp_id, METHOD, entity_id(METHOD, method.canonical),
                                            _evidence(passages, place, confidence, sha)))


def _cell_evidence(evidence: dict, page: int, cell: BBox | None) -> dict:
    """A Result's provenance points at the cell its value is printed in (same properties and box format as any
    evidence, so crops and highlights show the number rather than the whole table); the table's when the cell's
    box is not known."""
    return {**evidence, "pages": [page], "bboxes": [format_bbox(page, cell)]} if cell else evidence


def _ensure(out: SemanticExtraction, label: str, name: str) -> None:
    node = _entity_node(label, name)
    if not any(n.id == node.id and n.label == label for n in out.nodes):
        out.nodes.append(node)


def _figures(out: SemanticExtraction, doc: Document, passages: list[Passage], analysis: Analysis, sha: str) -> None:
    """ILLUSTRATES from a figure to the entities its caption or the sentences citing it name."""
    figure_ids = {f.id for f in doc.figures}
    cited_at: dict[str, list[tuple[int, int]]] = defaultdict(list)
    starts = [(p.char_start, p.char_start + len(p.text), i) for i, p in enumerate(passages)
              if p.char_start is not None and p.kind == "text"]
    for m in doc.mentions:
        if m.kind == "figure" and m.target_id in figure_ids:
            for lo, hi, i in starts:
                if lo <= m.char_start < hi:
                    cited_at[m.target_id].append((i, m.char_start - lo))
    sentence_of = defaultdict(list)
    for s in analysis.sentences:
        sentence_of[s.passage].append(s)
    for e in analysis.entities:
        for fig in figure_ids:
            places = [m.passage for m in e.mentions if passages[m.passage].element_id == fig]
            for i, offset in cited_at.get(fig, []):
                sent = next((s for s in sentence_of[i] if s.start <= offset < s.end), None)
                if sent and any(m.passage == i and sent.start <= m.start < sent.end for m in e.mentions):
                    places.append(i)
            if places:
                out.edges.append(EdgeRecord("ILLUSTRATES", "Figure", fig, e.label, entity_id(e.label, e.canonical),
                                            _evidence(passages, places, e.score * (0.6 + 0.1 * min(len(places), 4)), sha)))


def _relations(out: SemanticExtraction, analysis: Analysis, passages: list[Passage], sha: str) -> None:
    linkable = [e for e in analysis.entities if e.label == METHOD]
    by_passage: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for e in linkable:
        for m in e.mentions:
            by_passage[m.passage].append((m.start, m.end, entity_id(e.label, e.canonical)))
    seen = set()
    for s in analysis.sentences:
        named = sorted(x for x in by_passage.get(s.passage, []) if s.start <= x[0] < s.end)
        for r in relations_in(s, named):
            if (r.type, r.source, r.target) not in seen:
                seen.add((r.type, r.source, r.target))
                out.edges.append(EdgeRecord(r.type, METHOD, r.source, METHOD, r.target,
                                            _evidence(passages, [s.passage], r.strength, sha)))
