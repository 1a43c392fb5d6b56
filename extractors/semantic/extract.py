"""extract_semantics(doc): what one paper says about entities, concepts, experiments and results, as typed
annotations (extractors.annotations) that point at the passages they were read from, each with a confidence
computed from that evidence and the extractor's name@version. kg.ingest.semantic_mapping makes graph records of
them.

Entities (Method, Dataset, Metric, Task, Concept) are canonical across papers: an annotation names one by its label
and normalised name only; what this paper says about it (proposes, uses, evaluates on, measures, addresses,
mentions) is the annotation's evidence.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from extractors.annotations import (Anchor, Annotations, DefinitionAnnotation, EntityAnnotation, EntityRef,
                                    ExperimentAnnotation, LinkAnnotation, ResultAnnotation)
from extractors.model import Document
from extractors.semantic import EXTRACTOR
from extractors.semantic.canonical import match_key
from extractors.semantic.concepts import (abbreviation_terms, find_definitions, importance, in_front,
                                          symbol_definitions)
from extractors.semantic.entities import Analysis, analyse_passages
from extractors.semantic.linkage import relations_in
from extractors.semantic.non_entities import of_document
from extractors.semantic.passages import Passage, document_passages, document_tables
from extractors.semantic.patterns import DATASET, METHOD
from extractors.semantic.results import table_experiment
from extractors.semantic.salience import Entity

if TYPE_CHECKING:
    from spacy.language import Language


@dataclass(frozen=True)
class SemanticExtraction:
    annotations: Annotations
    analysis: Analysis  # the candidates and their scores the annotations were chosen from (for the benchmarks)


def _ref(e: Entity) -> EntityRef:
    return EntityRef(e.label, e.canonical)


def _evidence(e: Entity, passages: list[Passage]) -> tuple[Anchor, ...]:
    """Where the entity was found by a pattern, then where else it is mentioned: the first words of each place,
    at most 8 places."""
    first: dict[int, tuple[int, int]] = {}
    for place in [*e.evidence, *e.mentions]:
        first.setdefault(place.passage, (place.start, place.end))
    return tuple(passages[i].anchor(*span) for i, span in list(first.items())[:8])


def _mentions(e: Entity, passages: list[Passage]) -> tuple[Anchor, ...]:
    """Every mention in chunk text (headings, the title and table cells are not in Document.text)."""
    return tuple(passages[m.passage].anchor(m.start, m.end) for m in e.mentions
                 if passages[m.passage].chunk_id and passages[m.passage].char_start is not None
                 and passages[m.passage].kind != "title")


def extract_semantics(doc: Document, tagger: Language | None = None) -> SemanticExtraction:
    """The paper's annotations. `tagger`: the trained mention tagger (tagger.load()), a source of cues besides
    the patterns; None: patterns only."""
    passages = document_passages(doc)
    analysis = analyse_passages(passages, non_entities=of_document(doc), tagger=tagger)
    first: dict[tuple[str, str], Entity] = {}  # one entity per cross-paper identity: the better-ranked one,
    for e in analysis.entities:               # with the highest salience of those sharing it
        key = (e.label, match_key(e.canonical))
        kept = first.setdefault(key, e)
        if e.salience > kept.salience:
            first[key] = replace(kept, salience=e.salience, central=e.central)
    unique = list(first.values())
    out = Annotations(entities=[EntityAnnotation(_ref(e), e.proposed, e.score, EXTRACTOR, _evidence(e, passages),
                                                 _mentions(e, passages), e.salience, e.central) for e in unique])
    _concepts(out, unique, analysis, passages)
    _equation_concepts(out, doc, analysis, passages)
    _tables(out, doc, passages, analysis)
    _figures(out, doc, passages, analysis)
    _relations(out, analysis, passages)
    return SemanticExtraction(out, analysis)


def _concepts(out: Annotations, entities: list[Entity], analysis: Analysis, passages: list[Passage]) -> None:
    """Concepts from definition sentences and abbreviation pairs, except those that name one of the entities."""
    named = {match_key(n) for e in entities for n in [e.name, *e.aliases]}
    seen: set[str] = set()
    for d in [*find_definitions(analysis.sentences, passages),
              *abbreviation_terms(analysis.abbreviations, analysis.sentences)]:
        if {match_key(d.term), match_key(d.alias or d.term)} & named or match_key(d.term) in seen:
            continue
        seen.add(match_key(d.term))
        text_lower = d.term.lower()
        places = {i for i, p in enumerate(passages) if text_lower in p.text.lower()}
        mentions = sum(p.text.lower().count(text_lower) for p in passages)
        confidence = d.strength * (0.7 + 0.3 * min(mentions, 5) / 5)
        out.definitions.append(DefinitionAnnotation(
            d.term, (d.alias,) if d.alias else (), d.sentence.text.strip(), d.kind,
            importance(mentions, in_front(passages, places)), confidence, confidence, EXTRACTOR,
            passages[d.sentence.passage].anchor(d.sentence.start, d.sentence.end)))


def _equation_concepts(out: Annotations, doc: Document, analysis: Analysis, passages: list[Passage]) -> None:
    """An equation defines the concept a following 'where X is the ...' sentence names, when exactly one display
    equation sits on that sentence's page in its section (otherwise the link is not guessed)."""
    for d in symbol_definitions(analysis.sentences, passages):
        chunk_id = passages[d.sentence.passage].chunk_id
        if not chunk_id:
            continue
        chunk = doc.chunk(chunk_id)
        near = [e for e in doc.equations if e.page == chunk.page_start and e.section_id == chunk.section_id]
        if len(near) != 1:
            continue
        out.definitions.append(DefinitionAnnotation(
            d.term, (), d.sentence.text.strip(), d.kind, "supporting", d.strength, d.strength, EXTRACTOR,
            passages[d.sentence.passage].anchor(d.sentence.start, d.sentence.end), near[0].id))


