"""Frozen word features for the mention tagger: each spaCy token's mean hidden state in chosen layers of the
all-MiniLM-L6-v2 encoder the embeddings already ship (extractors/encoder.py, numpy, no torch).

The tagger learns from SciERC's 350 abstracts. Trained from scratch on so little text, a tok2vec knows the
words it saw and little else (typed mention F1 0.430 on SciERC test); a pretrained encoder brings what it learned
of English from far more text, and its contextual states tell "a parser" (a method) from "the parse" (an output).
The encoder stays frozen: fine-tuning it would mean torch and shipping a second 90 MB model; hash embeddings of
the words' forms, a projection, a window layer and spaCy's span categorizer are trained on top of it instead.
Registered as the spaCy architecture `paperkg.MiniLMWords.v2`, so the committed training config (extractors/data/tagger.cfg) names it and `spacy.load`
rebuilds it; importing this module registers it. The encoder's weights come from the installed model package, not
from the pipeline's folder.

Text is encoded a window at a time (a sentence, cut at WINDOW tokens), as the abstracts' sentences were in
training; padded windows share a batch with an attention mask.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from spacy.ml.models import MaxoutWindowEncoder, MultiHashEmbed
from spacy.util import registry
from thinc.api import Maxout, Model, chain, concatenate, with_array

from ontology.errors import PaperKGError

if TYPE_CHECKING:
    from spacy.tokens import Doc
    from tokenizers import Tokenizer

    from extractors.encoder import BertEncoder

HIDDEN = 384  # the width of all-MiniLM-L6-v2's states, known before the encoder is loaded (spaCy sizes layers first)
WINDOW = 96  # tokens per encoded window; SciERC sentences average 25, and the model reads at most 512 wordpieces
MAX_PIECES = 256  # wordpieces read per window (the model takes 512); the rest of a window gets zeros
# A batch holds windows while rows x length^2 (the size of its attention scores per head) stays within this: 32
# sentences of 128 pieces, or 8 windows of 256 (a run of punctuation splits into a piece per character)
BATCH_BUDGET = 32 * 128 * 128
_SENTENCE_END = re.compile(r"[.?!]$")


@lru_cache(maxsize=1)
def encoder() -> tuple[Tokenizer, BertEncoder]:
    """The model package's tokenizer and encoder, loaded once per process (about a second)."""
    from extractors import encoder as bert

    try:
        path = bert.model_path()
    except ImportError:
        raise PaperKGError(f"the mention tagger needs the {bert.MODEL_PACKAGE} model package, which is not installed",
                           hint="run `make install`, or set PAPERKG_SEMANTIC_TAGGER=false") from None
    return bert.load_tokenizer(path), bert.BertEncoder.load(path)


def windows(words: list[str]) -> list[tuple[int, int]]:
    """[start, end) token ranges: sentences (ended by ".", "?" or "!"), each cut into pieces of at most WINDOW."""
    out, start = [], 0
    for i, word in enumerate(words):
        if _SENTENCE_END.search(word) or i - start + 1 == WINDOW or i == len(words) - 1:
            out.append((start, i + 1))
            start = i + 1
    return out


