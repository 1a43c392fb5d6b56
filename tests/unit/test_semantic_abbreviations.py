"""Sentence spans and short-form/long-form pairs."""

from __future__ import annotations

import pytest

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


def test_the_pipelines_load_without_importing_torch_and_torch_still_imports_afterwards():
    """thinc imports torch when it is installed; the parser processes hide it (2 s each). A fresh interpreter,
    since this one may have imported either already."""
    import subprocess
    import sys

    pytest.importorskip("torch", reason="torch comes with the `contextual` extra; without it there is nothing to hide")
    probe = ("import sys\nfrom extractors.semantic import nlp\nnlp.load()\nprint('torch' in sys.modules)\n"
             "import torch\nprint(torch.tensor([1.0]).tolist())\n"
             "from extractors.semantic.schwartz_hearst import definitions\n"
             "print([s.text for s, _ in definitions(nlp.sentences()('A neural network (NN) is used.'))])\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:3] == ["False", "[1.0]", "['NN']"]


@pytest.mark.parametrize("text, pairs", [
    # the first letter must begin a word: "Hidden Markov Model" not "idden Markov Model"
    ("A Hidden Markov Model (HMM) and the HMM decoder.", [("HMM", "Hidden Markov Model"), ("HMM", "Hidden Markov Model")]),
    # the reverse order: a short form before four to eight words in parentheses
    ("We use BERT (Bidirectional Encoder Representations from Transformers) here.",
     [("BERT", "Bidirectional Encoder Representations from Transformers")]),
    # letters the long form lacks, digits and symbols only, or nothing before the parenthesis: no pair
    ("The network (XQZ) is new.", []), ("Seen in (12) and (x).", []), ("(CNN) first.", []),
    # a short form defined twice keeps its first long form
    ("Support vector machine (SVM) and structured vector model (SVM).", [("SVM", "Support vector machine"),
                                                                          ("SVM", "Support vector machine")]),
])
def test_schwartz_hearst_pairs(text, pairs):
    from extractors.semantic import nlp
    from extractors.semantic.schwartz_hearst import definitions

    assert [(s.text, l.text) for s, l in definitions(nlp.sentences()(text))] == pairs
