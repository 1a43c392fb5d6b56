"""Extractive section summaries: each section's most central sentences, with their spans, page and box.

A reader or a client navigates a paper's section tree by what each section says without reading it. The summary
is the paper's own sentences, picked deterministically and locally (no model to run or trust), each at a span of
`Document.text` that can be checked against the PDF.

Centrality is weighted degree centrality (LexRank's degree variant) over TF-IDF sentence vectors: a sentence is
central when it shares the section's key terms with many of the section's other sentences. With unit vectors the
sum of one sentence's cosines to all others is its dot product with the sum of all vectors, so the ranking costs
one pass over the sentences instead of a sentence-by-sentence similarity matrix, which a long section (or a
hostile PDF) would make quadratic. The inverse document frequency is taken over the whole paper's sentences, so
words every section uses ("model", "we") weigh little and a section's own terms decide. The project's embedder
lives in kg/, above this layer; TF-IDF needs nothing beyond the text.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from extractors.model import Chunk, Section, SummarySentence
from extractors.semantic.abbreviations import split_sentences

MAX_SENTENCES = 3  # a summary's bound, whatever the section's length
SENTENCES_PER_PICK = 3  # and at most one sentence in this many of the section's: a short section is its own summary
MIN_WORDS = 6  # fewer words is a label, a formula or a heading fragment, not a sentence of prose
UNSUMMARISED = frozenset({"reference", "navigation"})  # core kinds whose text is a list, not prose
_WORD = re.compile(r"[^\W\d_][\w-]*[^\W_]|[^\W\d_]")


def _terms(text: str) -> Counter[str]:
    """Lower-case words of three letters or more; numbers and one- or two-letter words carry no topic."""
    return Counter(w for w in _WORD.findall(text.lower()) if len(w) >= 3)


def _sentences(chunk: Chunk) -> list[tuple[int, int, str]]:
    """(start, end, text) of the prose sentences of a text chunk, with spans into Document.text."""
    out = []
    for start, end in split_sentences(chunk.text):
        piece = chunk.text[start:end]
        lead = len(piece) - len(piece.lstrip())
        piece = piece.strip()
        if len(piece.split()) >= MIN_WORDS and any(c.isalpha() for c in piece):
            out.append((chunk.char_start + start + lead, chunk.char_start + start + lead + len(piece), piece))
    return out


def _vector(counts: Counter[str], idf: dict[str, float]) -> dict[str, float]:
    """Sublinear TF-IDF, unit length (empty when every term is in every sentence of the paper)."""
    weights = {t: (1 + math.log(n)) * idf[t] for t, n in counts.items() if idf[t] > 0}
    norm = math.sqrt(sum(w * w for w in weights.values()))
    return {t: w / norm for t, w in weights.items()} if norm else {}


def _place(chunk: Chunk, start: int) -> tuple[int, tuple[float, float, float, float]]:
    """The page and box (the chunk's region on that page and column) where the sentence at `start` begins."""
    box = chunk.box_at(start)
    return (box.page, box.bbox) if box else (chunk.page_start, (0.0, 0.0, 0.0, 0.0))


def summarize_sections(sections: list[Section], chunks: list[Chunk],
                       max_sentences: int = MAX_SENTENCES) -> list[Section]:
    """The sections with their `summary`: at most `max_sentences` of their most central prose sentences (and at
    most one in SENTENCES_PER_PICK), in reading order. A sentence sharing no weighed term with the rest of its
    section is not central to it, so it is never picked; when no sentence shares any (a one-sentence section),
    the first sentence, which usually says what the section is about, stands for the section. A section
    without prose of its own (a heading directly followed by a subsection, a bibliography) gets none. Ties go to
    the earlier sentence, so the result is deterministic."""
    by_section: dict[str, list[tuple[int, int, str, Chunk]]] = {}
    for chunk in chunks:
        if chunk.kind == "text" and chunk.section_id:
            by_section.setdefault(chunk.section_id, []).extend((*s, chunk) for s in _sentences(chunk))
    kept = {s.id for s in sections if s.core_kind not in UNSUMMARISED}
    counts = {sid: [_terms(text) for _, _, text, _ in found] for sid, found in by_section.items() if sid in kept}
    total = sum(len(c) for c in counts.values())
    frequency = Counter(t for section in counts.values() for c in section for t in c)
    idf = {t: math.log((1 + total) / (1 + n)) for t, n in frequency.items()}
    out = []
    for section in sections:
        found = by_section.get(section.id, []) if section.id in kept else []
        if not found:
            out.append(section)
            continue
        vectors = [_vector(c, idf) for c in counts[section.id]]
        centroid: Counter[str] = Counter()
        for v in vectors:
            centroid.update(v)
        # each sentence's summed similarity to the others (its own, 1 or 0, taken out)
        scores = [sum(w * centroid[t] for t, w in v.items()) - (1.0 if v else 0.0) for v in vectors]
        size = min(max_sentences, math.ceil(len(found) / SENTENCES_PER_PICK))
        ranked = [i for i in sorted(range(len(found)), key=lambda i: (-scores[i], i)) if scores[i] > 1e-9]
        picked = sorted(ranked[:size]) or [0]
        summary = []
        for i in picked:
            start, end, text, chunk = found[i]
            page, bbox = _place(chunk, start)
            summary.append(SummarySentence(text=text, char_start=start, char_end=end, page=page, bbox=bbox))
        out.append(section.model_copy(update={"summary": summary}))
    return out
