"""Every Cypher query of question answering and locate: intent queries over the typed graph and the
retrieval queries (fulltext, vector, entity expansion). Parameterised; labels and types come from the Schema.

`GraphReader` runs them and keeps the text of each query it ran, so an answer can show its Cypher.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz

from kg.curation.hidden import without_rejected
from kg.db.graph import Graph
from kg.errors import NotFoundError
from kg.qa.text import searchable
from kg.read.fulltext import lucene_query
from kg.read.queries import PAPER_CHUNKS, PaperDirectory, PaperMatch, edge_dict, index_name, node_dict
from ontology.loader import Schema

_CHUNK_FIELDS = "c {.id, .text, .kind, .page_start, .page_end, .bboxes, .box_starts, .paper_sha256}"

_VISIBLE = "coalesce({0}.verification_status, '') <> 'rejected'"  # curators' soft deletes are not evidence


def _chunk_lucene(sha: str) -> str:
    """Cypher for the Lucene query over chunk text ($text), within the paper whose sha256 the expression `sha`
    gives (none when it is null). The chunk_text index also holds each chunk's paper_sha256, so Lucene itself
    keeps one paper's chunks and $k hits are enough; the filter clause has boost 0 so the scores are the text's
    BM25 alone."""
    return f"""'text:(' + $text + ')' + coalesce(' AND paper_sha256:"' + {sha} + '"^0', '')"""


# Equal scores are ordered by id: Lucene's order of ties differs between index builds and query shapes.
FULLTEXT_CHUNKS = f"""
CALL db.index.fulltext.queryNodes($index, {_chunk_lucene("$sha")}, {{limit: $k}}) YIELD node AS c, score
WHERE {_VISIBLE.format("c")}
WITH c, score ORDER BY score DESC, c.id
OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c)
RETURN {_CHUNK_FIELDS} AS chunk, s.title AS section, s.number AS section_number, score
"""

_HITS = f"""OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c)
  WITH c, s, score ORDER BY score DESC, c.id
  RETURN collect({{chunk: {_CHUNK_FIELDS}, section: s.title, section_number: s.number, score: score}})"""

# Within one paper, exact cosine over its own chunks: the index ranks every paper's chunks, so filtering its
# list to one paper would need a list as deep as the corpus. Same score as the index ((1 + cosine) / 2).
_VECTOR_IN_PAPER = f"""WITH p WHERE $vector IS NOT NULL AND p IS NOT NULL
  MATCH {PAPER_CHUNKS}
  WITH DISTINCT c WHERE c.embedding IS NOT NULL AND {_VISIBLE.format("c")}
  WITH c, vector.similarity.cosine(c.embedding, $vector) AS score ORDER BY score DESC, c.id LIMIT $k"""

# Over the corpus, the index's $fetch nearest (more than $k, room for rejected chunks), best $k kept.
_VECTOR_ALL = f"""WITH p WHERE $vector IS NOT NULL
  CALL db.index.vector.queryNodes($vector_index, $fetch, $vector) YIELD node AS c, score
  WITH c, score WHERE {_VISIBLE.format("c")}
  WITH c, score ORDER BY score DESC, c.id LIMIT $k"""


def _retrieve(vector_part: str) -> str:
    """The first round trip of retrieval: the paper of the scope, chunks by fulltext and by vector, the chunks of
    the tables and figures the question names within the paper ($elements: 'Table 3:', the start of such a
    chunk's text), and the entities whose name or alias the question's words hit (checked as whole words by
    the caller). One query instead of five, since every query costs the server a transaction and the client a
    round trip. A list whose input is missing ($text or $vector null, no $elements, or an unknown paper) is
    empty."""
    return f"""
OPTIONAL MATCH (p:Paper {{id: $paper_id}})
CALL (p) {{
  WITH p WHERE $text IS NOT NULL AND ($paper_id IS NULL OR p IS NOT NULL)
  CALL db.index.fulltext.queryNodes($chunk_index, {_chunk_lucene("p.sha256")}, {{limit: $k}}) YIELD node AS c, score
  WITH c, score WHERE {_VISIBLE.format("c")}
  {_HITS} AS text_hits
}}
CALL (p) {{
  {vector_part}
  {_HITS} AS vector_hits
}}
CALL (p) {{
  WITH p WHERE p IS NOT NULL AND size($elements) > 0
  MATCH (c:Chunk {{paper_sha256: p.sha256}})
  WHERE c.kind IN ['table', 'figure'] AND any(e IN $elements WHERE c.text STARTS WITH e) AND {_VISIBLE.format("c")}
  WITH c, 1.0 AS score
  {_HITS} AS element_hits
}}
CALL (p) {{
  WITH p WHERE $text IS NOT NULL AND ($paper_id IS NULL OR p IS NOT NULL)
  CALL db.index.fulltext.queryNodes($name_index, $text, {{limit: 25}}) YIELD node AS e, score
  WITH e, score WHERE any(l IN labels(e) WHERE l IN $labels) AND {_VISIBLE.format("e")}
  WITH e ORDER BY score DESC, e.id
  RETURN collect({{id: e.id, element_id: elementId(e), labels: labels(e),
                   properties: e {{.id, .name, .aliases, .confidence, .verification_status}}}}) AS names
}}
RETURN p.sha256 AS sha, p.title AS title, text_hits, vector_hits, element_hits, names
"""


RETRIEVE_IN_PAPER = _retrieve(_VECTOR_IN_PAPER)
RETRIEVE_ALL = _retrieve(_VECTOR_ALL)

ENTITY_NAMES = """
CALL db.index.fulltext.queryNodes($index, $q, {limit: 25}) YIELD node AS e, score
WHERE ($labels IS NULL OR any(l IN labels(e) WHERE l IN $labels))
RETURN e, score
"""

# Chunks of the scope that mention or define the matched entities: the one-hop expansion of retrieval.
ENTITY_CHUNKS = f"""
MATCH (e) WHERE elementId(e) IN $eids
MATCH (c:Chunk)-[r]->(e) WHERE type(r) IN $types AND ($sha IS NULL OR c.paper_sha256 = $sha)
  AND {_VISIBLE.format("c")} AND {_VISIBLE.format("r")}
WITH c, collect(DISTINCT r) AS rels, count(DISTINCT e) AS hits ORDER BY hits DESC, c.id LIMIT $k
OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c)
RETURN {_CHUNK_FIELDS} AS chunk, s.title AS section, s.number AS section_number, toFloat(hits) AS score, rels
"""

CHUNKS_BY_ID = f"""
MATCH (c:Chunk) WHERE c.id IN $ids AND {_VISIBLE.format("c")}
OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c)
RETURN {_CHUNK_FIELDS} AS chunk, s.title AS section, s.number AS section_number, 1.0 AS score
"""

PAPER_TITLES = "MATCH (p:Paper) WHERE p.sha256 IN $shas RETURN p.sha256 AS sha, p.id AS id, p.title AS title"

# Entities found by name come by element id in the queries below: a direct seek, where `e.id IN $ids` on a
# node of any label would scan every node.

# Entities a paper (or every paper) is linked to by some relationship types, with the edge's provenance.
ENTITIES_OF_PAPER = """
MATCH (p:Paper)-[r]->(e)
WHERE ($paper_id IS NULL OR p.id = $paper_id) AND type(r) IN $types AND $label IN labels(e)
RETURN p, r, e ORDER BY r.confidence DESC, e.name LIMIT $limit
"""

# Cross-paper questions ("which papers use X"): the papers linked to the matched entities, one row per paper with
# its edges (most confident first) and the entities they reach. An edge read only from sections whose title matches
# $skip (related work, references) is left out: there a paper names what others did.
PAPERS_WITH = f"""
MATCH (e) WHERE elementId(e) IN $eids
MATCH (p:Paper)-[r]->(e) WHERE type(r) IN $types AND {_VISIBLE.format("r")}
  AND (size(coalesce(r.source_chunk_ids, [])) = 0 OR any(cid IN r.source_chunk_ids WHERE NOT EXISTS {{
    MATCH (s:Section)-[:HAS_CHUNK]->(:Chunk {{id: cid}}) WHERE toLower(coalesce(s.title, '')) =~ $skip }}))
