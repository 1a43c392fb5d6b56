"""A layer of the document: elements of one kind indexed by their character span in `Document.text`.

The document answers "which chunk holds this offset?" or "which mentions fall in this sentence?" through a layer,
so no extractor or mapper bisects span lists of its own. Elements of one layer do not overlap (chunks of one kind,
sections, mentions), which is what makes `at` a single binary search.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Generic, Protocol, TypeVar


class Spanned(Protocol):
    def span(self) -> tuple[int, int] | None: ...


E = TypeVar("E", bound=Spanned)


class Layer(Generic[E]):
    """The elements that have a span, in order of their start (elements without one are not in the layer)."""

    def __init__(self, elements: Iterable[E]) -> None:
        placed = sorted(((s, e) for e in elements if (s := e.span()) is not None), key=lambda p: p[0][0])
        self._spans = [s for s, _ in placed]
        self._starts = [s[0] for s in self._spans]
        self._ends = [s[1] for s in self._spans]  # in order too, as the spans do not overlap
        self.elements: list[E] = [e for _, e in placed]

    def at(self, offset: int) -> E | None:
        """The element whose span holds `offset` (the last one starting at or before it, if it reaches it)."""
        i = bisect.bisect_right(self._starts, offset) - 1
        return self.elements[i] if i >= 0 and offset < self._spans[i][1] else None

    def overlapping(self, start: int, end: int) -> list[E]:
        """The elements sharing at least one character with [start, end)."""
        return self.elements[bisect.bisect_right(self._ends, start):bisect.bisect_left(self._starts, end)]
