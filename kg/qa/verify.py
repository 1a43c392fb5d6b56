"""verify(): a claim to a verdict (supported, contradicted, not_found) with the evidence it rests on.

The evidence comes from the graph (Result facts whose method and metric the claim names; entities the claim
names that the paper is linked to) and from the text, found by the retrieval `/ask` uses (kg.qa.retrieval). A
sentence is about a claim when it holds every name the claim gives and most of its other words; such a
sentence holding the claim's numbers supports it, one holding other numbers contradicts it. Deterministic, no
model beyond the optional query embedding retrieval already uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kg.db.graph import Graph
from kg.errors import InvalidQueryError, LimitExceededError
from kg.qa import graph as q
from kg.qa.answer import Unit, locate_in_chunk, score_units
from kg.qa.claims import (MAX_CLAIM, Claim, Quantity, parse_claim, percentage_context, quantities, same_kind,
                           same_number)
from kg.qa.engine import evidence_item
from kg.qa.graph import GraphReader
from kg.qa.retrieval import Embedder, retrieve
from kg.qa.text import sentences, squash, terms, tokens
from kg.read.queries import PaperMatch
from ontology.loader import Schema

SUPPORTED, CONTRADICTED, NOT_FOUND = "supported", "contradicted", "not_found"
CANDIDATES = 20  # chunks whose sentences are read, as many as /ask reads
MIN_ABOUT = 0.6  # share of the claim's words (besides its names) a sentence must hold to be about the claim
NEAREST = 3  # sentences shown as the nearest evidence of a claim nothing supports or contradicts


@dataclass
class Verdict:
    claim: str
    verdict: str
    reason: str
    paper_id: str | None = None
    evidence: list[dict] = field(default_factory=list)
    cypher: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"claim": self.claim, "verdict": self.verdict, "reason": self.reason, "paper_id": self.paper_id,
                "evidence": self.evidence, "cypher": self.cypher}


@dataclass(frozen=True)
class Reading:
    """A sentence (or table chunk) read against a claim: how much of it the sentence is about, and the numbers
    it states that agree with the claim's and that do not."""

    unit: Unit
    about: float  # share of the claim's key terms present
    names: bool  # every name of the claim present
    agreeing: tuple[Quantity, ...]  # the claim's numbers, as the sentence states them
    other: tuple[Quantity, ...]  # numbers it states of a claimed number's kind that none of the claim's is


def verify(graph: Graph, schema: Schema, claim_text: str, paper: str | None = None, *,
           embed: Embedder | None = None) -> Verdict:
    """The verdict on a claim within the paper `paper` names (kg.read.queries.resolve_paper: NotFoundError,
    AmbiguousPaperError), or over all papers. A claim longer than MAX_CLAIM characters is refused
    (LimitExceededError), one without a word to look for too (InvalidQueryError)."""
    if len(claim_text) > MAX_CLAIM:
        raise LimitExceededError(f"the claim has {len(claim_text):,} characters, more than the {MAX_CLAIM} allowed",
                                 hint="state one claim, in one sentence")
    claim = parse_claim(claim_text)
    if not terms(claim.about):
        raise InvalidQueryError("the claim has no word to look for", hint='state what is claimed, e.g. "SPECTER '
                                'achieves 80.0 on SciDocs"')
    reader = GraphReader(graph, schema)
    scope = reader.paper(paper) if paper is not None else None
    paper_id = scope.id if scope else None
    found = retrieve(reader, claim.about, paper_id, CANDIDATES, embed)
    titles = reader.titles({c.get("paper_sha256") for c in found.chunks if c.get("paper_sha256")})
    title_terms = {sha: set(terms(t.get("title") or "")) for sha, t in titles.items()}
    readings = sorted((read(claim, u, title_terms.get(u.chunk.get("paper_sha256"), set()))
                       for u in score_units(claim.about, found.chunks)),
                      key=lambda r: (not r.names, -r.about, -r.unit.score))
    verdict = (_numeric(reader, claim, readings, titles, scope) if claim.numbers else
               _entity(reader, claim, found.entities, readings, titles, paper_id))
    verdict.paper_id, verdict.cypher = paper_id, reader.cypher
    return verdict


