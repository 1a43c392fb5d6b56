"""Rules of the cross-paper answer (kg.qa.engine._papers_with) on a paper's evidence, without a graph: where an
edge was read and what a lone passage says."""

from kg.qa.engine import _everyday_word, _own_passages, _read_in_body, _reports_value, _says_it_uses
from kg.qa.names import NameForm


def _paper(*items: tuple[str | None, str]) -> dict:
    return {"paper_id": "p", "evidence": [{"section": section, "text": text} for section, text in items]}


def test_an_edge_read_in_the_body_of_a_paper_counts_one_read_around_its_own_work_does_not():
    assert _read_in_body(_paper(("Introduction", "..."), ("4.2 Experiments", "...")))
    assert _read_in_body(_paper((None, "...")))  # a passage with no section title (a one-page excerpt)
    assert not _read_in_body(_paper(("1 Introduction", "..."), ("2. Related Work", "...")))
    assert not _read_in_body(_paper(("Background", "...")))


def test_a_lone_passage_lists_its_paper_when_it_says_what_the_paper_does_with_the_name():
    forms = [NameForm("support vector machines"), NameForm("SVM", short=True)]
    assert _says_it_uses(_paper(("Method", "We classify each sentence with a linear SVM.")), forms)
    assert not _says_it_uses(_paper(("Method", "Kernels such as those of SVM solvers are fast.")), forms)
    assert not _says_it_uses(_paper(("Method", "The svm module of the toolkit is unused here.")), forms)


def test_a_passage_naming_a_thing_only_as_an_example_does_not_count_as_a_mention():
    forms = [NameForm("RoBERTa")]
    listed = "It can pretrain language models such as ELMo, BERT, RoBERTa and others."
    assert _own_passages(_paper(("Appendix", listed), ("Results", "RoBERTa reaches 83.2 F1.")), forms) == 1
    assert _own_passages(_paper(("Appendix", listed)), forms) == 0


def test_a_paper_found_by_the_name_of_a_measure_reports_it_by_a_value():
    """'accuracy' and 'recall' are everyday words: a passage reports the measure when a value stands by it."""
    forms = [NameForm("recall")]
    assert _reports_value(_paper(("Results", "Our tagger reaches a recall of 0.82 on the test set.")), forms)
    assert _reports_value(_paper(("Results", "Table 1 | Field: title | Precision: 85.5 | Recall: 85.5")), forms)
    assert _reports_value(_paper(("Results", "It finds 91% recall at this threshold.")), forms)
    assert not _reports_value(_paper(("Proofs", "Recall that here R(x) = ∥x∥1,2 is the dual norm [7, 11]."),
                                      ("Method", "We discuss recall in Section 4.2 (1994); Figure 3.2 plots recall.")),
                              forms)


def test_only_a_measure_named_by_an_everyday_word_needs_its_values():
    assert _everyday_word("accuracy") and _everyday_word("recall")
    assert not any(_everyday_word(n) for n in ("BLEU", "F1", "Kendall's tau", "area under the curve", "AUC"))
