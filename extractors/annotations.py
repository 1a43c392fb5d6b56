"""What the semantic extractors find, as typed annotations that point into the document.

An annotation says what was found (an entity, a definition, a link between two things, an experiment read from a
table and its results) and where: `Anchor`s name the element of the `Document` the finding rests on (a chunk, a
section's heading, the title, a table's cells) and, for text of `Document.text`, the character span of the words.
It carries its extractor's name@version and its confidence (as computed: the mapper clamps and rounds it), and no
graph ids, box strings or provenance
properties: kg.ingest.semantic_mapping turns a document and its annotations into graph records and computes the
provenance of every record there, once, from the anchors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from extractors.model import BBox

AnchorKind = Literal["chunk", "heading", "title", "cells"]


@dataclass(frozen=True, slots=True)
class Anchor:
    """A place in the document. `kind` says what `element_id` names: a chunk ("chunk"), a section whose heading
    holds the words ("heading"), a table whose cells do ("cells"), or the paper's title ("title", no id).
    `char_start`/`char_end` are offsets in `Document.text`, for chunk anchors only (headings, titles and cells
    are not part of it)."""

    kind: AnchorKind
    element_id: str | None = None
    char_start: int | None = None
    char_end: int | None = None


@dataclass(frozen=True, slots=True)
class EntityRef:
    """An entity by its ontology label and canonical name (the cross-paper node's identity)."""

    label: str
    name: str


@dataclass(frozen=True)
class EntityAnnotation:
    """A salient entity of the paper: where a pattern found it (`evidence`, one anchor per passage, strongest first)
    and every place it is mentioned (`mentions`, spans of Document.text)."""

    entity: EntityRef
    proposed: bool  # the paper presents it as its own
    confidence: float
    extractor: str
    evidence: tuple[Anchor, ...] = ()
    mentions: tuple[Anchor, ...] = ()
    salience: float = 0.0  # the salience model's probability that the paper's results are about it
    central: bool = False  # the salience reaches the model's threshold for the type


@dataclass(frozen=True)
class DefinitionAnnotation:
    """A concept the paper defines: in a sentence ('X is a ...', an abbreviation pair) or, with `equation_id`, as
    a symbol of a display equation ('where X is the ...')."""

    term: str
    aliases: tuple[str, ...]
    definition: str  # the defining sentence
    concept_type: str  # definition | technique | theory | phenomenon
    importance: str  # central | supporting | ...
    confidence: float  # of the concept
    link_confidence: float  # of the DEFINES link
    extractor: str
    sentence: Anchor
    equation_id: str | None = None


@dataclass(frozen=True)
class LinkAnnotation:
    """A typed link the ontology declares, from a document element (a table, a figure) or an entity to an entity:
    SUMMARIZES, ILLUSTRATES, DEPENDS_ON, RELATED_TO."""

    type: str
    source_label: str
    source_id: str | None  # an element's id; None when `source_entity` names the source
    target: EntityRef
    confidence: float
    extractor: str
    anchors: tuple[Anchor, ...] = ()
    source_entity: EntityRef | None = None


@dataclass(frozen=True)
class ResultAnnotation:
    """One value read from a result table: the method of its row, the metric of its column, where it is printed."""

    row: int
    col: int
    value_text: str
    value: float | None
    metric: str | None
    method: str | None  # the canonical name of a salient method the row names, if any
    cell_box: BBox | None  # the cell(s) the value is printed in, on the table's page; None when not recovered


@dataclass(frozen=True)
class ExperimentAnnotation:
    """A result table read as an experiment: what it measures, on which datasets, and its values."""

    table_id: str
    table_label: str
    caption: str
    confidence: float
    extractor: str
    table: tuple[Anchor, ...]  # the table's chunk, when it has one
    metrics: tuple[str, ...]
    datasets: tuple[str, ...]  # canonical names of datasets its caption names
    results: tuple[ResultAnnotation, ...]


@dataclass
class Annotations:
    """Everything the semantic extractors found in one paper, in the order they found it."""

    entities: list[EntityAnnotation] = field(default_factory=list)
    definitions: list[DefinitionAnnotation] = field(default_factory=list)
    experiments: list[ExperimentAnnotation] = field(default_factory=list)
    links: list[LinkAnnotation] = field(default_factory=list)
