"""The learned salience model (salience_model.py, salience_training.py): its logistic fit, its features, its
saved form, training end to end on documents written for the test, the shipped model against the code, and a
retraining from SciREX that gives the shipped model back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from extractors.semantic import salience_model
from extractors.semantic.entities import analyse_passages, candidates
from extractors.semantic.passages import FRONT, Passage
from extractors.semantic.salience import Entity, MentionSpan, salient
from extractors.semantic.salience_model import MODEL_PATH, Peers, SalienceModel, features
from extractors.semantic.salience_training import (THRESHOLDS, TrainingDocument, calibration_error, fit_logistic,
                                                   probabilities, train)

SCIREX = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "scirex_train_docs" / "docs"


def _entity(name: str, label: str = "Method", score: float = 0.5, mentions: list[MentionSpan] = (),
            **kw) -> Entity:
    return Entity(label, name, name, [], score, False, {"used": score}, list(mentions), **kw)


def test_the_fit_follows_the_feature_that_decides_and_ignores_a_constant_one():
    rng = np.random.default_rng(0)
    x = np.column_stack([rng.normal(size=400), rng.normal(size=400), np.full(400, 3.0)])
    y = (x[:, 0] + 0.3 * rng.normal(size=400) > 0).astype(float)
    model = fit_logistic(x, y, l2=1.0)
    assert model.weights[0] > 2.0 and abs(model.weights[1]) < 0.5 and model.weights[2] == 0.0
    p = probabilities(model, x)
    assert ((p >= 0.5) == (y == 1)).mean() > 0.9
    assert model.probability(list(x[0])) == pytest.approx(p[0])  # the model as ingest applies it agrees


def test_calibration_error_is_the_gap_between_predicted_and_observed_rates():
    y = np.array([1.0, 0.0] * 50)
    assert calibration_error(np.full(100, 0.5), y) == pytest.approx(0.0)
    assert calibration_error(np.full(100, 0.9), y) == pytest.approx(0.4)


def test_features_say_where_and_how_often_the_paper_names_it():
    passages = [Passage("GraphRank for citations", FRONT, kind="title"),
                Passage("We propose GraphRank. It reaches 41.2 MRR.", FRONT),
                Passage("Unlike TF-IDF, GraphRank ranks.", "RelatedWork"),
                Passage("GraphRank beats TF-IDF.", "Experiment")]
    graphrank = _entity("GraphRank", score=0.9, mentions=[MentionSpan(0, 0, 9, "GraphRank"),
                                                          MentionSpan(1, 11, 20, "GraphRank"),
                                                          MentionSpan(2, 14, 23, "GraphRank"),
                                                          MentionSpan(3, 0, 9, "GraphRank")])
    tfidf = _entity("TF-IDF", score=0.4, mentions=[MentionSpan(2, 7, 13, "TF-IDF"), MentionSpan(3, 16, 22, "TF-IDF")])
    peers = Peers.of([tfidf, graphrank])
    g = features(graphrank, peers, passages, [], ("used",))
    t = features(tfidf, peers, passages, [], ("used",))
    assert (g["in_title"], g["in_abstract"], t["in_title"], t["in_abstract"]) == (1.0, 1.0, 0.0, 0.0)
    assert (g["inverse_rank"], t["inverse_rank"]) == (1.0, 0.5)
    assert g["share_of_most_mentioned"] == 1.0 and t["share_of_most_mentioned"] == 0.5
    assert g["log_with_numbers"] > 0 and t["log_with_numbers"] == 0  # '41.2' stands near GraphRank only
    assert t["related_work_only"] == 0.0 and t["first_place"] == 2 / 4 and g["first_place"] == 1 / 4
    assert g["family:used"] == 0.9 and g["evidence_score"] == 0.9


def test_features_say_whether_a_name_is_part_of_another_or_holds_one():
    family, variant, other = _entity("R-CNN"), _entity("Cascade R-CNN"), _entity("ResNets")
    peers = Peers.of([family, variant, other, _entity("resnet")])
    f, v, o = (features(e, peers, [Passage("text", FRONT)], [], ()) for e in (family, variant, other))
    assert (f["part_of_other"], f["holds_other"]) == (1.0, 0.0)
    assert (v["part_of_other"], v["holds_other"]) == (0.0, 1.0)
    assert (o["part_of_other"], o["holds_other"]) == (0.0, 0.0)  # 'ResNets' and 'resnet' are one name spelt twice
    ner, generation = _entity("NER"), _entity("text generation")
    peers = Peers.of([ner, generation])
    assert features(ner, peers, [Passage("text", FRONT)], [], ())["part_of_other"] == 0.0  # 'ner' inside a word


def test_features_say_whether_a_measure_is_a_criterion_or_a_cost():
    text = ("Proposals with IoU above 0.7 are positives. We report AP at an IoU threshold of 0.5. "
            "AP improves by 2 points while the training time stays the same.")
    passages = [Passage(text, "Experiment")]

    def metric(name: str) -> Entity:
        spans = [MentionSpan(0, m.start(), m.end(), name) for m in __import__("re").finditer(name, text)]
        return _entity(name, label="Metric", mentions=spans)

    iou, ap, time = metric("IoU"), metric("AP"), metric("training time")
    peers = Peers.of([iou, ap, time])
    f = {e.name: features(e, peers, passages, [], ()) for e in (iou, ap, time)}
    assert f["IoU"]["as_criterion"] == 1.0 and f["AP"]["as_criterion"] == 0.0
    assert (f["training time"]["cost_measure"], f["AP"]["cost_measure"], f["IoU"]["cost_measure"]) == (1.0, 0.0, 0.0)
    assert not salience_model.as_criterion("It reaches 41.3 mAP@0.5 on COCO.", 16, 19)  # a variant, no criterion
    assert not salience_model.as_criterion("We report MRR and Hits@10.", 10, 13)
    assert salience_model.cost_measure("speed-up") and salience_model.cost_measure("run-time")
    method = _entity("IoU", mentions=iou.mentions)  # the criterion and cost features are a measure's only
    assert features(method, Peers.of([method]), passages, [], ())["as_criterion"] == 0.0


def _document(n: int) -> TrainingDocument:
    """A paper whose title names the method, dataset, metric and task its results are about; another of each kind
    is named in related work (and the other method and metric in its table)."""
    own, other = f"Net{n}", f"Baseline{n}"
    passages = [Passage(f"{own}: citation recommendation on the Cite{n} dataset", FRONT, kind="title"),
                Passage(f"We propose {own} for citation recommendation and evaluate it on the Cite{n} dataset by "
                        "MRR.", FRONT),
                Passage(f"The {other} model addresses the task of keyword extraction and was evaluated on the Old{n} "
                        "dataset in terms of accuracy. Keyword extraction is hard.", "RelatedWork"),
                Passage(f"{own} reaches an MRR of 41.2 on the Cite{n} dataset, and we report MRR on Cite{n} for each "
                        "run.", "Experiment"),
                Passage(f"Model | MRR | Accuracy\n{own} | 41.2 | 80.1\n{other} | 30.2 | 70.1", "Experiment",
                        char_start=None, kind="cells")]
    found = candidates(passages)
    return TrainingDocument(found.ranked, passages, found.abbreviations,
                            {"methods": [[own]], "datasets": [[f"Cite{n}"]], "metrics": [["MRR"]],
                             "tasks": [["citation recommendation"]]})


def test_training_learns_what_the_salient_ones_share_and_applies_it_to_a_new_paper():
    documents = [_document(n) for n in range(30)]
    assert {(e.label, e.name) for e in documents[0].ranked} == {
        ("Method", "Net0"), ("Method", "Baseline0"), ("Dataset", "Cite0"), ("Dataset", "Old0"), ("Metric", "MRR"),
        ("Metric", "accuracy"), ("Task", "citation recommendation"), ("Task", "keyword extraction")}
    model = train(documents, folds=3)
    assert all(row["threshold"] in THRESHOLDS and row["out_of_fold"]["f1"] == 1.0
               for row in model.meta["types"].values())
    new = _document(99)
    judged = model.judge(new.ranked, new.passages, new.pairs)
    assert {(e.label, e.name) for e in judged if e.central} == {
        ("Method", "Net99"), ("Dataset", "Cite99"), ("Metric", "MRR"), ("Task", "citation recommendation")}
    again = SalienceModel.from_json(model.to_json())
    assert [e.salience for e in again.judge(new.ranked, new.passages, new.pairs)] == \
        [e.salience for e in judged]


def test_a_central_entity_is_the_papers_even_when_its_evidence_score_is_low():
    """And a candidate only weak families found (a lexicon hit named once) is the paper's only when central."""
    assert [e.name for e in salient([_entity("A", score=0.1, central=True), _entity("B", score=0.1),
                                     _entity("C", score=0.9), _entity("D", score=0.9, weak_alone=True),
                                     _entity("E", score=0.9, weak_alone=True, central=True)])] == ["A", "C", "E"]


