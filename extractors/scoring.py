"""Scoring of structure predictions against gold files, exactly as /work/shared/GOLD_SCHEMA.md says.

Pure functions over the gold JSON and the prediction JSON (the `kg parse --format eval` line).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field

_NUMBERING = re.compile(r"^(?:(?:\d+|[a-z]|[ivxlc]+)(?:\.\d+)*\.?)(?:\s+|$)")
_PUNCT = re.compile(r"[^\w\s]|_")
_LABEL_WORD = re.compile(r"^(figure|fig|table|tab|equation|eq|algorithm)\.?\s*", re.I)


def norm(text: str | None) -> str:
    """NFKC, lower case, leading numbering removed, punctuation to spaces, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text or "").lower().strip()
    text = _NUMBERING.sub("", text)
    return " ".join(_PUNCT.sub(" ", text).split())


def similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def norm_label(label: str | None) -> str:
    """"Figure 3" == "3" == "(3)"."""
    text = _LABEL_WORD.sub("", unicodedata.normalize("NFKC", label or "").strip())
    return text.strip("()[] .:").lower()


def match(gold: list[str], pred: list[str], threshold: float) -> list[tuple[int, int]]:
    """One-to-one pairs (gold index, pred index) with similarity >= threshold, best pairs first."""
    pairs = []
    for i, g in enumerate(gold):
        for j, p in enumerate(pred):
            if g == p:
                pairs.append((1.0, i, j))
            elif abs(len(g) - len(p)) <= (1 - threshold) * (len(g) + len(p)) + 1:
                s = similarity(g, p)
                if s >= threshold:
                    pairs.append((s, i, j))
    pairs.sort(key=lambda t: (-t[0], t[1], t[2]))
    used_g: set[int] = set()
    used_p: set[int] = set()
    out = []
    for _, i, j in pairs:
        if i not in used_g and j not in used_p:
            used_g.add(i)
            used_p.add(j)
            out.append((i, j))
    return out


@dataclass
class Counts:
    """Matches and sizes for one category; `extra` counts per-pair properties (level, page, caption)."""

    matched: int = 0
    predicted: int = 0
    gold: int = 0
    extra: dict[str, int] = field(default_factory=dict)

    def add(self, other: Counts) -> None:
        self.matched += other.matched
        self.predicted += other.predicted
        self.gold += other.gold
        for key, value in other.extra.items():
            self.extra[key] = self.extra.get(key, 0) + value

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else (1.0 if not self.gold else 0.0)

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def rate(self, key: str) -> float:
        """Share of matched pairs with property `key` correct."""
        return self.extra.get(key, 0) / self.matched if self.matched else 0.0


def score_sections(gold: list[dict], pred: list[dict]) -> Counts:
    pairs = match([norm(s["title"]) for s in gold], [norm(s["title"]) for s in pred], 0.88)
    level = sum(1 for i, j in pairs if gold[i].get("level") == pred[j].get("level"))
    page = sum(1 for i, j in pairs if gold[i].get("page") == pred[j].get("page"))
    return Counts(len(pairs), len(pred), len(gold), {"level": level, "page": page})


def score_floats(gold: list[dict], pred: list[dict]) -> Counts:
    """Figures, tables or numbered equations: matched by label, then page and caption checked."""
    free = {}
    for j, p in enumerate(pred):
        free.setdefault(norm_label(p.get("label")), []).append(j)
    page = caption = matched = 0
    for g in gold:
        candidates = free.get(norm_label(g.get("label")))
        if not candidates:
            continue
        p = pred[candidates.pop(0)]
        matched += 1
        page += int(g.get("page") == p.get("page"))
        if "caption_start" in g:
            start = norm(g["caption_start"])
            caption += int(similarity(start, norm(p.get("caption"))[:len(start)]) >= 0.8)
    extra = {"page": page} | ({"caption": caption} if gold and "caption_start" in gold[0] else {})
    return Counts(matched, len(pred), len(gold), extra)


def score_authors(gold: list[str], pred: list[str]) -> Counts:
    pairs = match([norm(a) for a in gold], [norm(a) for a in pred], 0.9)
    return Counts(len(pairs), len(pred), len(gold))


def title_correct(gold: str, pred: str | None) -> bool:
    return bool(pred) and similarity(norm(gold), norm(pred)) >= 0.95


def abstract_correct(gold: dict, pred: str | None) -> bool:
    text = norm(pred)
    return bool(text) and norm(gold["start"]) in text and norm(gold["end"]) in text


def references_correct(gold: int, pred: int | None) -> bool:
    return pred is not None and abs(pred - gold) <= max(1, 0.05 * gold)


def score_paper(gold: dict, pred: dict) -> dict[str, Counts]:
    """Every structure category for one paper; a missing key in `pred` scores as empty. The publication year is
    scored only when `gold` has one (None: the paper prints none, and None is the right answer)."""
    def flag(ok: bool) -> Counts:
        return Counts(int(ok), 1, 1)

    scores = {
        "sections": score_sections(gold.get("sections", []), pred.get("sections", [])),
        "figures": score_floats(gold.get("figures", []), pred.get("figures", [])),
        "tables": score_floats(gold.get("tables", []), pred.get("tables", [])),
        "equations": score_floats(gold.get("equations", {}).get("numbered", []), pred.get("equations", [])),
        "title": flag(title_correct(gold["title"], pred.get("title"))),
        "authors": score_authors(gold.get("authors", []), pred.get("authors", [])),
        "abstract": flag(abstract_correct(gold["abstract"], pred.get("abstract"))),
        "references": flag(references_correct(gold["references_count"], pred.get("references_count"))),
    }
    if "year" in gold:
        scores["year"] = flag("year" in pred and pred["year"] == gold["year"])
    return scores


def aggregate(papers: list[dict[str, Counts]]) -> dict[str, Counts]:
    """Micro-averaged totals over papers."""
    total: dict[str, Counts] = {}
    for paper in papers:
        for key, counts in paper.items():
            total.setdefault(key, Counts()).add(counts)
    return total
