"""The fulltext-query builders (kg/read/fulltext.py), property-tested: whatever the user types, the Lucene query is
plain words (or one quoted phrase) with no syntax of the user's, and bounded in size. The same builders are
run against a real fulltext index in tests/integration/test_fulltext_neo4j.py."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from kg.read.fulltext import MAX_TERMS, lucene_phrase, lucene_query

# Characters and words Lucene's classic query parser reads as syntax, mixed into arbitrary text.
LUCENE_SYNTAX = ["AND", "OR", "NOT", "TO", "&&", "||", "!", "+", "-", "(", ")", "{", "}", "[", "]", "^", '"', "~",
                 "*", "?", ":", "\\", "/", "'", "_", " ", "a-b", "x", "word"]
user_text = st.one_of(st.text(max_size=300),
                      st.lists(st.one_of(st.sampled_from(LUCENE_SYNTAX), st.text(max_size=8)), max_size=120)
                      .map(" ".join),
                      st.lists(st.sampled_from(LUCENE_SYNTAX), max_size=120).map("".join))


def terms_of(query: str) -> list[str]:
    return query.split(" OR ") if query else []


def runs(text: str) -> int:
    return len(re.findall(r"[^\W_]+", text))


@given(user_text)
@example("AND")
@example("a AND b OR NOT c")
@example("-".join(["w"] * 3000))
@example(" ".join(f"w{i}" for i in range(2000)))
def test_query_is_plain_words_or_ed_and_bounded(text):
    query = lucene_query(text)
    terms = terms_of(query)
    for term in terms:
        assert term not in {"AND", "OR", "NOT", "&&", "||"}  # never an operator of the user's
        assert term == term.lower()
        assert re.fullmatch(r"[^\s\"()\[\]{}^~*?:/!+&|]+", term), term  # no unescaped syntax character
        assert "\\" not in term.replace("\\-", "").replace("\\'", "")  # only the builder's own escapes
        assert not term.endswith("\\")
    assert sum(runs(term) for term in terms) <= MAX_TERMS


@given(user_text)
def test_query_keeps_the_words_of_short_text_in_order(text):
    """Every word of two or more letters/digits is looked for (lower-cased), while the text is within bounds."""
    words = re.findall(r"[^\W_]{2,}", text)
    if sum(runs(w) for w in re.findall(r"[\w'-]+", text)) > MAX_TERMS:
        return
    looked_for = " ".join(terms_of(lucene_query(text)))
    position = 0
    for word in words:
        position = looked_for.find(word.lower(), position)
        assert position >= 0, (word, looked_for)


def test_operator_words_become_search_words():
    assert lucene_query("AND") == "and"
    assert lucene_query("NOT found OR lost") == "not OR found OR or OR lost"
    assert lucene_query("state-of-the-art don't") == "state\\-of\\-the\\-art OR don\\'t"
    assert lucene_query("* ? ( ) !! --") == ""


@given(user_text)
@example('say "hi" \\ (now)')
@example(" ".join(["w"] * 1000))
def test_phrase_is_one_quoted_phrase_without_syntax_of_its_own(text):
    phrase = lucene_phrase(text)
    if not phrase:  # only when no word within the bound has a letter or digit
        taken = 0
        for word in text.split():
            taken += runs(word)
            if taken > MAX_TERMS:
                break
            assert runs(word) == 0, text
        return
    assert phrase.startswith('"') and phrase.endswith('"') and len(phrase) >= 3
    inner = phrase[1:-1]
    unescaped = re.sub(r"\\.", "", inner)
    assert not re.search(r'[+\-!(){}\[\]^"~*?:\\/&|]', unescaped), phrase  # every syntax character escaped
    assert runs(inner) <= MAX_TERMS


def test_phrase_keeps_the_text_with_syntax_escaped():
    assert lucene_phrase('graph "neural" nets') == '"graph \\"neural\\" nets"'
    assert lucene_phrase("a/b (c)") == '"a\\/b \\(c\\)"'
    assert lucene_phrase("?? !!") == ""
