"""Each pattern family on sentences written for the test."""

from __future__ import annotations

import pytest

from extractors.semantic.patterns import (cell_cues, column_cues, coordination_cues, dataset_list_cues, find_cues,
                                         lexicon_cues, strong_name)


def cues(sentence: str, **kw) -> set[tuple[str, str, str]]:
    return {(c.family, c.type, c.name) for c in find_cues(sentence, **kw)}


@pytest.mark.parametrize("sentence, expected", [
    ("We propose GraphSum, which summarises graphs.", ("proposed_we", "Method", "GraphSum")),
    ("In this paper we introduce a model called TabNet-X for tables.", ("proposed_we", "Method", "TabNet-X")),
    ("Our model, DeepRank, outperforms all baselines.", ("proposed_our", "Method", "DeepRank")),
    ("FastPath, a novel routing algorithm, is evaluated next.", ("proposed_appositive", "Method", "FastPath")),
])
def test_proposed_methods(sentence, expected):
    assert expected in cues(sentence)


def test_title_prefix_names_the_proposed_method():
    assert ("proposed_title", "Method", "OTSL") in cues("OTSL: a table structure language", title=True)
    assert not any(f == "proposed_title" for f, _, _ in cues("OTSL: a table structure language"))


def test_proposing_a_corpus_is_a_dataset():
    assert ("proposed_we", "Dataset", "PaperCorp") in cues("We release PaperCorp, a large corpus of papers.")


def test_cited_and_used_methods():
    found = cues("We encode words with GloVe (Pennington et al., 2014) and compare with ELMo [12].")
    assert {("cited", "Method", "GloVe"), ("cited", "Method", "ELMo"), ("used", "Method", "ELMo")} <= found


def test_a_year_alone_in_parentheses_follows_an_author_not_a_method():
    assert not any(f == "cited" for f, _, _ in cues("As Etzioni (2008) argued, extraction is hard."))


@pytest.mark.parametrize("sentence, name", [
    ("Results on the WikiTables dataset are in Table 2.", "WikiTables"),
    ("We report scores on the NewsCorp corpus.", "NewsCorp"),
    ("All models are trained on QuoteBank before fine-tuning.", "QuoteBank"),
    ("We evaluate on MedQA and report accuracy.", "MedQA"),
])
def test_dataset_contexts(sentence, name):
    assert any(t == "Dataset" and n == name for _, t, n in cues(sentence))


def test_metric_contexts_need_a_metric_like_phrase():
    assert ("metric_context", "Metric", "BLEU") in cues("Quality is measured by BLEU, as usual.")
    assert ("metric_context", "Metric", "edit rate") in cues("Systems are compared in terms of edit rate.")
    assert not any(f == "metric_context" for f, _, _ in cues("We compared with Mikolov, as before."))


def test_task_phrases_and_contexts():
    found = cues("We study the task of table structure recognition for scanned documents.")
    assert ("task_context", "Task", "table structure recognition") in found
    assert ("task_context", "Task", "citation recommendation") in cues("We address the citation recommendation task.")
    assert not any(t == "Task" for _, t, _ in cues("We observe a weakly parallel problem."))


def test_lexicon_hits_respect_case_for_acronyms_and_are_weak():
    hits = {(c.type, c.name, c.strength) for c in lexicon_cues("We report F1 of 91.2 and recall; imagenet is lower case.")}
    assert hits == {("Metric", "F1", 0.45), ("Metric", "recall", 0.3)}


def test_an_acronym_is_known_by_its_capitals_and_other_words_in_any_case():
    """'mAP' and 'MAP' are mean average precision, 'map' a verb or a noun; a title-case table header still names
    a metric whose lexicon name is in lower case."""
    assert not lexicon_cues("We learn to map sentences to logical forms and show the disparity map.")
    assert {c.name for c in lexicon_cues("It reaches 61.2 mAP and 58.0 MAP on the test set.")} == {"mAP", "MAP"}
    assert {c.name for c in lexicon_cues("Adjusted Rand Index of the clusters")} == {"Adjusted Rand Index"}
    assert {c.name for c in lexicon_cues("We compare CPU time and cpu Time.")} == {"CPU time"}


