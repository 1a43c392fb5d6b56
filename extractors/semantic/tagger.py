"""The mention tagger: a spaCy span categorizer over frozen MiniLM word features (minilm_words.py) trained on
SciERC train (`kg train tagger`), whose Task, Method, Metric and Material mentions become cues of the family
"tagger" for salience (salience.py).

A mention found by a model trained on abstracts says "this phrase names a thing of this kind", not "the paper is
about it": so a tagger cue is weak alone and becomes an entity only with the place evidence salience adds (many
mentions, the title or abstract, a table). Its spans pass the same cleaning and validity checks as the patterns'
names, and the paper's non-entities (authors, venues, common words) filter it afterwards like any candidate.
The trained pipeline ships in the package (extractors/data/tagger; its own layers, 10 MB; the encoder is the
model package the embeddings use): training needs SciERC, which an install has not.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from extractors import encoder
from extractors.semantic.passages import FRONT, Passage
from extractors.semantic.patterns import DATASET, METHOD, METRIC, TASK, Cue, clean_name, strong_name, valid_name
from extractors.semantic.salience import Located
from extractors.semantic.scierc import SPANS_KEY
from ontology.errors import PaperKGError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Span

MODEL_DIR = Path(__file__).resolve().parents[1] / "data" / "tagger"
FAMILY = "tagger"
# SciERC's types that name what the ontology has; OtherScientificTerm and Generic ("this approach") name nothing
TYPE_OF = {"Task": TASK, "Method": METHOD, "Metric": METRIC, "Material": DATASET}
STRENGTH = 0.3  # as weak as a lexicon hit: a mention needs place evidence to become a salient entity


@lru_cache(maxsize=1)
def load(model_dir: Path = MODEL_DIR) -> Language:
    """The trained pipeline, once per process (its span categorizer and the encoder it reads: about two seconds)."""
    from extractors.semantic.nlp import spacy_module

    check_installed(model_dir)
    spacy = spacy_module()  # first: it imports spaCy with torch hidden, as every paperkg process does
    from extractors.semantic import minilm_words  # registers the architecture the pipeline's config names

    minilm_words.encoder()
    return spacy.load(model_dir)


def check_installed(model_dir: Path = MODEL_DIR) -> None:
    """A missing model, or a missing encoder package, is an install error, said before any paper is parsed, not
    as a parse worker's crash."""
    if not (model_dir / "meta.json").is_file():
        raise PaperKGError(f"no trained mention tagger in {model_dir}",
                           hint="reinstall paperkg, run `kg train tagger`, or set PAPERKG_SEMANTIC_TAGGER=false")
    if importlib.util.find_spec(encoder.MODEL_PACKAGE) is None:
        raise PaperKGError(f"the mention tagger reads word features from the {encoder.MODEL_PACKAGE} model package, "
                           "which is not installed", hint="run `make install`, or set PAPERKG_SEMANTIC_TAGGER=false")


def flat_mentions(doc: Doc) -> list[Span]:
    """The tagged spans without overlaps, in text order. The span categorizer scores every span of up to eight
    tokens and may keep nested or crossing ones ("neural parser" inside "neural parser ensemble"); a phrase names
    one thing here, so of overlapping spans the surest (then the longer) is kept, the rest dropped."""
    group = doc.spans.get(SPANS_KEY)
    if not group:
        return []
    scores = group.attrs.get("scores")
    if scores is None or len(scores) != len(group):  # a stand-in pipeline that gives no scores: all equally sure
        scores = [1.0] * len(group)
    scores = np.asarray(scores, dtype=float).reshape(len(group), -1).max(axis=1)
    taken: set[int] = set()
    kept = []
    for score, span in sorted(zip(scores, group), key=lambda p: (-p[0], p[1].start - p[1].end, p[1].start)):
        if taken.isdisjoint(range(span.start, span.end)):
            taken.update(range(span.start, span.end))
            kept.append(span)
    return sorted(kept, key=lambda span: span.start)


def tagger_cues(passages: list[Passage], nlp: Language) -> list[Located]:
    """The tagger's typed mentions in the title, the abstract and the section headings, cleaned like a pattern's
    names. It was trained on abstracts, and what a paper is about is named there; salience then counts the
    mentions of these names in the whole paper. Tagging only these keeps its cost to a few hundred words a paper."""
    indexes = [i for i, p in enumerate(passages)
               if p.kind in ("title", "heading") or p.kind == "text" and p.section_kind == FRONT]
    out = []
    for i, doc in zip(indexes, nlp.pipe((passages[i].text for i in indexes), batch_size=32)):
        for ent in flat_mentions(doc):
            kind = TYPE_OF.get(ent.label_)
            if kind is None:
                continue
            name = clean_name(ent.text, kind)
            opens = ent.start == 0 or doc[ent.start - 1].text in (".", "?", "!", ":")
            if not valid_name(name, kind) or opens and len(name.split()) == 1 and not strong_name(name):
                continue  # a capitalised word opening a sentence is not a name by itself
            start = ent.start_char + ent.text.find(name)
            out.append(Located(Cue(kind, name, 0, len(name), FAMILY, STRENGTH), i, start, start + len(name)))
    return out
