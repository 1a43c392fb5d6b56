"""SciERC records (dygiepp/SciIE JSON Lines) as spaCy Docs with typed entity spans: the training and evaluation
data of the mention tagger (tagger.py).

A record is one abstract: `sentences` (lists of PTB tokens) and `ner` (per sentence, [start, end, type] with
document-level token indices and inclusive ends). PTB bracket tokens ("-LRB-") become the characters a PDF prints,
so the tagger learns from the tokens it will see at run time. Pure functions of the records and a Vocab.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Doc, DocBin
    from spacy.vocab import Vocab

SPANS_KEY = "sc"  # the span group the tagger's span categorizer reads and writes (its config's spans_key)
LABELS = ("Task", "Method", "Metric", "Material", "OtherScientificTerm", "Generic")
_PTB = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}", "``": '"', "''": '"'}
_NO_SPACE_BEFORE = {",", ".", ";", ":", ")", "]", "}", "%", "?", "!", "'s", "n't"}
_NO_SPACE_AFTER = {"(", "[", "{"}


class SciERCFormatError(ValueError):
    """A record that is not SciERC: the message names the record and what is wrong with it."""


def words_of(tokens: list[str]) -> tuple[list[str], list[bool]]:
    """The tokens as printed text (brackets restored) and whether a space follows each, as spaCy's Doc wants."""
    words = [_PTB.get(t, t) for t in tokens]
    spaces = [i + 1 < len(words) and words[i + 1] not in _NO_SPACE_BEFORE and w not in _NO_SPACE_AFTER
              for i, w in enumerate(words)]
    return words, spaces


def record_to_doc(record: dict, vocab: Vocab, labels: Iterable[str] = LABELS) -> Doc:
    """One abstract as one Doc with its sentence starts and its mentions of `labels` (others are left out) as the
    span group SPANS_KEY, which the span categorizer learns from; nested mentions (84 of 8,094) included."""
    from spacy.tokens import Doc, Span

    key = record.get("doc_key", "?")
    try:
        sentences, ner = record["sentences"], record["ner"]
    except KeyError as exc:
        raise SciERCFormatError(f"SciERC record {key}: no {exc.args[0]!r}") from None
    if len(ner) != len(sentences):
        raise SciERCFormatError(f"SciERC record {key}: {len(sentences)} sentences but {len(ner)} NER lists")
    tokens = [t for s in sentences for t in s]
    words, spaces = words_of(tokens)
    starts = [False] * len(words)
    offset = 0
    for s in sentences:
        if s:
            starts[offset] = True
        offset += len(s)
    doc = Doc(vocab, words=words, spaces=spaces, sent_starts=starts)
    wanted = set(labels)
    spans = []
    for start, end, label in (m for sentence in ner for m in sentence):
        if not 0 <= start <= end < len(words):
            raise SciERCFormatError(f"SciERC record {key}: span [{start}, {end}] outside its {len(words)} tokens")
        if label in wanted:
            spans.append(Span(doc, start, end + 1, label=label))
    doc.spans[SPANS_KEY] = spans
    return doc


def read_records(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as handle:
        for n, line in enumerate(handle, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise SciERCFormatError(f"{path}:{n}: not JSON ({exc.msg})") from None


def to_docbin(records: Iterable[dict], labels: Iterable[str] = LABELS) -> DocBin:
    """The records as a DocBin, the format `spacy train` reads."""
    import spacy
    from spacy.tokens import DocBin

    vocab = spacy.blank("en").vocab
    labels = tuple(labels)
    return DocBin(docs=(record_to_doc(r, vocab, labels) for r in records), store_user_data=False)
