"""The QA benchmark: answers of `ask` scored against the qa items of gold files by GOLD_SCHEMA.md's rules,
next to a plain baseline (BM25 over ~1000-character chunks of the page text, the best BM25 sentence of the
top three chunks), so the gain of the graph shows."""

from __future__ import annotations

import json
import re
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path


from kg.errors import ConfigurationError
from kg.qa.answer import ANSWER_CHARS
from kg.qa.text import sentences, squash, tokens

BASELINE_CHUNK_CHARS = 1000
HIT_K = 3
_QA_PUNCT = re.compile(r"[^\w\s.%+\-]|_")


def qa_norm(text: str) -> str:
    """GOLD_SCHEMA.md qa normalisation: NFKC, lower case, punctuation other than . % + - to spaces."""
    return " ".join(_QA_PUNCT.sub(" ", unicodedata.normalize("NFKC", text).lower()).split())


def answer_correct(item: dict, answer: str) -> bool:
    """The first 300 characters contain every gold answer ('all') or at least one ('any')."""
    head = qa_norm(answer[:ANSWER_CHARS])
    found = [qa_norm(a) in head for a in item["answers"]]
    return all(found) if item.get("answer_kind", "all") == "all" else any(found)


def evidence_hit(item: dict, pages: list[int | None], k: int = HIT_K) -> bool:
    return any(p in item["pages"] for p in pages[:k])


@dataclass
class Scored:
    file: str
    id: str
    question: str
    answer: str
    correct: bool
    hit: bool
    pages: list[int | None]
    intent: str = ""
    seconds: float = 0.0
    kind: str = ""  # the gold item's question type (GOLD_SCHEMA.md: numeric, list, definition, ...)


@dataclass
class Summary:
    questions: int = 0
    correct: int = 0
    hits: int = 0
    rows: list[Scored] = field(default_factory=list)

    def add(self, row: Scored) -> None:
        self.rows.append(row)
        self.questions += 1
        self.correct += row.correct
        self.hits += row.hit

    @property
    def accuracy(self) -> float:
        return self.correct / self.questions if self.questions else 0.0

    @property
    def hit_rate(self) -> float:
        return self.hits / self.questions if self.questions else 0.0

    def as_dict(self) -> dict:
        return {"questions": self.questions, "answer_accuracy": round(self.accuracy, 4),
                f"evidence_hit@{HIT_K}": round(self.hit_rate, 4), "rows": [asdict(r) for r in self.rows]}


def gold_items(gold_dir: Path) -> list[tuple[str, dict]]:
    """(PDF file name, qa item) of every gold file with qa items, in file order."""
    out = []
    for path in sorted(gold_dir.glob("*.json")):
        gold = json.loads(path.read_text())
        out += [(gold.get("file") or f"{path.stem}.pdf", item) for item in gold.get("qa", [])]
    return out


# ------------------------------------------------------------------ baseline

class Baseline:
    """BM25 over ~1000-character chunks of one PDF's page text (chunks never cross a page)."""

    def __init__(self, pdf: Path):
        try:  # the baseline's library is in the `bench` extra, not the default install
            from rank_bm25 import BM25Okapi
        except ImportError as exc:
            raise ConfigurationError("the BM25 baseline needs rank-bm25",
                                     hint="pip install -e '.[bench]' (make test does)") from exc
        from extractors.mupdf import pymupdf  # here: `kg` imports this module for every command, MuPDF only the baseline needs

        self.okapi = BM25Okapi
        self.chunks: list[tuple[int, str]] = []
        with pymupdf.open(pdf) as doc:
            for number, page in enumerate(doc, start=1):
                self.chunks += [(number, text) for text in _pieces(squash(page.get_text()))]
        self.bm25 = self.okapi([tokens(text) or [""] for _, text in self.chunks])

    def answer(self, question: str) -> tuple[str, list[int]]:
        query = tokens(question)
        scores = self.bm25.get_scores(query)
        top = sorted(range(len(self.chunks)), key=lambda i: -scores[i])[:HIT_K]
        candidates = [self.chunks[i][1][a:b] for i in top for a, b in sentences(self.chunks[i][1])]
        if not candidates:
            return "", [self.chunks[i][0] for i in top]
        sentence_scores = self.okapi([tokens(s) or [""] for s in candidates]).get_scores(query)
        best = max(range(len(candidates)), key=lambda i: sentence_scores[i])
        return candidates[best], [self.chunks[i][0] for i in top]


def _pieces(text: str) -> list[str]:
    """Cut at the last space before every BASELINE_CHUNK_CHARS characters."""
    out, start = [], 0
    while start < len(text):
        end = min(len(text), start + BASELINE_CHUNK_CHARS)
        if end < len(text):
            space = text.rfind(" ", start + 1, end)
            end = space if space > start else end
        out.append(text[start:end].strip())
        start = end
    return [p for p in out if p]


def run_baseline(corpus: Path, items: list[tuple[str, dict]]) -> Summary:
    summary, models = Summary(), {}
    for file, item in items:
        if file not in models:
            models[file] = Baseline(corpus / file)
        start = time.perf_counter()
        answer, pages = models[file].answer(item["question"])
        summary.add(Scored(file, item["id"], item["question"], answer, answer_correct(item, answer),
                           evidence_hit(item, pages), pages, "bm25", time.perf_counter() - start,
                           item.get("type", "")))
    return summary


# ------------------------------------------------------------------ the system

def run_system(ask_fn, paper_of: dict[str, str | None], items: list[tuple[str, dict]]) -> Summary:
    """`ask_fn(question, paper_id)` -> Answer for every item, scoped to the paper of its gold file; a paper
    missing from the graph answers nothing (and counts as wrong)."""
    summary = Summary()
    for file, item in items:
        paper_id = paper_of.get(file)
        start = time.perf_counter()
        result = ask_fn(item["question"], paper_id) if paper_id else None
        seconds = time.perf_counter() - start
        answer = (result.answer or "") if result else ""  # no answer (None) scores as an empty one
        pages = [e["page"] for e in result.evidence] if result else []
        summary.add(Scored(file, item["id"], item["question"], answer, answer_correct(item, answer),
                           evidence_hit(item, pages), pages, result.intent if result else "missing", seconds,
                           item.get("type", "")))
    return summary


def by_kind(rows: list[Scored], halves: dict[str, list[str]]) -> dict[str, list[Scored]]:
    """The rows of each question type ('type numeric'), and of each type within each half of the papers
    ('dev: type numeric'; `halves` maps a half to its file stems): a reader rule that helps one type on the dev
    papers alone shows as a gap between the halves."""
    out: dict[str, list[Scored]] = {}
    for row in rows:
        out.setdefault(f"type {row.kind or 'unknown'}", []).append(row)
    for half, stems in halves.items():
        for row in rows:
            if Path(row.file).stem in stems:
                out.setdefault(f"{half}: type {row.kind or 'unknown'}", []).append(row)
    return dict(sorted(out.items()))
