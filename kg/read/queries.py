"""Read access to the graph for the API and CLI: papers, nodes, edges, name search, neighbourhoods, chunk
text and the read-only Cypher runner. All Cypher of these reads lives here and is parameterised; the only
names interpolated are labels and relationship types taken from the Schema (backtick-quoted).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from neo4j import Query
from neo4j.exceptions import ClientError, CypherSyntaxError, DatabaseError, Neo4jError, TransientError
from neo4j.graph import Node, Path, Relationship
from neo4j.time import Date, DateTime, Duration, Time
from rapidfuzz import fuzz

from extractors.bbox import parse_bbox
from extractors.semantic.canonical import normalize
from kg.read import cypher_guard
from kg.db.graph import Graph
from kg.errors import (AmbiguousPaperError, BusyError, DatabaseUnavailable, InvalidQueryError, NotFoundError,
                       QueryMemoryError, QueryRefusedError, QueryTimeoutError)
from kg.read.fulltext import lucene_query
from ontology.errors import PaperKGError
from ontology.loader import Schema

HIDDEN_PROPERTIES = frozenset({"embedding"})  # large vectors: never returned to a client
# Every chunk of a paper: its own (text outside sections) and those of its sections at any depth.
PAPER_CHUNKS = "(p)-[:HAS_SECTION|HAS_SUBSECTION|HAS_CHUNK*1..8]->(c:Chunk)"


def plain(value: Any) -> Any:
    """Driver values as JSON-ready Python: temporal types as ISO text, nested lists and maps converted."""
    if isinstance(value, (DateTime, Date, Time)):
        return value.iso_format()
    if isinstance(value, Duration):
        return str(value)
    if isinstance(value, Node):
        return node_dict(value)
    if isinstance(value, Relationship):
        return edge_dict(value)
    if isinstance(value, Path):
        return {"nodes": [node_dict(n) for n in value.nodes], "edges": [edge_dict(r) for r in value.relationships]}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def props(entity: Node | Relationship | dict) -> dict[str, Any]:
    items = entity.items() if isinstance(entity, dict) else dict(entity).items()
    return {k: plain(v) for k, v in items if k not in HIDDEN_PROPERTIES}


def node_dict(node: Node) -> dict[str, Any]:
    p = props(node)
    return {"id": p.get("id"), "element_id": node.element_id, "labels": sorted(node.labels), "properties": p}


def edge_dict(rel: Relationship) -> dict[str, Any]:
    return {"id": rel.element_id, "type": rel.type, "source": rel.start_node["id"] if rel.start_node else None,
            "target": rel.end_node["id"] if rel.end_node else None, "properties": props(rel)}


def index_name(schema: Schema, kind: str, label: str, prop: str) -> str | None:
    """The schema's index of `kind` covering label.prop, so no index name is hard-coded."""
    return next((i.name for i in schema.indexes if i.kind == kind and label in i.labels and prop in i.properties),
                None)


# ------------------------------------------------------------------ papers

_PAPERS = """
MATCH (p:Paper)
WHERE $q IS NULL OR toLower(p.title) CONTAINS toLower($q) OR toLower(p.file_name) CONTAINS toLower($q)
   OR p.id = $q OR p.doi = $q OR p.arxiv_id = $q
WITH p ORDER BY toLower(coalesce(p.title, p.file_name)), p.id
WITH collect(p) AS found
RETURN size(found) AS total,
       [p IN found[$offset..$offset + $limit] | p {.id, .title, .year, .doi, .arxiv_id, .file_name, .page_count,
        authors: [(p)-[r:HAS_AUTHOR]->(a) | [r.position, a.name]]}] AS items
"""

_PAPER = """
MATCH (p:Paper {id: $id})
RETURN p, [(p)-[r:HAS_AUTHOR]->(a:Author) | {id: a.id, name: a.name, position: r.position}] AS authors
"""

# The entities a paper proposes, uses, evaluates on, measures or addresses, rejected ones left out: the central
# ones first, then by salience (null before semantic extractor 0.16.0) and confidence.
_PAPER_ENTITIES = """
MATCH (p:Paper {id: $id})-[r]->(e)
WHERE type(r) IN $types AND any(label IN labels(e) WHERE label IN $labels)
  AND coalesce(r.verification_status, '') <> 'rejected' AND coalesce(e.verification_status, '') <> 'rejected'
RETURN e.id AS id, [label IN labels(e) WHERE label IN $labels][0] AS label, e.name AS name, type(r) AS role,
       r.confidence AS confidence, r.salience AS salience, r.central AS central
ORDER BY coalesce(central, false) DESC, coalesce(salience, -1.0) DESC, confidence DESC, name, role
"""

