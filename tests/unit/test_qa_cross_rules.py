"""Rules of the cross-paper answer (kg.qa.engine._papers_with) on a paper's evidence, without a graph: where an
edge was read and what a lone passage says."""

from kg.qa.engine import _own_passages, _read_in_body, _says_it_uses
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
