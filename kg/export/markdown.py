"""Reading notes in Markdown, one part per paper: outline with pages, contributions, methods, datasets,
metrics, the results table, figures and tables with captions. Every item says where in the PDF it comes
from and, once a curator has looked at it, its status (✓ verified and the like)."""

from __future__ import annotations

import re
from typing import Any, Iterable

from kg.export.view import STATUS_MARKS, GraphView, pages_text, results_rows, status_mark
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

# Backslash-escaping any ASCII punctuation is literal in CommonMark; these are the ones that can start markup.
_MARKUP = re.compile(r"([\\`*_\[\]<>|~&#])")
_ENTITIES = (("Method", "Methods"), ("Dataset", "Datasets"), ("Metric", "Metrics"), ("Task", "Tasks"))
_CONTRIBUTIONS = (("PROPOSES", "Proposes"), ("ADDRESSES", "Addresses"))


def md(text: Any) -> str:
    """Inline text that stays text: markup characters escaped, line breaks folded into spaces."""
    return _MARKUP.sub(r"\\\1", " ".join(str(text).split()))


def to_markdown(nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema,
                paper_ids: list[str] | None = None) -> str:
    view = GraphView(nodes, edges, schema, paper_ids)
    return "\n\n---\n\n".join(_paper(view, paper) for paper in view.papers()) + "\n"


def _paper(view: GraphView, paper: NodeRecord) -> str:
    lines = [f"# {md(view.caption(paper))}", ""]
    lines += _front(view, paper)
    for title, body in (("Outline", _outline(view, paper)), ("Contributions", _contributions(view, paper)),
                        ("Methods, datasets, metrics and tasks", _entities(view, paper)),
                        ("Results", _results(view, paper)), ("Figures and tables", _floats(view, paper))):
        lines += ["", f"## {title}", "", *(body or ["(none found)"])]
    return "\n".join(lines)


def _where(props: dict[str, Any]) -> str:
    """'p. 3; confidence 0.92; ✓ verified': the provenance and status an item carries."""
    parts = [pages_text(props)]
    if props.get("confidence") is not None:
        parts.append(f"confidence {props['confidence']:.2f}")
    parts.append(status_mark(props))
    return "; ".join(p for p in parts if p)


def _front(view: GraphView, paper: NodeRecord) -> list[str]:
    p = paper.props
    facts = [md(paper.id), md(p.get("file_name", "")), f"{p['page_count']} pages" if "page_count" in p else "",
             str(p.get("year", "")), f"DOI {md(p['doi'])}" if p.get("doi") else "",
             f"arXiv {md(p['arxiv_id'])}" if p.get("arxiv_id") else "", status_mark(p)]
    authors = ", ".join(md(a.props.get("name", a.id)) for _, a in view.targets(paper, "HAS_AUTHOR"))
    lines = [f"- **Paper:** {' · '.join(f for f in facts if f)}", f"- **Authors:** {authors or '(none found)'}",
             f"- **PDF sha256:** `{p.get('sha256', '')}`",
             f"- **Provenance:** pages and confidence after each item; curated items are marked "
             f"{', '.join(STATUS_MARKS.values())}"]
    if p.get("abstract"):
        lines += ["", f"> {md(p['abstract'])}"]
    return lines


def _outline(view: GraphView, paper: NodeRecord) -> list[str]:
    lines: list[str] = []

    def walk(section: NodeRecord, depth: int) -> None:
        number = f"{md(section.props['number'])} " if section.props.get("number") else ""
        lines.append(f"{'  ' * depth}- {number}{md(view.caption(section))} ({pages_text(section.props)})"
                     + (f" {status_mark(section.props)}" if status_mark(section.props) else ""))
        for _, child in view.targets(section, "HAS_SUBSECTION", "Section"):
            walk(child, depth + 1)

    for _, section in view.targets(paper, "HAS_SECTION", "Section"):
        walk(section, 0)
    return lines


def _contributions(view: GraphView, paper: NodeRecord) -> list[str]:
    return [f"- {verb} **{md(view.caption(node))}** ({node.label.lower()}; {_where(edge.props)})"
            for type_, verb in _CONTRIBUTIONS for edge, node in view.targets(paper, type_)]


def _entities(view: GraphView, paper: NodeRecord) -> list[str]:
    lines: list[str] = []
    for label, heading in _ENTITIES:
        related = {}
        for type_ in view.schema.relationship_types:
            for edge, node in view.targets(paper, type_, label):
                related.setdefault(node.id, (edge, node))
        if not related:
            continue
        lines += [f"### {heading}", ""]
        for edge, node in sorted(related.values(), key=lambda p: view.caption(p[1]).lower()):
            aliases = [a for a in node.props.get("aliases") or [] if a != view.caption(node)]
            also = f" (also: {', '.join(md(a) for a in aliases)})" if aliases else ""
            lines.append(f"- **{md(view.caption(node))}**{also}: {edge.type.lower().replace('_', ' ')}; "
                         f"{_where(edge.props)}")
        lines.append("")
    return lines[:-1]


def _results(view: GraphView, paper: NodeRecord) -> list[str]:
    rows = results_rows(view, paper)
    if not rows:
        return []
    lines = ["| method | dataset | metric | value | reported in | pages | confidence | status |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        status = STATUS_MARKS.get(r["verification_status"], "")
        lines.append("| " + " | ".join(md(v) for v in (r["method"], r["dataset"], r["metric"], r["value"],
                                                         r["reported_in"], r["pages"], r["confidence"], status)) + " |")
    return lines


def _floats(view: GraphView, paper: NodeRecord) -> list[str]:
    floats = [n for type_ in ("HAS_FIGURE", "HAS_TABLE") for _, n in view.targets(paper, type_)]
    if not floats:
        return []
    lines = ["| element | caption | page | status |", "|---|---|---|---|"]
    for f in floats:
        lines.append(f"| {f.label} {md(f.props.get('label', ''))} | {md(f.props.get('caption', ''))} | "
                     f"{f.props.get('page', '')} | {STATUS_MARKS.get(f.props.get('verification_status', ''), '')} |")
    return lines
