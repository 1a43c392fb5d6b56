"""Related papers: the papers of the graph related to one paper, each with the reasons it is related and what each
reason contributes to its score. All the Cypher of related papers is here.

Three kinds of evidence, each scored in [0, 1]:
- entities: the entity nodes (the ontology's entity classes) both papers have an edge to, each weighted by its inverse
  document frequency over the graph's papers (an entity every paper uses says little); the score is the weight
  shared over the weight of all the paper's entities;
- citations: one paper citing the other scores 1; otherwise bibliographic coupling (bibliography entries both
  papers have) and co-citation (papers of the graph citing both), each as a cosine over the two papers' counts,
  combined as a probabilistic OR;
- embedding: the cosine between the paper's mean chunk embedding and the other paper's nearest chunk, found with
  Neo4j's vector index over chunk embeddings (none when the graph has no embeddings).
A related paper's score is the weighted sum of the three (WEIGHTS); each reason carries its contribution (weight
times score), so the contributions add up to the score. Rejected nodes and edges count for nothing.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kg.curation.hidden import REJECTED
from kg.db.graph import Graph
from kg.errors import InvalidQueryError
from kg.read.queries import index_name, resolve_paper
from ontology.loader import Schema

MAX_LIMIT = 50
WEIGHTS = {"entities": 0.5, "citations": 0.3, "embedding": 0.2}
# Nearest chunks read from the vector index per related paper asked for: a paper has many chunks near another.
CHUNKS_PER_PAPER = 20

_VISIBLE = "coalesce({x}.verification_status, '') <> $rejected"
# The paper's visible entities, each with the number of papers having an edge to it and the other such papers;
# {edges} is the ontology's types of edge from a paper to an entity (see _entities_cypher).
_ENTITIES = f"""
MATCH (a:Paper {{{{id: $id}}}})-[ra:{{edges}}]->(e)
WHERE any(l IN labels(e) WHERE l IN $labels) AND {_VISIBLE.format(x="ra")} AND {_VISIBLE.format(x="e")}
WITH DISTINCT a, e
CALL (e) {{{{
  MATCH (e)<-[r:{{edges}}]-(p:Paper) WHERE {_VISIBLE.format(x="r")} RETURN collect(DISTINCT p) AS papers
}}}}
RETURN e.id AS id, [l IN labels(e) WHERE l IN $labels][0] AS label, e.name AS name, size(papers) AS df,
       [p IN papers WHERE p <> a | p.id] AS others
"""
_PAPER_COUNT = "MATCH (p:Paper) RETURN count(p) AS n"
# The paper's visible bibliography entries, each with what identifies the work it cites: the graph's paper it
# refers to, its DOI (stored in lower case) and its title key (kg.ingest.mapping.title_key, set when it is written).
_OWN_REFERENCES = f"""
MATCH (:Paper {{id: $id}})-[h:HAS_REFERENCE]->(r:Reference)
WHERE {_VISIBLE.format(x="h")} AND {_VISIBLE.format(x="r")}
OPTIONAL MATCH (r)-[:REFERS_TO]->(cited:Paper)
RETURN r.id AS id, r.title AS title, r.doi AS doi, r.title_key AS title_key, cited.id AS cited
"""
# The other papers' visible entries citing one of those works, found through the indexes on Reference.title_key,
# Reference.doi and Paper.id, each with its paper's number of visible entries.
_MATCHING_REFERENCES = f"""
CALL () {{
  MATCH (r:Reference) WHERE r.title_key IN $titles RETURN r
  UNION
  MATCH (r:Reference) WHERE r.doi IN $dois RETURN r
  UNION
  MATCH (c:Paper)<-[:REFERS_TO]-(r:Reference) WHERE c.id IN $cited RETURN r
}}
MATCH (p:Paper)-[h:HAS_REFERENCE]->(r)
WHERE p.id <> $id AND {_VISIBLE.format(x="h")} AND {_VISIBLE.format(x="r")}
OPTIONAL MATCH (r)-[:REFERS_TO]->(cited:Paper)
RETURN p.id AS paper, r.doi AS doi, r.title_key AS title_key, cited.id AS cited,
       COUNT {{ MATCH (p)-[e:HAS_REFERENCE]->(x:Reference) WHERE {_VISIBLE.format(x="e")} AND {_VISIBLE.format(x="x")} }}
         AS entries
