"""Salience thresholds on text written for the test: what a paper names in passing is not what it is about."""

from __future__ import annotations

from extractors.semantic.entities import analyse_passages
from extractors.semantic.passages import Passage


def test_a_system_cited_once_in_passing_is_no_salient_method():
    passages = [Passage("We schedule moldable jobs on clusters.", "Abstract"),
                Passage("Batch systems such as Condor [3] queue jobs; we study the clusters themselves.",
                        "Introduction")]
    assert "Condor" not in {e.name for e in analyse_passages(passages).entities}
    passages[1] = Passage("Jobs are run with Condor [3]. Condor queues them, and Condor restarts failed ones.",
                          "Experiment")
    assert "Condor" in {e.name for e in analyse_passages(passages).entities}
