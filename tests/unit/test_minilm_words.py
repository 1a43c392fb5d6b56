"""The tagger's frozen word features: the windows text is encoded in, and that each spaCy token gets its own
wordpieces' states whatever else shares its batch (the shipped MiniLM model, as ingestion runs it)."""

from __future__ import annotations

import numpy as np
import pytest
import spacy

from extractors.semantic import minilm_words
from extractors.semantic.minilm_words import WINDOW, windows, word_features


def test_windows_end_at_sentence_ends_and_are_cut_at_the_window_size():
    words = ["We", "parse", "text", ".", "It", "works", "!", "Then"]
    assert windows(words) == [(0, 4), (4, 7), (7, 8)]
    long = ["word"] * (WINDOW * 2 + 5)
    assert windows(long) == [(0, WINDOW), (WINDOW, 2 * WINDOW), (2 * WINDOW, 2 * WINDOW + 5)]
    assert windows([]) == []


def test_a_word_gets_its_own_wordpieces_states_whatever_shares_its_batch():
    sentence = ["Transformers", "tokenize", "unbelievably", "long", "words", "."]
    alone = word_features(sentence, (3, 6))
    longer = ["A", "much", "longer", "sentence", "shares", "the", "batch", "and", "pads", "the", "first", "."]
    together = word_features(longer + sentence, (3, 6))
    assert alone.shape == (6, 768) and np.abs(alone).sum(axis=1).min() > 0
    assert np.allclose(together[len(longer):], alone, atol=1e-4)
    # the same word in another sentence reads differently: the features are contextual
    other = word_features(["Old", "words", "."], (3, 6))
    assert not np.allclose(other[1], alone[4], atol=1e-2)


def test_the_spacy_layer_gives_one_row_per_token_and_no_gradient():
    model = minilm_words.frozen_words([6])
    docs = [spacy.blank("en")("A span categorizer reads these rows."), spacy.blank("en")("")]
    rows, backprop = model.begin_update(docs)
    assert [r.shape for r in rows] == [(7, 384), (0, 384)]
    assert backprop(rows) == []


def test_training_encodes_a_text_once_and_inference_every_time(monkeypatch):
    calls = []

    def counted(words, layers):
        calls.append(tuple(words))
        return np.ones((len(words), 384 * len(layers)), np.float32)

    monkeypatch.setattr(minilm_words, "word_features", counted)
    model = minilm_words.frozen_words([3, 6])
    doc = spacy.blank("en")("Frozen features are kept in training.")
    model.begin_update([doc])
    model.begin_update([doc])
    assert len(calls) == 1
    model.predict([doc])
    model.predict([doc])
    assert len(calls) == 3
    assert not model.attrs  # nothing of the kept features goes into the saved pipeline


@pytest.mark.parametrize("window_depth", [0, 1])
def test_the_registered_architecture_projects_the_features_to_its_width(window_depth):
    model = minilm_words.minilm_words([3, 6], 32, lexical_width=8, window_depth=window_depth)
    docs = [spacy.blank("en")("Projected rows, one per token.")]
    model.initialize(X=docs)
    rows = model.predict(docs)
    assert [r.shape for r in rows] == [(7, 32)]  # "Projected", "rows", ",", "one", "per", "token", "."


def test_the_word_form_features_tell_what_the_uncased_encoder_cannot():
    """all-MiniLM-L6-v2 lower-cases its input, so 'BLEU' and 'bleu' get the same frozen states; the hash embeddings
    of the word's shape tell them apart."""
    nlp = spacy.blank("en")
    upper, lower = nlp("We report BLEU ."), nlp("We report bleu .")
    frozen = minilm_words.frozen_words([6])
    frozen.initialize()
    assert np.allclose(frozen.predict([upper])[0], frozen.predict([lower])[0])
    model = minilm_words.minilm_words([6], 16, lexical_width=8, window_depth=0)
    model.initialize(X=[upper, lower])
    assert not np.allclose(model.predict([upper])[0][2], model.predict([lower])[0][2])


def test_a_run_of_punctuation_is_read_in_bounded_batches():
    """A dot leader is one spaCy token but a wordpiece per dot: its window is cut at MAX_PIECES and batched alone,
    so memory and time stay bounded, and the words after it still get their features."""
    words = ["." * 600, "Results", "follow", "."]
    features = word_features(words, (6,))
    assert features.shape == (4, 384) and np.isfinite(features).all() and np.abs(features[1]).sum() > 0
    lengths = [(0, type("E", (), {"ids": [0] * n})()) for n in [20] * 40 + [256] * 10 + [600]]
    grouped = minilm_words.batches(lengths)
    assert [len(b) for b in grouped] == [40, 8, 3]  # 40 x 20^2 and 8 x 256^2 fit the budget of 32 x 128^2
    assert all(len(b) * min(minilm_words.MAX_PIECES, max(len(e.ids) for _, e in b)) ** 2 <= minilm_words.BATCH_BUDGET
               for b in grouped)
