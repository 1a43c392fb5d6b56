"""Retrieval's question analysis (kg.qa.analysis) and the rule that keeps the fulltext winner in the evidence
(kg.qa.retrieval.keep_lexical_winner). Exact outputs on hand-written questions."""

import re

from hypothesis import given
from hypothesis import strategies as st

from kg.read.fulltext import MAX_TERMS, lucene_query
from kg.qa.analysis import (abbreviation_forms, number_forms, other_number, printed_symbols, search_words,
                             symbol_forms)
from kg.qa.retrieval import disputed_winner, keep_lexical_winner, question_query, spread_pages


def test_symbols_with_scripts_search_as_a_text_layer_spells_them():
    assert symbol_forms("What is T_pc in the model?") == ["Tpc", "pc"]
    assert symbol_forms("What is T_{pc}?") == ["Tpc", "pc"]
    assert symbol_forms("How large is E^2?") == ["E2"]
    assert symbol_forms("Which state_of_art tool?") == []  # a word joined by underscores is no symbol
    assert search_words("What is T_{pc}?") == ["t_pc", "tpc", "pc"]


def test_greek_letters_spelt_out_search_as_the_symbols_printed():
    assert search_words("What value of Omega_m is assumed?") == ["value", "omega_m", "assumed", "\u03c9m", "\u03c9_m",
                                                                 "values"]
    assert "\u03c72" in search_words("What chi-squared value is obtained?")
    assert "\u03b1" in search_words("What is the alpha of the prior?")
    assert not any("\u0370" <= c <= "\u03ff" for w in search_words("Which alphabet is used?") for c in w)


def test_the_symbols_a_question_names_are_read_as_printed():
    assert printed_symbols("What value of Omega_m is assumed?") == ["\u03a9m"]
    assert printed_symbols("What is T_{pc} at alpha = 1?") == ["Tpc", "\u03b1"]
    assert printed_symbols("Which alphabet is used?") == []


def test_the_frame_of_a_question_is_not_searched():
    assert search_words("Roughly how many machines ran?") == ["machines", "ran", "machine"]
    assert "long" not in search_words("How long were the seeds vernalized?")


def test_numbers_search_in_their_other_spellings():
    assert number_forms("How many of the 5,000 samples?") == ["5000"]
    assert number_forms("Is it 3.0 or 2.50?") == ["3", "2.5"]
    assert number_forms("Which layer is 5nm thick?") == ["5", "nm", "nanometer", "nanometers"]
    assert number_forms("Which layer is 5 nm thick?") == ["nanometer", "nanometers"]
    assert number_forms("How long, in milliseconds?") == ["ms"]


def test_percentages_search_as_fractions_and_back():
    assert number_forms("Which model reached 85% accuracy?") == ["percent", "percentage", "0.85"]
    assert number_forms("Which model reached 12.5 percent?") == ["0.125"]
    assert number_forms("Which model scored 0.85?") == ["85"]
    assert number_forms("Which model scored 1.5?") == []  # not a fraction: no percentage


def test_a_word_searches_in_its_other_number():
    assert [other_number(w) for w in ("datasets", "dataset", "studies", "study", "matches", "match")] == [
        ["dataset"], ["datasets"], ["study"], ["studies"], ["match"], ["matches"]]
    assert [other_number(w) for w in ("analysis", "trained", "training", "class", "mostly")] == [[]] * 5


def test_the_papers_abbreviations_search_in_the_other_form():
    pairs = [("KB", "knowledge base"), ("NER", "named entity recognition")]
    assert abbreviation_forms("Which knowledge base was linked?", pairs) == ["kb"]
    assert abbreviation_forms("Which KBs were linked?", pairs) == ["knowledge", "base"]
    assert abbreviation_forms("Which KB and knowledge base?", pairs) == []  # both forms already searched
    assert abbreviation_forms("How was NER evaluated?", pairs) == ["named", "entity", "recognition"]
    assert abbreviation_forms("Which knowledge was used?", pairs) == []  # a word of the long form is not the form


