"""A capitalised word written as the first word of longer names is no entity alone: renamed to the phrase it
opens when that ends in a head noun of its kind, else left out; a proper name written alone stays. Text written
for the test."""

from __future__ import annotations

from extractors.semantic.entities import analyse_passages
from extractors.semantic.passages import Passage


def _methods(*texts: str) -> set[str]:
    passages = [Passage(t, kind) for t, kind in zip(texts, ["Abstract", "Method", "Experiment", "Result"])]
    return {e.name for e in analyse_passages(passages).ranked if e.label == "Method"}


def test_a_name_opening_a_method_phrase_is_renamed_to_the_phrase():
    found = _methods("We fit topic models with a distributed Gibbs sampler (Smith et al., 2009).",
                     "The Gibbs sampler draws each topic in turn. Using Gibbs sampling per document is slow.",
                     "Each Gibbs sampler thread holds one shard, and the Gibbs sampler syncs counts.")
    assert "Gibbs sampler" in found and "Gibbs" not in found


def test_a_name_opening_only_other_phrases_is_no_method():
    found = _methods("We recover the matrix under Gaussian noise, using Gaussian (Lee et al., 2010) priors.",
                     "With Gaussian noise of variance one, Gaussian random matrices give the bound.",
                     "The Gaussian covariance is estimated from the samples.")
    assert not any(name.startswith("Gaussian") for name in found)


def test_a_proper_name_written_alone_stays():
    found = _methods("We compare with Mallet (McCallum, 2002) on three corpora.",
                     "Mallet runs on one machine. Using Mallet, each run takes an hour, and Mallet reached the "
                     "same perplexity.")
    assert "Mallet" in found


def _metrics(*texts: str) -> set[str]:
    passages = [Passage(t, kind) for t, kind in zip(texts, ["Abstract", "Method", "Experiment", "Result"])]
    return {e.name for e in analyse_passages(passages).ranked if e.label == "Metric"}


def test_a_metric_short_form_written_before_nouns_names_a_kind_not_a_measure():
    found = _metrics("We store variable bit rate (VBR) video on disk arrays.",
                     "VBR video needs more buffer space than VBR data of the same mean size. Each VBR stream is "
                     "placed apart, and VBR video is read in rounds.")
    assert not found & {"VBR", "variable bit rate"}


def test_a_metric_short_form_written_before_its_head_stays():
    found = _metrics("Reconstruction quality is measured by PSNR on four clips.",
                     "PSNR values of the base layer stay flat, while PSNR values of the full stream rise. "
                     "The PSNR values are averaged over frames.")
    assert "PSNR" in found


def test_a_name_before_a_metric_head_once_is_the_metric_phrase():
    found = _metrics("We rank nodes by their spreading ability.",
                     "The rankings of the two measures are compared using Pearson’s correlation over all nodes.")
    assert "Pearson" not in found and "Pearson’s correlation" in found


def test_a_task_phrase_that_always_opens_a_metric_name_is_no_task():
    passages = [Passage("We schedule moldable jobs to minimise the average completion time of a cluster.", "Abstract"),
                Passage("Figure 3: average completion time of the batch policy.", "Result"),
                Passage("The average completion time drops by a third, and the average completion time of small "
                        "jobs drops most.", "Result")]
    tasks = {e.name for e in analyse_passages(passages).ranked if e.label == "Task"}
    assert "average completion" not in tasks
