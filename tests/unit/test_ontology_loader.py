"""The loader reads the two Turtle files into the schema the rest of the code asks."""

from __future__ import annotations

import pytest
from rdflib import OWL, RDF, RDFS, SH, Graph, URIRef

from ontology.errors import OntologyError
from ontology.loader import ONTOLOGY_FILE, PKG, SHAPES_FILE, get_schema, load_schema

CONTRACT_LABELS = {"Paper", "Author", "Section", "Chunk", "Figure", "Table", "Equation", "Reference", "Concept",
                   "Method", "Dataset", "Metric", "Task", "Experiment", "Result", "IngestRun", "Domain"}


def test_contract_labels_and_version():
    schema = get_schema()
    assert set(schema.labels) == CONTRACT_LABELS
    assert schema.version == "1.18.0"
    assert schema.version_iri == URIRef("https://w3id.org/paperkg/ontology/1.18.0")


def test_contract_patterns():
    schema = get_schema()
    for pattern in [("Paper", "HAS_AUTHOR", "Author"), ("Paper", "HAS_SECTION", "Section"),
                    ("Section", "HAS_SUBSECTION", "Section"), ("Section", "HAS_CHUNK", "Chunk"),
                    ("Chunk", "NEXT_CHUNK", "Chunk"), ("Paper", "HAS_FIGURE", "Figure"), ("Paper", "HAS_TABLE", "Table"),
                    ("Paper", "HAS_EQUATION", "Equation"), ("Paper", "HAS_REFERENCE", "Reference"),
                    ("Reference", "REFERS_TO", "Paper"), ("Paper", "CITES", "Paper"), ("Paper", "PROPOSES", "Method"),
                    ("Paper", "USES", "Method"), ("Paper", "USES", "Dataset"), ("Paper", "EVALUATES_ON", "Dataset"),
                    ("Paper", "MEASURES", "Metric"), ("Paper", "ADDRESSES", "Task"), ("Chunk", "DEFINES", "Concept"),
                    ("Section", "DEFINES", "Concept"), ("Table", "SUMMARIZES", "Metric"),
                    ("Figure", "ILLUSTRATES", "Method"), ("Chunk", "MENTIONS", "Reference"),
                    ("Experiment", "EVALUATES_ON", "Dataset"), ("Result", "OF_EXPERIMENT", "Experiment"),
                    ("Paper", "IN_DOMAIN", "Domain"), ("Section", "IN_DOMAIN", "Domain")]:
        assert pattern in schema.patterns, pattern
    assert ("Paper", "PROPOSES", "Dataset") not in schema.patterns
    assert ("Chunk", "MENTIONS", "Chunk") not in schema.patterns
    assert ("Chunk", "IN_DOMAIN", "Domain") not in schema.patterns


def test_same_as_only_between_entities_of_one_label():
    same_as = get_schema().relationships["SAME_AS"].patterns
    assert same_as == {(label, label) for label in ("Concept", "Dataset", "Method", "Metric", "Task")}


def test_entity_classes_are_the_labelled_subclasses_of_entity(tmp_path):
    """The role set the code reads (resolution, merging, name search, coverage) comes from pkg:Entity: a class
    declared a subclass of it joins, without any list in the code to extend."""
    assert get_schema().entity_labels == ("Concept", "Dataset", "Method", "Metric", "Task")
    extended = tmp_path / "extended.ttl"
    extended.write_text(ONTOLOGY_FILE.read_text() + """
pkg:Software a owl:Class ; rdfs:subClassOf pkg:Entity ; rdfs:label "software"@en ; rdfs:comment "A program."@en ;
    pkg:neo4jLabel "Software" .
pkg:Venue a owl:Class ; rdfs:subClassOf pkg:Element ; rdfs:label "venue"@en ; rdfs:comment "A venue."@en ;
    pkg:neo4jLabel "Venue" .
""")
    assert load_schema(extended, SHAPES_FILE).entity_labels == ("Concept", "Dataset", "Method", "Metric", "Software",
                                                                "Task")


def test_required_properties_and_list_properties():
    schema = get_schema()
    paper = schema.nodes["Paper"]
    assert {"id", "sha256", "file_name", "page_count", "confidence", "extractor", "verification_status",
            "created_at", "updated_at"} == set(paper.required)
    assert not paper.properties["title"].required and not paper.properties["title"].many
    assert paper.properties["bboxes"].many and paper.properties["bboxes"].datatype == "string"
    assert paper.properties["pages"].datatype == "integer"
    method = schema.nodes["Method"].properties
    assert method["aliases"].many and method["name"].required
    assert "definition" in schema.nodes["Concept"].properties and "definition" not in method
    assert schema.relationships["HAS_AUTHOR"].properties["position"].required
    assert "position" not in schema.relationships["USES"].properties
    assert schema.nodes["Chunk"].properties["embedding"].exported is False
    confidence = schema.nodes["Chunk"].properties["confidence"]
    assert (confidence.min_value, confidence.max_value, confidence.datatype) == (0.0, 1.0, "float")