def claim_names(claim: Claim) -> list[str]:
    """The stemmed terms of the names a claim gives: words with a capital after their first letter or with a
    digit ('SciBERT', 'ACE2005', 'S2-VL'), and capitalised words that do not begin the claim ('Middlebury'); not
    the metrics ('F1', 'MAP'), which tables print in their header."""
    names: list[str] = []
    for i, word in enumerate(claim.about.split()):
        word = word.strip(".,;:()\"'")
        if not word or not any(c.isalpha() for c in word):
            continue
        inner = word[1:] != word[1:].lower() or any(c.isdigit() for c in word)
        if (inner or (i > 0 and word[0].isupper())) and not percentage_context(word):  # 'F1' is a metric
            names += [t for t in terms(word) if t in claim.key_terms]
    return list(dict.fromkeys(names))


def read(claim: Claim, unit: Unit, title: set[str] = frozenset()) -> Reading:
    """A unit read against a claim: its numbers that agree with the claim's, and the others that could measure
    the same (kg.qa.claims.same_kind), which may contradict it. A table's rows rarely repeat its caption or
    header, so for a table chunk the names and words may be anywhere in the chunk; a sentence of text must hold
    them itself. The terms of the title of the unit's paper (`title`) count as present: a paper calls what its
    title names 'our model'."""
    own = set(terms(unit.text)) | title
    where = own | set(terms(unit.chunk["text"])) if unit.chunk.get("kind") == "table" else own
    key = claim.key_terms
    about = sum(_present(t, where) for t in key) / len(key) if key else 0.0
    names = all(t in where for t in claim_names(claim))
    stated = quantities(unit.text)
    agreeing = tuple(s for s in stated if any(same_kind(c, s) and same_number(c, s, claim.percentage)
                                              for c in claim.numbers))
    other = tuple(s for s in stated if s not in agreeing and any(same_kind(c, s) for c in claim.numbers))
    return Reading(unit, about, names, agreeing, other)


def _present(term: str, words: set[str]) -> float:
    if term in words:
        return 1.0
    return 0.7 if len(term) >= 5 and any(w[:5] == term[:5] for w in words) else 0.0


def _numeric(reader: GraphReader, claim: Claim, readings: list[Reading], titles: dict,
             scope: PaperMatch | None) -> Verdict:
    """Supported by a Result fact or a sentence about the claim that states all its numbers; contradicted by one
    about the claim that states other numbers and not all of the claim's (the number stated next to the claim's
    names is another)."""
    facts = _result_facts(reader, claim, scope)
    agree = [f for f in facts if f["agrees"]]
    if agree:
        return Verdict(claim.text, SUPPORTED, "a result fact of the graph states this number",
                       evidence=[_fact_evidence(reader, f, "supports") for f in agree[:3]])
    about = [r for r in readings if r.names and r.about >= MIN_ABOUT]
    support = [r for r in about if _all_stated(claim, r)]
    if support:
        return Verdict(claim.text, SUPPORTED, "a passage about the claim states its number" +
                       ("s" if len(claim.numbers) > 1 else ""),
                       evidence=[_text_evidence(r, titles, "supports") for r in support[:3]])
    if facts:
        return Verdict(claim.text, CONTRADICTED, "a result fact of the graph for the same method and metric states "
                       "another number", evidence=[_fact_evidence(reader, f, "contradicts") for f in facts[:3]])
    against = [r for r in about if r.other and not _all_stated(claim, r)]
    if against:
        return Verdict(claim.text, CONTRADICTED, "a passage about the claim states another number",
                       evidence=[_text_evidence(r, titles, "contradicts") for r in against[:3]])
    return _nothing(claim, readings, titles, "no passage about the claim states a number")


def _all_stated(claim: Claim, reading: Reading) -> bool:
    return all(any(same_number(c, s, claim.percentage) for s in reading.agreeing) for c in claim.numbers)


def _entity(reader: GraphReader, claim: Claim, entities: list[dict], readings: list[Reading], titles: dict,
            paper_id: str | None) -> Verdict:
    """A claim without numbers ('The paper uses dataset Z'): supported when the paper is linked to the entities
    that name everything the claim names, or when one sentence holds its names and most of its words."""
    names = set(claim_names(claim))
    linked = reader.run(q.PAPER_ENTITY_EDGES, eids=[e["element_id"] for e in entities], paper_id=paper_id,
                        limit=20) if entities and names else []
    entity_names = [n for r in linked for n in [r["e"].get("name"), *(r["e"].get("aliases") or [])] if n]
    if linked and names <= {t for n in entity_names for t in terms(n)}:
        evidence = _edge_evidence(reader, [r["r"] for r in linked], entity_names)
        if evidence:
            return Verdict(claim.text, SUPPORTED, "the paper is linked to " + ", ".join(
                sorted({r["e"].get("name") for r in linked})) + " in the graph", evidence=evidence)
    support = [r for r in readings if r.names and r.about >= MIN_ABOUT and (names or r.about >= 1.0)]
    if support:
        return Verdict(claim.text, SUPPORTED, "a passage holds what the claim names",
                       evidence=[_text_evidence(r, titles, "supports") for r in support[:3]])
    return _nothing(claim, readings, titles, "no passage holds everything the claim names")


