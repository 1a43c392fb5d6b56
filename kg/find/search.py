"""Search and ranking over the ingested corpus: papers, each with its best matching sections, found by the
chunk fulltext index (Lucene BM25) and the chunk vector index, filtered by facets and ranked by signals that
every hit explains. All the Cypher of search is here.

A paper's score is a weighted sum of five signals, each scaled to [0, 1] over the candidates of the query
(WEIGHTS, documented in docs/search.md):

    score = 0.50 text + 0.30 semantic + 0.10 entities + 0.05 citations + 0.05 recency

- text: the paper's best chunk BM25 over the best candidate's;
- semantic: the paper's best chunk similarity to the query vector over the best candidate's. The index's scores
  crowd together, so this signal moves papers little; stretching it over the candidates (min-max, z-scores) or
  replacing it by its rank ranked worse on the judged queries' dev half at the same weights, as it magnifies
  differences the embedder does not mean (docs/search.md);
- entities: the share of the entities the query names (by name or alias, whole words) that the paper mentions;
- citations: papers of the corpus citing it, over the most any candidate has;
- recency: its year's place between the candidates' oldest and newest year (0 when unknown).

Text and meaning carry the ranking; the graph signals only reorder papers the text found equally well. With
`mmr`, maximal marginal relevance re-orders the ranked papers so that a near-duplicate of a paper already
listed (by the cosine of their best chunks' vectors) moves down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from kg.db.graph import Graph
from kg.read.fulltext import lucene_query
from kg.qa.retrieval import named_in
from kg.qa.text import STOPWORDS, tokens
from kg.read.queries import index_name
from ontology.loader import Schema

WEIGHTS = {"text": 0.50, "semantic": 0.30, "entities": 0.10, "citations": 0.05, "recency": 0.05}
TEXT_ONLY = {"text": 1.0, "semantic": 0.0, "entities": 0.0, "citations": 0.0, "recency": 0.0}
MAX_LIMIT = 50
MAX_QUERY_CHARS = 300
MAX_FACET_CHARS = 200
FETCH = 200  # chunks each index returns: room for many chunks of the same paper and for rejected ones
SECTIONS_PER_HIT = 3
MMR_LAMBDA = 0.7  # relevance against novelty; near-duplicates (cosine near 1) lose about 0.3

_VISIBLE = "coalesce({0}.verification_status, '') <> 'rejected'"  # curators' soft deletes are not found

# Chunks by fulltext and by vector, each with its paper's sha and its section; a list whose input is null is
# empty. The embedding comes back for MMR.
_CANDIDATES = f"""
CALL () {{
  WITH 1 AS one WHERE $text IS NOT NULL
  CALL db.index.fulltext.queryNodes($chunk_index, 'text:(' + $text + ')', {{limit: $fetch}}) YIELD node AS c, score
  WITH c, score WHERE {_VISIBLE.format("c")}
  RETURN c, score, 'text' AS list
  UNION ALL
  WITH 1 AS one WHERE $vector IS NOT NULL
  CALL db.index.vector.queryNodes($vector_index, $fetch, $vector) YIELD node AS c, score
  WITH c, score WHERE {_VISIBLE.format("c")}
  RETURN c, score, 'vector' AS list
}}
OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c) WHERE {_VISIBLE.format("s")}
RETURN c.id AS chunk, c.paper_sha256 AS sha, c.text AS text, c.page_start AS page, c.embedding AS vector,
       s.id AS section, s.title AS section_title, score, list
"""

# The candidate papers that pass the facets, with what the signals need.
_PAPERS = f"""
MATCH (p:Paper) WHERE p.sha256 IN $shas AND {_VISIBLE.format("p")}
  AND ($year IS NULL OR p.year = $year)
  AND ($domain IS NULL OR EXISTS {{
    MATCH (p)-[r:IN_DOMAIN]->(d:Domain) WHERE {_VISIBLE.format("r")}
      AND (toLower(d.id) = toLower($domain) OR toLower(d.name) = toLower($domain)) }})
  AND ($entity IS NULL OR EXISTS {{
    MATCH (c:Chunk {{paper_sha256: p.sha256}})-[r:MENTIONS|DEFINES]->(e) WHERE {_VISIBLE.format("r")}
      AND (toLower(e.name) = toLower($entity) OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) = toLower($entity)))
  }})