def word_features(words: list[str], layers: tuple[int, ...]) -> np.ndarray:
    """(len(words), HIDDEN * len(layers)) float32: per word, the mean of its wordpieces' states in each of
    `layers` (0: the embeddings, 1-6: the transformer layers), side by side. A word the tokenizer gives no
    wordpiece (a lone control character), or one past its window's MAX_PIECES, gets zeros."""
    tokenizer, bert = encoder()
    out = np.zeros((len(words), HIDDEN * len(layers)), np.float32)
    encodings = [(start, tokenizer.encode(words[start:end], is_pretokenized=True)) for start, end in windows(words)]
    encodings.sort(key=lambda item: len(item[1].ids))  # similar lengths together: less padding
    for batch in batches(encodings):
        length = min(MAX_PIECES, max(len(e.ids) for _, e in batch))
        ids = np.zeros((len(batch), length), np.int64)
        mask = np.zeros((len(batch), length), np.float32)
        for row, (_, e) in enumerate(batch):
            n = min(length, len(e.ids))
            ids[row, :n], mask[row, :n] = e.ids[:n], 1.0
        states = bert.hidden_states(ids, mask)
        chosen = np.concatenate([states[layer] for layer in layers], axis=-1)
        for row, (start, e) in enumerate(batch):
            pieces = [(p, w) for p, w in enumerate(e.word_ids[:length]) if w is not None]
            if not pieces:
                continue
            positions = np.array([p for p, _ in pieces])
            targets = np.array([w for _, w in pieces])  # the word's index within its window
            size = int(targets.max()) + 1
            sums = np.zeros((size, chosen.shape[-1]), np.float32)
            np.add.at(sums, targets, chosen[row, positions])
            counts = np.bincount(targets, minlength=size)
            seen = np.nonzero(counts)[0]
            out[start + seen] = sums[seen] / counts[seen, None]
    return out


def batches(encodings: list) -> list[list]:
    """Consecutive runs of the (sorted) encodings whose padded attention stays within BATCH_BUDGET, so memory and
    time per batch are bounded whatever the text."""
    out: list[list] = []
    for item in encodings:
        length = min(MAX_PIECES, len(item[1].ids))
        if out and (len(out[-1]) + 1) * length * length <= BATCH_BUDGET:
            out[-1].append(item)
        else:
            out.append([item])
    return out


@registry.architectures("paperkg.MiniLMWords.v2")
def minilm_words(layers: list[int], width: int, lexical_width: int,
                 window_depth: int) -> Model[list[Doc], list[np.ndarray]]:
    """The tagger's token features: the frozen MiniLM states of `layers` beside trained hash embeddings of each
    word's form (`lexical_width` values from its norm, prefix, suffix and shape), projected to `width` by a Maxout
    layer, then `window_depth` layers that mix each word's vector with its neighbours'. all-MiniLM-L6-v2 is
    uncased: the form features give back what case and shape say ('BLEU', 'LSTM', 'WordNet'). The projection
    lets the task pick what it needs from the frozen values and keeps the span layers above small: they read four
    vectors per candidate span, and there are eight candidates per token."""
    lexical = MultiHashEmbed(width=lexical_width, attrs=["NORM", "PREFIX", "SUFFIX", "SHAPE"],
                             rows=[5000, 1000, 2500, 2500], include_static_vectors=False)
    model = chain(concatenate(frozen_words(layers), lexical), with_array(Maxout(nO=width, nP=2, normalize=True)))
    if window_depth:
        model = chain(model, MaxoutWindowEncoder(width=width, window_size=1, maxout_pieces=3, depth=window_depth))
    return model


def frozen_words(layers: list[int]) -> Model[list[Doc], list[np.ndarray]]:
    """A parameter-free thinc layer: docs -> per-token frozen MiniLM features (no gradient flows into it).
    In training, the features of a text are kept for the epochs that follow, since the encoder never changes;
    the kept features live in this closure, not in the model's attrs, which spaCy would save with the model."""
    chosen = tuple(layers)
    width = HIDDEN * len(chosen)
    cache: dict[tuple[str, ...], np.ndarray] = {}

    def forward(model: Model, docs: list[Doc], is_train: bool):
        out = []
        for doc in docs:
            words = [t.text for t in doc]
            features = cache.get(tuple(words)) if is_train else None
            if features is None:
                features = word_features(words, chosen) if words else np.zeros((0, width), np.float32)
                if is_train:  # training reads the same few hundred abstracts every epoch; inference keeps nothing
                    cache[tuple(words)] = features
            out.append(model.ops.asarray2f(features))
        return out, lambda d_out: []

    return Model("minilm_words", forward, dims={"nO": width})