# A paper's sections with their parents, in reading order; {fields} are extra Section properties to return. A
# section written before ontology 1.18.0 has no `printed`: its heading was printed (none was made up before).
_SECTION_ROWS = """
MATCH (p:Paper {{id: $id}})-[:HAS_SECTION|HAS_SUBSECTION*1..8]->(s:Section)
OPTIONAL MATCH (parent:Section)-[:HAS_SUBSECTION]->(s)
RETURN DISTINCT s {{.id, .number, .title, .level, .kind, .page_start, .page_end, .ordinal,
                   printed: coalesce(s.printed, true){fields}}} AS section,
       parent.id AS parent_id
ORDER BY section.ordinal
"""
_SECTIONS = _SECTION_ROWS.format(fields="")
_OUTLINE = _SECTION_ROWS.format(fields=", .summary, .summary_starts, .summary_ends, .summary_bboxes")

_PAPER_COUNTS = f"""
MATCH (p:Paper {{id: $id}})
CALL (p) {{ MATCH {PAPER_CHUNKS} RETURN count(DISTINCT c) AS chunks }}
CALL (p) {{ MATCH (p)-[:HAS_SECTION|HAS_SUBSECTION*1..8]->(s:Section) RETURN count(DISTINCT s) AS sections }}
CALL (p) {{ OPTIONAL MATCH (p)-[r]->(x) WHERE type(r) IN $types RETURN type(r) AS type, count(x) AS n }}
RETURN chunks, sections, collect([type, n]) AS by_type
"""


@dataclass
class Page:
    total: int
    items: list[dict[str, Any]] = field(default_factory=list)


def list_papers(graph: Graph, q: str | None, offset: int, limit: int) -> Page:
    record = graph.read(_PAPERS, q=q or None, offset=offset, limit=limit)[0]
    items = []
    for item in record["items"]:
        item["authors"] = [name for _, name in sorted(item["authors"], key=lambda pair: pair[0] or 0)]
        items.append(item)
    return Page(total=record["total"], items=items)


def get_paper(graph: Graph, schema: Schema, name: str) -> dict[str, Any]:
    """Metadata, authors in byline order, the section tree, the entities it proposes, uses, evaluates on, measures
    or addresses (central ones first) and counts per outgoing relationship type, of the paper `name` stands for
    (resolve_paper)."""
    paper_id = resolve_paper(graph, name).id
    records = graph.read(_PAPER, id=paper_id)
    if not records:  # deleted since it was resolved
        raise NotFoundError(f"no paper with id {paper_id!r}", hint="GET /papers lists the papers in the graph")
    paper = props(records[0]["p"])
    authors = sorted(records[0]["authors"], key=lambda a: a["position"] or 0)
    sections = graph.read(_SECTIONS, id=paper_id)
    counts = graph.read(_PAPER_COUNTS, id=paper_id, types=list(_paper_edge_types(schema)))[0]
    entities = graph.read(_PAPER_ENTITIES, id=paper_id, types=_entity_role_types(schema),
                          labels=sorted(schema.entity_labels))
    return {"paper": paper, "authors": authors, "sections": section_tree(sections), "entities": entities,
            "counts": {"chunks": counts["chunks"], "sections": counts["sections"],
                       **{t.lower(): n for t, n in counts["by_type"] if t}}}


def paper_outline(graph: Graph, name: str) -> dict[str, Any]:
    """The section tree of the paper `name` stands for (resolve_paper), each section with its extractive summary:
    its most central sentences, each with its span in the paper's text, page and box (extractors/summaries.py)."""
    match = resolve_paper(graph, name)
    records = graph.read(_OUTLINE, id=match.id)
    rows = [{"section": _with_summary(r["section"]), "parent_id": r["parent_id"]} for r in records]
    return {"paper_id": match.id, "title": match.title, "sections": section_tree(rows)}


