"""Head nouns of metric names, and method names that end in a task noun, learned from annotated training data
(SciERC train, SciREX's training documents), so that a metric is recognised by how such names are built
("hazard ratio", "disk efficiency", "total system cost") rather than only by a hand-written list of the names
some papers use.

A mention's head is its last token. A word is a metric head when it is written in lower case (acronyms are
names, not heads), heads metric mentions in at least MIN_DOCUMENTS training documents and heads metric
mentions in at least SHARE of the documents where it heads any typed mention: "accuracy" and "cost" qualify,
"model" (a method's head) and "data" (a material's) do not.

The same data says which phrases ending in a task noun name methods ('beam search', 'logistic regression',
'batch normalization'), which the task patterns would otherwise emit as tasks. Pure functions; `kg train heads`
writes both lists to extractors/data/lexicons/learned_heads.yaml, which lexicons.py reads.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator

METRIC_TYPE, METHOD_TYPE = "Metric", "Method"
MIN_DOCUMENTS = 5
METHOD_PHRASE_DOCUMENTS = 2  # a whole phrase recurs far less often than a head word
SHARE = 0.75
_MIN_LENGTH = 4  # shorter lower-case heads are mostly spelled-out acronyms ('map', 'ap') or function words


def scierc_mentions(records: Iterable[dict]) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """(document, type, tokens) of every SciERC mention (inclusive token ends, document-level indices)."""
    for record in records:
        tokens = [t for sentence in record["sentences"] for t in sentence]
        for sentence in record["ner"]:
            for start, end, label in sentence:
                yield f"scierc:{record['doc_key']}", label, tuple(tokens[start:end + 1])


def scirex_mentions(documents: Iterable[dict]) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """(document, type, tokens) of every SciREX mention (exclusive token ends)."""
    for doc in documents:
        for start, end, label in doc["ner"]:
            yield f"scirex:{doc['doc_id']}", label, tuple(doc["words"][start:end])


def _documents(mentions: Iterable[tuple[str, str, str]]) -> dict[str, dict[str, set[str]]]:
    """key -> type -> the documents where a mention with that key has that type."""
    documents: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for doc, kind, key in mentions:
        documents[key][kind].add(doc)
    return documents


def _mostly(documents: dict[str, dict[str, set[str]]], label: str, min_documents: int, share: float) -> list[str]:
    """The keys typed `label` in at least `min_documents` documents and `share` of the documents they occur in."""
    out = []
    for key, by_kind in documents.items():
        typed = len(by_kind.get(label, ()))
        if typed >= min_documents and typed >= share * len(set().union(*by_kind.values())):
            out.append(key)
    return sorted(out)


def learn_heads(mentions: Iterable[tuple[str, str, tuple[str, ...]]], label: str = METRIC_TYPE,
                min_documents: int = MIN_DOCUMENTS, share: float = SHARE) -> list[str]:
    """The words that head mentions of `label` in at least `min_documents` documents and in at least `share`
    of the documents where they head any mention, sorted."""
    return _mostly(_documents((doc, kind, words[-1]) for doc, kind, words in mentions
                              if words and words[-1].isalpha() and words[-1].islower() and len(words[-1]) >= _MIN_LENGTH),
                   label, min_documents, share)


def learn_method_phrases(mentions: Iterable[tuple[str, str, tuple[str, ...]]], task_heads: frozenset[str],
                         min_documents: int = METHOD_PHRASE_DOCUMENTS, share: float = SHARE) -> list[str]:
    """Phrases of two words or more that end in a task noun yet name a method ('beam search', 'logistic
    regression', 'principal component analysis'): lower case, typed Method in at least `min_documents`
    documents and in at least `share` of the documents that mention them."""
    phrases = ((doc, kind, " ".join(words).lower().replace(" - ", "-")) for doc, kind, words in mentions
               if len(words) >= 2 and words[-1].lower() in task_heads)
    return _mostly(_documents(phrases), METHOD_TYPE, min_documents, share)
