"""Records read from the graph, indexed for the paper-shaped exports (notes, diagrams, tables, the HTML page):
nodes by (label, id) and the edges out of each node. Pure: no database."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

Key = tuple[str, str]

# Marks of curated statuses in text exports; "auto" (machine output nobody has checked) has none.
STATUS_MARKS = {"verified": "✓ verified", "edited": "✎ edited", "flagged": "⚑ flagged", "rejected": "✗ rejected"}


def element_key(label: str, id: str) -> str:
    """One string per node across labels, for formats whose node ids are strings (HTML page, GraphML)."""
    return f"{label}/{id}"


class GraphView:
    """`paper_ids`: the papers asked for. A paper's part of the graph also holds the papers it cites or that cite
    it; the paper-shaped exports are about the papers asked for only."""

    def __init__(self, nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema,
                 paper_ids: list[str] | None = None):
        self.schema = schema
        self.paper_ids = set(paper_ids or [])
        self.nodes: dict[Key, NodeRecord] = {(n.label, n.id): n for n in nodes}
        self.edges: list[EdgeRecord] = list(edges)
        self._out: dict[Key, list[EdgeRecord]] = defaultdict(list)
        for e in self.edges:
            self._out[(e.source_label, e.source_id)].append(e)

    def of_label(self, label: str) -> list[NodeRecord]:
        return sorted((n for n in self.nodes.values() if n.label == label), key=self.sort_key)

    def papers(self) -> list[NodeRecord]:
        return [p for p in self.of_label("Paper") if not self.paper_ids or p.id in self.paper_ids]

    def targets(self, node: NodeRecord, type: str, label: str | None = None) -> list[tuple[EdgeRecord, NodeRecord]]:
        """(edge, target) pairs of node's outgoing `type` edges whose target is in the view, in reading order."""
        pairs = [(e, self.nodes[(e.target_label, e.target_id)]) for e in self._out[(node.label, node.id)]
                 if e.type == type and (label is None or e.target_label == label)
                 and (e.target_label, e.target_id) in self.nodes]
        return sorted(pairs, key=lambda p: (p[0].props.get("position", 0), self.sort_key(p[1])))

    def target(self, node: NodeRecord, type: str) -> NodeRecord | None:
        pairs = self.targets(node, type)
        return pairs[0][1] if pairs else None

    def of_paper(self, paper: NodeRecord, label: str) -> list[NodeRecord]:
        """Nodes of `label` extracted from this paper (their provenance names its PDF)."""
        return [n for n in self.of_label(label) if n.props.get("paper_sha256") == paper.props.get("sha256")]

    def caption(self, node: NodeRecord) -> str:
        """The text Neo4j Browser shows for the node (the ontology's caption property), else its id."""
        value = node.props.get(self.schema.nodes[node.label].caption) if node.label in self.schema.nodes else None
        return str(value) if value not in (None, "") else node.id

    def display(self, node: NodeRecord) -> str:
        """The caption, as 'Figure 2' rather than '2' where the caption property is a float's number."""
        caption = self.caption(node)
        return f"{node.label} {caption}" if self.schema.nodes[node.label].caption == "label" else caption

    @staticmethod
    def sort_key(node: NodeRecord) -> tuple[Any, ...]:
        props = node.props
        return (props.get("ordinal", 0), props.get("page", props.get("page_start", 0)),
                str(props.get("name", props.get("title", props.get("label", "")))), node.id)


def results_rows(view: GraphView, paper: NodeRecord) -> list[dict[str, str]]:
    """One row per Result of the paper: what was measured, its value and where it is reported."""
    rows = []
    for result in view.of_paper(paper, "Result"):
        def name(type_: str) -> str:
            node = view.target(result, type_)
            return view.caption(node) if node else ""

        reported = view.target(result, "REPORTED_IN")
        where = f"{reported.label} {view.caption(reported)}" if reported and reported.label != "Chunk" else ""
        rows.append({"result_id": result.id, "method": name("OF_METHOD"), "dataset": name("ON_DATASET"),
                     "metric": name("FOR_METRIC"), "value": str(result.props.get("value_text", "")),
                     "reported_in": where, "pages": pages_text(result.props),
                     "confidence": f"{result.props['confidence']:.2f}" if "confidence" in result.props else "",
                     "verification_status": str(result.props.get("verification_status", ""))})
    return rows


def status_mark(props: dict[str, Any]) -> str:
    return STATUS_MARKS.get(props.get("verification_status", ""), "")


def pages_text(props: dict[str, Any]) -> str:
    """'p. 3', 'pp. 2–4' or 'pp. 2, 5': an element's own page range, else its evidence pages, else its page."""
    if props.get("page_start") is not None:  # sections and chunks: their own span beats where they were seen
        start, end = props["page_start"], props.get("page_end", props["page_start"])
        return f"p. {start}" if start == end else f"pp. {start}–{end}"
    pages = sorted(set(props.get("pages") or []))
    if not pages and props.get("page") is not None:
        pages = [props["page"]]
    if not pages:
        return ""
    return ("p. " if len(pages) == 1 else "pp. ") + ", ".join(map(str, pages))