def _with_summary(section: dict[str, Any]) -> dict[str, Any]:
    """A section row with its stored parallel summary lists as one list of sentences."""
    texts, starts, ends, boxes = (section.pop(key) or [] for key in
                                  ("summary", "summary_starts", "summary_ends", "summary_bboxes"))
    section["summary"] = [{"text": text, "char_start": start, "char_end": end, "page": parse_bbox(box)[0],
                           "bbox": box} for text, start, end, box in zip(texts, starts, ends, boxes)]
    return section


def _paper_overview_cypher(schema: Schema) -> str:
    """Per paper, its sections, chunks and entities, rejected ones left out as in exports. Its entities are those
    the paper itself links to (proposes, uses, evaluates on...) and those its text mentions or defines."""
    entities = "|".join(f"`{label}`" for label in schema.entity_labels)
    kept = "coalesce({0}.verification_status, '') <> 'rejected'"
    return f"""
MATCH (p:Paper)
CALL (p) {{ MATCH {PAPER_CHUNKS} WHERE {kept.format('c')} RETURN collect(DISTINCT c) AS chunks }}
CALL (p) {{ MATCH (p)-[:HAS_SECTION|HAS_SUBSECTION*1..8]->(s:Section) WHERE {kept.format('s')}
           RETURN count(DISTINCT s) AS sections }}
CALL (p, chunks) {{ UNWIND [p] + chunks AS source
                   MATCH (source)-[r]->(e:{entities}) WHERE {kept.format('r')} AND {kept.format('e')}
                   RETURN count(DISTINCT e) AS entities }}
RETURN p.id AS id, p.title AS title, p.year AS year, size(chunks) AS chunks, sections, entities
ORDER BY toLower(coalesce(p.title, p.file_name, '')), p.id
"""


def paper_overview(graph: Graph, schema: Schema) -> list[dict[str, Any]]:
    """Every paper in the graph with its id, title, year and counts (`kg papers`), by title."""
    return [r.data() for r in graph.read(_paper_overview_cypher(schema))]


# ------------------------------------------------------------------ a paper by name

_PAPER_FIELDS = "p.id AS id, p.sha256 AS sha256, p.title AS title, p.doi AS doi, p.arxiv_id AS arxiv_id"
_PAPER_BY_ID = f"MATCH (p:Paper) WHERE p.id = $key OR p.sha256 = $key RETURN {_PAPER_FIELDS}"
# DOIs compare in any case and arXiv ids without their version, which no index serves: every paper's names.
_PAPER_NAMES = f"MATCH (p:Paper) RETURN {_PAPER_FIELDS} ORDER BY p.id"

MAX_PAPER_NAME = 500  # characters: longer than any title, DOI or id
CANDIDATES_SHOWN = 10  # papers an ambiguous name lists
TITLE_FUZZY_RATIO = 90  # rapidfuzz ratio of a title typed with a slip (a letter, a hyphen) to the stored one
TITLE_FUZZY_CHARS = 12  # shorter names match exactly only: one letter turns "BERT" into "BART"
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_ARXIV_PREFIX = re.compile(r"^(?:https?://arxiv\.org/(?:abs|pdf)/|arxiv:\s*)", re.I)
_ARXIV_VERSION = re.compile(r"v\d+(?:\.pdf)?$")


@dataclass(frozen=True)
class PaperMatch:
    """The paper a name stands for, and how the name matched it."""

    id: str
    sha256: str
    title: str | None
    matched_by: str  # id | doi | arxiv | title | short title | title words

    def as_candidate(self) -> dict[str, str | None]:
        return {"id": self.id, "title": self.title, "matched_by": self.matched_by}


def resolve_paper(graph: Graph, name: str, *, loose: bool = True) -> PaperMatch:
    """The one paper `name` stands for: its id or file SHA-256, its DOI (any case, with or without
    https://doi.org/ or doi:), its arXiv id (with or without arXiv: or a version), or its title. A title matches
    case- and punctuation-insensitively as a whole, by its part before a colon ("BERT" for "BERT: Pre-training
    ..."), or with a slip (rapidfuzz, long names only); with `loose`, also as a run of whole words of the title.
    The first of these kinds that finds anything decides: several papers there are an AmbiguousPaperError
    listing them, none at all a NotFoundError. Questions pass `loose=False`: a word of one title is no reason to
    answer from that paper alone. Every endpoint and command that takes a paper goes through here, so all accept
    the same names. An id is one index seek; any other name reads every paper's identifiers and title (short
    properties), since case-blind DOIs, versionless arXiv ids and fuzzy titles have no index to use."""
    return PaperDirectory(graph).resolve(name, loose=loose)


