"""Head nouns of metric names learned from annotated training data (SciERC train, SciREX's training documents),
so that a metric is recognised by how such names are built ("hazard ratio", "disk efficiency", "total system
cost") rather than only by a hand-written list of the names some papers use.

A mention's head is its last token. A word is a metric head when it is written in lower case (acronyms are
names, not heads), heads metric mentions in at least MIN_DOCUMENTS training documents and heads metric
mentions in at least SHARE of the documents where it heads any typed mention: "accuracy" and "cost" qualify,
"model" (a method's head) and "data" (a material's) do not. Pure functions; `kg train heads` writes the result
to extractors/data/lexicons/learned_heads.yaml, which lexicons.py reads.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator

METRIC_TYPE = "Metric"
MIN_DOCUMENTS = 5
SHARE = 0.75
_MIN_LENGTH = 4  # shorter lower-case heads are mostly spelled-out acronyms ('map', 'ap') or function words


def scierc_heads(records: Iterable[dict]) -> Iterator[tuple[str, str, str]]:
    """(document, type, head token) of every SciERC mention (inclusive token ends, document-level indices)."""
    for record in records:
        tokens = [t for sentence in record["sentences"] for t in sentence]
        for sentence in record["ner"]:
            for _start, end, label in sentence:
                yield f"scierc:{record['doc_key']}", label, tokens[end]


def scirex_heads(documents: Iterable[dict]) -> Iterator[tuple[str, str, str]]:
    """(document, type, head token) of every SciREX mention (exclusive token ends)."""
    for doc in documents:
        for _start, end, label in doc["ner"]:
            yield f"scirex:{doc['doc_id']}", label, doc["words"][end - 1]


def learn_heads(mentions: Iterable[tuple[str, str, str]], label: str = METRIC_TYPE,
                min_documents: int = MIN_DOCUMENTS, share: float = SHARE) -> list[str]:
    """The words that head mentions of `label` in at least `min_documents` documents and in at least `share`
    of the documents where they head any mention, sorted."""
    documents: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for doc, kind, head in mentions:
        if head.isalpha() and head.islower() and len(head) >= _MIN_LENGTH:
            documents[head][kind].add(doc)
    out = []
    for head, by_kind in documents.items():
        typed = len(by_kind.get(label, ()))
        anywhere = len(set().union(*by_kind.values()))
        if typed >= min_documents and typed >= share * anywhere:
            out.append(head)
    return sorted(out)