@pytest.mark.parametrize("sentence, found", [
    ("Recall that most works in private data analysis add noise.", set()),
    ("We recall the definition of a p-document.", set()),
    ("To recall how the sampler works, see Section 2.", set()),
    ("Recall r = L/C denotes the uniform ratio.", set()),
    ("(Recall that paths in the graph are augmenting paths.)", set()),
    ("Recall improves by 3% with the tagger.", {"Recall"}),
    ("Precision P = TP / (TP + FP) counts the right answers.", {"Precision"}),  # a noun only, defined by its symbol
    ("Recall of the system is 0.8 on the test set.", {"Recall"}),
    ("The recall that we obtain is 80%.", {"recall"}),
    ("We report precision and recall for each relation.", {"precision", "recall"}),
])
def test_a_measures_word_used_as_a_verb_names_no_measure(sentence, found):
    assert {c.name for c in lexicon_cues(sentence)} == found


def test_coordinated_names_take_the_type_of_a_typed_member():
    sentence = "We train on ukWaC, FooCorp and BarBank."
    extra = coordination_cues(sentence, find_cues(sentence)[:0] + lexicon_cues(sentence))
    assert {(c.name, c.type) for c in extra} == {("FooCorp", "Dataset"), ("BarBank", "Dataset")}


def test_a_dataset_appositive_after_a_citation_and_with_a_size():
    found = cues("We check the vectors on SimBank (Lee et al., 2012), a 3,000 items word similarity data set.")
    assert ("dataset_appositive", "Dataset", "SimBank") in found


def test_a_citation_in_a_list_neither_breaks_it_nor_types_it():
    sentence = "Results on the NewsBank [4], TalkSet (12k samples) and QuoteBank [7] data sets are in Table 2."
    datasets = {c.name for c in find_cues(sentence) if c.type == "Dataset"}
    assert {"NewsBank", "TalkSet", "QuoteBank"} <= datasets


@pytest.mark.parametrize("sentence, names", [
    ("Public data sets such as PaperSet [22], and ScanBank [21] were built from PDF sources.", ["PaperSet", "ScanBank"]),
    ("We evaluate on three corpora: NewsBank, TalkSet and QuoteBank.", ["NewsBank", "TalkSet", "QuoteBank"]),
    ("Several benchmarks (MedQA, LawQA) exist.", ["MedQA", "LawQA"]),
])
def test_a_dataset_noun_introduces_a_list_of_datasets(sentence, names):
    assert [(c.family, c.type, c.name) for c in dataset_list_cues(sentence)] == \
        [("dataset_list", "Dataset", n) for n in names]


def test_a_list_of_citations_after_a_dataset_noun_names_no_dataset():
    for sentence in ("Models are often evaluated on paraphrase data sets (Blacoe and Lapata, 2012; Turney, 2012).",
                     "There is a lack of public datasets (Chen and Lee, 2018; Kanakia et al., 2019).",
                     "Corpora such as Huang et al. (2015) and Saier and Färber (2019) are smaller."):
        assert dataset_list_cues(sentence) == []


def test_table_cells_give_metric_headers_and_method_rows():
    header = {(c.type, c.name) for c in cell_cues("Model | P | R | F1", False)}
    assert header == {("Metric", "P"), ("Metric", "R"), ("Metric", "F1")}
    assert ("Method", "RoBERTa") in {(c.type, c.name) for c in cell_cues("RoBERTa | 81.2 | 80.1 | 80.6", True)}
    assert not any(c.type == "Method" for c in cell_cues("RoBERTa | 81.2 | 80.1 | 80.6", False))


def test_strong_names():
    assert strong_name("BERT") and strong_name("word2vec") and strong_name("ResNet-50") and strong_name("SciBERT")
    assert not strong_name("Wikipedia") and not strong_name("model")


def test_tasks_someone_addresses_or_builds_for():
    found = cues("We tackle the problem of citation recommendation in digital libraries.")
    assert ("task_address", "Task", "citation recommendation") in found
    assert ("task_address", "Task", "entity typing") in cues("This paper studies entity typing for noisy text.")
    found = cues("We describe a system for table structure recognition from scanned pages.")
    assert ("task_purpose", "Task", "table structure recognition") in found
    assert not any(f in ("task_address", "task_purpose") for f, _, _ in cues("We study a system for noisy text."))


def test_a_task_phrase_is_what_follows_its_last_stop_word():
    tasks = {n for _, t, n in cues("Gains come from learning across dependency parsing.") if t == "Task"}
    assert tasks == {"dependency parsing"}