class PaperDirectory:
    """resolve_paper for a caller that tries several names in one request (a question naming papers): every
    paper's names are read once, on the first name that is not an id, and kept for the directory's life."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self._names: list | None = None

    def resolve(self, name: str, *, loose: bool = True) -> PaperMatch:
        """The one paper `name` stands for, by resolve_paper's rules."""
        key = " ".join(name.split())
        if not key:
            raise InvalidQueryError("the paper name is empty", hint="give a paper's id, DOI, arXiv id or title")
        if len(key) > MAX_PAPER_NAME:
            raise InvalidQueryError(f"the paper name is longer than {MAX_PAPER_NAME} characters",
                                    hint="give a paper's id, DOI, arXiv id or title")
        rows = self.graph.read(_PAPER_BY_ID, key=key)
        found = [_match(r, "id") for r in rows] or _by_name(key, self._paper_names(), loose)
        if len(found) == 1:
            return found[0]
        if not found:
            raise NotFoundError(f"no paper matches {key!r} by id, DOI, arXiv id or title",
                                hint="GET /papers?q=<a word of the title> lists the papers in the graph")
        raise AmbiguousPaperError(f"{key!r} matches several papers by {found[0].matched_by}; the details list them",
                                  hint="name the paper by its id (or DOI, or full title)",
                                  details={"candidates": [m.as_candidate() for m in found[:CANDIDATES_SHOWN]]})

    def _paper_names(self) -> list:
        if self._names is None:
            self._names = self.graph.read(_PAPER_NAMES)
        return self._names


def _match(row, kind: str) -> PaperMatch:
    return PaperMatch(row["id"], row["sha256"], row["title"], kind)


def _by_name(key: str, rows: list, loose: bool) -> list[PaperMatch]:
    """The papers of the first kind of match that finds any, in resolve_paper's order."""
    doi = _DOI_PREFIX.sub("", key).casefold()
    arxiv = _ARXIV_VERSION.sub("", _ARXIV_PREFIX.sub("", key)).casefold()
    wanted = normalize(key)
    fuzzy = len(wanted) >= TITLE_FUZZY_CHARS
    papers = [(r, (r["doi"] or "").casefold(), _ARXIV_VERSION.sub("", r["arxiv_id"] or "").casefold(),
               normalize(r["title"] or ""), normalize((r["title"] or "").split(":", 1)[0])) for r in rows]
    tests = [("doi", lambda d, a, whole, short: bool(d) and d == doi),
             ("arxiv", lambda d, a, whole, short: bool(a) and a == arxiv),
             ("title", lambda d, a, whole, short: bool(wanted) and whole == wanted),
             ("short title", lambda d, a, whole, short: bool(wanted) and short == wanted),
             ("title", lambda d, a, whole, short: fuzzy and fuzz.ratio(wanted, whole) >= TITLE_FUZZY_RATIO),
             ("short title", lambda d, a, whole, short: fuzzy and fuzz.ratio(wanted, short) >= TITLE_FUZZY_RATIO),
             ("title words", lambda d, a, whole, short: loose and bool(wanted) and f" {wanted} " in f" {whole} ")]
    for kind, test in tests:
        found = [_match(r, kind) for r, *names in papers if test(*names)]
        if found:
            return found
    return []


def _paper_edge_types(schema: Schema) -> list[str]:
    return sorted(r.type for r in schema.relationships.values() if any(s == "Paper" for s, _ in r.patterns))


def _entity_role_types(schema: Schema) -> list[str]:
    """The relationship types that say a paper's role for an entity: those the ontology gives a salience."""
    return sorted(r.type for r in schema.relationships.values() if "salience" in r.properties)


def section_tree(records) -> list[dict[str, Any]]:
    """Flat (section, parent id) rows in reading order as nested sections with `children`."""
    nodes = {r["section"]["id"]: {**r["section"], "children": []} for r in records}
    roots = []
    for r in records:
        node = nodes[r["section"]["id"]]
        parent = nodes.get(r["parent_id"]) if r["parent_id"] else None
        (parent["children"] if parent else roots).append(node)
    return roots


# ------------------------------------------------------------------ nodes and edges

