"""Metric head nouns and method phrases learned from training data, and the cues that use them (table header
cells, 'in terms of' phrases, task phrases that name methods), on text written for the test; table cells' notes
and variables; captions."""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors.semantic import lexicons
from extractors.semantic.entities import header_rows
from extractors.semantic.learned_heads import learn_heads, learn_method_phrases, scierc_mentions, scirex_mentions
from extractors.semantic.patterns import caption_metric, cell_cues, column_cues, find_cues, header_metric

_DATASETS = Path(__file__).resolve().parents[3] / "shared" / "datasets"


def _mentions(head: str, label: str, documents: range) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(f"d{n}", label, ("the", head)) for n in documents]


def test_a_head_of_metric_mentions_in_enough_documents_is_learned():
    mentions = _mentions("efficiency", "Metric", range(5)) + _mentions("model", "Method", range(9))
    assert learn_heads(mentions) == ["efficiency"]


def test_a_head_seen_in_too_few_documents_is_not_learned():
    assert learn_heads(_mentions("efficiency", "Metric", range(4))) == []


def test_a_head_that_mostly_names_other_kinds_is_not_learned():
    mentions = _mentions("rate", "Metric", range(5)) + _mentions("rate", "Method", range(5, 10))
    assert learn_heads(mentions) == []


def test_acronyms_and_short_words_are_names_not_heads():
    mentions = _mentions("BLEU", "Metric", range(9)) + _mentions("map", "Metric", range(9))
    assert learn_heads(mentions) == []


def test_heads_are_read_from_scierc_and_scirex_records():
    record = {"doc_key": "A1", "sentences": [["the", "disk", "efficiency", "drops"]], "ner": [[[1, 2, "Metric"]]]}
    doc = {"doc_id": "B2", "words": ["total", "system", "cost", "."], "ner": [[0, 3, "Metric"]]}
    assert list(scierc_mentions([record])) == [("scierc:A1", "Metric", ("disk", "efficiency"))]
    assert list(scirex_mentions([doc])) == [("scirex:B2", "Metric", ("total", "system", "cost"))]


@pytest.mark.skipif(not (_DATASETS / "scierc" / "train.json").is_file(),
                    reason="the training data (../shared/datasets) is not on this machine")
def test_the_shipped_heads_are_what_the_training_data_gives():
    from extractors.semantic.benchmark import SCIREX_TRAIN, load_scirex, scirex_split
    from extractors.semantic.scierc import read_records

    documents = [d for d in load_scirex(_DATASETS / "scirex_train_docs" / "docs")
                 if scirex_split(d["doc_id"]) == SCIREX_TRAIN]
    mentions = [*scierc_mentions(read_records(_DATASETS / "scierc" / "train.json")), *scirex_mentions(documents)]
    assert learn_heads(mentions) == lexicons.raw("learned_heads")["metric_heads"]
    assert learn_method_phrases(mentions, lexicons.terms().task_heads) == lexicons.raw("learned_heads")["method_phrases"]


def test_learned_heads_join_the_curated_ones_but_never_a_phrase_stop():
    heads = lexicons.metric_heads()
    assert {"efficiency", "cost", "ratio"} <= heads
    assert "performance" not in heads


@pytest.mark.parametrize("cell, name", [("Disk efficiency", "Disk efficiency"), ("Total cost ($)", "Total cost"),
                                        ("Frobenius error [dB]", "Frobenius error")])
def test_a_header_cell_built_like_a_metric_name_is_one(cell, name):
    assert header_metric(cell) == name


@pytest.mark.parametrize("cell", ["Efficiency", "Video bit rate 1.5 Mb/s", "Number of disks", "Cost model"])
def test_a_bare_head_a_value_or_another_noun_is_no_metric_name(cell):
    assert header_metric(cell) is None


def test_header_cells_name_metrics_only_in_the_header():
    line = "Scheme | Disk efficiency | Total cost ($)"
    assert {(c.type, c.name) for c in cell_cues(line, False, header=True)} == {
        ("Metric", "Disk efficiency"), ("Metric", "Total cost")}
    assert not cell_cues(line, False)


def test_the_header_is_the_rows_before_the_first_number():
    assert header_rows(["Scheme | Delay", "Mean | 99% quantile", "RR | 1.2"]) == 2
    assert header_rows(["Top-5 error | 3.1"]) == 1


def test_in_terms_of_a_learned_metric_head():
    found = {(c.type, c.name) for c in find_cues("The schemes are compared in terms of disk efficiency.")}
    assert ("Metric", "disk efficiency") in found


