"""Hybrid retrieval over chunks: Neo4j fulltext (Lucene BM25) searched with the question's words and their
other spellings (kg.qa.analysis), vector search when embeddings are available, and chunks one hop from the
entities the question names; the ranked lists fused by reciprocal rank. The fulltext winner is kept apart, so
the evidence can hold it whatever fusion made of it (`keep_lexical_winner`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from kg import embeddings
from kg.read.fulltext import lucene_query
from kg.qa import graph as q
from kg.qa.analysis import abbreviation_forms, search_words
from kg.qa.graph import GraphReader
from kg.qa.text import QUESTION_WORDS, STOPWORDS, abbreviations, searchable, tokens
from kg.settings import Settings

RRF_K = 60  # the usual constant of reciprocal rank fusion
LIST_HEAD = 3  # the best chunks of the fulltext and vector lists are candidates whatever their fused rank
Embedder = Callable[[str], list[float]]


@dataclass
class Retrieval:
    chunks: list[dict] = field(default_factory=list)  # fused, best first; `score` is the fused score
    entities: list[dict] = field(default_factory=list)  # entities named in the question
    edges: list[dict] = field(default_factory=list)  # MENTIONS/DEFINES edges from chunks to those entities
    lexical: dict | None = None  # the fulltext (BM25) list's best chunk when fusion ranks it low (disputed_winner)


def query_embedder(settings: Settings) -> Embedder | None:
    """Question -> vector with the chunk embedding model; None when the embedder is not installed or
    PAPERKG_QA_VECTORS is off (then retrieval is fulltext and graph only)."""
    model = (embeddings.load_embedder(settings.embedding_dim, settings.cache_dir, settings.embedder)
             if settings.qa_vectors else None)
    return (lambda text: model.embed([text])[0]) if model else None


def keyword_query(question: str) -> str:
    """The question's content words as a Lucene OR-query (the index analyser keeps stop words, so drop them)."""
    words = [t for t in tokens(question) if t not in STOPWORDS and t not in QUESTION_WORDS]
    return lucene_query(" ".join(words))


def question_query(question: str, pairs: list[tuple[str, str]] = ()) -> str:
    """The question as a Lucene OR-query of its content words and their other spellings (kg.qa.analysis)."""
    return lucene_query(" ".join(search_words(question, pairs)))


def named_in(question: str, candidates: list[dict]) -> list[dict]:
    """The candidate entities whose name or an alias occurs in the question as whole words."""
    text = f" {' '.join(tokens(question))} "
    return [{**e, "labels": sorted(e["labels"])} for e in candidates
            if any(n and len(searchable(n)) > 1 and f" {' '.join(tokens(n))} " in text
                   for n in [e["properties"].get("name") or "", *(e["properties"].get("aliases") or [])])]


def retrieve(reader: GraphReader, question: str, paper_id: str | None, k: int = 12,
             embed: Embedder | None = None, elements: tuple[str, ...] = ()) -> Retrieval:
    """Chunks for a question, within one paper when `paper_id` is given (NotFoundError when there is none).
    Two round trips at most: fulltext, vector, the paper's tables and figures `elements` names ('Table 3:',
    kg.qa.reader) and entity names in one query, then the chunks one hop from the entities the question
    names."""
    vector_index = reader.index("vector", "Chunk", "embedding")
    first = reader.run(q.RETRIEVE_ALL if paper_id is None else q.RETRIEVE_IN_PAPER, paper_id=paper_id,
                       text=question_query(question) or None,
                       vector=embed(question) if embed is not None and vector_index else None,
                       elements=list(elements), k=k, fetch=k * 4, chunk_index=reader.index("fulltext", "Chunk", "text"),
                       vector_index=vector_index, name_index=reader.index("fulltext", "Method", "name"),
                       labels=reader.entity_labels())[0]
    sha = first["sha"]
    if paper_id is not None:
        if sha is None:
            raise q.no_such_paper(paper_id)
        reader.known_paper(sha, paper_id, first["title"])
    # ranked by relevance: their heads always compete for the answer
    lists = [[q.chunk_row(hit) for hit in first[key]] for key in ("text_hits", "vector_hits", "element_hits")]
    lists[0] = _with_abbreviations(reader, question, sha, lists, k) or lists[0]
    entities = named_in(question, first["names"])
    edges: list[dict] = []
    expanded: list[dict] = []
    if entities:
        expanded = reader.chunks(q.ENTITY_CHUNKS, eids=[e["element_id"] for e in entities], sha=sha, k=k,
                                 types=reader.edge_types(source="Chunk"))
        edges = [e for c in expanded for e in c.pop("edges", [])]
    chunks = with_heads(fuse([*lists, expanded]), lists, k)
    return Retrieval(chunks=chunks, entities=entities, edges=edges, lexical=disputed_winner(lists[0], chunks))