RETURN p.sha256 AS sha, p.id AS id, p.title AS title, p.year AS year,
       [(p)-[r:IN_DOMAIN]->(d:Domain) WHERE {_VISIBLE.format("r")} | d.id] AS domains,
       COUNT {{ MATCH (q:Paper)-[r:CITES]->(p) WHERE q <> p AND {_VISIBLE.format("r")} }} AS cited_by,
       [eid IN $eids WHERE EXISTS {{
          MATCH (c:Chunk {{paper_sha256: p.sha256}})-[r:MENTIONS|DEFINES]->(e) WHERE elementId(e) = eid
            AND {_VISIBLE.format("r")} }}] AS entities
"""

_ENTITY_NAMES = f"""
CALL db.index.fulltext.queryNodes($name_index, $text, {{limit: 25}}) YIELD node AS e, score
WITH e, score WHERE any(l IN labels(e) WHERE l IN $labels) AND {_VISIBLE.format("e")}
RETURN e.id AS id, elementId(e) AS element_id, labels(e) AS labels, e {{.name, .aliases}} AS properties
ORDER BY score DESC, e.id
"""

Embed = Callable[[str], list[float]]


@dataclass(frozen=True)
class SearchQuery:
    text: str
    limit: int = 10
    domain: str | None = None
    year: int | None = None
    entity: str | None = None
    mmr: bool = False


@dataclass
class SectionHit:
    id: str | None  # None: text outside any section
    title: str | None
    page: int | None
    snippet: str
    text: float  # BM25 of its best chunk
    semantic: float  # vector score of its best chunk


@dataclass
class Hit:
    paper_id: str
    title: str | None
    year: int | None
    domains: list[str]
    score: float
    signals: dict[str, float]  # each in [0, 1], before weighting
    raw: dict[str, float | int | None]  # bm25, similarity, cited_by, year: what the signals were scaled from
    entities: list[str]  # the query's entities the paper mentions
    sections: list[SectionHit] = field(default_factory=list)
    vector: list[float] | None = field(default=None, repr=False)  # its best chunk's, for MMR


@dataclass
class SearchResult:
    query: str
    lucene: str
    formula: dict[str, float]
    entities: list[str]  # entities the query names
    vectors: bool  # whether the vector index was searched
    hits: list[Hit]


def search(graph: Graph, schema: Schema, query: SearchQuery, embed: Embed | None = None,
           weights: dict[str, float] = WEIGHTS) -> SearchResult:
    """The papers matching `query`, best first, at most query.limit. `weights` other than WEIGHTS serve the
    benchmark's fulltext-alone baseline (TEXT_ONLY)."""
    def run(cypher: str, **params):
        return graph.read(cypher, **params)

    words = [t for t in tokens(query.text) if t not in STOPWORDS]
    text = lucene_query(" ".join(words)) or None
    vector_index = index_name(schema, "vector", "Chunk", "embedding")
    vector = embed(query.text) if embed is not None and vector_index and weights["semantic"] else None
    rows = [r.data() for r in run(_CANDIDATES, text=text, vector=vector, fetch=FETCH,
                                  chunk_index=index_name(schema, "fulltext", "Chunk", "text"),
                                  vector_index=vector_index)]
    named = []
    if text:
        names = [r.data() for r in run(_ENTITY_NAMES, text=text, labels=list(schema.entity_labels),
                                       name_index=index_name(schema, "fulltext", "Method", "name"))]
        named = named_in(query.text, names)
    papers = {r["sha"]: r.data() for r in run(
        _PAPERS, shas=sorted({r["sha"] for r in rows if r["sha"]}), year=query.year,
        domain=query.domain, entity=query.entity, eids=[e["element_id"] for e in named])}
    hits = rank(rows, papers, named, weights)
    if query.mmr:
        hits = mmr(hits, query.limit)
    return SearchResult(query=query.text, lucene=text or "", formula=dict(weights),
                        entities=[e["properties"].get("name") for e in named], vectors=vector is not None,
                        hits=hits[:query.limit])