def test_a_dataset_cell_loses_its_bracketed_short_form_and_note():
    lines = ["Dataset | Nodes", "Advogato (AD) | 6541", "Hamsterster friendships (Shf) undirected | 1858"]
    assert [c.name for _, c in column_cues(lines)] == ["Advogato", "Hamsterster friendships"]


def test_a_lower_case_letter_or_a_formula_in_a_header_is_no_metric():
    assert {(c.type, c.name) for c in cell_cues("Gene | P | R | p | p1 = 0.3", False, header=True)} == {
        ("Metric", "P"), ("Metric", "R")}


@pytest.mark.parametrize("caption, name", [
    ("Figure 3: Performance ratio for the simulation on 200 processors", "Performance ratio"),
    ("Figure 1. Plot of the squared Frobenius norm error of the two estimates", "squared Frobenius norm error"),
    ("Table 4: The Pearson's correlation between the measures", "Pearson's correlation"),
    ("Fig. 6. Effect of scale-downs on PSNR.", "PSNR"),
])
def test_a_caption_opening_with_a_metric_names_it(caption, name):
    cue = caption_metric(caption)
    assert (cue.type, cue.name, caption[cue.start:cue.end]) == ("Metric", name, name)


@pytest.mark.parametrize("caption", ["Table 1: Results on the CiteBench evaluation suite",
                                     "Table 3: COST PER FULL-RATE STREAM AS A FUNCTION OF TSR",
                                     "Figure 5: GraphRank outperforms other measures on three datasets",
                                     "Figure 2: Overview of the options", "Table 2: Cost of the system"])
def test_a_caption_opening_with_anything_else_names_no_metric(caption):
    assert caption_metric(caption) is None


def test_a_metric_named_by_a_caption_and_a_header_becomes_a_salient_entity():
    from extractors.semantic.entities import analyse_passages
    from extractors.semantic.passages import Passage

    passages = [Passage("We study the storage of video on disk arrays.", "Abstract"),
                Passage("The disk efficiency of the hybrid scheme stays high as the load grows.", "Experiment"),
                Passage("Figure 3: Disk efficiency for the two placement schemes.", "Experiment", kind="figure"),
                Passage("Scheme | Total cost ($)\nHybrid | 1200\nCTL | 1450", "Experiment", char_start=None,
                        kind="cells")]
    metrics = {e.name for e in analyse_passages(passages).entities if e.label == "Metric"}
    assert {"Disk efficiency", "Total cost"} <= metrics


def test_a_row_short_of_cells_because_values_were_merged_keeps_its_first_column():
    lines = ["Dataset | Type | Nodes | Edges", "Advogato (AD) | directed | 6541 | 51127",
             "Catster (Sc) | undirected 149700 5449275", "Flickr (Fl) | undirected 105938 2316948"]
    assert [c.name for _, c in column_cues(lines)] == ["Advogato", "Catster", "Flickr"]


def test_a_row_short_of_a_spanning_cell_on_its_left_still_aligns_right():
    lines = ["Domain | Dataset | F1", "Biomed | BC5CDR | 88.1", "ChemProt | 71.2"]
    assert [c.name for _, c in column_cues(lines)] == ["BC5CDR", "ChemProt"]


def test_a_phrase_ending_in_a_task_noun_that_training_data_types_as_a_method_is_learned():
    beam = [(f"d{n}", "Method", ("beam", "-", "search")) for n in range(3)]
    parse = [(f"d{n}", "Method", ("dependency", "parsing")) for n in range(2)] + \
        [(f"d{n}", "Task", ("dependency", "parsing")) for n in range(2, 6)]
    once = [("d9", "Method", ("greedy", "search"))]
    assert learn_method_phrases(beam + parse + once, frozenset({"search", "parsing"})) == ["beam-search"]


def test_a_task_phrase_known_as_a_method_is_no_task():
    from extractors.semantic.entities import analyse_passages
    from extractors.semantic.passages import Passage

    text = ("We decode with beam search and report results on parsing. Beam search keeps the best hypotheses. "
            "With beam search the decoder explores more paths than greedy decoding.")
    ranked = {(e.label, e.name.lower()) for e in analyse_passages([Passage(text, "Method")]).ranked}
    assert ("Task", "beam search") not in ranked


def test_an_abbreviation_whose_long_form_is_a_learned_method_phrase_is_no_task():
    from extractors.semantic.abbreviations import Abbreviation
    from extractors.semantic.salience import abbreviation_cues

    pair = Abbreviation(short="PCA", long="principal component analysis", passage=0, start=0, end=34)
    assert abbreviation_cues([pair]) == []


