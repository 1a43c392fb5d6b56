"""The graph elements that cross module boundaries: what extractors propose, the validator checks,
the writer stores and the exporter reads back. Labels and types are plain strings; the schema decides."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class NodeRecord:
    label: str
    id: str
    props: dict[str, Any] = field(default_factory=dict)  # everything but id, provenance included


@dataclass(frozen=True)
class EdgeRecord:
    type: str
    source_label: str
    source_id: str
    target_label: str
    target_id: str
    props: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        """An edge is one per (source, type, target): the writer MERGEs on exactly this."""
        return (self.source_id, self.type, self.target_id)