def test_a_dataset_column_lists_datasets_but_not_its_total_row():
    lines = ["Dataset | Docs | Tables", "PaperSet | 120 | 40", "ScanBank v2 | 80 | 12", "Total | 200 | 52"]
    found = [(r, c.name, c.start, c.end, c.family) for r, c in column_cues(lines)]
    assert found == [(1, "PaperSet", 0, 8, "table_column"), (2, "ScanBank v2", 0, 11, "table_column")]
    lines = ["Dataset | Size", "Lee et al. (2015) | 120", "small set | 80", "MedBank | 40"]
    assert [c.name for _, c in column_cues(lines)] == ["MedBank"]  # citations and plain words are not names
    lines = ["Model | Corpus | F1", "TagNet | NewsBank | 81.0"]
    assert [(r, c.name, c.start) for r, c in column_cues(lines)] == [(1, "NewsBank", 9)]


def test_a_task_column_lists_tasks_without_their_notes():
    lines = ["Dataset | Task | F1", "NewsBank | NER | 81.0", "MedSet | DEP (UAS) | 90.1", "LawSet | Clause linking | 70.2"]
    found = [(r, c.type, c.name, c.start) for r, c in column_cues(lines)]
    assert found == [(1, "Dataset", "NewsBank", 0), (2, "Dataset", "MedSet", 0), (3, "Dataset", "LawSet", 0),
                     (1, "Task", "NER", 11), (2, "Task", "DEP", 9), (3, "Task", "Clause linking", 9)]


def test_a_row_without_its_spanning_first_cell_is_aligned_right():
    lines = ["Domain | Dataset | Task | F1", "Bio | MedSet | NER | 81.0", "LawSet | REL | 70.2"]
    assert [(r, c.type, c.name) for r, c in column_cues(lines)] == \
        [(1, "Dataset", "MedSet"), (2, "Dataset", "LawSet"), (1, "Task", "NER"), (2, "Task", "REL")]


def test_a_header_cell_with_an_arrow_lists_along_its_row():
    lines = ["Task → | Classification | Citation prediction | 1.5", "Model | 80.1 | 70.2 | 60.3"]
    assert [(r, c.type, c.name) for r, c in column_cues(lines)] == \
        [(0, "Task", "Classification"), (0, "Task", "Citation prediction")]


def test_a_task_phrase_that_is_a_whole_heading_is_a_stronger_cue():
    def strength(text, **kw):
        return {c.strength for c in find_cues(text, **kw) if c.family == "task_phrase" and c.name == "citation prediction"}
    assert strength("4.2 Citation Prediction", heading=True) == {0.6}
    assert strength("Citation Prediction with graphs", heading=True) == {0.35}
    assert strength("Fast Citation Prediction with Graphs", title=True) == {0.7}
    assert strength("4.2 Citation Prediction") == set()  # capitalised words in running text name no task
    assert strength("We cover 4.2 citation prediction") == {0.35}


def test_one_task_noun_is_a_task_only_in_a_task_context():
    assert {(f, n) for f, t, n in cues("Results on the summarization task are mixed.") if t == "Task"} == \
        {("task_context", "summarization")}
    assert {(f, n) for f, t, n in cues("We tackle segmentation with a new loss.") if t == "Task"} == \
        {("task_address", "segmentation")}
    assert not any(t == "Task" for _, t, _ in cues("Segmentation of the pages is fast."))


def test_task_phrases_drop_verbs_and_gerunds_that_name_no_task():
    assert ("task_context", "Task", "cross-lingual tagging") in cues("Results in the cross-lingual tagging task are mixed.")
    assert not any(t == "Task" for _, t, _ in cues("Results in the cross-lingual setting task are mixed."))
    assert not any(t == "Task" for _, t, _ in cues("Caching helps accelerate completion of jobs."))
    assert not any(t == "Task" for _, t, _ in cues("A model for parsing is trained."))


@pytest.mark.parametrize("title, task", [
    ("Noisy Matrix Decomposition via Convex Relaxation: Optimal Rates", "noisy matrix decomposition"),
    ("GraphSum: Document-level Representation Learning using Citation Graphs", "document-level representation learning"),
    ("IMPROVING DETECTION OF INFLUENTIAL NODES IN COMPLEX NETWORKS", "detection of influential nodes"),
])
def test_a_title_names_the_task_before_its_method_or_as_a_process_of_an_object(title, task):
    assert ("title_task", "Task", task) in cues(title, title=True)
    assert not any(f == "title_task" for f, _, _ in cues(title))