def test_the_shipped_model_matches_the_features_the_code_computes():
    """Changing a feature without `kg train salience` would apply weights to the wrong columns."""
    model = salience_model.load()
    e = _entity("GraphRank", mentions=[MentionSpan(0, 0, 9, "GraphRank")])
    computed = features(e, Peers.of([e]), [Passage("GraphRank ranks.", FRONT)], [], model.families)
    assert tuple(computed) == model.names
    assert set(model.types) == {"Dataset", "Method", "Metric", "Task"}
    assert all(len(m.weights) == len(model.names) and m.threshold in THRESHOLDS for m in model.types.values())


def test_every_candidate_gets_a_probability_and_the_central_ones_reach_the_threshold():
    passages = [Passage("GraphRank: ranking citations", FRONT, kind="title"),
                Passage("We propose GraphRank and evaluate it on the CiteBench dataset by MRR.", FRONT),
                Passage("GraphRank reaches an MRR of 41.2 on CiteBench, and PageRank 35.0.", "Experiment")]
    model = salience_model.load()
    ranked = analyse_passages(passages).ranked
    assert ranked and all(0.0 < e.salience < 1.0 for e in ranked)
    assert all(e.central == (e.salience >= model.types[e.label].threshold) for e in ranked)


@pytest.mark.skipif(not SCIREX.is_dir(), reason="needs ../shared/datasets/scirex_train_docs beside the checkout")
def test_retraining_on_scirex_gives_the_shipped_model(tmp_path):
    from typer.testing import CliRunner

    from cli.main import app

    out = tmp_path / "salience.json"
    result = CliRunner().invoke(app, ["train", "salience", "--out", str(out)])
    assert result.exit_code == 0, result.output
    trained, shipped = json.loads(out.read_text()), json.loads(MODEL_PATH.read_text())
    assert trained["features"] == shipped["features"] and trained["meta"]["documents"] == shipped["meta"]["documents"]
    for label, m in shipped["types"].items():
        assert trained["types"][label]["threshold"] == m["threshold"]
        assert trained["types"][label]["weights"] == pytest.approx(m["weights"], abs=1e-6)


def test_training_on_a_folder_without_documents_is_a_clear_error_and_writes_nothing(tmp_path):
    from typer.testing import CliRunner

    from cli.main import app
    from ontology.errors import PaperKGError

    out = tmp_path / "salience.json"
    result = CliRunner().invoke(app, ["train", "salience", "--scirex", str(tmp_path), "--out", str(out)])
    assert isinstance(result.exception, PaperKGError)
    assert "0 training documents cannot make 5 folds" in result.exception.message and result.exception.hint
    assert not out.exists()
