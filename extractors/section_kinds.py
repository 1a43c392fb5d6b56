"""Section kinds (Introduction, Method, ...) from heading text: exact and leading-phrase matches
against a synonym table, then rapidfuzz; a section that matches nothing takes its parent's kind."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

import yaml
from rapidfuzz import fuzz, process

from extractors.model import Section

_FUZZY_MIN = 88.0
_LETTER = re.compile(r"^[A-Z](\.\d+)*$")


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, str], dict[str, str]]:
    """phrase -> kind, kind -> core kind."""
    data = yaml.safe_load(resources.files("extractors").joinpath("data/section_kinds.yaml").read_text())
    phrases = {name: kind for kind, entry in data.items() for name in entry["names"]}
    return phrases, {kind: entry["core"] for kind, entry in data.items()}


def _clean(title: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", title.lower()).split())


def heading_kind(title: str) -> str | None:
    """The kind a heading text names exactly ('Related Work'), without leading-phrase or fuzzy matches."""
    return _table()[0].get(_clean(title))


def classify_title(title: str) -> tuple[str, float] | None:
    """(kind, confidence) for a heading text, or None when nothing matches."""
    phrases, _ = _table()
    text = _clean(title)
    if (exact := heading_kind(title)) is not None:
        return exact, 1.0
    for phrase, kind in sorted(phrases.items(), key=lambda kv: -len(kv[0])):
        if text.startswith(phrase + " ") or text.endswith(" " + phrase):
            return kind, 0.8
    best = process.extractOne(text, phrases.keys(), scorer=fuzz.ratio, score_cutoff=_FUZZY_MIN)
    if best:
        return phrases[best[0]], round(best[1] / 100 * 0.9, 3)
    return None


def assign_kinds(sections: list[Section]) -> list[Section]:
    """Each section with kind, core_kind and confidence; sections after a printed References heading whose number
    is a letter (A, B.1) or that sit under an Appendix heading are appendix material. A bibliography without a
    heading may stand before the paper's own sections (Nature sets its list before the Methods)."""
    _, cores = _table()
    by_id: dict[str, Section] = {}
    out: list[Section] = []
    after_refs = False
    for s in sections:
        found = classify_title(s.title)
        parent = by_id.get(s.parent_id) if s.parent_id else None
        if found is not None and not (after_refs and found[0] not in ("Acknowledgments", "References", "Appendix")):
            kind, confidence = found
        elif after_refs and (s.number is None or _LETTER.match(s.number) or parent is None):
            kind, confidence = "Appendix", 0.7
        elif parent is not None:
            kind, confidence = parent.kind, round(parent.kind_confidence * 0.8, 3)
        else:
            kind, confidence = "Other", 0.0
        after_refs = after_refs or kind == "References" and s.printed  # a list set before a paper's Methods (Nature)
        if parent is not None and parent.kind == "Appendix":
            kind = "Appendix" if found is None else kind
        core = cores.get(kind, "body")
        if kind == "Other" and parent is not None:
            core = parent.core_kind
        section = s.model_copy(update={"kind": kind, "core_kind": core, "kind_confidence": confidence})
        by_id[s.id] = section
        out.append(section)
    return out
