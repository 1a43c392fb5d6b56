"""The names a cross-paper question's entity goes by (kg.qa.names), on hand-written names and passages."""

import pytest

from kg.qa.names import (NameForm, broader, defines_otherwise, initialism, is_initialism, kind_label, name_forms,
                         names_entity, narrower, only_as_example, spelled_alike, spellings, spells_otherwise,
                         states_use, task_object, written_as_initialism)


@pytest.mark.parametrize("name, forms", [
    ("Europarl corpus", ["Europarl corpus", "Europarl"]),
    ("WMT benchmarks", ["WMT benchmarks", "WMT"]),
    ("Penn Treebank", ["Penn Treebank"]),  # a capitalised kind noun is part of the name
    ("support vector machines", ["support vector machines", "SVMs", "SVM"]),
    ("latent Dirichlet allocation", ["latent Dirichlet allocation", "LDA"]),
    ("conditional random field model", ["conditional random field model", "conditional random field", "CRF"]),
    ("TextRunner", ["TextRunner"]),
    ("entity linking", ["entity linking", "entity linker"]),  # two words: no initialism
    ("hidden Markov models", ["hidden Markov models", "hidden Markov", "HMMs", "HMM"]),  # the kind noun's initial
    ("Gibbs sampling", ["Gibbs sampling", "Gibbs sampler"]),
])
def test_a_name_goes_by_itself_its_bare_name_and_its_initialism(name, forms):
    assert [f.text for f in name_forms(name)] == forms


def test_no_initialism_of_short_names_or_names_written_with_inner_capitals():
    assert initialism("bag of concepts") is None  # 'of' gives no letter: two words
    assert initialism("Generalized BiLSTM Tagger") is None
    assert initialism("word sense disambiguation") == "WSD"


def test_a_short_form_defined_as_something_else_is_another_name():
    other = ["We project the features with linear discriminant analysis (LDA) before training."]
    same = ["Topics come from latent Dirichlet allocation (LDA) with 100 topics."]
    assert defines_otherwise(other, "LDA", "latent Dirichlet allocation")
    assert not defines_otherwise(same, "LDA", "latent Dirichlet allocation")
    assert not defines_otherwise(["We train a linear SVM."], "SVM", "support vector machines")  # used, not defined
    assert not defines_otherwise(["Support Vector Machines (SVMs) separate the classes."], "SVMs",
                                 "support vector machines")


def test_an_entity_named_as_another_long_form_of_the_short_form_is_another_thing():
    asked = "latent Dirichlet allocation"
    assert spells_otherwise(["linear discriminant analysis", "LDA"], "LDA", asked)
    assert not spells_otherwise(["Latent Dirichlet Allocation", "LDA"], "LDA", asked)  # case aside, the same
    assert not spells_otherwise(["LDA"], "LDA", asked)  # the short form alone says nothing of its meaning
    assert not spells_otherwise(["support vector machine", None], "SVMs", "support vector machines")


def test_only_an_initialism_is_marked_short():
    assert name_forms("support vector machines") == [NameForm("support vector machines"), NameForm("SVMs", short=True),
                                                     NameForm("SVM", short=True)]
    assert name_forms("WMT benchmarks") == [NameForm("WMT benchmarks"), NameForm("WMT")]


def test_an_entity_whose_names_leave_out_words_of_the_name_asked_is_a_wider_thing():
    assert broader(["Information Extraction", "IE"], "open information extraction")
    assert not broader(["open information extraction"], "Open Information Extraction")
    assert not broader(["OIE", "open information extraction"], "open information extraction")  # one name is it
    assert not broader(["support vector machine"], "support vector machines")  # another number, not fewer words


@pytest.mark.parametrize("task, obj", [
    ("web spam detection", "web spam"),
    ("semantic role labeling", "semantic role"),
    ("entity linking", None),  # one word left names too much
    ("open information extraction", "open information"),
    ("semantic parsing of questions", None),  # no process noun at its end
])
def test_a_task_named_by_its_object_and_process_is_stated_by_its_object(task, obj):
    assert task_object(task) == obj


@pytest.mark.parametrize("name, variants", [
    ("Kendall's tau", ["Kendall's τ", "Kendall tau", "Kendall\u2019s tau"]),
    ("Cohen\u2019s kappa", ["Cohen\u2019s κ", "Cohen kappa", "Cohen's kappa"]),
    ("ACE 2005", ["ACE2005"]),
    ("CoNLL 2009 shared task", ["CoNLL2009 shared task"]),
    ("semantic role labeling", ["semantic role labeler", "semantic role labelling"]),
    ("topic modeling", ["topic modeler", "topic models", "topic modelling"]),  # the task of making topic models
    ("text summarisation", ["text summarization"]),
    ("advertising", []),  # only the endings whose two spellings are one word
    ("Penn Treebank", []),
    ("parsing", []),  # one word: the agent noun names a tool, not the process
])
def test_a_name_is_also_written_with_the_conventions_of_its_spelling(name, variants):
    assert spellings(name) == variants


def test_an_initialism_is_found_only_where_written_in_capitals():
    assert written_as_initialism("We report MAP and nDCG.", "MAP")
    assert written_as_initialism("a higher mAP score", "MAP")
    assert written_as_initialism("two HMMs", "HMM")
    assert not written_as_initialism("the occlusion map and the disparity map", "MAP")
    assert not written_as_initialism("a hadoop Map/Reduce cluster", "MAP")
    assert not written_as_initialism("the MAPLE system", "MAP")


