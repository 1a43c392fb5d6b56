"""Disjoint sets of the numbers 0, 1, 2, ... (union-find with path halving): the groups of path boxes that touch
(extractors/layout.py), of ink runs that meet on a scan (extractors/ocr_graphics.py) and of names that stand for
one entity (extractors/semantic/salience.py), found in about linear time however many a hostile page holds."""

from __future__ import annotations


class DisjointSets:
    """Each number added starts as a set of its own; `join` merges two sets, `find` names a number's set."""

    def __init__(self, count: int = 0) -> None:
        self._parent = list(range(count))

    def add(self) -> int:
        """A new number in a set of its own."""
        self._parent.append(len(self._parent))
        return len(self._parent) - 1

    def find(self, i: int) -> int:
        """The number that stands for `i`'s set (the same for every member until the set is joined to another)."""
        parent = self._parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(self, i: int, j: int) -> None:
        a, b = self.find(i), self.find(j)
        if a != b:
            self._parent[a] = b
