"""Mermaid diagrams of papers: a mind map (outline, methods, datasets, metrics, tasks, figures and tables)
and a flowchart of what a paper proposes and uses and how its experiments and results connect. Labels carry
pages and curated status; a comment line before each node names its graph id."""

from __future__ import annotations

from enum import StrEnum
from typing import Iterable

from kg.export.view import GraphView, pages_text, status_mark
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord


class MermaidKind(StrEnum):
    MINDMAP = "mindmap"
    FLOWCHART = "flowchart"


# Labels are HTML to Mermaid (11.x), and mind maps read Markdown in them: these characters would end a label,
# make a tag or emphasis, or start Mermaid's own #code; entity. Named HTML entities come out as the character
# (checked by rendering in Chromium); numeric ones (&#35;) do not, Mermaid takes them for its #35; codes.
_ENTITIES = {"&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "#": "&num;", "*": "&ast;", "_": "&lowbar;",
             "`": "&grave;"}
_BRANCHES = (("Methods", "Method"), ("Datasets", "Dataset"), ("Metrics", "Metric"), ("Tasks", "Task"))
_FLOW_LABELS = ("Paper", "Method", "Dataset", "Metric", "Task", "Experiment", "Result", "Concept")
_FLOW_TYPES = ("PROPOSES", "USES", "ADDRESSES", "EVALUATES_ON", "MEASURES", "HAS_EXPERIMENT", "OF_EXPERIMENT",
               "OF_METHOD", "ON_DATASET", "FOR_METRIC", "DEPENDS_ON")


def text(value: object) -> str:
    """A quoted Mermaid label: one line, markup characters as named HTML entities."""
    return '"' + "".join(_ENTITIES.get(c, c) for c in " ".join(str(value).split())) + '"'


def to_mermaid(nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema, kind: str,
               paper_ids: list[str] | None = None) -> str:
    view = GraphView(nodes, edges, schema, paper_ids)
    return (_mindmap(view) if kind == MermaidKind.MINDMAP else _flowchart(view)) + "\n"


def _with_marks(caption: str, props: dict) -> str:
    extra = ", ".join(p for p in (pages_text(props), status_mark(props)) if p)
    return f"{caption} ({extra})" if extra else caption


def _mindmap(view: GraphView) -> str:
    lines = ["mindmap"]
    counter = iter(range(1, 1_000_000))

    def add(depth: int, label: str, graph_id: str | None = None, shape: str = "[{}]") -> None:
        if graph_id:
            lines.append(f"{'  ' * depth}%% {graph_id}")
        lines.append(f"{'  ' * depth}n{next(counter)}{shape.format(text(label))}")

    papers = view.papers()
    top = 1
    if len(papers) != 1:
        add(1, f"{len(papers)} papers", shape="(({}))")
        top = 2
    for paper in papers:
        add(top, view.caption(paper), paper.id, "(({}))" if top == 1 else "({})")

        def section(node: NodeRecord, depth: int) -> None:
            number = f"{node.props['number']} " if node.props.get("number") else ""
            add(depth, _with_marks(number + view.caption(node), node.props), node.id)
            for _, child in view.targets(node, "HAS_SUBSECTION", "Section"):
                section(child, depth + 1)

        outline = view.targets(paper, "HAS_SECTION", "Section")
        if outline:
            add(top + 1, "Outline")
            for _, node in outline:
                section(node, top + 2)
        for heading, label in _BRANCHES:
            related = {n.id: (e, n) for t in view.schema.relationship_types for e, n in view.targets(paper, t, label)}
            if related:
                add(top + 1, heading)
                for edge, node in sorted(related.values(), key=lambda p: view.caption(p[1]).lower()):
                    add(top + 2, _with_marks(view.caption(node), edge.props), node.id)
        floats = [n for t in ("HAS_FIGURE", "HAS_TABLE") for _, n in view.targets(paper, t)]
        if floats:
            add(top + 1, "Figures and tables")
            for node in floats:
                caption = f"{node.label} {node.props.get('label', '')}: {node.props.get('caption', '')}"
                add(top + 2, _with_marks(caption, node.props), node.id)
    return "\n".join(lines)


def _flowchart(view: GraphView) -> str:
    shown = [n for label in _FLOW_LABELS for n in (view.papers() if label == "Paper" else view.of_label(label))]
    number = {(n.label, n.id): i for i, n in enumerate(shown, 1)}
    ids = {key: f"n{i}" for key, i in number.items()}
    lines = ["flowchart LR"]
    for node in shown:
        caption = view.caption(node) if node.label != "Result" else f"= {view.caption(node)}"
        lines += [f"  %% {node.label} {node.id}",
                  f"  {ids[(node.label, node.id)]}[{text(_with_marks(f'{node.label}: {caption}', node.props))}]:::{node.label}"]
    for edge in sorted(view.edges, key=lambda e: (number.get((e.source_label, e.source_id), 0), e.type,
                                                  number.get((e.target_label, e.target_id), 0))):
        source, target = ids.get((edge.source_label, edge.source_id)), ids.get((edge.target_label, edge.target_id))
        if edge.type in _FLOW_TYPES and source and target:
            label = _with_marks(edge.type.lower().replace("_", " "), edge.props)
            lines.append(f"  {source} -->|{text(label)}| {target}")
    used = sorted({n.label for n in shown})
    lines += [f"  classDef {label} fill:{view.schema.nodes[label].color},color:#000" for label in used]
    return "\n".join(lines)