WITH p, r, e ORDER BY r.confidence DESC, e.name
WITH p, collect(r)[..$per_paper] AS rels, collect(DISTINCT e) AS entities, max(r.confidence) AS best
RETURN p, rels, entities ORDER BY best DESC, p.title LIMIT $limit
"""

# The fallback when no paper has a typed edge to the name: papers whose chunks hold the name as a phrase, outside
# sections whose title matches $skip (related work and references name things a paper does not use), with their
# best chunks.
PAPERS_MENTIONING = f"""
CALL db.index.fulltext.queryNodes($index, 'text:(' + $text + ')', {{limit: $k}}) YIELD node AS c, score
WHERE {_VISIBLE.format("c")}
OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c)
WITH c, s, score WHERE NOT toLower(coalesce(s.title, '')) =~ $skip
WITH c.paper_sha256 AS sha, c, s, score ORDER BY score DESC, c.id
WITH sha, collect({{chunk: {_CHUNK_FIELDS}, section: s.title, section_number: s.number, score: score}})[..$per_paper]
     AS hits
MATCH (p:Paper {{sha256: sha}})
RETURN p, hits ORDER BY hits[0].score DESC, p.title LIMIT $limit
"""

PAPERS_CITING = """
MATCH (p:Paper)-[r:CITES]->(cited:Paper)
WHERE toLower(cited.title) CONTAINS toLower($name) OR cited.id = $name
RETURN p, r, cited AS e ORDER BY p.title LIMIT $limit
"""

DEFINITIONS = """
MATCH (e) WHERE elementId(e) IN $eids
OPTIONAL MATCH (x)-[r:DEFINES]->(e) WHERE $sha IS NULL OR x.paper_sha256 = $sha
RETURN e, collect(r) AS rels, collect(x.text) AS texts
"""

ELEMENT_BY_LABEL = """
MATCH (p:Paper)-[h]->(x)
WHERE ($paper_id IS NULL OR p.id = $paper_id) AND type(h) IN $types AND $label IN labels(x) AND x.label = $number
OPTIONAL MATCH (c:Chunk)-[m:MENTIONS]->(x)
WITH p, x, collect(c)[..3] AS mentioned_in, collect(m)[..3] AS mention_edges
OPTIONAL MATCH (x)-[r]->(e) WHERE type(r) IN $about
RETURN p, x, mentioned_in, mention_edges, collect(r) AS about_edges, collect(e) AS about
"""

SECTION_BY_NUMBER = """
MATCH (p:Paper)-[:HAS_SECTION|HAS_SUBSECTION*1..8]->(x:Section)
WHERE ($paper_id IS NULL OR p.id = $paper_id) AND x.number = $number
OPTIONAL MATCH (x)-[:HAS_CHUNK]->(c:Chunk)
WITH p, x, c ORDER BY c.char_start
RETURN p, x, collect(c)[..1] AS mentioned_in, [] AS mention_edges, [] AS about_edges, [] AS about
"""

RESULTS = """
MATCH (m) WHERE elementId(m) IN $methods
MATCH (res:Result)-[om:OF_METHOD]->(m)
MATCH (res)-[od:ON_DATASET]->(d) WHERE $datasets IS NULL OR elementId(d) IN $datasets
OPTIONAL MATCH (res)-[fm:FOR_METRIC]->(metric)
OPTIONAL MATCH (res)-[ri:REPORTED_IN]->(where)
OPTIONAL MATCH (p:Paper {sha256: res.paper_sha256})
WHERE $paper_id IS NULL OR p.id = $paper_id
RETURN res, m, d, metric, where, p, [x IN [om, od, fm, ri] WHERE x IS NOT NULL] AS rels
ORDER BY d.name, metric.name, m.name
"""


# Claim checks (kg.qa.verify): the edges from a paper (or any paper) to entities a claim names, and the Result
# facts of a paper with the names of their method, metric and dataset.
PAPER_ENTITY_EDGES = f"""
MATCH (e) WHERE elementId(e) IN $eids
MATCH (p:Paper)-[r]->(e) WHERE ($paper_id IS NULL OR p.id = $paper_id) AND {_VISIBLE.format("r")}
RETURN p.id AS paper_id, r, e ORDER BY r.confidence DESC, e.name LIMIT $limit
"""

RESULT_FACTS = f"""
MATCH (res:Result) WHERE ($sha IS NULL OR res.paper_sha256 = $sha) AND {_VISIBLE.format("res")}
MATCH (res)-[:OF_METHOD]->(m)
MATCH (res)-[:FOR_METRIC]->(metric)
OPTIONAL MATCH (res)-[:ON_DATASET]->(d)
OPTIONAL MATCH (p:Paper {{sha256: res.paper_sha256}})
RETURN res, res.value_text AS value_text, m.name AS method, metric.name AS metric, d.name AS dataset,
       p.id AS paper_id, p.title AS title
