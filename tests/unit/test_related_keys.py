"""Which entries of two reference lists cite the same work: the title key written on each Reference
(kg.ingest.mapping.title_key) and the keys related papers match entries by (kg.find.related). A venue the parser read as
a title is shared by every paper citing that venue, so it must not make two entries one work."""

from kg.ingest.mapping import title_key
from kg.find.related import _reference_keys


def entry(title, doi=None, cited=None):
    return {"title_key": title_key(title), "doi": doi, "cited": cited}


def test_a_title_matches_by_its_normalised_words():
    assert title_key("Neural Citation Graphs for Scholarly Mining.") == title_key(
        "neural citation graphs for scholarly-mining")
    a = _reference_keys(entry("Neural Citation Graphs for Scholarly Mining."))
    b = _reference_keys(entry("neural citation graphs for scholarly-mining"))
    assert a & b


def test_a_title_too_short_to_tell_works_apart_has_no_key():
    assert title_key("Attention") is None and title_key("Deep learning") is None and title_key(None) is None
    assert title_key("Attention is all you need")


def test_a_venue_read_as_a_title_matches_nothing_but_a_title_beginning_with_in_does():
    for venue in ("In Advances in Neural Information Processing Systems, 2017",
                  "In Proceedings of the 56th Annual Meeting of the ACL", "in: International Conference on Learning"):
        assert title_key(venue) is None, venue
        assert _reference_keys(entry(venue)) == set(), venue
    assert _reference_keys(entry("In Defense of the Triplet Loss for Person Re-Identification"))


def test_a_venue_title_still_matches_by_doi_and_an_entry_by_the_paper_it_refers_to():
    keys = _reference_keys(entry("In Advances in Neural Information Processing Systems", doi="10.5555/ABC"))
    assert keys == {"doi:10.5555/abc"}
    assert _reference_keys(entry("Attention", cited="paper_x")) == {"paper:paper_x"}