def test_the_question_query_is_plain_lucene_words_with_numbers_whole():
    assert question_query("What is T_pc at 0.959?") == "t_pc OR 0.959 OR tpc OR pc OR 95.9"
    assert lucene_query("F1 of 0.959 on 7,918 pairs, then 3.") == "f1 OR of OR 0.959 OR on OR 7,918 OR pairs OR then"
    assert question_query("What is \"graph*\" (AND)?") == "graph OR graphs"  # syntax never reaches Lucene


@given(st.text(alphabet=st.sampled_from("Tp_c^{}5,0.9% nmKBs()-'\"*:?ANDOR \n"), max_size=400) | st.text(max_size=200))
def test_any_question_gives_a_bounded_query_of_plain_words(question):
    """Whatever a user asks, analysis raises nothing and the query stays words OR-ed, within the term bound."""
    query = question_query(question, [("KB", "knowledge base")])
    terms = query.split(" OR ") if query else []
    assert all(re.fullmatch(r"[^\s\"()\[\]{}^~*?:/!+&|]+", t) for t in terms), query
    assert sum(len(re.findall(r"[^\W_]+", t)) for t in terms) <= MAX_TERMS


def item(chunk_id, page=1):
    return {"chunk_id": chunk_id, "page": page}


def test_the_fulltext_winner_takes_third_place_when_fusion_leaves_it_out():
    evidence = [item("a"), item("b", page=2), item("c", page=3), item("d"), item("bm25", page=7)]
    winner = item("bm25", page=7)
    kept = keep_lexical_winner(evidence, winner)
    assert [i["chunk_id"] for i in kept] == ["a", "b", "bm25", "c", "d"]  # its later item is gone, none lost
    assert kept[2]["page"] == 7
    assert [i["chunk_id"] for i in keep_lexical_winner(evidence[:4], winner)] == ["a", "b", "bm25", "c", "d"]
    assert [i["page"] for i in keep_lexical_winner(evidence, winner)][:3] == [1, 2, 7]


def test_the_fulltext_winner_already_in_the_top_three_changes_nothing():
    evidence = [item("a"), item("bm25"), item("c"), item("d")]
    assert keep_lexical_winner(evidence, item("bm25")) == evidence
    on_its_page = [item("a"), item("b", page=7), item("c"), item("bm25", page=7)]
    assert keep_lexical_winner(on_its_page, item("bm25", page=7)) == on_its_page  # its page is shown already
    assert keep_lexical_winner(evidence, None) == evidence
    assert keep_lexical_winner([item("a")], item("bm25", page=7)) == [item("a"), item("bm25", page=7)]


def test_the_fulltext_winner_is_disputed_only_when_fusion_ranks_it_below_the_head():
    lexical = [{"id": "bm25"}, {"id": "x"}]
    fused = [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "bm25"}]
    assert disputed_winner(lexical, fused) == {"id": "bm25"}  # fourth in fusion: its place is kept
    assert disputed_winner(lexical, [{"id": "a"}, {"id": "bm25"}, {"id": "c"}]) is None  # fusion agrees
    assert disputed_winner(lexical, [{"id": "a"}]) == {"id": "bm25"}  # fusion dropped it
    assert disputed_winner([], fused) is None


def test_the_first_three_evidence_items_show_three_pages_when_the_list_has_them():
    items = [{"chunk_id": c, "page": p} for c, p in (("a", 5), ("b", 5), ("c", 5), ("d", 4), ("e", 6), ("f", 4))]
    assert [i["chunk_id"] for i in spread_pages(items)] == ["a", "d", "e", "b", "c", "f"]
    same = [{"chunk_id": c, "page": 2} for c in "xyz"]  # one page only: the order stays
    assert spread_pages(same) == same
    assert spread_pages([]) == []
