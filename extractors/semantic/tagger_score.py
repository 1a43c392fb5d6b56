"""Typed mention F1 of the tagger on SciERC records, as the SciERC papers count it: a predicted mention is
correct when its token span and its type equal a gold mention's. Every gold mention counts, nested ones included,
which the tagger's flat output (tagger.flat_mentions) can only partly predict."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from extractors.semantic.benchmark import EntityCounts
from extractors.semantic.scierc import LABELS, record_to_doc
from extractors.semantic.tagger import TYPE_OF, flat_mentions

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

Mention = tuple[int, int, str]  # first token, last token (inclusive, as SciERC), type


def gold_mentions(record: dict) -> set[Mention]:
    return {(s, e, t) for sentence in record["ner"] for s, e, t in sentence}


def predicted_mentions(record: dict, nlp: Language) -> set[Mention]:
    """The tagger's mentions on the record's own tokens (the gold tokenisation, as SciERC is scored)."""
    doc = record_to_doc(record, nlp.vocab, labels=())
    for _, component in nlp.pipeline:
        doc = component(doc)
    return doc_mentions(doc)


def doc_mentions(doc: Doc) -> set[Mention]:
    """The tagged mentions of a Doc made by record_to_doc, in SciERC's terms (inclusive last token)."""
    return {(span.start, span.end - 1, span.label_) for span in flat_mentions(doc)}


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


THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def best_threshold(records: list[dict], nlp: Language, thresholds: Iterable[float] = THRESHOLDS) -> tuple[float, float]:
    """(threshold, F1 over all types) of the span categorizer's score threshold that gives the best F1 on
    `records` (SciERC dev in training; never test). Training's loss treats every unlabelled span of a sentence
    as a negative, so the model is shy and 0.5 leaves recall on the table; the threshold is chosen on data, here."""
    spancat = nlp.get_pipe("spancat")
    gold = [gold_mentions(r) for r in records]
    docs = [record_to_doc(r, nlp.vocab, labels=()) for r in records]
    scored = spancat.predict(docs)  # once: the threshold only changes which of the scored spans are kept
    found = []
    for threshold in thresholds:
        spancat.cfg["threshold"] = threshold
        spancat.set_annotations(docs, scored)
        predicted = [doc_mentions(doc) for doc in docs]
        found.append((score(zip(gold, predicted))["all"].f1, threshold))
    f1, threshold = max(found)
    spancat.cfg["threshold"] = threshold
    return threshold, f1