def _by_id(labels: Sequence[str], tail: str) -> str:
    """One seek in the unique id index of each label (a UNION when there are several), so no label scan."""
    return "\nUNION ALL\n".join(f"MATCH (n:`{label}` {{id: $id}}) {tail}" for label in labels)


def _label_named_by(schema: Schema, node_id: str) -> list[str]:
    """The label an id names: ids are `<kind>_<hash>` with the label as kind (extractors.model.element_id)."""
    return [label for label in schema.labels if node_id.startswith(f"{label.lower()}_")][:1]


_NODE_TAIL = "OPTIONAL MATCH (p:Paper {sha256: n.paper_sha256}) RETURN n, p.id AS paper_id"


def get_node(graph: Graph, schema: Schema, node_id: str) -> dict[str, Any]:
    """The node with its properties (provenance included) and, for a paper element, its paper. One index seek
    on the label the id names; an id of another form (an ingest run's) is looked up under every label."""
    def find(labels: Sequence[str]) -> list:
        return graph.read(_by_id(labels, _NODE_TAIL), id=node_id)

    named = _label_named_by(schema, node_id)
    records = (find(named) if named else []) or find(schema.labels)
    if not records:
        raise NotFoundError(f"no node with id {node_id!r}", hint="search nodes by name with GET /nodes?q=...")
    return {**node_dict(records[0]["n"]), "paper_id": records[0]["paper_id"]}


_EDGE = "MATCH (s)-[r]->(t) WHERE elementId(r) = $id RETURN r, s, t"


def get_edge(graph: Graph, edge_id: str) -> dict[str, Any]:
    """An edge by its element id (as returned in `graph.edges` and by neighbours) with its provenance."""
    try:
        records = graph.read(_EDGE, id=edge_id)
    except ClientError:  # a string that is not an element id at all
        records = []
    if not records:
        raise NotFoundError(f"no edge with id {edge_id!r}", hint="edge ids come from the `graph.edges` of a response")
    r = records[0]
    return {**edge_dict(r["r"]), "source_node": node_dict(r["s"]), "target_node": node_dict(r["t"])}


_SEARCH = """
CALL db.index.fulltext.queryNodes($index, $q, {limit: $fetch}) YIELD node, score
WHERE $labels IS NULL OR any(l IN labels(node) WHERE l IN $labels)
WITH collect({node: node, score: score}) AS hits
RETURN size(hits) AS total, hits[$offset..$offset + $limit] AS items
"""


def search_nodes(graph: Graph, schema: Schema, q: str, labels: list[str] | None, offset: int, limit: int) -> Page:
    """Entities and authors by name or alias (the schema's fulltext index over names), best match first."""
    check_labels(schema, labels)
    index = index_name(schema, "fulltext", "Method", "name")
    query = lucene_query(q)
    if not query:
        raise InvalidQueryError("the search text has no word to look for", hint="give at least one word")
    record = graph.read(_SEARCH, index=index, q=query, labels=labels or None, fetch=500, offset=offset,
                        limit=limit)[0]
    return Page(total=record["total"],
                     items=[{**node_dict(h["node"]), "score": h["score"]} for h in record["items"]])


def check_labels(schema: Schema, labels: list[str] | None) -> None:
    unknown = sorted(set(labels or ()) - set(schema.labels))
    if unknown:
        raise InvalidQueryError(f"unknown label(s) {', '.join(unknown)}", hint=f"labels: {', '.join(schema.labels)}")


def check_types(schema: Schema, types: list[str] | None) -> None:
    unknown = sorted(set(types or ()) - set(schema.relationship_types))
    if unknown:
        raise InvalidQueryError(f"unknown relationship type(s) {', '.join(unknown)}",
                                hint=f"types: {', '.join(schema.relationship_types)}")


def _neighbours_cypher(label: str, hops: int) -> str:
    return _by_id([label], f"""
MATCH path = (n)-[rels*1..{hops}]-(m)
WHERE all(r IN rels WHERE type(r) IN $types)
  AND ($labels IS NULL OR any(l IN labels(m) WHERE l IN $labels))
WITH n, path LIMIT $limit
RETURN n, nodes(path) AS nodes, relationships(path) AS rels""")


