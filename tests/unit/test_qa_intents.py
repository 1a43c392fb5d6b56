"""Question analysis: each intent's patterns with the exact intent they produce, and questions that must stay
with retrieval (a description of a value is not a term to define)."""

import pytest

from kg.qa.intents import Intent, analyse, paper_names


@pytest.mark.parametrize("question, intent", [
    ("Which datasets does the paper use?", Intent("entities_of_paper", "Dataset", ("USES", "EVALUATES_ON"))),
    ("Which methods does this work propose?", Intent("entities_of_paper", "Method", ("PROPOSES",))),
    ("What metrics are reported in the paper?", Intent("entities_of_paper", "Metric", ("MEASURES",))),
    ("What tasks does the paper address?", Intent("entities_of_paper", "Task", ("ADDRESSES",))),
    ("Which benchmarks do the authors evaluate on?", Intent("entities_of_paper", "Dataset", ("EVALUATES_ON",))),
    ("Where is Figure 3?", Intent("where_element", "Figure", number="3")),
    ("On which page is Table A.2?", Intent("where_element", "Table", number="A.2")),
    ("Where is Section 4.1 of the paper?", Intent("where_element", "Section", number="4.1")),
    ("What does Table 1 show?", Intent("element_content", "Table", number="1")),
    ("What is shown in Fig. 2?", Intent("element_content", "Figure", number="2")),
    ("What is routing attention?", Intent("definition", names=("routing attention",))),
    ("What does OTSL mean?", Intent("definition", names=("OTSL",))),
    ("What does the evaluation metric PSNR stand for?", Intent("definition", names=("PSNR",))),
    ("What does the abbreviation SHOP refer to in this paper?", Intent("definition", names=("SHOP",))),
    ('What does the paper mean by a "straggler"?', Intent("definition", names=("straggler",))),
    ("What do the authors mean by routing attention?", Intent("definition", names=("routing attention",))),
    ("What are the results of SRT on PG-19?", Intent("results", names=("SRT", "PG-19"))),
    ("How does SRT perform on the PG-19 benchmark?", Intent("results", names=("SRT", "PG-19 benchmark"))),
    ("Which papers use PG-19?", Intent("papers_with", relations=("USES",), names=("PG-19",))),
    ("Which papers propose the Transformer?", Intent("papers_with", relations=("PROPOSES",), names=("Transformer",))),
    ("Which papers cite Attention is all you need?",
     Intent("papers_with", relations=("CITES",), names=("Attention is all you need",))),
    ("List papers that address relation extraction",
     Intent("papers_with", relations=("ADDRESSES",), names=("relation extraction",))),
    ("What papers report BLEU?", Intent("papers_with", relations=("MEASURES",), names=("BLEU",))),
    ("Which of the papers evaluated on the Penn Treebank?",
     Intent("papers_with", relations=("EVALUATES_ON",), names=("Penn Treebank",))),
    ("Find all papers which mention GeoQuery", Intent("papers_with", relations=("MENTIONS",), names=("GeoQuery",))),
    ("Compare SRT and the Transformer", Intent("compare", names=("SRT", "Transformer"))),
    ("What is the difference between BM25 and TF-IDF?", Intent("compare", names=("BM25", "TF-IDF"))),
    ("How does SRT compare to Longformer?", Intent("compare", names=("SRT", "Longformer"))),
])
def test_intents(question, intent):
    assert analyse(question) == intent


@pytest.mark.parametrize("question", [
    "What is the title accuracy of paper clustering in the evaluation?",
    "What is the resolution of the new synthetic stereo video sequence?",
    "How many gene families from the Selectome database were used to benchmark VESPA?",
    "Which multiple sequence alignment programs were used to generate the alternative alignments?",
    "On which data sets are OTSL and HTML compared in the quantitative results?",
    "What F1 does GrobidCRF obtain on the Grobid Subset in Table 2?",
])
def test_other_questions_go_to_retrieval(question):
    assert analyse(question) == Intent("search")


# ------------------------------------------------------------------ a paper the question names

TITLE_ONLY, NAME = frozenset({"id", "doi", "arxiv", "title"}), frozenset({"title", "short title"})
IDS = frozenset({"id", "doi", "arxiv"})


@pytest.mark.parametrize("question, names", [
    ("In the BERT paper, which datasets are used?", [("BERT", NAME, "which datasets are used?")]),
    ("Which datasets does the BERT paper use?", [("BERT", NAME, "Which datasets does the paper use?")]),
    ("In the original BERT paper: which metrics are reported?",
     [("original BERT", NAME, "which metrics are reported?"), ("BERT", NAME, "which metrics are reported?")]),
    ('What does "Attention Is All You Need" propose?',
     [("Attention Is All You Need", TITLE_ONLY, "What does the paper propose?")]),
    ("In \u201cAttention Is All You Need\u201d, which datasets are used?",
     [("Attention Is All You Need", TITLE_ONLY, "which datasets are used?")]),
    ("Which methods does arXiv:1810.04805v2 propose?",
     [("arXiv:1810.04805v2", IDS, "Which methods does the paper propose?")]),
    ("Which datasets does 1810.04805 use?", [("1810.04805", IDS, "Which datasets does the paper use?")]),
    ("Which tasks does 10.18653/v1/N19-1423 address?",
     [("10.18653/v1/N19-1423", IDS, "Which tasks does the paper address?")]),
    ("How long are the books of the LongBench paper?",
     [("LongBench", NAME, "How long are the books of the paper?")]),
    ("Which datasets does the paper use?", []),
    ("What is the accuracy of 93.5 on SQuAD?", []),
])
def test_names_a_question_gives_a_paper(question, names):
    assert [(n.name, n.accepts, n.question) for n in paper_names(question)] == names
