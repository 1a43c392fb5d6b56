"""The static embeddings' arithmetic: Zipf weights from the vocabulary order, normalised sums of token rows."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from kg.embeddings import Embedder, token_weights


class _Tokenizer:
    """Whitespace tokens looked up in a tiny vocabulary (unknown words are id 0; id 3 is [CLS], 4 is [SEP])."""

    def __init__(self, vocab: dict[str, int]):
        self.vocab = vocab

    def encode(self, text: str, add_special_tokens: bool = True):
        ids = [self.vocab.get(w, 0) for w in text.split()]
        return SimpleNamespace(ids=[3, *ids, 4] if add_special_tokens else ids)


def test_weights_rank_tokens_after_the_special_tokens_and_single_characters():
    vocab = {"[PAD]": 0, "[unused0]": 1, "a": 2, "!": 3, "the": 4, "of": 5, "##s": 6, "graph": 7}
    weights = token_weights(vocab)
    assert np.allclose(weights, np.log([2, 2, 2, 2, 2, 3, 4, 5]))  # the -> rank 1, of -> 2, ...


def test_a_text_is_the_normalised_sum_of_its_token_rows_and_never_the_zero_vector():
    table = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0], [1.0, 1.0], [1.0, -2.0]], dtype=np.float32)
    embedder = Embedder(tokenizer=_Tokenizer({"x": 1, "y": 2}), table=table, version="t@1")
    assert embedder.dim == 2
    x, xy, yy, nothing = embedder.embed(["x", "x y", "y y", ""])
    assert np.allclose(x, [1, 0]) and np.allclose(xy, [0.6, 0.8]) and np.allclose(yy, [0, 1])
    assert np.allclose(nothing, [2 / 5 ** 0.5, -1 / 5 ** 0.5]) and embedder.embed([]) == []  # [CLS] + [SEP]