def disputed_winner(lexical: list[dict], fused: list[dict]) -> dict | None:
    """The fulltext list's best chunk when fusion disagrees with it strongly, ranking it below its own first
    LIST_HEAD; else None. A winner fusion also ranks high needs no place kept: its sentences already compete
    with the others for the evidence on their scores, and keeping a place for it would push out a sentence
    that scored better."""
    if not lexical or any(c["id"] == lexical[0]["id"] for c in fused[:LIST_HEAD]):
        return None
    return lexical[0]


def _with_abbreviations(reader: GraphReader, question: str, sha: str | None, lists: list[list[dict]],
                        k: int) -> list[dict] | None:
    """The fulltext list again, searched with the other form of every abbreviation the question uses in one form
    that the passages found define ('knowledge base (KB)'), or None when there is none: a second round trip,
    only for those questions. Within one paper only: across papers a short form means different things."""
    if sha is None:
        return None
    pairs = sorted({pair for ranked in lists for c in ranked for pair in abbreviations(c["text"])})
    if not abbreviation_forms(question, pairs):
        return None
    return reader.chunks(q.FULLTEXT_CHUNKS, index=reader.index("fulltext", "Chunk", "text"),
                         text=question_query(question, pairs), sha=sha, k=k)


def fuse(lists: list[list[dict]]) -> list[dict]:
    """Reciprocal rank fusion: sum of 1/(RRF_K + rank) over the lists a chunk appears in."""
    fused: dict[str, dict] = {}
    for ranked in lists:
        for rank, chunk in enumerate(ranked, start=1):
            entry = fused.setdefault(chunk["id"], {**chunk, "score": 0.0})
            entry["score"] += 1.0 / (RRF_K + rank)
    return sorted(fused.values(), key=lambda c: (-c["score"], c["id"]))


def with_heads(fused: list[dict], ranked: list[list[dict]], k: int) -> list[dict]:
    """The best `k` fused chunks, where the first LIST_HEAD of every relevance-ranked list always stay: fusion
    favours chunks found by two lists (many chunks both resemble the question and mention its entity), which
    would push out the one chunk that matches the question's words best. Fused order is kept."""
    keep = {c["id"] for chunks in ranked for c in chunks[:LIST_HEAD]}
    for chunk in fused:
        if len(keep) >= k:
            break
        keep.add(chunk["id"])
    return [c for c in fused if c["id"] in keep]


def keep_lexical_winner(items: list[dict], winner: dict | None, top: int = LIST_HEAD) -> list[dict]:
    """Evidence items with the fulltext winner's item (`winner`, an item of the same shape) among the first `top`.
    The answer's sentences and fusion order the evidence; when none of the first `top` is BM25's best passage
    nor on its page, they disagree outright with the plain lexical match on where the answer is, and the lexical
    match is often the right one (a question in the paper's own words). It then takes place `top`, the items
    after it move down one, and its own later item, if any, goes. A winner whose page is already shown adds no
    place to look, so it displaces nothing."""
    if winner is None or any(item["chunk_id"] == winner["chunk_id"] or item["page"] == winner["page"]
                             for item in items[:top]):
        return items
    rest = [item for item in items if item["chunk_id"] != winner["chunk_id"]]
    at = min(top - 1, len(rest))
    return [*rest[:at], winner, *rest[at:]]


def spread_pages(items: list[dict], top: int = LIST_HEAD) -> list[dict]:
    """Evidence items with the first `top` on different pages where the list allows: an item on a page already
    shown above it adds no place to look, so the next item on a new page moves up before it (the first item, the
    answer's, stays first; the others keep their order)."""
    head: list[dict] = []
    rest = list(items)
    while rest and len(head) < top:
        shown = {item["page"] for item in head}
        pick = next((item for item in rest if item["page"] not in shown), rest[0]) if head else rest[0]
        head.append(pick)
        rest.remove(pick)
    return head + rest

