"""Filters for what is never an entity: the paper's own people, venues and organisations, section words,
studies and text units; each on hand-written strings, and all of them on a generated PDF."""

from __future__ import annotations

import pytest

from extractors.pipeline import parse_pdf
from extractors.semantic.extract import extract_semantics
from extractors.semantic.non_entities import (NonEntities, capitals_labels, cited_people, common_words,
                                              is_artefact, is_objectless, is_section_word, is_study_phrase,
                                              organisation_names, printed_people, surnames, venue_names)
from tests.pdf_factory import entities_paper, write


def test_surnames_of_parsed_authors_but_not_of_title_fragments():
    names = ["Alice Smith", "P. A. Estevez", "Smith, A.", "Lucas van der Berg", "Selecting the most influential nodes"]
    assert surnames(names) == {"Smith", "Estevez", "Berg"}


def test_people_printed_in_references_and_cited_in_text():
    assert printed_people(["P. A. Estevez, K. Saito, Selecting nodes, in: Neural Networks, 2007.",
                           "Liu, Y., Lapata, M.: Text summarization. EMNLP (2019)", "Moussa MN, Steen MR, Brain."]) \
        == {"Estevez", "Saito", "Liu", "Lapata", "Moussa", "Steen"}
    text = ("As Liu et al. showed (Etzioni, 2011; Chen and Lee, 2018), Citeomatic (2018) and Wikipedia 2018 "
            "help; We et al. is no name.")
    assert cited_people([text]) == {"Liu", "Etzioni", "Chen", "Lee"}


def test_venues_from_reference_fields():
    venues = venue_names(["In Proceedings of the 2019 Conference on Neural Information Processing Systems "
                          "(NeurIPS), pages 1-9, 2019.", "Association for Computational Linguistics."])
    filters = NonEntities(venues=frozenset(venues))
    assert "neurips" in venues and "association for computational linguistics" in venues
    for name in ("NeurIPS", "Neural Information Processing Systems", "Association for Computational Linguistics"):
        assert filters.excludes("Method", name), name
    assert not filters.excludes("Method", "Information Processing")  # two words of a venue name a thing
    assert not filters.excludes("Task", "Neural Information Processing Systems")


def test_a_title_left_in_a_venue_field_is_no_venue():
    """Two merged entries leave the second one's title in the first one's venue field."""
    venues = venue_names(["[2] A. Lee and B. Kim. Sparse routing attention for long documents. 2026."])
    assert not NonEntities(venues=frozenset(venues)).excludes("Method", "Sparse Routing Attention")


def test_organisations_from_affiliations_and_email_domains():
    orgs = organisation_names(["Google Research, Mountain View, CA", "Allen Institute for AI"],
                              ["x.y@baidu.com", "z@cam.ac.uk"])
    filters = NonEntities(organisations=frozenset(orgs))
    assert all(filters.excludes("Method", n) for n in ("Google", "Google Research", "Allen Institute for AI", "Baidu"))
    assert not filters.excludes("Method", "Mountain View")  # a place, not an organisation line's part
    assert not filters.excludes("Method", "CAM")  # a short domain may spell a method's acronym


def test_a_lexicon_dataset_stays_even_when_it_names_a_venue():
    filters = NonEntities(venues=frozenset(venue_names(["In SQuAD, 2016."])))
    assert filters.excludes("Method", "SQuAD") is False


@pytest.mark.parametrize("name, expected", [
    ("error analysis", True), ("detailed analysis", True), ("ablation study", True), ("human evaluation", True),
    ("sentiment analysis", False), ("discourse analysis", False), ("citation analysis", False)])
def test_studies_are_not_tasks(name, expected):
    assert is_study_phrase(name) is expected
    assert NonEntities().excludes("Task", name) is expected


@pytest.mark.parametrize("name, expected", [("inference", True), ("Classification", True), ("scheduling", True),
                                            ("parallel inference", False), ("document classification", False),
                                            ("summarization", False), ("parsing", False)])
def test_a_task_head_alone_needs_its_object(name, expected):
    assert is_objectless(name) is expected
    assert NonEntities().excludes("Task", name) is expected


@pytest.mark.parametrize("name, expected", [("URLs", True), ("PDF files", True), ("URL encoder", False),
                                            ("word embeddings", False)])
def test_text_units_are_not_methods(name, expected):
    assert is_artefact(name) is expected


@pytest.mark.parametrize("name, expected", [("Related Work", True), ("Experimental Setup", True), ("III-C", True),
                                            ("VII", True), ("GraphRank", False), ("Viterbi", False)])
def test_section_words(name, expected):
    assert is_section_word(name) is expected