def test_a_name_of_one_word_with_two_capitals_is_sought_as_an_initialism():
    assert is_initialism("MAP") and is_initialism("SVMs") and is_initialism("TextRunner")
    assert not is_initialism("Europarl") and not is_initialism("Penn Treebank") and not is_initialism("ACE2005")


def test_a_passage_names_an_entity_by_a_name_or_an_alias_written_as_such():
    names = ["mean average precision", "MAP"]
    assert names_entity("We evaluate performance using MAP and nDCG.", names)
    assert names_entity("Mean Average Precision with a 0.75 IOU threshold", names)
    assert not names_entity("the ground truth disparity, occlusion map, and discontinuity map", names)
    assert names_entity("trained on sections 02-21 of the Penn treebanks", ["Penn Treebank"])


@pytest.mark.parametrize("text, name, short", [
    ("Sentences were parsed by Collins' model 2 (Bikel, 2004) (trained on sections 02-21 of the WSJ Penn Treebank) "
     "to generate an initial parse tree.", "Penn Treebank", False),
    ("We plot the ROC curve in Figure 1. We obtain a significant AUC of 0.71.", "AUC", True),
    ("The classifier is a linear SVM trained on bag-of-words features.", "SVM", True),
])
def test_a_passage_saying_what_the_paper_does_with_a_thing_states_its_use(text, name, short):
    assert states_use(text, name, short)


@pytest.mark.parametrize("text, name", [
    ("Most research on named entity recognition reports results on datasets such as CoNLL-2003 and ACE 2005.",
     "ACE 2005"),  # one example of many
    ("BM25 is a TF-IDF variant introduced in TREC-3 (Robertson et al., 1992).", "TREC"),  # others' work
    ("We also plan to evaluate document-level models (e.g., latent Dirichlet allocation).",
     "latent Dirichlet allocation"),  # a plan
    ("For the applications of syntactic and semantic parsing, the parsing time is very important.",
     "semantic parsing"),  # 'parsing' of the name is no verb, 'applications' no use
    ("Hidden Markov models and stochastic grammars are variants studied within machine learning.",
     "hidden Markov models"),  # no verb of use
])
def test_a_passage_naming_a_thing_aside_does_not_state_its_use(text, name):
    assert not states_use(text, name)


@pytest.mark.parametrize("text, name, short, example", [
    ("S2ORC is large enough to pretrain language models such as ELMo, BERT, RoBERTa, GPT2, and others, whose "
     "training data sizes are given in Table 9.", "RoBERTa", False, True),
    ("Mentions are linked in archives such as the ACL Anthology and CiteSeerX, or in graphs.", "CiteSeerX", False,
     True),
    ("Kernels (e.g., SVMs) are slow.", "SVM", True, True),
    ("We keep CS categories to exclude irrelevant entities, e.g., \u201cLord of the Rings\u201d in DBpedia.", "DBpedia",
     False, False),  # the example is another thing, named in DBpedia
    ("We use two knowledge bases, UMLS and DBpedia.", "DBpedia", False, False),
    ("Such as it is, the corpus is small. We train on the Penn Treebank.", "Penn Treebank", False, False),
])
def test_a_thing_named_as_one_example_of_a_list_is_named_only_as_an_example(text, name, short, example):
    assert only_as_example(text, name, short) is example


def test_a_name_with_another_word_is_not_the_name_asked_in_another_spelling():
    assert not spelled_alike("data extraction", "metadata extraction")
    assert spelled_alike("conditional random fields", "conditional random field")
    assert spelled_alike("topic modelling", "topic modeling")
    assert spelled_alike("BERTLARGE", "BERT-large")  # the same letters spaced otherwise
    assert not spelled_alike("named entity", "named entity recognition")
    assert not spelled_alike("CIFAR-100", "CIFAR-10") and not spelled_alike("ResNeXt", "ResNet")  # another model
    assert spelled_alike("Kendall's tau", "Kendall tau")


def test_a_name_holding_the_name_asked_with_more_words_is_a_narrower_kind_of_it():
    assert narrower("adapting open information extraction", "open information extraction")
    assert narrower("biomedical named entity recognition", "named entity recognition")
    assert not narrower("data extraction", "metadata extraction")
    assert not narrower("sparse information extraction", "open information extraction")
    assert not narrower("open information extraction", "open information extraction")  # the name itself


def test_the_data_of_a_named_resource_is_the_resource_a_common_nouns_data_is_not():
    assert name_forms("SemEval data") == [NameForm("SemEval data"), NameForm("SemEval")]
    assert name_forms("training data") == [NameForm("training data")]


def test_the_noun_of_a_names_kind_says_its_label():
    """'the EM algorithm' is a method even where 'EM' is also exact match, a metric."""
    assert [kind_label(n) for n in ("EM algorithm", "Penn Treebank", "routing problems", "BLEU score", "BERT")] == [
        "Method", "Dataset", "Task", "Metric", None]


def test_a_one_letter_alias_names_nothing_unless_the_entity_has_no_other_name():
    assert not names_entity("Let r = L / C be the uniform ratio.", ["recall", "r"])
    assert names_entity("We fit the models in R with lme4.", ["R"])
