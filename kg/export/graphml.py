"""The graph as GraphML for Gephi, Cytoscape and yEd: every node and edge with all its properties,
provenance and verification status as typed attributes (lists as JSON text, datetimes as ISO 8601).

Reserved attributes: `label` (the text to show, which Gephi uses) and `neo4j_label` on nodes, `type` on
edges. A graph property with one of those names is written as `prop_<name>` (Figure.label → prop_label).
ElementTree writes the XML, so all text is escaped by the XML serializer.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any, Iterable

from kg.export.json_graph import plain
from kg.export.view import GraphView, element_key as key
from ontology.loader import Schema
from ontology.records import EdgeRecord, NodeRecord

NS = "http://graphml.graphdrawing.org/xmlns"
_TYPES = {"string": "string", "integer": "long", "float": "double", "boolean": "boolean", "datetime": "string"}
_RESERVED = {"node": ("label", "neo4j_label"), "edge": ("type",)}
_LEFT_OUT = ("embedding",)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # characters XML 1.0 cannot hold


def to_graphml(nodes: Iterable[NodeRecord], edges: Iterable[EdgeRecord], schema: Schema) -> str:
    view = GraphView(nodes, edges, schema)
    ET.register_namespace("", NS)
    root = ET.Element(f"{{{NS}}}graphml")
    keys: dict[tuple[str, str], str] = {}

    def declare(scope: str, name: str, datatype: str) -> str:
        if (scope, name) not in keys:
            keys[(scope, name)] = f"{scope[0]}{len(keys)}"
            ET.SubElement(root, f"{{{NS}}}key", {"id": keys[(scope, name)], "for": scope, "attr.name": name,
                                                 "attr.type": datatype})
        return keys[(scope, name)]

    def attributes(element: ET.Element, scope: str, reserved: dict[str, str], props: dict[str, Any],
                   specs: dict) -> None:
        for name, value in reserved.items():
            ET.SubElement(element, f"{{{NS}}}data", key=declare(scope, name, "string")).text = _NOT_XML.sub("", value)
        for name, value in sorted(props.items()):
            spec = specs.get(name)
            if value is None or name in _LEFT_OUT:
                continue
            many = isinstance(value, (list, tuple))
            datatype = "string" if many or spec is None else _TYPES[spec.datatype]
            attr = f"prop_{name}" if name in _RESERVED[scope] else name
            text = json.dumps(plain(value), ensure_ascii=False) if many else _scalar(plain(value))
            ET.SubElement(element, f"{{{NS}}}data", key=declare(scope, attr, datatype)).text = _NOT_XML.sub("", text)

    graph = ET.Element(f"{{{NS}}}graph", id="paperkg", edgedefault="directed")
    for node in sorted(view.nodes.values(), key=lambda n: (n.label, n.id)):
        element = ET.SubElement(graph, f"{{{NS}}}node", id=key(node.label, node.id))
        attributes(element, "node", {"label": view.display(node), "neo4j_label": node.label},
                   {"id": node.id, **node.props}, schema.nodes[node.label].properties)
    for i, edge in enumerate(sorted(view.edges, key=lambda e: (e.source_label, e.source_id, e.type, e.target_id))):
        element = ET.SubElement(graph, f"{{{NS}}}edge", id=f"e{i}", source=key(edge.source_label, edge.source_id),
                                target=key(edge.target_label, edge.target_id))
        attributes(element, "edge", {"type": edge.type}, edge.props, schema.relationships[edge.type].properties)
    root.append(graph)  # GraphML wants every <key> before the <graph>
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _scalar(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
