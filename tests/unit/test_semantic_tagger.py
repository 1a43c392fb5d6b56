"""The mention tagger as a source of cues: which passages it reads, how its types map to the ontology, that its
mentions feed salience but decide nothing alone; and the shipped model on SciERC TEST abstracts."""

from __future__ import annotations

from pathlib import Path

import pytest
import spacy

from extractors.semantic import tagger
from extractors.semantic.entities import analyse_passages
from extractors.semantic.passages import FRONT, Passage
from extractors.semantic.scierc import SPANS_KEY
from extractors.semantic.tagger import FAMILY, flat_mentions, tagger_cues


@pytest.fixture(scope="module")
def ruler():
    """A stand-in tagger with known output (spaCy's span ruler, writing the span group the trained tagger writes),
    so these tests check the plumbing, not a model."""
    nlp = spacy.blank("en")
    nlp.add_pipe("span_ruler", config={"spans_key": SPANS_KEY}).add_patterns([
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
    # one mention, no pattern: the tagger alone decides nothing; the candidate is the salience model's to judge
    assert ranked["SemLink"].weak_alone and not ranked["SemLink"].central
    assert "SemLink" not in {e.name for e in with_tagger.entities}
    without = {e.name: e for e in analyse_passages(passages).ranked}
    assert FAMILY not in without["FrameNet"].families and without["FrameNet"].score < ranked["FrameNet"].score


SCIERC_TEST = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "scierc" / "test.json"
needs_scierc = pytest.mark.skipif(not SCIERC_TEST.is_file(), reason="needs ../shared/datasets/scierc beside the checkout")


@needs_scierc
def test_the_shipped_model_tags_scierc_test_abstracts():
    """The model in the package (not a stand-in), with the features it was trained on, on the first 20 abstracts
    of SciERC test, which training never reads: typed mention F1 well above chance. A model loaded with other
    features (a changed layer choice, a broken alignment of words and wordpieces) falls far below this floor."""
    from extractors.semantic.scierc import read_records
    from extractors.semantic.tagger_score import gold_mentions, predicted_mentions, score

    nlp = tagger.load()
    records = list(read_records(SCIERC_TEST))[:20]
    counts = score((gold_mentions(r), predicted_mentions(r, nlp)) for r in records)["all"]
    assert counts.gold > 250 and counts.f1 >= 0.40


def test_a_missing_model_is_a_clear_error_not_a_crash(tmp_path):
    from ontology.errors import PaperKGError

    with pytest.raises(PaperKGError, match="no trained mention tagger") as caught:
        tagger.load(tmp_path)
    assert "PAPERKG_SEMANTIC_TAGGER=false" in caught.value.hint


def test_overlapping_tagged_spans_keep_the_surest_then_the_longer():
    from spacy.tokens import Span

    nlp = spacy.blank("en")
    doc = nlp("a neural parser ensemble beats the graph parser on the WSJ corpus")
    group = [Span(doc, 1, 3, "Method"), Span(doc, 1, 4, "Method"), Span(doc, 2, 3, "Generic"),
             Span(doc, 6, 8, "Method"), Span(doc, 10, 12, "Material"), Span(doc, 11, 12, "Material")]
    doc.spans[SPANS_KEY] = group
    doc.spans[SPANS_KEY].attrs["scores"] = [0.6, 0.9, 0.95, 0.7, 0.5, 0.5]
    kept = [(s.text, s.label_) for s in flat_mentions(doc)]
    # "parser" (0.95) beats both spans holding it; of the equally sure "WSJ corpus" and "corpus", the longer stays
    assert kept == [("parser", "Generic"), ("graph parser", "Method"), ("WSJ corpus", "Material")]
    del doc.spans[SPANS_KEY].attrs["scores"]  # no scores (a rule-based stand-in): the longest of overlapping ones
    assert [s.text for s in flat_mentions(doc)] == ["neural parser ensemble", "graph parser", "WSJ corpus"]


def test_a_missing_encoder_package_is_said_before_spacy_loads(tmp_path, monkeypatch):
    from ontology.errors import PaperKGError

    (tmp_path / "meta.json").write_text("{}")
    from extractors import encoder

    monkeypatch.setattr(encoder, "MODEL_PACKAGE", "no_such_model_package")
    with pytest.raises(PaperKGError, match="no_such_model_package") as caught:
        tagger.check_installed(tmp_path)
    assert "make install" in caught.value.hint


def test_a_saved_tagger_loads_with_its_features_layer_and_its_chosen_threshold(tmp_path):
    """What `kg train tagger` writes: the span categorizer over the frozen features, with the threshold chosen on
    dev in its cfg; `tagger.load` rebuilds the registered layer and keeps that threshold, not the config's."""
    from spacy.training import Example

    from extractors.semantic import minilm_words  # noqa: F401  (registers the architecture)

    nlp = spacy.blank("en")
    nlp.add_pipe("spancat", config={
        "spans_key": SPANS_KEY, "threshold": 0.3, "max_positive": 1,
        "model": {"@architectures": "spacy.SpanCategorizer.v1",
                  "tok2vec": {"@architectures": "paperkg.MiniLMWords.v2", "layers": [6], "width": 16,
                              "lexical_width": 8, "window_depth": 1},
                  "reducer": {"@layers": "spacy.mean_max_reducer.v1", "hidden_size": 16},
                  "scorer": {"@layers": "spacy.LinearLogistic.v1"}}})
    doc = nlp.make_doc("We train a parser on the treebank.")
    doc.spans[SPANS_KEY] = [doc.char_span(11, 17, "Method"), doc.char_span(25, 33, "Material")]
    nlp.initialize(lambda: [Example(nlp.make_doc(doc.text), doc)])
    nlp.get_pipe("spancat").cfg["threshold"] = 0.17
    nlp.to_disk(tmp_path / "tagger")
    loaded = tagger.load.__wrapped__(tmp_path / "tagger")
    assert loaded.get_pipe("spancat").cfg["threshold"] == 0.17
    tagged = loaded("We train a parser on the treebank.")
    assert SPANS_KEY in tagged.spans and all(s.label_ in ("Method", "Material") for s in tagged.spans[SPANS_KEY])


@needs_scierc
def test_kg_train_tagger_writes_a_tagger_that_loads_with_a_threshold_chosen_on_dev(tmp_path):
    """The whole command on a few SciERC abstracts and a few steps of the committed config: it trains, picks a
    threshold from its grid on dev, and writes a pipeline `tagger.load` reads. Only the plumbing: the model's
    quality is `kg bench tagger`'s."""
    from typer.testing import CliRunner

    from cli.main import app
    from cli.train import _CONFIG
    from extractors.semantic.tagger_score import THRESHOLDS

    scierc = tmp_path / "scierc"
    scierc.mkdir()
    lines = SCIERC_TEST.with_name("train.json").read_text().splitlines()
    (scierc / "train.json").write_text("\n".join(lines[:4]) + "\n")
    (scierc / "dev.json").write_text("\n".join(lines[4:6]) + "\n")
    config = tmp_path / "tagger.cfg"
    text = _CONFIG.read_text()
    config.write_text(text.replace("max_steps = 2200", "max_steps = 4").replace("eval_frequency = 200", "eval_frequency = 2")
                      .replace("threshold = 0.3", "threshold = 0.77"))  # outside the grid: a threshold not chosen shows
    assert config.read_text() != text
    result = CliRunner().invoke(app, ["train", "tagger", "--scierc", str(scierc), "--config", str(config),
                                      "--out", str(tmp_path / "tagger")])
    assert result.exit_code == 0, result.output
    assert "score threshold" in result.output
    loaded = tagger.load.__wrapped__(tmp_path / "tagger")
    chosen = loaded.get_pipe("spancat").cfg["threshold"]
    assert chosen in THRESHOLDS and f"score threshold {chosen}" in result.output
    assert loaded.config["components"]["spancat"]["threshold"] == chosen  # the saved config says it too
    assert loaded.config["paths"]["train"] is None  # no path of the machine that trained it
    assert loaded.pipe_names == ["spancat"]
