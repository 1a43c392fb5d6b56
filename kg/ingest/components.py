"""The named components that turn one PDF into validated graph records, in order (spaCy's pipeline idea): each
declares what it reads and what it adds, is timed, and is either required or fails alone.

The ontology needs a paper's structure (Paper, Section, Chunk and their provenance) for the paper to be in the
graph at all, so `parse`, `map` and `validate` are required: their failure fails the paper. What `embed`,
`semantic` and `domains` add (chunk vectors, entities and results, research domains) no shape requires, so each
of them fails alone: the paper is written without what it would have added, and the run ledger records the
failure (kg.ingest.runs.Run.failed) and leaves its version out, so the next `kg ingest` of the file tries again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from extractors.limits import ParseLimits
from extractors.model import Document
from kg.ingest.runs import Run
from kg.ingest.validation import Rejection
from ontology.records import EdgeRecord, NodeRecord


@dataclass
class PaperState:
    """What the components of one paper read and add: the document, its chunk vectors, its records and what
    validation refused. `run` stamps the records."""

    path: str
    limits: ParseLimits
    run: Run
    doc: Document | None = None
    vectors: dict[str, list[float]] | None = None
    nodes: list[NodeRecord] = field(default_factory=list)
    edges: list[EdgeRecord] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)


@dataclass(frozen=True)
class Component:
    """One step of the pipeline. `version` is the name@version the run ledger records for what it shaped (None:
    covered by another component's version, as mapping is by the structure extractor's)."""

    name: str
    version: str | None
    reads: tuple[str, ...]
    adds: tuple[str, ...]
    required: bool
    step: Callable[[PaperState], None]


@dataclass(frozen=True)
class ComponentFailure:
    """A component that failed alone, and why."""

    component: str
    version: str | None
    error: str

    def __str__(self) -> str:
        return f"{self.component}: {self.error}"


@dataclass
class ComponentsRun:
    """The seconds each component took, by name, and the components that failed alone."""

    seconds: dict[str, float] = field(default_factory=dict)
    failures: list[ComponentFailure] = field(default_factory=list)


def in_order(components: Sequence[Component], given: tuple[str, ...] = ("pdf",)) -> list[Component]:
    """The components, once it is checked that each reads only what the input (`given`) or an earlier component
    adds: a component put before what it needs is an error when the pipeline is built, not on the first paper."""
    have = set(given)
    for component in components:
        missing = sorted(set(component.reads) - have)
        if missing:
            raise ValueError(f"pipeline component {component.name!r} reads {', '.join(missing)}, "
                             "which nothing before it adds")
        have |= set(component.adds)
    return list(components)


def run_components(components: Sequence[Component], state: PaperState) -> ComponentsRun:
    """Run the components in order on `state`. A required component's exception propagates (the paper fails);
    an optional one's is recorded and the next component runs on what the earlier ones added. MemoryError always
    propagates: it is the parser sandbox's limit (kg.workers.sandbox), not one component's fault."""
    done = ComponentsRun()
    for component in components:
        began = time.perf_counter()
        try:
            component.step(state)
        except MemoryError:
            raise
        except Exception as exc:
            if component.required:
                raise
            done.failures.append(ComponentFailure(component.name, component.version, f"{type(exc).__name__}: {exc}"))
        finally:
            done.seconds[component.name] = time.perf_counter() - began
    return done