def neighbours(graph: Graph, schema: Schema, node_id: str, hops: int, labels: list[str] | None,
               types: list[str] | None, limit: int) -> dict[str, Any]:
    """The subgraph of paths of 1-2 hops from a node, optionally only through some relationship types and
    ending at some labels; at most `limit` paths."""
    if hops not in (1, 2):
        raise InvalidQueryError(f"hops must be 1 or 2, not {hops}")
    check_labels(schema, labels)
    check_types(schema, types)
    node = get_node(graph, schema, node_id)  # 404 for an unknown id rather than an empty graph
    records = graph.read(_neighbours_cypher(node["labels"][0], hops), id=node_id, labels=labels or None,
                         types=types or list(schema.relationship_types),  # not the curation ledger
                         limit=limit)
    nodes: dict[str, dict] = {}
    edges: dict[str, dict] = {}
    for r in records:
        for n in r["nodes"]:
            nodes.setdefault(n.element_id, node_dict(n))
        for rel in r["rels"]:
            edges.setdefault(rel.element_id, edge_dict(rel))
    return {"nodes": list(nodes.values()), "edges": list(edges.values())}


_CHUNK = """
MATCH (c:Chunk {id: $id})
OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c)
OPTIONAL MATCH (p:Paper {sha256: c.paper_sha256})
RETURN c, s.title AS section, p.id AS paper_id, p.title AS title
"""
# Element ids other than chunks: their evidence chunks are the ones named in source_chunk_ids.
_EVIDENCE_CHUNKS = """
MATCH (c:Chunk) WHERE c.id IN $ids
OPTIONAL MATCH (s:Section)-[:HAS_CHUNK]->(c)
OPTIONAL MATCH (p:Paper {sha256: c.paper_sha256})
RETURN c, s.title AS section, p.id AS paper_id, p.title AS title
"""


def chunk_record(r) -> dict[str, Any]:
    c = props(r["c"])
    return {"chunk_id": c["id"], "text": c.get("text", ""), "kind": c.get("kind"), "section": r["section"],
            "paper_id": r["paper_id"], "title": r["title"], "page_start": c.get("page_start"),
            "page_end": c.get("page_end"), "bboxes": c.get("bboxes") or [], "char_start": c.get("char_start"),
            "box_starts": c.get("box_starts") or []}


def evidence_chunks(graph: Graph, schema: Schema, element_id: str) -> list[dict]:
    """The chunk text behind any evidence id: a chunk itself, or the source chunks of a node or edge."""
    records = graph.read(_CHUNK, id=element_id)
    if records:
        return [chunk_record(records[0])]
    try:
        holder = get_node(graph, schema, element_id)
    except NotFoundError:
        holder = get_edge(graph, element_id)
    ids = holder["properties"].get("source_chunk_ids") or []
    records = graph.read(_EVIDENCE_CHUNKS, ids=ids)
    by_id = {r["c"]["id"]: chunk_record(r) for r in records}
    return [by_id[i] for i in ids if i in by_id]


# ------------------------------------------------------------------ read-only Cypher

# Marks the transactions of users' read-only Cypher, so that those still running past their time can be counted.
# Neo4j may not have marked such a one terminated yet: its timeouts are checked every few seconds. Its own clock
# starts late when the server is slow to take the query, so the mark also carries when the endpoint started it.
_USER_QUERY = "user-cypher"
_PAST_THEIR_TIME = """
SHOW TRANSACTIONS YIELD metaData, status, elapsedTime
WHERE metaData.paperkg = $tag AND (status STARTS WITH 'Terminated' OR elapsedTime.milliseconds > $timeout_ms
                                   OR metaData.started_ms < $now_ms - $timeout_ms)
RETURN count(*) AS n
"""


