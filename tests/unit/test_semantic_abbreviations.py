"""Sentence spans and short-form/long-form pairs."""

from __future__ import annotations

from extractors.semantic.abbreviations import analyse, plausible, split_sentences
from extractors.semantic.passages import Passage


def test_sentences_do_not_end_at_abbreviations_or_initials():
    text = "We use BERT (Devlin et al. 2019). It helps, e.g. on SQuAD. See Fig. 3 here. J. Smith agrees.\n\nNext part"
    assert [text[s:e] for s, e in split_sentences(text)] == [
        "We use BERT (Devlin et al. 2019).", "It helps, e.g. on SQuAD.", "See Fig. 3 here.", "J. Smith agrees.",
        "Next part"]


def test_abbreviation_pairs_are_found_with_offsets():
    text = "A convolutional neural network (CNN) is used. The CNN has three layers (iii) in all."
    sentences, pairs = analyse([Passage(text, "Method")])
    assert [(p.short, p.long) for p in pairs] == [("CNN", "convolutional neural network")]
    assert text[pairs[0].start:pairs[0].end] == "convolutional neural network (CNN"
    assert len(sentences) == 2


def test_plausible_pairs():
    assert plausible("NER", "named entity recognition")
    assert not plausible("iii", "identifying open access publications, and")
    assert not plausible("position", "position embeddings")