@pytest.mark.parametrize("title", ["Training Deep Networks with Dropout",
                                   "Stressful life events are not associated with the development of dementia",
                                   "VESPA: Very large-scale Evolutionary and Selective Pressure Analyses",
                                   "Analysis of Citation Graphs in Computer Science"])
def test_a_title_without_a_process_noun_before_its_method_names_no_task(title):
    assert not any(f == "title_task" for f, _, _ in cues(title, title=True))


def test_a_reference_to_a_subsection_names_no_dataset():
    assert not cues("The results on Subsection 4.2 show that the model trained on Subsection 3 data is better.")


def test_only_a_name_before_a_colon_is_a_title_prefix():
    assert ("title_task", "Task", "graph parsing") in cues("Graph parsing with transformers: a study", title=True)


def test_a_proper_name_inside_a_sentence_makes_a_task_phrase_a_methods_name():
    found = cues("Hazards were estimated with Cox regression and with the survival analysis of the cohort.")
    assert ("task_phrase", "Task", "survival analysis") in found
    assert not any(name.startswith("Cox") for _, kind, name in found if kind == "Task")
    assert ("task_phrase", "Task", "Named entity recognition") in cues("Named entity recognition is hard.")


@pytest.mark.parametrize("line", ["m0 | -2310.4 | 12", "m8a | -2290.1 | 14", "k1Neutral | -2301.7 | 13"])
def test_an_indexed_symbol_labelling_a_result_row_is_no_method(line):
    assert not any(c.family == "table_row" for c in cell_cues(line, True))


def test_a_name_of_letters_and_digits_labelling_a_result_row_is_a_method():
    assert ("table_row", "word2vec") in {(c.family, c.name) for c in cell_cues("word2vec | 71.2 | 12", True)}


def test_a_name_printed_twice_in_a_row_is_named_once():
    found = cues("Embeddings from ELMo ELMo (Peters et al., 2018) are a baseline.")
    assert ("cited", "Method", "ELMo") in found and ("cited", "Method", "ELMo ELMo") not in found


def test_searching_heads_a_task_phrase_as_search_does():
    tasks = {n for _, t, n in cues("Fast homology searching is the bottleneck of the pipeline.") if t == "Task"}
    assert "homology searching" in tasks


@pytest.mark.parametrize("adjective", ["alternative", "original", "basic", "advanced"])
def test_a_task_phrase_never_opens_with_an_adjective_of_a_variant(adjective):
    tasks = {n for _, t, n in cues(f"Each {adjective} alignment is scored against the reference.") if t == "Task"}
    assert not any(n.startswith(adjective) for n in tasks)
    found = cues(f"We study the {adjective} sequence alignment problem.")
    assert ("task_context", "Task", "sequence alignment") in found


def test_standard_statistical_measures_are_known_metrics():
    found = {(c.name, c.type) for c in lexicon_cues("The hazard ratio was 1.8 (95% CI 1.2-2.4, p-value 0.01).")}
    assert found == {("hazard ratio", "Metric"), ("95% CI", "Metric"), ("p-value", "Metric")}
    found = {c.name for c in lexicon_cues("Agreement was high (intraclass correlation coefficient 0.9), and the "
                                          "Spearman rank correlation coefficient was 0.7.")}
    assert found == {"intraclass correlation coefficient", "Spearman rank correlation coefficient"}
    assert not lexicon_cues("The mean and the variance of the scores are reported.")  # summaries, not measures


@pytest.mark.parametrize("line, metrics", [
    ("Model | P | R | F1", {"P", "R", "F1"}), ("Model | P | F1", {"P", "F1"}), ("Model | Prec. | R", {"Prec", "R"}),
    ("Gene | P | LRT", {"LRT"}),  # a p-value
    ("Jobs | R | Makespan ratio", set()),  # a number of resources
])
def test_a_one_letter_precision_or_recall_header_needs_its_partner(line, metrics):
    assert {c.name for c in cell_cues(line, False) if c.type == "Metric"} == metrics


def test_the_standard_measures_of_scheduling_are_known_metrics():
    found = {c.name for c in lexicon_cues("The makespan of the schedule and the mean response time both drop.")}
    assert found == {"makespan", "response time"}