ORDER BY res.id LIMIT $limit
"""

def chunk_row(hit: Any) -> dict:
    """A chunk hit (a record or a map of `chunk`, `section`, `section_number`, `score`) as the flat dict answers
    work on."""
    return {**hit["chunk"], "section": hit["section"], "section_number": hit["section_number"],
            "score": float(hit["score"] or 0.0)}


def no_such_paper(paper_id: str) -> NotFoundError:
    return NotFoundError(f"no paper with id {paper_id!r}", hint="GET /papers lists the papers in the graph")


@dataclass
class GraphReader:
    """Runs the queries above for one question and remembers which Cypher it ran."""

    graph: Graph
    schema: Schema
    cypher: list[str] = field(default_factory=list)
    _papers: dict[str, dict] = field(default_factory=dict)  # sha -> paper id and title, read once per question
    _directory: PaperDirectory = field(init=False)

    def __post_init__(self) -> None:
        self._directory = PaperDirectory(self.graph)

    def run(self, cypher: str, **params: Any) -> list:
        if cypher.strip() not in self.cypher:
            self.cypher.append(cypher.strip())
        records = self.graph.read(cypher, **params)
        return without_rejected(records)  # curators' soft deletes are not evidence

    # -------------------------------------------------------------- names and indexes
    def index(self, kind: str, label: str, prop: str) -> str | None:
        return index_name(self.schema, kind, label, prop)

    def entity_labels(self) -> list[str]:
        return list(self.schema.entity_labels)

    def edge_types(self, source: str | None = None, target: str | None = None) -> list[str]:
        return sorted({r for s, r, t in self.schema.patterns
                       if (source is None or s == source) and (target is None or t == target)})

    # -------------------------------------------------------------- lookups
    def paper(self, name: str, *, loose: bool = True) -> PaperMatch:
        """The paper `name` stands for (kg.read.queries.resolve_paper), remembered for `titles`. One directory per
        reader, so a question that names several papers reads the papers' names once."""
        paper = self._directory.resolve(name, loose=loose)
        self.known_paper(paper.sha256, paper.id, paper.title)
        return paper

    def known_paper(self, sha: str, paper_id: str, title: str | None) -> None:
        """A paper another query already returned, so `titles` needs no query for it."""
        self._papers[sha] = {"paper_id": paper_id, "title": title}

    def resolve(self, name: str, labels: list[str] | None = None, threshold: float = 85.0) -> list[dict]:
        """Entities whose name or alias matches `name` closely (fulltext candidates, fuzzy-checked)."""
        query = lucene_query(name)
        if not query:
            return []
        index = self.index("fulltext", (labels or self.entity_labels() or ["Method"])[0], "name")
        wanted = searchable(name)
        out = []
        for r in self.run(ENTITY_NAMES, index=index, q=query, labels=labels or self.entity_labels()):
            node = r["e"]
            names = [node.get("name") or "", *(node.get("aliases") or [])]
            best = max(fuzz.ratio(wanted, searchable(n)) for n in names)
            if best >= threshold:
                out.append({**node_dict(node), "match": best})
        return sorted(out, key=lambda n: -n["match"])

    def chunks(self, cypher: str, **params: Any) -> list[dict]:
        rows = []
        for r in self.run(cypher, **params):
            row = chunk_row(r)
            if "rels" in r.keys():
                row["edges"] = [edge_dict(rel) for rel in r["rels"]]
            rows.append(row)
        return rows

    def titles(self, shas: set[str]) -> dict[str, dict]:
        missing = sorted(set(shas) - self._papers.keys())
        if missing:
            self._papers.update({r["sha"]: {"paper_id": r["id"], "title": r["title"]}
                                 for r in self.run(PAPER_TITLES, shas=missing)})
        return {sha: self._papers[sha] for sha in shas if sha in self._papers}