def test_a_study_the_paper_performs_is_no_learned_method():
    assert not lexicons.is_method_phrase("error analysis") and not lexicons.is_method_phrase("statistical analysis")
    assert lexicons.is_method_phrase("principal component analysis")


def test_a_learned_method_phrase_is_known_with_any_of_its_words_in_the_plural():
    assert lexicons.is_method_phrase("Principal Components Analysis") and lexicons.is_method_phrase("logistic regressions")


def test_a_short_form_defined_as_something_else_is_no_metric():
    from extractors.semantic.entities import analyse_passages
    from extractors.semantic.passages import Passage

    text = ("Life events raised the risk of Alzheimer's disease (AD) in our cohort. The risk doubled, particularly "
            "in terms of AD. Cases of AD were diagnosed by physicians. Mean absolute error (MAE) is reported. "
            "The model is evaluated in terms of MAE.")
    metrics = {e.name for e in analyse_passages([Passage(text, "Result")]).ranked if e.label == "Metric"}
    assert "AD" not in metrics and metrics & {"MAE", "Mean absolute error", "mean absolute error"}


def test_a_known_metric_defined_with_a_modifier_before_its_long_form_stays_a_metric():
    from extractors.semantic.entities import analyse_passages
    from extractors.semantic.passages import Passage

    text = ("Our evaluation metric is the mean intersection-over-union (mIoU). The adapted model reaches 41.2 mIoU, "
            "ahead of the source model's 17.9 mIoU. Class-wise mIoU is reported in the appendix.")
    metrics = {e.name for e in analyse_passages([Passage(text, "Experiment")]).ranked if e.label == "Metric"}
    assert "mIoU" in metrics


def test_a_long_form_ending_in_a_one_word_metric_after_other_words_is_no_known_metric():
    from extractors.semantic.salience import _known_metric

    assert _known_metric("mean intersection-over-union") and _known_metric("frequency weighted intersection over union")
    assert not any(_known_metric(x) for x in ("self-organizing map", "mixed precision", "intrinsic reward"))


def test_metrics_of_image_generation_segmentation_and_language_modelling_are_known():
    names = {s: lexicons.metrics().lookup(s) for s in ("FID", "Dice score", "BPC", "PCKh", "EAO", "rank-1 accuracy")}
    assert names == {"FID": "Frechet Inception Distance", "Dice score": "Dice coefficient",
                     "BPC": "bits per character", "PCKh": "percentage of correct keypoints",
                     "EAO": "expected average overlap", "rank-1 accuracy": "rank-1 accuracy"}
    # short forms that name other things in other fields are no aliases
    assert lexicons.metrics().lookup("DSC") is None and lexicons.metrics().lookup("rank 1") is None


def test_a_task_named_once_in_running_text_is_no_salient_task():
    from extractors.semantic.entities import analyse_passages
    from extractors.semantic.passages import Passage

    passages = [Passage("We address the problem of citation recommendation. Our model ranks papers.", "Abstract"),
                Passage("Citation recommendation needs context. Earlier work studied online recommendation.",
                        "Introduction"),
                Passage("We evaluate citation recommendation on two corpora.", "Experiment")]
    tasks = {e.name.lower() for e in analyse_passages(passages).entities if e.label == "Task"}
    assert "citation recommendation" in tasks and "online recommendation" not in tasks


def test_an_abbreviation_whose_long_form_ends_in_a_learned_metric_head_is_a_metric():
    from extractors.semantic.abbreviations import Abbreviation
    from extractors.semantic.salience import abbreviation_cues

    pairs = [Abbreviation(short="HR", long="hazard ratios", passage=0, start=0, end=13),
             Abbreviation(short="TDE", long="total disk efficiency", passage=0, start=20, end=41)]
    assert [(c.cue.type, c.cue.name) for c in abbreviation_cues(pairs)] == [
        ("Metric", "hazard ratios"), ("Metric", "total disk efficiency")]


def test_a_ratio_a_cohort_study_defines_and_reports_is_a_salient_metric():
    from extractors.semantic.entities import analyse_passages
    from extractors.semantic.passages import Passage

    passages = [Passage("Stressful life events and the risk of dementia in a cohort of older adults.", "Abstract"),
                Passage("Associations were estimated as hazard ratios (HR) with Cox models. The HR for one event "
                        "was 1.3 and the HR for two events was 1.9.", "Result")]
    metrics = {e.name for e in analyse_passages(passages).entities if e.label == "Metric"}
    assert metrics & {"HR", "hazard ratios"}