def run_read_only(graph: Graph, cypher: str, parameters: dict[str, Any] | None, *, timeout_s: float,
                  row_limit: int, max_bytes: int, max_overdue: int) -> dict[str, Any]:
    """Run a user's Cypher only if the planner says it reads the graph and nothing else: EXPLAIN first (query
    type 'r', then kg.read.cypher_guard's checks of the plan and of USE), then in a READ transaction with a timeout,
    keeping at most `row_limit` rows and `max_bytes` of them. The transaction is an explicit one, never
    retried: a user's query that failed once (or broke the connection) is not run again.

    Neo4j does not stop a loop inside one expression at the timeout (a list comprehension over a long range()):
    it marks the transaction terminated and the loop runs on, one of its threads each, for as long as it takes.
    While `max_overdue` queries of users are still running past their time, another is refused (BusyError)
    rather than started, so that sending such loops again and again cannot take every thread of the server."""
    parameters = parameters or {}
    started_ms = int(time.time() * 1000)
    overdue = graph.read(_PAST_THEIR_TIME, tag=_USER_QUERY, timeout_ms=int(timeout_s * 1000),
                         now_ms=started_ms)[0]["n"]
    if overdue >= max_overdue:
        raise BusyError(f"Neo4j still runs {overdue} earlier queries of this endpoint past their time limit (a loop "
                        "inside one expression, which Neo4j does not interrupt)",
                        hint="they end on their own; restarting Neo4j (`kg db stop`, `kg db start`) ends them now")
    with graph.read_session() as session:
        try:
            plan = session.run(Query("EXPLAIN " + cypher, timeout=timeout_s), parameters).consume()
        except CypherSyntaxError as exc:
            raise InvalidQueryError("the Cypher does not parse", details=exc.message) from exc
        except (ClientError, DatabaseError) as exc:
            raise InvalidQueryError("the Cypher cannot be planned", details=exc.message) from exc
        except (TypeError, ValueError, OverflowError) as exc:  # a parameter the driver cannot send
            raise InvalidQueryError("a parameter cannot be sent to Neo4j", details=str(exc)) from exc
        if plan.query_type != "r":
            raise QueryRefusedError(
                f"only read queries run here; this one is of type {plan.query_type!r} "
                "(writes, schema or administration)",
                hint="use MATCH ... RETURN; writes go through ingestion and curation")
        cypher_guard.check_plan(plan.plan or {}, plan.database or graph.database or "")
        cypher_guard.check_text(cypher)
        budget = cypher_guard.ResultBudget(max_bytes, HIDDEN_PROPERTIES)
        rows: list[dict[str, Any]] = []
        truncated = False
        try:
            with session.begin_transaction(timeout=timeout_s,
                                           metadata={"paperkg": _USER_QUERY, "started_ms": started_ms}) as tx:
                result = tx.run(cypher, parameters)
                for record in result:
                    if len(rows) == row_limit or not budget.fits(dict(record.items())):
                        truncated = True
                        break
                    rows.append({k: plain(v) for k, v in record.items()})
                columns = result.keys()
        except Neo4jError as exc:
            raise _failure(exc, timeout_s) from exc
    return {"columns": list(columns), "rows": rows, "truncated": truncated, "row_limit": row_limit}


def _failure(exc: Neo4jError, timeout_s: float) -> PaperKGError:
    """What a user's query that Neo4j stopped is to the caller: its own fault (4xx) unless Neo4j was at fault."""
    code, message = exc.code or "", exc.message or ""
    if "Timeout" in code or "terminated" in message.lower():
        return QueryTimeoutError(f"the query ran longer than {timeout_s:g} s",
                                 hint="add LIMIT or a more selective MATCH")
    if "AccessMode" in code:
        return QueryRefusedError("the query tried to write in a read-only transaction")
    if "Memory" in code:
        return _out_of_memory(message)
    if isinstance(exc, TransientError):
        return DatabaseUnavailable("Neo4j could not run the query just now", hint="try again", details=message)
    return InvalidQueryError("the query failed", details=message)


def _out_of_memory(message: str) -> QueryMemoryError:
    """Neo4j stops a query for memory in three ways, all with a TransientError code although running the same query
    again fails the same way: at one transaction's limit (db.memory.transaction.max), at the limit of all
    transactions together (dbms.memory.transaction.total.max), or with Java's OutOfMemoryError when a value Neo4j
    does not account for (a list or string built in an expression) filled its heap. Its message says which."""
    if "db.memory.transaction.max" in message:
        return QueryMemoryError("the query needs more memory than one transaction may use", details=message,
                                hint="collect, sort or DISTINCT fewer rows: a more selective MATCH, or LIMIT first")
    if "transaction.total.max" in message:
        return QueryMemoryError("the query needs more memory than Neo4j's transactions together may use",
                                details=message, hint="collect, sort or DISTINCT fewer rows; if other work was "
                                "running (an ingest), the same query may pass later")
    return QueryMemoryError("the query ran Neo4j out of heap memory", details=message,
                            hint="build smaller lists and strings: range(), list comprehensions and reduce() over "
                            "fewer elements")
