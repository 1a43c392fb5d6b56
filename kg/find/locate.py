"""locate: where a figure, table, section, equation, named entity or phrase is printed or discussed, as a
ranked list of locations (page, box, section, snippet). Element and entity hits come from the typed graph
(the element's own box; the boxes MENTIONS and DEFINES edges keep); phrases from the chunk fulltext index."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from extractors.bbox import parse_bbox
from kg.db.graph import Graph
from kg.errors import InvalidQueryError
from kg.read.fulltext import lucene_phrase
from kg.qa import graph as q
from kg.qa.answer import locate_in_chunk
from kg.qa.graph import GraphReader
from kg.qa.intents import ELEMENT_NOUNS
from kg.qa.retrieval import keyword_query
from kg.qa.text import searchable, sentences, squash, terms
from ontology.loader import Schema

_ELEMENT = re.compile(r"^\s*(figure|fig\.?|table|tab\.?|section|sec\.?|equation|eq\.?)\s*([A-Z]?\d+(?:\.\d+)*[a-z]?)\s*$",
                      re.I)
_SNIPPET = 240
# Scores rank the element itself (3), where the graph says it is defined (2.5) or mentioned (2), then text (< 2).


@dataclass
class Location:
    paper_id: str | None
    title: str | None
    page: int | None
    bbox: str | None
    section: str | None
    snippet: str
    score: float
    kind: str  # element | mention | definition | text
    element_id: str


def locate(graph: Graph, schema: Schema, text: str, paper: str | None = None, limit: int = 10) -> list[dict]:
    """Where `text` is, in the paper `paper` names (kg.read.queries.resolve_paper) or in all papers."""
    if not text.strip():
        raise InvalidQueryError("nothing to locate", hint="give a figure/table/section label, a name or a phrase")
    reader = GraphReader(graph, schema)
    scope = reader.paper(paper) if paper is not None else None
    sha, paper_id = (scope.sha256, scope.id) if scope else (None, None)
    found: list[Location] = []
    element = _ELEMENT.match(text)
    if element:
        found += _elements(reader, element, paper_id)
    else:
        found += _entities(reader, text, sha)
    found += _phrases(reader, text, sha)
    titles = reader.titles({lo.paper_id for lo in found if lo.paper_id and len(lo.paper_id) == 64})
    seen, out = set(), []
    for lo in sorted(found, key=lambda lo: -lo.score):
        key = (lo.element_id, lo.page)
        if key in seen:
            continue
        seen.add(key)
        if lo.paper_id in titles:  # hits carry the paper's sha until here
            lo.paper_id, lo.title = titles[lo.paper_id]["paper_id"], titles[lo.paper_id]["title"]
        out.append(asdict(lo))
        if len(out) == limit:
            break
    return out


def _elements(reader: GraphReader, match: re.Match, paper_id: str | None) -> list[Location]:
    label, number = ELEMENT_NOUNS[match.group(1).lower().rstrip(".")], match.group(2)
    if label == "Section":
        records = reader.run(q.SECTION_BY_NUMBER, paper_id=paper_id, number=number)
    else:
        records = reader.run(q.ELEMENT_BY_LABEL, paper_id=paper_id, label=label, number=number,
                             types=reader.edge_types(source="Paper", target=label),
                             about=reader.edge_types(source=label))
    out = []
    for r in records:
        x = r["x"]
        bbox = x.get("bbox") or (x.get("bboxes") or [None])[0]
        page = x.get("page") or x.get("page_start")
        out.append(Location(x.get("paper_sha256"), None, page, bbox, x.get("title") if label == "Section" else None,
                            squash(f"{label} {number}: {x.get('caption') or x.get('text') or x.get('title') or ''}")
                            [:_SNIPPET], 3.0, "element", x["id"]))
        for chunk, edge in zip(r["mentioned_in"], r["mention_edges"] or [None] * len(r["mentioned_in"])):
            boxes = (edge.get("bboxes") if edge is not None else None) or chunk.get("bboxes") or []
            for raw in boxes[:3]:
                out.append(Location(chunk.get("paper_sha256"), None, parse_bbox(raw)[0], raw, None,
                                    _best_sentence(chunk.get("text") or "", f"{label} {number}"), 2.0, "mention",
                                    chunk["id"]))
    return out


def _entities(reader: GraphReader, text: str, sha: str | None) -> list[Location]:
    entities = reader.resolve(text)
    if not entities:
        return []
    rows = reader.chunks(q.ENTITY_CHUNKS, eids=[e["element_id"] for e in entities], sha=sha, k=50,
                         types=reader.edge_types(source="Chunk"))
    out = []
    for chunk in rows:
        for edge in chunk.get("edges", []):
            kind = "definition" if edge["type"] == "DEFINES" else "mention"
            for raw in (edge["properties"].get("bboxes") or chunk.get("bboxes") or [])[:3]:
                out.append(Location(chunk.get("paper_sha256"), None, parse_bbox(raw)[0], raw, chunk.get("section"),
                                    _best_sentence(chunk["text"], text), 2.5 if kind == "definition" else 2.0, kind,
                                    chunk["id"]))
    return out


def _phrases(reader: GraphReader, text: str, sha: str | None) -> list[Location]:
    query = keyword_query(text)
    if not query:
        return []
    phrase = searchable(squash(text))
    quoted = lucene_phrase(phrase) if " " in phrase else ""
    lucene = f"{quoted}^3 OR {query}" if quoted else query
    rows = reader.chunks(q.FULLTEXT_CHUNKS, index=reader.index("fulltext", "Chunk", "text"),
                         text=lucene, sha=sha, k=20)
    top = max((c["score"] for c in rows), default=1.0) or 1.0
    out = []
    for chunk in rows:
        start, snippet = _best_span(chunk["text"], text)
        page, box = locate_in_chunk(chunk, start)
        exact = phrase in searchable(squash(chunk["text"]))
        out.append(Location(chunk.get("paper_sha256"), None, page, box, chunk.get("section"), snippet,
                            (1.0 if exact else 0.0) + chunk["score"] / top * 0.9, "text", chunk["id"]))
    return out


def _best_span(text: str, query: str) -> tuple[int, str]:
    """The sentence of `text` sharing most terms with `query` (the first on ties): its offset and text."""
    wanted = set(terms(query))
    spans = sentences(text) or [(0, len(text))]
    start, end = max(spans, key=lambda s: (len(wanted & set(terms(text[s[0]:s[1]]))), -s[0]))
    return start, squash(text[start:end])[:_SNIPPET]


def _best_sentence(text: str, query: str) -> str:
    return _best_span(text, query)[1]

