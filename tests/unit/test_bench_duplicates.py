"""Scoring of `kg bench duplicates`: a candidate nobody judged counts as wrong, names match by their match keys,
and the hand-written fixtures are well formed."""

from __future__ import annotations

import pytest

from bench.duplicates import JUDGED, KNOWN, judgements, known_pairs, pair, score


def test_precision_counts_unjudged_candidates_as_wrong_and_recall_names_the_missed_pairs():
    judged = {pair("Method", "SVM", "support vector machine"): True, pair("Method", "GAN", "graph attention network"): False}
    known = [pair("Method", "SVM", "support vector machines"), pair("Method", "MaxEnt", "maximum entropy")]
    proposed = [("Method", "support vector machine", "SVM"), ("Method", "GAN", "Graph Attention Network"),
                ("Dataset", "AD", "Advogato (AD)")]
    result = score(proposed, judged, known, top=2)
    assert (result.top, result.correct, result.wrong, result.unjudged, result.precision) == (2, 1, 1, 0, 0.5)
    assert score(proposed, judged, known).unjudged == 1 and score(proposed, judged, known).precision == 1 / 3
    assert (result.known_found, result.known, result.missed) == (1, 2, ["Method: maxent / maximumentropy"])


def test_the_fixtures_parse_and_a_bad_judgement_is_refused(tmp_path):
    assert judgements(JUDGED) and known_pairs(KNOWN)
    bad = tmp_path / "judged.tsv"
    bad.write_text("Method\tSVM\tsupport vector machine\tprobably\tunsure\n")
    with pytest.raises(ValueError, match="not yes or no"):
        judgements(bad)
