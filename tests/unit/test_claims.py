"""Claim checks without a database: the numbers a claim states and their units, the comparison of a printed
number with a claimed one, the words and names a claim is about, and how a sentence is read against a claim."""

import pytest

from kg.qa.answer import Unit
from kg.qa.claims import parse_claim, percentage_context, quantities, same_kind, same_number
from kg.qa.verify import claim_names, read


def one(text):
    [number] = quantities(text)
    return number


def test_numbers_with_separators_scales_percent_and_words():
    found = [(q.value, q.percent, q.text) for q in quantities(
        "S2ORC has 81.1M papers, 7,918 families, 92.1% F1, 0.959 TEDs, fifteen men, 8x faster and 16.4B tokens.")]
    assert found == [(81_100_000.0, False, "81.1M"), (7918.0, False, "7,918"), (92.1, True, "92.1%"),
                     (0.959, False, "0.959"), (15.0, False, "fifteen"), (8.0, False, "8x"),
                     (pytest.approx(16.4e9), False, "16.4B")]


def test_digits_in_names_labels_and_citations_are_not_numbers():
    text = "On ACE2005 and S2-VL (Table 2, Fig. 3, Section 4) SciBERT [12, 14] reaches 76.8 with R1 and ℓ1."
    assert [q.text for q in quantities(text)] == ["76.8"]


def test_a_number_agrees_to_the_precision_printed():
    claimed = one("92.1")
    assert same_number(claimed, one("92.10"))
    assert same_number(claimed, one("92.14"))
    assert not same_number(claimed, one("92.2"))
    assert not same_number(claimed, one("92.16"))
    assert same_number(one("92"), one("92.3"))  # the claim rounds
    assert not same_number(one("2.4"), one("2"))  # 'around 2' does not confirm 2.4
    assert same_number(one("81.1M"), one("81,100,000"))
    assert same_number(one("81.1M"), one("81.12 million"))
    assert not same_number(one("81.1M"), one("82.1M"))
    assert not same_number(one("7,918"), one("7,919"))


def test_percentage_and_share_of_one_agree_only_for_a_percentage():
    assert same_number(one("92.1"), one("0.921"), percentage=True)
    assert not same_number(one("92.1"), one("0.921"), percentage=False)
    assert same_number(one("92.1%"), one("0.921"))  # printed with % on one side: a percentage either way
    assert same_number(one("92.1%"), one("92.1"))
    assert same_number(one("0.959"), one("95.9"), percentage=True)
    assert not same_number(one("0.959"), one("95.8"), percentage=True)
    assert not same_number(one("92.1"), one("0.931"), percentage=True)
    assert not same_number(one("92.1"), one("0.92"), percentage=True)  # printed less precisely than claimed


def test_numbers_of_different_units_are_not_of_a_kind():
    assert [q.unit for q in quantities("A cluster of 200 processors ran 40 tasks, 1.9 on average, 57.6 | 12")] == [
        "processor", "task", None, None, None]
    assert same_kind(one("128 processors"), one("200 processors"))
    assert same_kind(one("57.6 F1"), one("57.6"))  # a table cell: no unit printed beside it
    assert not same_kind(one("57.6 F1"), one("8,000 tokens"))


def test_a_percentage_context_comes_from_the_metric_or_the_sign():
    assert percentage_context("SemEAGAT reaches 76.8 F1 on ACE2005")
    assert percentage_context("The title accuracy is 0.93")
    assert percentage_context("R1 holds 57.5% of the importance")
    assert not percentage_context("S2ORC contains 81.1M papers")


def test_a_claim_without_its_numbers_is_what_retrieval_searches():
    claim = parse_claim("SemEAGAT  reaches 76.8 F1 on the ACE2005 test set")
    assert [q.text for q in claim.numbers] == ["76.8"]
    assert claim.about == "SemEAGAT reaches F1 on the ACE2005 test set"
    assert claim.key_terms == ["semeagat", "f1", "ace2005", "test"]  # "set": a word of phrasing ("data set")
    assert claim_names(claim) == ["semeagat", "ace2005"]
    assert claim.percentage


def test_names_are_inner_capitals_digits_or_capitalised_words_after_the_first():
    claim = parse_claim("The proposed method is evaluated on the Middlebury benchmark with a GeForce GTX 680")
    assert claim_names(claim) == ["middlebury", "geforc", "gtx"]  # stemmed, as passages are
    assert claim_names(parse_claim("VESPA automates codeML")) == ["vespa", "codeml"]
    assert claim_names(parse_claim("It reaches 80.0 MAP and 76.8 F1")) == []  # metrics are not names


def unit(text, kind="text"):
    chunk = {"id": "c1", "text": text, "kind": kind, "bboxes": [], "page_start": 3, "paper_sha256": "x"}
    return Unit(chunk, 0, len(text), 1.0, 1.0)


def test_a_sentence_stating_the_claimed_number_agrees():
    claim = parse_claim("SemEAGAT reaches 76.8 F1 on ACE2005")
    reading = read(claim, unit("On ACE2005, SemEAGAT achieves an F1 score of 76.8, 1.2 above the best baseline."))
    assert reading.names and reading.about == 1.0
    assert [n.text for n in reading.agreeing] == ["76.8"]
    assert [n.text for n in reading.other] == ["1.2"]


def test_a_number_of_another_kind_neither_agrees_nor_contradicts():
    claim = parse_claim("Routed attention reaches 57.6 F1 on long questions")
    reading = read(claim, unit("Routed attention gains most on long questions, beyond 8,000 tokens."))
    assert (reading.agreeing, reading.other) == ((), ())


def test_a_sentence_stating_another_number_does_not_agree():
    claim = parse_claim("SemEAGAT reaches 78.6 F1 on ACE2005")
    reading = read(claim, unit("On ACE2005, SemEAGAT achieves an F1 score of 76.8."))
    assert reading.names and not reading.agreeing
    assert [n.text for n in reading.other] == ["76.8"]


def test_a_sentence_without_a_name_of_the_claim_is_not_about_it():
    claim = parse_claim("SemEAGAT reaches 76.8 F1 on MAVEN")
    assert not read(claim, unit("On ACE2005, SemEAGAT achieves an F1 score of 76.8.")).names


def test_a_table_row_is_read_with_its_caption():
    claim = parse_claim("GrobidCRF obtains 78.9 F1 on the Grobid Subset")
    text = "Table 2: F1 on the Grobid Subset of S2-VL.\n\nGrobidCRF | 78.9\nI-VILA | 92.7"
    row = text.index("GrobidCRF")
    reading = read(claim, Unit({"id": "t", "text": text, "kind": "table"}, row, row + 16, 1.0, 1.0))
    assert reading.names and reading.about == 1.0 and [n.text for n in reading.agreeing] == ["78.9"]