"""
# Papers of the graph citing the paper and another, and how many papers cite each.
_CO_CITATION = f"""
MATCH (a:Paper {{id: $id}})<-[c1:CITES]-(x:Paper)-[c2:CITES]->(b:Paper)
WHERE b <> a AND {_VISIBLE.format(x="c1")} AND {_VISIBLE.format(x="c2")}
WITH a, b, collect(DISTINCT {{paper_id: x.id, title: x.title}}) AS citing
RETURN b.id AS paper, citing,
       COUNT {{ MATCH (a)<-[c:CITES]-(:Paper) WHERE {_VISIBLE.format(x="c")} }} AS cited_a,
       COUNT {{ MATCH (b)<-[c:CITES]-(:Paper) WHERE {_VISIBLE.format(x="c")} }} AS cited_b
"""
# Papers the paper cites or is cited by, in the graph.
_DIRECT = f"""
MATCH (a:Paper {{id: $id}})-[c:CITES]-(b:Paper)
WHERE b <> a AND {_VISIBLE.format(x="c")}
RETURN b.id AS paper, collect(DISTINCT CASE WHEN startNode(c) = a THEN 'cites' ELSE 'cited_by' END) AS direct
"""
_EMBEDDINGS = f"""
MATCH (c:Chunk {{paper_sha256: $sha}}) WHERE c.embedding IS NOT NULL AND {_VISIBLE.format(x="c")}
RETURN c.embedding AS v
"""
# Neo4j's cosine score is (1 + cosine) / 2; the nearest chunk of each other paper.
_NEAREST = f"""
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node AS c, score
WHERE c.paper_sha256 <> $sha AND {_VISIBLE.format(x="c")}
MATCH (p:Paper {{sha256: c.paper_sha256}})
RETURN p.id AS paper, max(2 * score - 1) AS cosine
"""
# Every reason has every kind's fields, those of other kinds empty, as the API's model has them.
_NO_DETAILS = {"entities": None, "direct": None, "shared_references": None, "co_cited_by": None, "similarity": None}
_TITLES = "MATCH (p:Paper) WHERE p.id IN $ids RETURN p.id AS id, p.title AS title"


def related_papers(graph: Graph, schema: Schema, name: str, limit: int) -> dict[str, Any]:
    """The papers related to the one `name` stands for (resolve_paper's rules), best first, at most `limit`;
    a paper none of the three kinds of evidence relates is not listed."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidQueryError(f"limit must be between 1 and {MAX_LIMIT}", hint=f"ask for at most {MAX_LIMIT} papers")
    paper = resolve_paper(graph, name)

    def read(cypher: str, **params):
        return graph.read(cypher, rejected=REJECTED, **params)

    candidates: dict[str, dict[str, Any]] = {}

    def reasons(other: str) -> dict[str, Any]:
        return candidates.setdefault(other, {})

    for other, entities, score in _entity_scores(read(_entities_cypher(schema), id=paper.id,
                                                     labels=list(schema.entity_labels)),
                                                read(_PAPER_COUNT)[0]["n"]):
        reasons(other)["entities"] = {"score": score, "entities": entities}
    own = read(_OWN_REFERENCES, id=paper.id)
    coupling = _coupling(own, read(_MATCHING_REFERENCES, id=paper.id,
                                   titles=sorted({r["title_key"] for r in own if r["title_key"]}),
                                   dois=sorted({r["doi"].lower() for r in own if r["doi"]}),
                                   cited=sorted({r["cited"] for r in own if r["cited"]})))
    cocited = {r["paper"]: r for r in read(_CO_CITATION, id=paper.id)}
    direct = {r["paper"]: sorted(r["direct"]) for r in read(_DIRECT, id=paper.id)}
    for other in coupling.keys() | cocited.keys() | direct.keys():
        refs, ref_score = coupling.get(other, ([], 0.0))
        row = cocited.get(other)
        co_score = len(row["citing"]) / math.sqrt(row["cited_a"] * row["cited_b"]) if row else 0.0
        score = 1.0 if other in direct else 1 - (1 - ref_score) * (1 - co_score)
        reasons(other)["citations"] = {"score": score, "direct": direct.get(other, []), "shared_references": refs,
                                       "co_cited_by": row["citing"] if row else []}
    vector_index = index_name(schema, "vector", "Chunk", "embedding")
    if vector_index:
        for other, cosine in _nearest(read, paper.sha256, vector_index, limit).items():
            if cosine > 0:
                reasons(other)["embedding"] = {"score": cosine, "similarity": cosine}

    ranked = sorted((_ranked(other, found) for other, found in candidates.items()),
                    key=lambda r: (-r["score"], r["paper_id"]))[:limit]
    titles = {r["id"]: r["title"] for r in read(_TITLES, ids=[r["paper_id"] for r in ranked])}
    for r in ranked:
        r["title"] = titles.get(r["paper_id"])
    return {"paper_id": paper.id, "title": paper.title, "weights": WEIGHTS, "related": ranked}


def _entities_cypher(schema: Schema) -> str:
    """_ENTITIES over the edge types the ontology declares from a paper to an entity class, so that a new one
    counts without a change here. Relationship types are interpolated because Cypher takes no parameter for them;
    the ontology's loader admits plain identifiers only."""
    edges = sorted(rel.type for rel in schema.relationships.values()
                   if any(source == "Paper" and target in schema.entity_labels for source, target in rel.patterns))
    return _ENTITIES.format(edges="|".join(edges))


def _entity_scores(rows, papers: int) -> list[tuple[str, list[dict], float]]:
    """(other paper, shared entities with their weights, score) for each paper sharing an entity. The weight of
    an entity is ln(1 + N/df), N the graph's papers and df those with an edge to it: positive even for an entity
    all papers share, and larger the rarer it is."""
    total, shared = 0.0, {}
    for r in rows:
        idf = math.log(1 + papers / max(r["df"], 1))
        total += idf
        for other in r["others"]:
            shared.setdefault(other, []).append({"id": r["id"], "label": r["label"], "name": r["name"],
                                                 "papers": r["df"], "idf": idf})
    return [(other, sorted(found, key=lambda e: (-e["idf"], e["name"] or "")), sum(e["idf"] for e in found) / total)
            for other, found in shared.items()]


def _reference_keys(row) -> set[str]:
    """What identifies the work an entry cites: the graph's paper it refers to, its DOI, its title key."""
    keys = set()
    if row["cited"]:
        keys.add(f"paper:{row['cited']}")
    if row["doi"]:
        keys.add(f"doi:{row['doi'].lower()}")
    if row["title_key"]:
        keys.add(f"title:{row['title_key']}")
    return keys


def _coupling(own_rows, other_rows) -> dict[str, tuple[list[dict], float]]:
    """Bibliographic coupling: for each other paper, the paper's entries that one of its entries matches (by
    the cited graph paper, DOI or title key), and their count over the geometric mean of the two
    bibliographies' sizes."""
    own = [({"id": r["id"], "title": r["title"], "doi": r["doi"]}, _reference_keys(r)) for r in own_rows]
    sizes: dict[str, int] = {}
    owners: dict[str, set[str]] = {}
    for r in other_rows:
        sizes[r["paper"]] = r["entries"]
        for key in _reference_keys(r):
            owners.setdefault(key, set()).add(r["paper"])
    shared: dict[str, list[dict]] = {}
    for entry, keys in own:
        for other in sorted(set().union(*(owners.get(k, set()) for k in keys))):
            matched = sorted(k.split(":", 1)[0] for k in keys if other in owners.get(k, set()))
            shared.setdefault(other, []).append({**entry, "matched_by": matched})
    return {other: (entries, min(1.0, len(entries) / math.sqrt(len(own_rows) * sizes[other])))
            for other, entries in shared.items()}


def _nearest(read, sha: str, index: str, limit: int) -> dict[str, float]:
    """Each other paper's best cosine to the paper's mean chunk embedding, over the vector index's nearest
    chunks; nothing when the paper's chunks have no embeddings."""
    vectors = [r["v"] for r in read(_EMBEDDINGS, sha=sha)]
    if not vectors:
        return {}
    mean = np.mean(np.asarray(vectors, dtype=np.float64), axis=0)
    norm = np.linalg.norm(mean)
    if norm == 0:
        return {}
    rows = read(_NEAREST, index=index, fetch=CHUNKS_PER_PAPER * limit + len(vectors), vector=(mean / norm).tolist(),
                sha=sha)
    return {r["paper"]: r["cosine"] for r in rows}


def _ranked(other: str, found: dict[str, Any]) -> dict[str, Any]:
    """The related paper's entry: its reasons, each with its contribution, and their sum as its score."""
    reasons = [{"kind": kind, "contribution": WEIGHTS[kind] * found[kind].pop("score"), **_NO_DETAILS, **found[kind]}
               for kind in WEIGHTS if kind in found]
    return {"paper_id": other, "score": sum(r["contribution"] for r in reasons), "reasons": reasons}