def test_common_words_opening_sentences_are_not_names():
    prose = ["Theoretical results follow. The theoretical bound and the theoretical rate hold.",
             "Complex networks are complex. We ran PubMed; Pubmed is large, see pubmed.gov and x@pubmed."]
    assert common_words(["Theoretical", "Complex", "Pubmed", "GraphRank"], prose) == {"Theoretical", "Complex"}


PARAGRAPHS = ["We propose GraphRank, a ranking model for citation recommendation, and compare it with Liu [1] and "
              "with Neural Information Processing Systems [2] baselines. Liu [1] uses PageRank.",
              "GraphRank outperforms Liu [1] on the CiteBench dataset, and Google [3] is used to crawl URLs [3]. "
              "We compare with Liu [1] and Google [3] in terms of recall. A detailed analysis follows; the error "
              "analysis task shows where GraphRank fails."]
REFERENCES = ("[1] Y. Liu and M. Lapata. Text summarization with pretrained encoders. In Proceedings of the 2019 "
              "Conference on Neural Information Processing Systems (NeurIPS), pages 1-9, 2019.",
              "[2] H. Kim. Ranking citations. In Advances in Neural Information Processing Systems, 2020.",
              "[3] B. Jones. Crawling the web. Journal of Tests, 2011.")


def test_a_papers_people_venues_and_organisations_never_become_entities(tmp_path):
    """The text cites Liu, a venue and Google as it cites methods ('compare with X [1]'), and names a study as a
    task: only the reference list, the byline and language tell them apart from GraphRank and PageRank."""
    pdf = write(tmp_path, "p.pdf", entities_paper("GraphRank: Ranking Citations", PARAGRAPHS, REFERENCES,
                                                  ("Alice Smith and Bob Jones", "Google Research, Mountain View")))
    found = extract_semantics(parse_pdf(pdf)).annotations.entities
    methods, tasks, datasets = ({e.entity.name for e in found if e.entity.label == label}
                                for label in ("Method", "Task", "Dataset"))
    assert {"GraphRank", "PageRank"} <= methods
    assert not methods & {"Liu", "NeurIPS", "Neural Information Processing Systems", "Google", "URLs"}
    assert "citation recommendation" in tasks and not tasks & {"error analysis", "detailed analysis"}
    assert "CiteBench" in datasets


def test_people_organisations_and_identifiers_by_their_form():
    filters = NonEntities(people=frozenset({"Jones", "Liu"}))
    excluded = ("Jones", "Liu and Jones", "Jones's", "German Research Foundation", "Stanford University", "IIS-0844566")
    kept = ("Jones tagger", "ResNet-50", "newstest2013", "DUC Corpus", "Company")
    assert all(filters.excludes("Method", n) for n in excluded)
    assert not any(filters.excludes("Method", n) for n in kept)


@pytest.mark.parametrize("name", ["eV", "GeV", "GHz", "MB"])
def test_a_unit_symbol_is_no_method_dataset_or_metric(name):
    assert all(NonEntities().excludes(label, name) for label in ("Method", "Dataset", "Metric"))


def test_a_unit_symbol_cited_after_a_mass_is_no_method():
    from extractors.semantic.entities import analyse_passages
    from extractors.semantic.passages import Passage

    text = ("A boson of mass 10^-22 eV [4] forms the halo. For masses near 10^-22 eV [7] the peaks shift, and "
            "above 10^-21 eV [9] they do not.")
    assert "eV" not in {e.name for e in analyse_passages([Passage(text, "Result")]).ranked}


def test_ordinary_words_set_in_capitals_are_a_label_not_a_name():
    prose = ["The cost per stream is lower at full-rate, and our experimental setup is simple. A car was hired."]
    names = ["COST PER FULL-RATE STREAM", "EXPERIMENTAL SETUP", "MS MARCO", "TREC CAR", "ACE 2005", "BERT"]
    assert capitals_labels(names, prose) == {"COST PER FULL-RATE STREAM", "EXPERIMENTAL SETUP"}


def test_a_label_in_capitals_never_becomes_an_entity():
    from extractors.semantic.entities import analyse_passages
    from extractors.semantic.passages import Passage

    passages = [Passage("We store video with round-robin placement on disk arrays (Lee et al., 2001).", "Abstract"),
                Passage("DISK ARRAY PLACEMENT [4] and MS MARCO [5] are compared. Disk array placement puts each "
                        "stream apart, and the placement is fixed.", "Method"),
                Passage("DISK ARRAY PLACEMENT [4] is slower than MS MARCO [5] in every run.", "Experiment")]
    names = {e.name for e in analyse_passages(passages).ranked}
    assert "DISK ARRAY PLACEMENT" not in names and "MS MARCO" in names
