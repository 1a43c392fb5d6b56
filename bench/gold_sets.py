"""Which gold papers a figure is reported over: the dev half and the held-out half, and families by layout and
domain, so a benchmark shows when a gain on the papers rules were written against does not carry over.

The split is a fixed rule on the file name (SHA-256 of the stem, even -> dev, odd -> held-out), chosen once, so a
paper added to the gold later falls into a half without anyone choosing, and nobody can move a paper between
halves to flatter a figure. Tune on `dev`; read `held-out` only to report.

Families come from the corpus's MANIFEST.tsv (`notes`: `domain=NLP/IE; layout~2-col; ...`). Domains are coarsened
to a few groups so that each group holds several papers.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

DEV, HELD_OUT = "dev", "held-out"
# Distinct names: the groups of all kinds share one table of figures, where one "unknown" would hide the other.
UNKNOWN_LAYOUT, UNKNOWN_DOMAIN = "layout unknown", "domain unknown"
# Top-level MANIFEST domains -> report groups; anything else is "other".
_DOMAIN_GROUPS = {"NLP": "ML/NLP/CV", "ML": "ML/NLP/CV", "CV": "ML/NLP/CV", "CS": "CS other",
                  "HCI": "CS other", "biomed": "biomedical", "biomed text mining": "biomedical",
                  "physics": "physics"}
_NOTE = re.compile(r"(?P<key>domain|layout)[=~](?P<value>[^;]+)")

T = TypeVar("T")


def split_of(stem: str) -> str:
    """The half a gold paper (by its file stem) belongs to, by the fixed rule of this module's docstring; the
    search benchmark splits its judged queries by the same rule on their text."""
    return DEV if int(hashlib.sha256(stem.encode()).hexdigest(), 16) % 2 == 0 else HELD_OUT


@dataclass(frozen=True)
class Family:
    layout: str  # "1-col", "2-col", ... or UNKNOWN_LAYOUT
    domain: str  # a group of _DOMAIN_GROUPS, "other" or UNKNOWN_DOMAIN


def row_notes(row: Mapping[str, str]) -> str:
    """A MANIFEST.tsv row's notes (`domain=NLP/IE; layout~2-col; ...`): its `notes` column (the corpus's), or its
    `domain` and `layout` columns written as notes (bench/unseen's: `domain=CS/systems (OSDI 2006)`, `2-col`)."""
    return row.get("notes") or "; ".join(
        [row.get("domain") or "", f"layout~{row['layout']}" if row.get("layout") else ""])


def families(manifest: Path) -> dict[str, Family]:
    """Layout and domain group per file stem, from a MANIFEST.tsv's notes (row_notes); {} if there is none."""
    if not manifest.is_file():
        return {}
    found = {}
    with manifest.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            notes = {m["key"]: m["value"].strip() for m in _NOTE.finditer(row_notes(row))}
            domain = notes.get("domain")
            group = UNKNOWN_DOMAIN if domain is None else _DOMAIN_GROUPS.get(domain.split("/")[0].strip(), "other")
            found[Path(row["file"]).stem] = Family(layout=notes.get("layout", UNKNOWN_LAYOUT), domain=group)
    return found


def groups(stems: Iterable[str], manifest: Path) -> dict[str, dict[str, list[str]]]:
    """Subsets of `stems` by kind ("split", "layout", "domain") and name, e.g. groups[...]["split"]["dev"]; only
    groups with at least one paper. A stem missing from the manifest has UNKNOWN_LAYOUT and UNKNOWN_DOMAIN."""
    family = families(manifest)
    unknown = Family(UNKNOWN_LAYOUT, UNKNOWN_DOMAIN)
    named: dict[str, dict[str, list[str]]] = {"split": {DEV: [], HELD_OUT: []}, "layout": {}, "domain": {}}
    for stem in stems:
        f = family.get(stem, unknown)
        for kind, name in (("split", split_of(stem)), ("layout", f.layout), ("domain", f.domain)):
            named[kind].setdefault(name, []).append(stem)
    return {kind: {name: members for name, members in by_name.items() if members} for kind, by_name in named.items()}


def leave_one_out(named: Mapping[str, list[str]], stems: Iterable[str]) -> dict[str, list[str]]:
    """For each group, the stems outside it ("without NAME"): a figure that drops sharply when one family is left
    out says the figure leans on that family. With a single group there is nothing outside it: no entry."""
    stems = list(stems)
    outside = {f"without {name}": [s for s in stems if s not in set(members)] for name, members in named.items()}
    return {name: rest for name, rest in outside.items() if rest}


def report_groups(stems: Iterable[str], manifest: Path) -> dict[str, list[str]]:
    """The groups every gold benchmark reports, in order: both halves, each layout, each domain, and each domain
    left out once (layouts are two families, each the other's complement, so leaving one out adds nothing)."""
    stems = list(stems)
    kinds = groups(stems, manifest)
    return kinds["split"] | kinds["layout"] | kinds["domain"] | leave_one_out(kinds["domain"], stems)


def per_group(per_paper: Mapping[str, T], named: Mapping[str, list[str]],
              combine: Callable[[list[T]], object]) -> dict[str, object]:
    """`combine` (e.g. a micro-average) applied to each group's papers that have a score."""
    return {name: combine([per_paper[s] for s in members if s in per_paper]) for name, members in named.items()}