def _tables(out: Annotations, doc: Document, passages: list[Passage], analysis: Analysis) -> None:
    """Experiments and Results from result tables; SUMMARIZES from each table to what its cells and caption name."""
    index = {p.element_id: i for i, p in enumerate(passages) if p.element_id and p.kind == "table"}
    by_name = {(e.label, match_key(n)): e for e in analysis.entities for n in [e.name, *e.aliases]}
    methods = method_keys(analysis)
    for grid in document_tables(doc):
        place = (passages[index[grid.table_id]].anchor(),) if grid.table_id in index else ()
        experiment = table_experiment(grid, methods)
        caption_entities = [e for e in analysis.entities
                            if any(passages[m.passage].element_id == grid.table_id for m in e.mentions)]
        out.links += [LinkAnnotation("SUMMARIZES", "Table", grid.table_id, _ref(e), e.score * 0.8,
                                     EXTRACTOR, place) for e in caption_entities]
        if experiment is None or not experiment.results:
            continue
        results = []
        for fact in experiment.results:
            method = by_name.get((METHOD, match_key(fact.method)))
            results.append(ResultAnnotation(fact.row, fact.col, fact.value_text, fact.value, fact.metric,
                                            method.canonical if method else None, fact.bbox))
        out.experiments.append(ExperimentAnnotation(
            grid.table_id, grid.label, grid.caption,
            0.5 + 0.4 * min(len(experiment.results), 10) / 10, EXTRACTOR, place, experiment.metrics,
            tuple(e.canonical for e in caption_entities if e.label == DATASET), tuple(results)))


def method_keys(analysis: Analysis) -> frozenset[str]:
    """The match keys of every name of the paper's methods: what tells the result-table reader which way round a
    table is set."""
    return frozenset(match_key(n) for e in analysis.entities if e.label == METHOD for n in [e.name, *e.aliases])


def _figures(out: Annotations, doc: Document, passages: list[Passage], analysis: Analysis) -> None:
    """ILLUSTRATES from a figure to the entities its caption or the sentences citing it name."""
    figure_ids = {f.id for f in doc.figures}
    text_passage = {p.chunk_id: i for i, p in enumerate(passages) if p.char_start is not None and p.kind == "text"}
    cited_at: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for m in doc.mentions:
        if m.kind == "figure" and m.target_id in figure_ids:
            chunk = doc.chunk_at(m.char_start)
            if chunk is not None and chunk.id in text_passage:
                cited_at[m.target_id].append((text_passage[chunk.id], m.char_start - chunk.char_start))
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
                out.links.append(LinkAnnotation(
                    "ILLUSTRATES", "Figure", fig, _ref(e), e.score * (0.6 + 0.1 * min(len(places), 4)),
                    EXTRACTOR, tuple(passages[i].anchor() for i in dict.fromkeys(places))))


def _relations(out: Annotations, analysis: Analysis, passages: list[Passage]) -> None:
    """DEPENDS_ON and RELATED_TO between methods named in one sentence."""
    by_passage: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    canonical: dict[str, str] = {}  # a method's match key -> its canonical name (the first of its key)
    for e in analysis.entities:
        if e.label == METHOD:
            key = match_key(e.canonical)
            canonical.setdefault(key, e.canonical)
            for m in e.mentions:
                by_passage[m.passage].append((m.start, m.end, key))
    seen = set()
    for s in analysis.sentences:
        named = sorted(x for x in by_passage.get(s.passage, []) if s.start <= x[0] < s.end)
        for r in relations_in(s, named):
            if (r.type, r.source, r.target) not in seen:
                seen.add((r.type, r.source, r.target))
                out.links.append(LinkAnnotation(
                    r.type, METHOD, None, EntityRef(METHOD, canonical[r.target]), r.strength, EXTRACTOR,
                    (passages[s.passage].anchor(s.start, s.end),), EntityRef(METHOD, canonical[r.source])))