def test_enumerations():
    enums = get_schema().enums()
    assert enums[("Section", "kind")] == ("Abstract", "Introduction", "RelatedWork", "Background", "Method",
                                          "Experiment", "Result", "Discussion", "Conclusion", "Limitation",
                                          "FutureWork", "Acknowledgments", "References", "Appendix", "Other")
    assert enums[("Section", "core_kind")] == ("meta", "body", "reference", "appendix", "navigation")
    assert enums[("USES", "verification_status")] == ("auto", "verified", "edited", "flagged", "rejected")


def test_section_kinds_in_ontology_match_the_shapes_enumeration():
    schema = get_schema()
    assert set(schema.section_kinds) == set(schema.enums()[("Section", "kind")])
    assert str(schema.section_kinds["Method"]) == "http://purl.org/spar/deo/Methods"


def test_indexes_from_the_ontology():
    indexes = {i.name: i for i in get_schema().indexes}
    assert indexes["entity_names"].labels == ("Author", "Concept", "Dataset", "Method", "Metric", "Task")
    assert indexes["entity_names"].properties == ("aliases", "name")
    assert indexes["chunk_embedding"].kind == "vector" and indexes["chunk_embedding"].similarity == "cosine"
    schema = get_schema()
    curation = ("confidence", "contested_at", "verification_status")  # what the needs-attention queue seeks
    assert schema.nodes["Paper"].indexed == tuple(sorted(("arxiv_id", "doi", "sha256", "year", *curation)))
    # every chunk written pays for each index: a chunk has only those of every curatable element
    assert schema.nodes["Chunk"].indexed == curation
    assert {r.indexed for r in schema.relationships.values()} == {("contested_at", "verification_status")}
    assert all(r.indexed == () for r in schema.ledger_relationships.values())
    assert schema.ledger["CurationEvent"].indexed == ("element",)  # an element's history, read by its key


def test_every_term_has_label_and_comment():
    onto = Graph().parse(ONTOLOGY_FILE)
    for kind in (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty):
        for term in onto.subjects(RDF.type, kind):
            if isinstance(term, URIRef) and term.startswith(PKG):
                assert onto.value(term, RDFS.label) and onto.value(term, RDFS.comment), term


def test_shape_endpoints_agree_with_ontology_domains_and_ranges():
    """shapes.ttl restates each relationship's endpoints for pySHACL; it must say what the ontology says."""
    schema, shapes, onto = get_schema(), Graph().parse(SHAPES_FILE), Graph().parse(ONTOLOGY_FILE)
    iri_to_label = {cls.iri: label for label, cls in schema.nodes.items()}
    by_iri = {rel.iri: rel for rel in schema.relationships.values()}

    def labels(node) -> set[str]:
        """Labels a shape admits by sh:class or by sh:or of sh:class (abstract classes: their subclasses)."""
        one = shapes.value(node, SH["class"])
        classes = [one] if one else [shapes.value(alt, SH["class"]) for alt in shapes.items(shapes.value(node, SH["or"]))]
        return {label for label, c in schema.nodes.items() for cls in classes
                if c.iri == cls or (c.iri, RDFS.subClassOf, cls) in onto}

    for rel in schema.relationships.values():
        source_shape = shapes.value(predicate=SH.targetSubjectsOf, object=rel.iri)
        assert source_shape is not None, rel.type
        assert labels(source_shape) == {s for s, _ in rel.patterns}, rel.type
    for shape, target in shapes.subject_objects(SH.targetClass):
        for prop_shape in shapes.objects(shape, SH.property):
            rel = by_iri.get(shapes.value(prop_shape, SH.path))
            if rel is None:
                continue
            sources = {iri_to_label[target]} if target in iri_to_label else {s for s, _ in rel.patterns}
            for source in sources:
                expected = {t for s, t in rel.patterns if s == source}
                assert labels(prop_shape) == expected, (source, rel.type)


def test_broken_ontology_is_a_clear_error(tmp_path):
    broken = tmp_path / "broken.ttl"
    broken.write_text("@prefix pkg: <x#> . pkg:a pkg:b")
    with pytest.raises(OntologyError, match="cannot parse"):
        load_schema(broken, SHAPES_FILE)
    unversioned = tmp_path / "unversioned.ttl"
    unversioned.write_text(ONTOLOGY_FILE.read_text().replace('owl:versionInfo "1.18.0" ;', ""))
    with pytest.raises(OntologyError, match="versionInfo"):
        load_schema(unversioned, SHAPES_FILE)
