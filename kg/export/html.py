"""One self-contained HTML page of the knowledge graph: nodes colored by type (the ontology's Browser
colors), and a click on a node or edge shows its provenance and the text of its evidence chunks.

Drawing is vis-network's standalone build (vendored in kg/export/vendor/ with its licence notice; it injects
its own CSS), inlined with the data, so the page needs no network at view time. Chunks and ingest runs are not
drawn: chunks are the evidence shown in the panel. All data goes in as JSON with <, > and & escaped; the page's script writes it with
textContent only, so no text from a paper can become markup.
"""

from __future__ import annotations

import html
import importlib.resources
import json
from functools import lru_cache
from string import Template
from typing import Iterable

from kg.errors import ExportError
from kg.export.json_graph import plain
from kg.export.view import GraphView, element_key as key
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

_HIDDEN = ("Chunk", "IngestRun")  # evidence and bookkeeping, not knowledge
_LEFT_OUT = ("embedding",)  # vectors mean nothing to a reader and would weigh megabytes
_JSON_IN_HTML = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026", 0x2028: "\\u2028", 0x2029: "\\u2029"}


@lru_cache(maxsize=1)
def _assets() -> tuple[Template, str]:
    """The page template and the vendored vis-network build."""
    here = importlib.resources.files("kg.export")
    vis = here / "vendor" / "vis-network.min.js"
    if not vis.is_file():
        raise ExportError("the vis-network build is missing from kg/export/vendor",
                          hint="reinstall paperkg (pip install -e .)")
    return Template((here / "graph_page.html").read_text()), vis.read_text()


def to_html(nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema,
            paper_ids: list[str] | None = None) -> str:
    """The page of everything read; titled after the papers asked for."""
    view = GraphView(nodes, edges, schema, paper_ids)
    shown = [n for n in view.nodes.values() if n.label not in _HIDDEN]
    shown_keys = {(n.label, n.id) for n in shown}
    links = [e for e in view.edges
             if (e.source_label, e.source_id) in shown_keys and (e.target_label, e.target_id) in shown_keys]
    cited = {c for element in [*shown, *links] for c in element.props.get("source_chunk_ids") or []}
    data = {
        "colors": {label: schema.nodes[label].color for label in sorted({n.label for n in shown})},
        "nodes": [{"key": key(n.label, n.id), "label": n.label, "caption": view.display(n),
                   "props": _props({"id": n.id, **n.props})} for n in sorted(shown, key=lambda n: (n.label, n.id))],
        "edges": [{"type": e.type, "source": key(e.source_label, e.source_id), "target": key(e.target_label, e.target_id),
                   "props": _props(e.props)} for e in sorted(links, key=lambda e: (e.source_id, e.type, e.target_id))],
        "evidence": {n.id: n.props.get("text", "") for n in view.of_label("Chunk") if n.id in cited},
    }
    papers = view.papers()
    title = view.caption(papers[0]) if len(papers) == 1 else f"{len(papers)} papers"
    template, vis_js = _assets()
    return template.substitute(title=html.escape(f"{title} · paperkg knowledge graph"), vis_js=vis_js,
                               data=json.dumps(data, ensure_ascii=False).translate(_JSON_IN_HTML))


def _props(props: dict) -> dict:
    return plain({k: v for k, v in props.items() if k not in _LEFT_OUT and v is not None})
