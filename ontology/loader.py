"""Reads paperkg.ttl and shapes.ttl into the in-memory Schema every other module asks about labels,
relationship types, allowed patterns, properties and enumerations. Nothing else lists them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from pathlib import Path

from rdflib import OWL, RDF, RDFS, SH, XSD, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.term import Node

from ontology.errors import OntologyError

PKG = Namespace("https://w3id.org/paperkg/ontology#")
ONTOLOGY_DIR = Path(__file__).resolve().parent
ONTOLOGY_FILE = ONTOLOGY_DIR / "paperkg.ttl"
SHAPES_FILE = ONTOLOGY_DIR / "shapes.ttl"

# SHACL value types -> the Python/Neo4j type the validator checks.
_DATATYPES = {XSD.string: "string", XSD.integer: "integer", XSD.double: "float",
              XSD.boolean: "boolean", XSD.dateTime: "datetime"}


@dataclass(frozen=True)
class PropertySpec:
    """One Neo4j property of a label or relationship type, as shapes.ttl constrains it."""

    name: str  # Neo4j property name
    iri: URIRef  # RDF property in the export
    datatype: str  # string | integer | float | boolean | datetime
    required: bool = False
    many: bool = False  # a list in Neo4j, several values in RDF
    enum: tuple[str, ...] | None = None
    min_value: float | None = None
    max_value: float | None = None
    pattern: str | None = None
    value_class: URIRef | None = None  # values are ids of this class (IRIs in RDF), not literals
    exported: bool = True  # False: Neo4j only, left out of the RDF export

    @property
    def plain(self) -> bool:
        """Constrained by its datatype alone: no enumeration, bounds or pattern."""
        return self.enum is None and self.min_value is None and self.max_value is None and self.pattern is None


@dataclass(frozen=True)
class NodeClass:
    label: str
    iri: URIRef
    comment: str
    properties: dict[str, PropertySpec]
    caption: str  # property Neo4j Browser shows
    color: str
    indexed: tuple[str, ...]  # properties with a range index
    aligned: tuple[URIRef, ...] = ()  # external classes it is a subclass of or equivalent to

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(name for name, spec in self.properties.items() if spec.required)


@dataclass(frozen=True)
class RelationshipType:
    type: str
    iri: URIRef
    comment: str
    patterns: frozenset[tuple[str, str]]  # allowed (source label, target label)
    properties: dict[str, PropertySpec]
    assertion_class: URIRef | None  # extra rdf:type of the reified edge in the export
    aligned: tuple[URIRef, ...] = ()
    indexed: tuple[str, ...] = ()  # properties with a range index on this type (pkg:Assertion's)


@dataclass(frozen=True)
class IndexSpec:
    name: str
    kind: str  # fulltext | vector
    labels: tuple[str, ...]
    properties: tuple[str, ...]
    similarity: str | None = None


@dataclass(frozen=True)
class Schema:
    version: str
    version_iri: URIRef
    nodes: dict[str, NodeClass]
    relationships: dict[str, RelationshipType]
    indexes: tuple[IndexSpec, ...]
    section_kinds: dict[str, URIRef | None]  # code -> DEO/DoCO class, if any
    # The labelled subclasses of pkg:Entity: named things canonical across papers (resolved on ingest, merged by
    # curators, searched by name), as opposed to a paper's own structure.
    entity_labels: tuple[str, ...]
    # The curation ledger (pkg:ledgerLabel / pkg:ledgerType): declared and constrained, never read as content.
    ledger: dict[str, NodeClass] = field(default_factory=dict)
    ledger_relationships: dict[str, RelationshipType] = field(default_factory=dict)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.nodes)

    @property
    def relationship_types(self) -> tuple[str, ...]:
        return tuple(self.relationships)

    @property
    def patterns(self) -> frozenset[tuple[str, str, str]]:
        return frozenset((s, rel.type, t) for rel in self.relationships.values() for s, t in rel.patterns)

    @property
    def provenance(self) -> frozenset[str]:
        """The provenance properties every relationship carries (pkg:ProvenanceShape): where an element came from
        and its curation state, never its content."""
        return frozenset.intersection(*(frozenset(r.properties) for r in self.relationships.values()))

    def allows(self, source_label: str, rel_type: str, target_label: str) -> bool:
        rel = self.relationships.get(rel_type)
        return rel is not None and (source_label, target_label) in rel.patterns

    def enums(self) -> dict[tuple[str, str], tuple[str, ...]]:
        """(label or relationship type, property) -> allowed values, for every enumerated property."""
        owners = [(n.label, n.properties) for n in self.nodes.values()]
        owners += [(r.type, r.properties) for r in self.relationships.values()]
        return {(owner, name): spec.enum for owner, props in owners for name, spec in props.items() if spec.enum}


def load_schema(ontology_file: Path = ONTOLOGY_FILE, shapes_file: Path = SHAPES_FILE) -> Schema:
    onto, shapes = _parse(ontology_file), _parse(shapes_file)
    return _SchemaReader(onto, shapes).read()


@lru_cache(maxsize=1)
def get_schema() -> Schema:
    """The schema of the packaged ontology, read once per process."""
    return load_schema()


def _parse(path: Path) -> Graph:
    try:
        return Graph().parse(path, format="turtle")
    except FileNotFoundError as exc:
        raise OntologyError(f"ontology file {path} is missing", hint="reinstall paperkg") from exc
    except Exception as exc:  # rdflib raises plain exceptions for syntax errors
        raise OntologyError(f"cannot parse {path}", hint="fix the Turtle syntax", details=str(exc)) from exc


_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")  # Cypher identifiers: interpolated into queries, so nothing else


def _identifier(name: Node, what: str) -> str:
    if not _NAME.match(str(name)):
        raise OntologyError(f"{what} {str(name)!r} is not a plain identifier (letters, digits, underscore)")
    return str(name)


class _SchemaReader:
    """One pass over the two graphs; each method reads one part of the schema."""

    def __init__(self, onto: Graph, shapes: Graph):
        self.onto, self.shapes = onto, shapes
        self.label_of = {c: _identifier(v, "label") for c, v in onto.subject_objects(PKG.neo4jLabel)}
        self.ledger_of = {c: _identifier(v, "label") for c, v in onto.subject_objects(PKG.ledgerLabel)}
        self.name_of: dict[URIRef, str] = {}
        for prop, name in onto.subject_objects(PKG.neo4jName):
            if str(name) in self.name_of.values():
                raise OntologyError(f"Neo4j property {name!r} is mapped from two RDF properties")
            self.name_of[prop] = _identifier(name, "property name")

    def read(self) -> Schema:
        version, version_iri = self._version()
        node_props, edge_props, assertion_props = self._shape_properties()
        nodes = {label: self._node_class(cls, label, node_props.get(label, {}))
                 for cls, label in sorted(self.label_of.items(), key=lambda item: item[1])}
        relationships = {rel.type: rel for rel in self._relationships(PKG.neo4jType, edge_props, assertion_props)}
        ledger = {label: self._node_class(cls, label, node_props.get(label, {}))
                  for cls, label in sorted(self.ledger_of.items(), key=lambda item: item[1])}
        ledger_relationships = {rel.type: rel for rel in self._relationships(PKG.ledgerType, {}, {})}
        return Schema(version=version, version_iri=version_iri, nodes=nodes, relationships=relationships,
                      indexes=self._indexes(), section_kinds=self._section_kinds(),
                      entity_labels=tuple(sorted(self._labels(PKG.Entity))), ledger=ledger,
                      ledger_relationships=ledger_relationships)

    # ------------------------------------------------------------ ontology
    def _version(self) -> tuple[str, URIRef]:
        ontology = next(self.onto.subjects(RDF.type, OWL.Ontology), None)
        version = self.onto.value(ontology, OWL.versionInfo) if ontology else None
        version_iri = self.onto.value(ontology, OWL.versionIRI) if ontology else None
        if version is None or version_iri is None:
            raise OntologyError("the ontology declares no owl:versionInfo and owl:versionIRI",
                                hint="add both to the owl:Ontology of ontology/paperkg.ttl")
        return str(version), version_iri

    def _labels(self, cls: Node) -> set[str]:
        """Labels a class expression covers: itself, its labelled subclasses, or the members of a union."""
        members = self.onto.value(cls, OWL.unionOf)
        if members is not None:
            return set().union(*(self._labels(m) for m in Collection(self.onto, members)))
        if cls in self.label_of:
            return {self.label_of[cls]}
        if cls in self.ledger_of:
            return {self.ledger_of[cls]}
        labels = {self.label_of[sub] for sub in self.onto.transitive_subjects(RDFS.subClassOf, cls) if sub in self.label_of}
        if not labels:
            raise OntologyError(f"class {cls} has no Neo4j label and no labelled subclass")
        return labels

    def _aligned(self, term: URIRef, predicate: URIRef) -> tuple[URIRef, ...]:
        return tuple(sorted(o for o in self.onto.objects(term, predicate)
                            if isinstance(o, URIRef) and not o.startswith(PKG)))

    def _node_class(self, cls: URIRef, label: str, props: dict[str, PropertySpec]) -> NodeClass:
        caption = self.onto.value(cls, PKG.captionProperty)
        return NodeClass(label=label, iri=cls, comment=str(self.onto.value(cls, RDFS.comment) or ""),
                         properties=props, caption=self._neo4j_name(caption) if caption else "id",
                         color=_color(self.onto.value(cls, PKG.browserColor) or "#A5ABB6", label),
                         indexed=self._indexed(cls),
                         aligned=self._aligned(cls, RDFS.subClassOf) + self._aligned(cls, OWL.equivalentClass))

    def _indexed(self, cls: URIRef) -> tuple[str, ...]:
        """The indexed properties of a class and of its superclasses."""
        return tuple(sorted({self._neo4j_name(p) for c in self.onto.transitive_objects(cls, RDFS.subClassOf)
                             for p in self.onto.objects(c, PKG.indexedProperty)}))

    def _relationships(self, annotation: URIRef, common: dict[str, PropertySpec],
                       by_assertion: dict[URIRef, dict[str, PropertySpec]]):
        for prop, rel_type in sorted(self.onto.subject_objects(annotation), key=lambda item: str(item[1])):
            domain, range_ = self.onto.value(prop, RDFS.domain), self.onto.value(prop, RDFS.range)
            if domain is None or range_ is None:
                raise OntologyError(f"relationship {rel_type} declares no rdfs:domain or rdfs:range")
            pairs = product(sorted(self._labels(domain)), sorted(self._labels(range_)))
            if self.onto.value(prop, PKG.sameLabelEndpoints) == Literal(True):
                pairs = ((s, t) for s, t in pairs if s == t)
            assertion = self.onto.value(prop, PKG.assertionClass)
            indexed = self._indexed(PKG.Assertion) if annotation == PKG.neo4jType else ()
            yield RelationshipType(type=_identifier(rel_type, "relationship type"), iri=prop, comment=str(self.onto.value(prop, RDFS.comment) or ""),
                                   patterns=frozenset(pairs), properties={**common, **by_assertion.get(assertion, {})},
                                   assertion_class=assertion, aligned=self._aligned(prop, RDFS.subPropertyOf),
                                   indexed=indexed)

    def _indexes(self) -> tuple[IndexSpec, ...]:
        specs = []
        for kind, cls in (("fulltext", PKG.FulltextIndex), ("vector", PKG.VectorIndex)):
            for index in self.onto.subjects(RDF.type, cls):
                labels = set().union(*(self._labels(c) for c in self.onto.objects(index, PKG.onClass)))
                props = sorted(self._neo4j_name(p) for p in self.onto.objects(index, PKG.onProperty))
                similarity = self.onto.value(index, PKG.similarity)
                specs.append(IndexSpec(name=str(self.onto.value(index, PKG.indexName)), kind=kind,
                                       labels=tuple(sorted(labels)), properties=tuple(props),
                                       similarity=str(similarity) if similarity else None))
        return tuple(sorted(specs, key=lambda s: s.name))

    def _section_kinds(self) -> dict[str, URIRef | None]:
        return {str(self.onto.value(kind, PKG.code)): self.onto.value(kind, PKG.rhetoricalClass)
                for kind in self.onto.subjects(RDF.type, PKG.SectionKind)}

    def _neo4j_name(self, prop: Node) -> str:
        if prop not in self.name_of:
            raise OntologyError(f"property {prop} has no pkg:neo4jName")
        return self.name_of[prop]

    # ------------------------------------------------------------ shapes
    def _shape_properties(self):
        """Property specs per label, common to all edges, and per assertion class (edge type with own properties)."""
        per_label: dict[str, dict[str, PropertySpec]] = {}
        common: dict[str, PropertySpec] = {}
        per_assertion: dict[URIRef, dict[str, PropertySpec]] = {}
        for shape, target in self.shapes.subject_objects(SH.targetClass):
            props = self._shape_specs(shape)
            if target == PKG.Assertion:
                common.update(props)
            elif (target, RDFS.subClassOf, PKG.Assertion) in self.onto:
                per_assertion.setdefault(target, {}).update(props)
            elif target in self.label_of or (target, RDF.type, OWL.Class) in self.onto:
                for label in self._labels(target):
                    _merge(per_label.setdefault(label, {}), props, label)
        return per_label, common, per_assertion

    def _shape_specs(self, shape: Node) -> dict[str, PropertySpec]:
        """The Neo4j properties a shape constrains, including those of shapes it includes by sh:node."""
        specs: dict[str, PropertySpec] = {}
        for included in self.shapes.objects(shape, SH.node):
            specs.update(self._shape_specs(included))
        for prop_shape in self.shapes.objects(shape, SH.property):
            path = self.shapes.value(prop_shape, SH.path)
            if path in self.name_of:  # other paths are edges (endpoint checks) or RDF-only structure
                spec = self._property_spec(prop_shape, path)
                specs[spec.name] = spec
        return specs

    def _property_spec(self, prop_shape: Node, path: URIRef) -> PropertySpec:
        g = self.shapes
        datatype = g.value(prop_shape, SH.datatype)
        if datatype is None and g.value(prop_shape, SH.nodeKind) == SH.IRI:
            datatype = XSD.string  # an id (or name@version) that the export turns into an IRI
        if datatype not in _DATATYPES:
            raise OntologyError(f"the shape of {path} has an unsupported sh:datatype {datatype}")
        enum = g.value(prop_shape, SH["in"])
        min_count, max_count = g.value(prop_shape, SH.minCount), g.value(prop_shape, SH.maxCount)
        minimum, maximum = g.value(prop_shape, SH.minInclusive), g.value(prop_shape, SH.maxInclusive)
        pattern = g.value(prop_shape, SH.pattern)
        return PropertySpec(
            name=self.name_of[path], iri=path, datatype=_DATATYPES[datatype],
            required=min_count is not None and min_count.toPython() >= 1,
            many=max_count is None or max_count.toPython() > 1,
            enum=tuple(str(v) for v in Collection(g, enum)) if enum is not None else None,
            min_value=float(minimum) if minimum is not None else None,
            max_value=float(maximum) if maximum is not None else None,
            pattern=str(pattern) if pattern is not None else None,
            value_class=self.onto.value(path, PKG.valueClass),
            exported=self.onto.value(path, PKG.inRdfExport) != Literal(False),
        )


def _color(value: Node, label: str) -> str:
    if not re.fullmatch(r"#[0-9A-Fa-f]{6}", str(value)):
        raise OntologyError(f"pkg:browserColor of {label} is {value!r}, not #RRGGBB")
    return str(value)


def _merge(into: dict[str, PropertySpec], new: dict[str, PropertySpec], label: str) -> None:
    for name, spec in new.items():
        if name in into and into[name] != spec:
            raise OntologyError(f"two shapes constrain {label}.{name} differently")
        into[name] = spec
