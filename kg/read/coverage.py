"""Coverage of one paper's graph, computed with Cypher: which figures and tables are linked to what they
illustrate or summarise, which sections have extracted entities, which equations are tied to concepts,
which bibliography entries are cited in the text, and how much of the body text landed in chunks.

Each category gives a ratio and the items that are missing with a reason and a suggested action; the
overall score is the mean ratio of the categories that have items; critical issues are listed apart.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from kg.db.graph import Graph
from kg.errors import NotFoundError
from kg.read.queries import PAPER_CHUNKS, resolve_paper

CRITICAL_TEXT_SHARE = 0.8  # below this share of body text in chunks, text was silently lost
GAP_CHARS = 200  # a hole this long between consecutive text chunks is text that no chunk holds

_PAPER = "MATCH (p:Paper {id: $paper_id}) RETURN p.page_count AS pages, p.title AS title"

_FLOATS = """
MATCH (p:Paper {id: $paper_id})-[h]->(x) WHERE type(h) IN $has AND $label IN labels(x)
OPTIONAL MATCH (x)-[l]->(e) WHERE type(l) IN $links
OPTIONAL MATCH (c:Chunk)-[:MENTIONS]->(x)
RETURN x.id AS id, x.label AS label, x.page AS page, count(DISTINCT e) AS links, count(DISTINCT c) AS mentions
ORDER BY x.page, x.label
"""
# What links a figure or table to what it shows: one without these is reported unlinked (here, and in the curators'
# needs-attention queue, kg.curation.queue)
FLOAT_HAS = {"Figure": "HAS_FIGURE", "Table": "HAS_TABLE"}
FLOAT_LINKS = ["ILLUSTRATES", "SUMMARIZES"]


# Body sections (not front matter, references or navigation) and the entities their chunks name or define.
_SECTIONS = """
MATCH (p:Paper {id: $paper_id})-[:HAS_SECTION|HAS_SUBSECTION*1..8]->(s:Section)
WHERE s.core_kind IN ['body', 'appendix']
OPTIONAL MATCH (s)-[:HAS_CHUNK]->(:Chunk)-[r]->(e) WHERE type(r) IN $chunk_links AND any(l IN labels(e) WHERE l IN $entity_labels)
OPTIONAL MATCH (s)-[:DEFINES]->(d)
RETURN DISTINCT s.id AS id, s.number AS number, s.title AS title, s.page_start AS page, s.ordinal AS ordinal,
       count(DISTINCT e) + count(DISTINCT d) AS links
ORDER BY ordinal
"""

# An equation is tied to concepts when its own chunk, or a chunk referring to it, names or defines a Concept.
_EQUATIONS = """
MATCH (p:Paper {id: $paper_id})-[:HAS_EQUATION]->(x:Equation)
OPTIONAL CALL (x) {
    UNWIND coalesce(x.source_chunk_ids, []) AS chunk_id MATCH (c:Chunk {id: chunk_id}) RETURN c
    UNION
    MATCH (c:Chunk)-[:MENTIONS]->(x) RETURN c
}
OPTIONAL MATCH (c)-[r:MENTIONS|DEFINES]->(k:Concept)
RETURN x.id AS id, x.label AS label, x.page AS page, count(DISTINCT k) AS links
ORDER BY x.page, x.label
"""

_REFERENCES = """
MATCH (p:Paper {id: $paper_id})-[:HAS_REFERENCE]->(x:Reference)
OPTIONAL MATCH (c:Chunk)-[:MENTIONS]->(x)
OPTIONAL MATCH (x)-[:REFERS_TO]->(target:Paper)
RETURN x.id AS id, x.ordinal AS label, x.bboxes[0] AS box, count(DISTINCT c) AS links, count(target) > 0 AS in_graph
ORDER BY x.ordinal
"""

# Text chunks in document order with the next one's start: holes between them are text no chunk holds.
_TEXT = f"""
MATCH (p:Paper {{id: $paper_id}})
MATCH {PAPER_CHUNKS} WHERE c.kind = 'text'
WITH DISTINCT c ORDER BY c.char_start
WITH collect(c) AS cs
WITH cs, reduce(s = 0, c IN cs | s + c.char_end - c.char_start) AS covered,
     CASE WHEN size(cs) = 0 THEN 0 ELSE cs[-1].char_end - cs[0].char_start END AS extent
RETURN covered, extent,
       [i IN range(0, size(cs) - 2) WHERE cs[i + 1].char_start - cs[i].char_end > $gap |
        {{after: cs[i].id, page: cs[i].page_end, chars: cs[i + 1].char_start - cs[i].char_end}}] AS gaps,
       reduce(pages = [], c IN cs | pages + range(c.page_start, c.page_end)) AS pages