def rank(rows: list[dict], papers: dict[str, dict], named: list[dict], weights: dict[str, float]) -> list[Hit]:
    """Hits for the candidate chunks `rows` of the papers in `papers` (those passing the facets), scored by
    the module's formula, best first; ties go to the paper id."""
    best: dict[str, dict[str, float]] = {}
    vectors: dict[str, tuple[float, list[float]]] = {}
    sections: dict[tuple[str, str | None], SectionHit] = {}
    for r in rows:
        if r["sha"] not in papers:
            continue
        mine = best.setdefault(r["sha"], {"text": 0.0, "vector": 0.0})
        mine[r["list"]] = max(mine[r["list"]], r["score"])
        # its best chunk's vector: the vector list's, else the text list's (ranks first, as BM25 and cosine differ)
        rank_key = (r["list"] == "vector", r["score"])
        if r["vector"] and rank_key > vectors.get(r["sha"], ((False, -1.0), None))[0]:
            vectors[r["sha"]] = (rank_key, r["vector"])
        key = (r["sha"], r["section"])
        hit = sections.setdefault(key, SectionHit(r["section"], r["section_title"], r["page"], _snippet(r["text"]),
                                                  0.0, 0.0))
        attribute = "text" if r["list"] == "text" else "semantic"
        if r["score"] > getattr(hit, attribute):
            setattr(hit, attribute, r["score"])
            if r["list"] == "text" or not hit.text:
                hit.page, hit.snippet = r["page"], _snippet(r["text"])
    if not best:
        return []
    top_text = max(b["text"] for b in best.values()) or 1.0
    top_similarity = max(b["vector"] for b in best.values()) or 1.0
    years = [papers[s]["year"] for s in best if papers[s]["year"]]
    old, new = (min(years), max(years)) if years else (0, 0)
    top_cited = max(papers[s]["cited_by"] for s in best)
    hits = []
    for sha, b in best.items():
        p = papers[sha]
        signals = {
            "text": b["text"] / top_text,
            "semantic": b["vector"] / top_similarity,
            "entities": len(p["entities"]) / len(named) if named else 0.0,
            "citations": p["cited_by"] / top_cited if top_cited else 0.0,
            "recency": (p["year"] - old) / (new - old) if p["year"] and new > old else 0.0,
        }
        score = sum(weights[k] * v for k, v in signals.items())
        own = sorted((s for (owner, _), s in sections.items() if owner == sha),
                     key=lambda s: (-(s.text / top_text + s.semantic), s.id or ""))
        hits.append(Hit(paper_id=p["id"], title=p["title"], year=p["year"],
                        domains=sorted(p["domains"]), score=round(score, 4),
                        signals={k: round(v, 4) for k, v in signals.items()},
                        raw={"bm25": round(b["text"], 4), "similarity": round(b["vector"], 4),
                             "cited_by": p["cited_by"], "year": p["year"]},
                        entities=sorted(e["properties"].get("name") for e in named
                                        if e["element_id"] in p["entities"]),
                        sections=own[:SECTIONS_PER_HIT], vector=vectors.get(sha, (None, None))[1]))
    return sorted(hits, key=lambda h: (-h.score, h.paper_id))


def mmr(hits: list[Hit], limit: int, weight: float = MMR_LAMBDA) -> list[Hit]:
    """Maximal marginal relevance: repeatedly the hit maximising weight * score - (1 - weight) * its highest
    similarity to a hit already chosen, until `limit` are chosen. Similarity is the cosine of the hits' vectors
    after subtracting their mean: the chunk embeddings of any two English passages point much the same way
    (a text's vector sums its tokens'), so raw cosines would call every pair of papers near-duplicates. A hit
    without a vector is similar to none."""
    with_vectors = [h for h in hits if h.vector]
    centre = np.mean([h.vector for h in with_vectors], axis=0) if with_vectors else None
    centred = {id(h): np.asarray(h.vector) - centre for h in with_vectors}
    rest, chosen = list(hits), []
    while rest and len(chosen) < limit:
        def gain(h: Hit) -> float:
            return weight * h.score - (1 - weight) * max(
                (_cosine(centred.get(id(h)), centred.get(id(c))) for c in chosen), default=0.0)
        pick = max(rest, key=lambda h: (gain(h), -rest.index(h)))
        rest.remove(pick)
        chosen.append(pick)
    return chosen


def _cosine(a: np.ndarray | None, b: np.ndarray | None) -> float:
    if a is None or b is None:
        return 0.0
    norms = np.linalg.norm(a) * np.linalg.norm(b)
    return float(a @ b / norms) if norms else 0.0


def _snippet(text: str | None, size: int = 240) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= size else text[:size].rsplit(" ", 1)[0] + " ..."
