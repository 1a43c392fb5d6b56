"""Typed mention F1 of the tagger on SciERC records, as the SciERC papers count it: a predicted mention is
correct when its token span and its type equal a gold mention's. Every gold mention counts, the nested ones the
flat tagger cannot predict included (scierc.record_to_doc drops them from training only)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from extractors.semantic.benchmark import EntityCounts
from extractors.semantic.scierc import LABELS, record_to_doc
from extractors.semantic.tagger import TYPE_OF

if TYPE_CHECKING:
    from spacy.language import Language

Mention = tuple[int, int, str]  # first token, last token (inclusive, as SciERC), type


def gold_mentions(record: dict) -> set[Mention]:
    return {(s, e, t) for sentence in record["ner"] for s, e, t in sentence}


def predicted_mentions(record: dict, nlp: Language) -> set[Mention]:
    """The tagger's mentions on the record's own tokens (the gold tokenisation, as SciERC is scored)."""
    doc = record_to_doc(record, nlp.vocab, labels=())
    for _, component in nlp.pipeline:
        doc = component(doc)
    return {(ent.start, ent.end - 1, ent.label_) for ent in doc.ents}


def score(pairs: Iterable[tuple[set[Mention], set[Mention]]]) -> dict[str, EntityCounts]:
    """Counts per type, over all six types ("all") and over the four the ontology has ("ontology types":
    Task, Method, Metric, Material as Dataset), from (gold, predicted) mention sets. A mention matches exactly one
    gold mention, so the correct predictions are the gold mentions found."""
    out = {name: EntityCounts() for name in (*LABELS, "all", "ontology types")}
    for gold, predicted in pairs:
        for t in LABELS:
            g, p = {m for m in gold if m[2] == t}, {m for m in predicted if m[2] == t}
            counts = EntityCounts(correct=len(g & p), predicted=len(p), found=len(g & p), gold=len(g))
            for name in (t, "all", *(("ontology types",) if t in TYPE_OF else ())):
                out[name].add(counts)
    return out