"""


@dataclass
class Item:
    id: str
    label: str | None
    page: int | None
    reason: str
    action: str


@dataclass
class Category:
    name: str
    total: int
    linked: int
    missing: list[Item] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        return round(self.linked / self.total, 4) if self.total else None


def coverage(graph: Graph, name: str, entity_labels: list[str]) -> dict:
    """The coverage report of the paper `name` stands for (kg.read.queries.resolve_paper; see the module docstring)."""
    paper_id = resolve_paper(graph, name).id
    run = lambda cypher, **p: graph.read(cypher, paper_id=paper_id, **p)  # noqa: E731
    paper = run(_PAPER)
    if not paper:  # deleted since it was resolved
        raise NotFoundError(f"no paper with id {paper_id!r}", hint="GET /papers lists the papers in the graph")
    categories = [
        _floats(run, "Figure", "figures"),
        _floats(run, "Table", "tables"),
        _sections(run, entity_labels),
        _equations(run),
        _references(run),
    ]
    text, critical = _text(run, paper[0]["pages"])
    categories.append(text)
    ratios = [c.ratio for c in categories if c.ratio is not None]
    if not any(c.total for c in categories[:2] + categories[3:5]) and categories[2].total == 0:
        critical.append("the paper has no sections, figures, tables, equations or references in the graph")
    return {"paper_id": paper_id, "title": paper[0]["title"],
            "score": round(sum(ratios) / len(ratios), 4) if ratios else 0.0,
            "categories": [{"name": c.name, "total": c.total, "linked": c.linked, "ratio": c.ratio,
                            "missing": [asdict(i) for i in c.missing]} for c in categories],
            "critical": critical}


def _category(name: str, rows, item) -> Category:
    """A category whose rows count as linked when `links` is non-zero; `item(row)` says what a miss is."""
    return Category(name, len(rows), sum(1 for r in rows if r["links"]), [item(r) for r in rows if not r["links"]])


def _floats(run, label: str, name: str) -> Category:
    rows = run(_FLOATS, label=label, has=[FLOAT_HAS[label]], links=FLOAT_LINKS)
    return _category(name, rows, lambda r: unlinked_item(label, r))


def unlinked_item(label: str, row) -> Item:
    """What coverage says of an unlinked figure or table (`row`: its id, label, page and count of mentions)."""
    return Item(row["id"], f"{label} {row['label']}", row["page"],
                "no ILLUSTRATES or SUMMARIZES edge" + ("" if row["mentions"] else "; not referred to in the text"),
                "run semantic extraction, or link it to the method/dataset/metric it shows in curation")


def _sections(run, entity_labels: list[str]) -> Category:
    rows = run(_SECTIONS, chunk_links=["MENTIONS", "DEFINES"], entity_labels=entity_labels)
    return _category("sections_with_concepts", rows, lambda r: Item(
        r["id"], " ".join(x for x in (r["number"], r["title"]) if x), r["page"],
        "no entity mentioned or defined in its chunks", "check that its text was chunked and run semantic extraction"))


def _equations(run) -> Category:
    return _category("equations_linked", run(_EQUATIONS), lambda r: Item(
        r["id"], f"Equation {r['label']}" if r["label"] else "unnumbered equation", r["page"],
        "no concept named or defined beside it or where it is referred to", "link the concept it defines in curation"))


def _references(run) -> Category:
    return _category("references_resolved", run(_REFERENCES), lambda r: Item(
        r["id"], f"[{r['label']}]", int(r["box"].split(":")[0]) if r["box"] else None,
        "no in-text citation resolved to this entry",
        "check the citation style (numbered/author-year) the mention extractor read"))


def _text(run, page_count: int | None) -> tuple[Category, list[str]]:
    r = run(_TEXT, gap=GAP_CHARS)[0]
    extent, covered = r["extent"] or 0, r["covered"] or 0
    cat = Category("text_coverage", extent, min(covered, extent))
    for gap in r["gaps"]:
        cat.missing.append(Item(gap["after"], f"{gap['chars']} characters", gap["page"],
                                "body text between two chunks that no chunk holds", "inspect the page's layout "
                                "reading (`kg parse`); a float region or running head may have swallowed text"))
    critical = []
    if extent == 0:
        critical.append("no text chunks: the paper's text is not searchable")
    elif covered / extent < CRITICAL_TEXT_SHARE:
        critical.append(f"only {covered / extent:.0%} of the body text is in chunks")
    empty = sorted(set(range(1, (page_count or 0) + 1)) - set(r["pages"] or []))
    for page in empty:
        cat.missing.append(Item(f"page-{page}", f"page {page}", page, "no text chunk on this page",
                                "check whether the page is scanned, a full-page float or lost in layout reading"))
    if page_count and len(empty) > page_count / 4:
        critical.append(f"{len(empty)} of {page_count} pages have no text chunk")
    return cat, critical
