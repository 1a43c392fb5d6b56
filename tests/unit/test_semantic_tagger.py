"""The mention tagger as a source of cues: which passages it reads, how its types map to the ontology, that its
mentions feed salience but decide nothing alone; and the shipped model on a SciERC TEST sentence."""

from __future__ import annotations

import pytest
import spacy

from extractors.semantic import tagger
from extractors.semantic.entities import analyse_passages
from extractors.semantic.passages import FRONT, Passage
from extractors.semantic.tagger import FAMILY, tagger_cues


@pytest.fixture(scope="module")
def ruler():
    """A stand-in tagger with known output (spaCy's entity ruler), so these tests check the plumbing, not a model."""
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns([
        {"label": "Method", "pattern": "the Lattice Parser"}, {"label": "Task", "pattern": "semantic role labeling"},
        {"label": "Material", "pattern": "FrameNet"}, {"label": "Material", "pattern": "SemLink"},
        {"label": "Generic", "pattern": "approach"},
        {"label": "OtherScientificTerm", "pattern": "frames"}])
    return nlp


def test_cues_come_from_title_abstract_and_headings_typed_for_the_ontology(ruler):
    passages = [Passage("Semantic role labeling with the Lattice Parser", FRONT, kind="title"),
                Passage("We study semantic role labeling on FrameNet with an approach that reads frames.", FRONT),
                Passage("The Lattice Parser is trained on FrameNet.", "Method")]  # body text: not tagged
    cues = tagger_cues(passages, ruler)
    found = sorted((c.passage, c.cue.type, c.cue.name, passages[c.passage].text[c.start:c.end]) for c in cues)
    assert found == [(0, "Method", "Lattice Parser", "Lattice Parser"),  # 'the' dropped, as patterns clean names
                     (1, "Dataset", "FrameNet", "FrameNet"),
                     (1, "Task", "semantic role labeling", "semantic role labeling")]
    assert {c.cue.family for c in cues} == {FAMILY}


def test_tagger_mentions_feed_salience_but_one_mention_decides_nothing(ruler):
    body = ("Our parser is trained on FrameNet and reaches good scores on FrameNet frames. "
            "Errors on FrameNet are rare.")
    passages = [Passage("Parsing frames", FRONT, kind="title"),
                Passage("We address semantic role labeling using the Lattice Parser and FrameNet. We also read SemLink.",
                        FRONT),
                Passage(body, "Experiment")]
    with_tagger = analyse_passages(passages, tagger=ruler)
    ranked = {e.name: e for e in with_tagger.ranked}
    assert ranked["FrameNet"].label == "Dataset" and FAMILY in ranked["FrameNet"].families
    assert len(ranked["FrameNet"].mentions) == 4
    assert "SemLink" in {c.cue.name for c in with_tagger.cues}
    assert "SemLink" not in ranked  # one mention, no pattern: the tagger alone decides nothing
    without = {e.name: e for e in analyse_passages(passages).ranked}
    assert FAMILY not in without["FrameNet"].families and without["FrameNet"].score < ranked["FrameNet"].score


# Sentences of SciERC TEST (../shared/datasets/scierc/test.json), which training never reads, with their gold
# mentions as that file states them (token spans within the sentence, inclusive ends)
TEST_SENTENCES = [
    ("N04-1022, sentence 0",
     ["We", "present", "Minimum", "Bayes-Risk", "-LRB-", "MBR", "-RRB-", "decoding", "for", "statistical", "machine",
      "translation", "."],
     [[2, 7, "Method"], [9, 11, "Task"]]),
    ("P06-2012, sentence 2",
     ["Experiment", "results", "on", "ACE", "corpora", "show", "that", "this", "spectral", "clustering", "based",
      "approach", "outperforms", "the", "other", "clustering", "methods", "."],
     [[3, 4, "Material"], [8, 11, "Method"], [15, 16, "Method"]]),
]


@pytest.mark.parametrize("where, tokens, gold", TEST_SENTENCES, ids=[t[0] for t in TEST_SENTENCES])
def test_the_shipped_model_tags_scierc_test_sentences_with_their_gold_types(where, tokens, gold):
    """The model in the package (not a stand-in) finds every typed mention of these held-out sentences."""
    from extractors.semantic.tagger_score import predicted_mentions

    predicted = predicted_mentions({"doc_key": where, "sentences": [tokens], "ner": [gold]}, tagger.load())
    assert {tuple(m) for m in gold} <= predicted


def test_a_missing_model_is_a_clear_error_not_a_crash(tmp_path):
    from ontology.errors import PaperKGError

    with pytest.raises(PaperKGError, match="no trained mention tagger") as caught:
        tagger.load(tmp_path)
    assert "PAPERKG_SEMANTIC_TAGGER=false" in caught.value.hint
