"""`kg ontology ...`: what the declared ontology says, readable; and the Neo4j Browser style made from it."""

from __future__ import annotations

import typer
from rdflib import Graph
from rich.table import Table

from cli.output import console
from ontology.loader import PropertySpec, get_schema
from ontology.style import grass

app = typer.Typer(help="Inspect the declared ontology (ontology/paperkg.ttl + shapes.ttl).", no_args_is_help=True)

_CURIES = Graph()  # only for its namespace manager: IRIs shown as prefix:name
for _prefix, _ns in {"fabio": "http://purl.org/spar/fabio/", "doco": "http://purl.org/spar/doco/",
                     "deo": "http://purl.org/spar/deo/", "cito": "http://purl.org/spar/cito/",
                     "biro": "http://purl.org/spar/biro/", "pkg": "https://w3id.org/paperkg/ontology#"}.items():
    _CURIES.bind(_prefix, _ns)


def _curie(iri) -> str:
    return iri.n3(_CURIES.namespace_manager)


def _props(specs: dict[str, PropertySpec], required: bool, skip: set[str]) -> str:
    return ", ".join(name + ("[]" if spec.many else "") for name, spec in specs.items()
                     if spec.required == required and name not in skip)


@app.command()
def show() -> None:
    """Print the classes, relationship patterns and properties as tables."""
    schema = get_schema()
    console.print(f"[bold]paperkg ontology {schema.version}[/] ({schema.version_iri})")
    # what every relationship carries is the provenance; shown once rather than on every row
    provenance = set.intersection(*(set(r.properties) for r in schema.relationships.values()))

    classes = Table("label", "class", "aligned with", "required", "optional", "provenance", title="Node classes")
    for label, cls in schema.nodes.items():
        classes.add_row(label, _curie(cls.iri), ", ".join(map(_curie, cls.aligned)),
                        _props(cls.properties, True, provenance), _props(cls.properties, False, provenance),
                        "yes" if provenance <= set(cls.properties) else "")
    console.print(classes)

    patterns = Table("source", "type", "target", "property", "aligned with", title="Relationship patterns")
    for rel in schema.relationships.values():
        for source, target in sorted(rel.patterns):
            patterns.add_row(source, rel.type, target, _curie(rel.iri), ", ".join(map(_curie, rel.aligned)))
    console.print(patterns)

    properties = Table("property", "RDF", "type", "list", "values", "used by", title="Properties")
    owners: dict[str, list[str]] = {}
    specs: dict[str, PropertySpec] = {}
    enums: dict[str, dict[tuple[str, ...], list[str]]] = {}  # a name can have one enumeration per label
    for owner, props in [*((c.label, c.properties) for c in schema.nodes.values()),
                         *((r.type, r.properties) for r in schema.relationships.values())]:
        for name, spec in props.items():
            owners.setdefault(name, []).append(owner)
            specs.setdefault(name, spec)
            if spec.enum:
                enums.setdefault(name, {}).setdefault(spec.enum, []).append(owner)
    for name in sorted(specs):
        spec = specs[name]
        by_enum = enums.get(name, {})
        if len(by_enum) > 1:
            values = "; ".join(f"{'/'.join(who)}: {', '.join(enum)}" for enum, who in by_enum.items())
        else:
            values = ", ".join(spec.enum) if spec.enum else spec.pattern or ""
        used_by = "provenance: every element" if name in provenance else ", ".join(owners[name])
        properties.add_row(name, _curie(spec.iri), spec.datatype, "yes" if spec.many else "", values, used_by)
    console.print(properties)
    console.print(f"Provenance properties ({', '.join(sorted(provenance))}) are on every node marked 'yes' and "
                  "on every relationship. [] marks a list.", style="dim")


@app.command()
def style() -> None:
    """Print the Neo4j Browser style sheet (GraSS) made from the ontology."""
    typer.echo(grass(get_schema()), nl=False)