def _nothing(claim: Claim, readings: list[Reading], titles: dict, reason: str) -> Verdict:
    """not_found, with the nearest sentences read (what a reader checks before trusting the verdict)."""
    return Verdict(claim.text, NOT_FOUND, reason,
                   evidence=[_text_evidence(r, titles, "nearest") for r in readings[:NEAREST]])


# ------------------------------------------------------------------ evidence

def _text_evidence(reading: Reading, titles: dict, role: str) -> dict:
    unit = reading.unit
    numbers = reading.agreeing if role == "supports" else reading.other
    return {**evidence_item(unit.chunk, titles, unit.score, unit), "role": role, "source": "text",
            "span": [unit.start, unit.end], "numbers": [n.text for n in numbers]}


def _result_facts(reader: GraphReader, claim: Claim, scope: PaperMatch | None) -> list[dict]:
    """The Result facts whose method and metric (and dataset, when the fact has one) the claim names, each
    marked with whether its value is one of the claim's numbers."""
    words = f" {' '.join(tokens(claim.about))} "
    named = lambda name: bool(name) and f" {' '.join(tokens(name))} " in words  # noqa: E731
    out = []
    for r in reader.run(q.RESULT_FACTS, sha=scope.sha256 if scope else None, limit=500):
        if not (named(r["method"]) and named(r["metric"]) and (r["dataset"] is None or named(r["dataset"]))):
            continue
        stated = quantities(r["value_text"] or "")
        agrees = any(same_number(c, s, claim.percentage) for c in claim.numbers for s in stated[:1])
        out.append({**dict(r), "agrees": agrees})
    return out


def _fact_evidence(reader: GraphReader, fact: dict, role: str) -> dict:
    """A Result fact's evidence: the chunk its provenance names, the span of its value in that chunk."""
    ids = fact["res"].get("source_chunk_ids") or []
    chunks = reader.chunks(q.CHUNKS_BY_ID, ids=ids[:1]) if ids else []
    value = fact["value_text"] or ""
    item = {"paper_id": fact["paper_id"], "title": fact["title"], "section": None, "chunk_id": ids[0] if ids else None,
            "text": f"{fact['method']}: {fact['metric']} {value}", "page": (fact["res"].get("pages") or [None])[0],
            "bbox": (fact["res"].get("bboxes") or [None])[0], "score": 1.0, "span": None}
    if chunks and value and (at := chunks[0]["text"].find(value)) >= 0:
        page, box = locate_in_chunk(chunks[0], at)
        item.update(page=page, bbox=box, span=[at, at + len(value)], section=chunks[0].get("section"))
    return {**item, "role": role, "source": "result", "numbers": [value]}


def _edge_evidence(reader: GraphReader, rels: list, names: list[str]) -> list[dict]:
    """The chunks that edges' provenance names, each as the sentence where one of the entity's names is printed
    (its page and box), with the name's span."""
    ids = list(dict.fromkeys(cid for r in rels for cid in (r.get("source_chunk_ids") or [])))[:3]
    if not ids:
        return []
    chunks = reader.chunks(q.CHUNKS_BY_ID, ids=ids)
    titles = reader.titles({c.get("paper_sha256") for c in chunks if c.get("paper_sha256")})
    items = []
    for chunk in chunks:
        lower = chunk["text"].lower()
        at, name = min(((lower.find(n.lower()), n) for n in names if n.lower() in lower), default=(0, ""))
        start, end = next(((a, b) for a, b in sentences(chunk["text"]) if a <= at < b), (0, len(chunk["text"])))
        page, box = locate_in_chunk(chunk, at)
        items.append({**evidence_item(chunk, titles, 1.0), "text": squash(chunk["text"][start:end]), "page": page,
                      "bbox": box, "role": "supports", "source": "graph",
                      "span": [at, at + len(name)] if name else [start, end], "numbers": []})
    return items
