"""The extractors' regexes run on text from untrusted PDFs and questions: each must take time linear in its
input. Every case feeds a long adversarial line (the repeating shape that made the old pattern backtrack) and
must finish well inside a generous bound; the old patterns took minutes on these inputs. Beside each, the
pattern still finds what it found before."""

from __future__ import annotations

import multiprocessing

import pytest

from extractors import domains, floats, layout, mentions, metadata, pubyear, references, summaries
from extractors.semantic import concepts, patterns, results

LONG = 200_000
BOUND = 5.0  # seconds: a linear pattern needs milliseconds here, a quadratic one minutes


def _run(fn, text: str) -> None:
    fn(text)


def finishes(fn, text: str) -> bool:
    """Whether fn(text) returns within BOUND; run in a forked process so that a runaway pattern is killed,
    not left holding the interpreter."""
    worker = multiprocessing.get_context("fork").Process(target=_run, args=(fn, text), daemon=True)
    worker.start()
    worker.join(BOUND)
    if worker.is_alive():
        worker.kill()
        worker.join()
        return False
    return worker.exitcode == 0


def repeat(unit: str, tail: str = "!") -> str:
    return unit * (LONG // len(unit)) + tail


ADVERSARIAL = {
    "leader: dots": (floats.LEADER_RE.search, repeat(".")),
    "leader: spaced dots": (floats.LEADER_RE.search, repeat(". ")),
    "leader: dots then spaces": (floats.LEADER_RE.search, "...." + repeat(" ", "x")),
    "email: a long word": (metadata._EMAIL.findall, repeat("_", "\0")),
    "email: unclosed braces": (metadata._EMAIL.findall, repeat("{a")),
    "email: unclosed parentheses": (metadata._EMAIL.findall, repeat("(a")),
    "membership: spaces": (metadata._MEMBERSHIP.findall, repeat(" ", "x")),
    "marks: digits and commas": (metadata._MARKS.findall, repeat("1,")),
    "row label: one long word": (results._LABEL.match, repeat("a", "\0")),
    "row label: words, no number": (results._LABEL.match, repeat("a ", "x")),
    "word before a footnote mark: letters": (layout._AFTER_WORD.search, repeat("e", "\0")),
    "result-cell markers: spaces": (results._MARKERS.findall, repeat(" ", "x")),
    "result row: many values": (lambda text: results.split_row([text]), repeat("1 ", "")),
    "result row: one long number": (lambda text: results.split_row([text]), repeat("1", "†x")),
    "inverted author names: spaces": (references.INVERTED_RE.findall, repeat(" ")),
    "definition 'X, i.e.': a hyphenated run": (concepts._DEFINITIONS[5][0].search, repeat("a-", "\0")),
    "citation numbers: spaces": (mentions.expand, "1" + repeat(" ", "-2")),
    "cross-reference labels: spaces": (mentions.expand_labels, "1" + repeat(" ", "x")),
    "reference authors: spaces": (references.split_authors, "A" + repeat(" ", "x")),
    "author line: a run of marks": (metadata._names, "A" + repeat("1", "\0")),
    "proceedings line without a year": (pubyear._PROCEEDINGS.search, repeat("proceedings 12 ")),
    "copyright signs without a year": (pubyear._COPYRIGHT.search, repeat("© ")),
    "domain seed phrases: a phrase's first word then hyphens": (lambda text: domains.Tagger(domains.Seeds.load()).score(
        [domains.Passage("c", text, 1)]), repeat("meta-")),
    "domain seed phrases: words then spaces": (lambda text: domains.Tagger(domains.Seeds.load()).score(
        [domains.Passage("c", text, 1)]), repeat("randomized controlled  ")),
    "domain venues: abbreviations' stops and spaces": (lambda text: domains.Tagger(domains.Seeds.load()).score(
        [], [domains.Passage("c", text, 1)]), repeat("Phys. Rev.  J ")),
    "summary words: a letter then hyphens": (summaries._WORD.findall, "a" + repeat("-")),
    "summary words: letters and underscores": (summaries._WORD.findall, repeat("a_", "_")),
    "received dates without a year": (pubyear._MILESTONE.search, repeat("received 12 may ")),
    "arXiv ids without a stamp": (pubyear._ARXIV_STAMP.search, repeat("arxiv:1810.04805v2 ")),
    "date ranges without a year": (pubyear._DATE_RANGE.search, repeat("june 1 - 6 ")),
    "author-year item: capitals": (mentions.ITEM_RE.search, repeat("A")),
    "author-year item: particles": (mentions.ITEM_RE.search, repeat("van ", "x")),
    "narrative citation: mixed case": (mentions.NARRATIVE_RE.search, repeat("aA")),
    "coordinated list: commas, no 'and'": (patterns._LIST.findall, repeat("Ab, ")[:LONG // 2]),
    "author after a name: spaces": (patterns._AUTHOR_AFTER.match, repeat(" ", "x")),
    "a dataset after a proposal: spaces": (lambda text: patterns._dataset_after().match(text), repeat(" ", "x")),
    "proposed (our): spaces": (lambda text: family("proposed_our")(text), "our model" + repeat(" ", "x")),
    "task phrase: a hyphenated run": (lambda text: family("task_phrase")(text), repeat("A-", "x")),
    **{f"{name}: capitals": (lambda text, name=name: family(name)(text), repeat("A"))
       for name in ("cited", "method_head", "dataset_head", "proposed_appositive", "dataset_appositive")},
    **{f"{name}: mixed case": (lambda text, name=name: family(name)(text), repeat("aA"))
       for name in ("cited", "method_head", "dataset_head")},
}


def family(name: str):
    """All matches of one of the semantic pattern families."""
    return lambda text: list(patterns._compiled()[name][0].finditer(text))


@pytest.mark.parametrize("case", ADVERSARIAL, ids=str)
def test_pattern_is_linear_on_adversarial_input(case):
    fn, text = ADVERSARIAL[case]
    assert finishes(fn, text), f"{case}: over {BOUND} s on {len(text):,} characters"


@pytest.mark.parametrize("text, leader", [
    ("Architecture ....... 45", True), ("Results . . . . 12", True), ("Results . . . . .", True),
    ("Overview ....\n", True), ("Methods .... 3 ", True),
    ("Architecture ... 45", False), ("Results .... 12 more", False), ("Overview .... page", False),
    ("e.g. .... a. b. c. d", False), ("", False),
])
def test_leader_pattern_keeps_its_matches(text, leader):
    assert bool(floats.LEADER_RE.search(text)) is leader


@pytest.mark.parametrize("line, emails", [
    ("alice@example.org", ["alice@example.org"]),
    ("A. Smith (a.smith+kg@cs.uni-x.de), B. Jones", ["a.smith+kg@cs.uni-x.de"]),
    ("{alice, bob}@example.org and (carol)@lab.net", ["{alice, bob}@example.org", "(carol)@lab.net"]),
    ("first.last@sub.domain.co.uk; x@y.z", ["first.last@sub.domain.co.uk", "x@y.z"]),
    ("no address @ here", []), ("user@localhost", []),
])
def test_email_pattern_keeps_its_matches(line, emails):
    assert metadata._EMAIL.findall(line) == emails


@pytest.mark.parametrize("line, cleaned", [
    ("John Smith, Member, IEEE", "John Smith,"),
    ("Jane Doe, Senior Member, IEEE, and Joe Bloggs, Fellow, IEEE", "Jane Doe,, and Joe Bloggs,"),
    ("Ann Lee ,Life Fellow IEEE", "Ann Lee ,"),
    ("Members of the IEEE board", "Members of the IEEE board"),
])
def test_membership_pattern_keeps_its_matches(line, cleaned):
    assert metadata._MEMBERSHIP.sub(",", line) == cleaned


@pytest.mark.parametrize("part, cleaned", [
    ("Smith1,2", "Smith"), ("*Jones", "Jones"), ("Lee†‡", "Lee"), ("Kim 3, 4", "Kim 3, "), ("Park", "Park"),
    ("12 Smith", " Smith"),
])
def test_marks_pattern_keeps_its_matches(part, cleaned):
    assert metadata._MARKS.sub("", part) == cleaned


@pytest.mark.parametrize("row, label", [
    ("BERT 91.2 88.0", "BERT"), ("Our model (large) 93.1 -0.4", "Our model (large)"),
    ("2-layer LSTM  +1.5", "2-layer LSTM"), ("GPT 2 85.0", "GPT"), ("ResNet-50\t76.1", "ResNet-50"),
    ("91.2 88.0", None), ("BERT base", None), ("Model\nname 91.2", None),
])
def test_row_label_pattern_keeps_its_matches(row, label):
    found = results._LABEL.match(row)
    assert (found and found.group("label")) == label


@pytest.mark.parametrize("text, after_word", [
    ("the model", True), ("Straße", True), ("results.", True), ("(see [3])", True), ("of a", False),
    ("x2", False), ("snake_", False), ("ab\n", True), ("", False),
])
def test_after_word_pattern_keeps_its_matches(text, after_word):
    assert bool(layout._AFTER_WORD.search(text)) is after_word


@pytest.mark.parametrize("name, text, found", [
    ("method_head", "we train a 3DConv network", "DConv"),  # a name may start after digits
    ("method_head", "the aFoo/Bar network", "Foo/Bar"),  # or after a lower-case letter, if the word needs it
    ("cited", "unlike non-BERT (Devlin et al., 2019) models", "BERT"),
    ("cited", "word2vec [12] and GloVe", "word2vec"),
    ("dataset_head", "experiments on the WikiSQL dataset", "WikiSQL"),
    ("dataset_appositive", "We use WikiText-103 (Merity et al., 2017), a large corpus of articles", "WikiText-103"),
    ("proposed_appositive", "SciBERT, a new pretrained language model for science", "SciBERT"),
    ("proposed_our", "our model, called FooNet, wins", "FooNet"),
    ("task_phrase", "progress in named entity recognition", "in named entity recognition"),
])
def test_semantic_families_keep_their_matches(name, text, found):
    assert [m.group("n") for m in family(name)(text)][:1] == [found]


@pytest.mark.parametrize("text, after", [
    (" et al. (2019)", True), (" and Lee, 2018", True), (" and Leeet al", True), (" and Lee2018", True),
    (" (2019a)", True), (" is a model", False),
])
def test_author_after_pattern_keeps_its_matches(text, after):
    assert bool(patterns._AUTHOR_AFTER.match(text)) is after


def test_coordinated_list_pattern_keeps_its_matches():
    assert patterns._LIST.search("corpora: ukWaC, Wikipedia and BNC.").group(0) == "ukWaC, Wikipedia and BNC"
    assert patterns._LIST.search("PubTabNet [22], FinTabNet (113k samples) or PubTables-1M").group(0) == \
        "PubTabNet [22], FinTabNet (113k samples) or PubTables-1M"


def test_result_cell_markers_and_inverted_names_keep_their_matches():
    assert results._MARKERS.sub("", "BERT (ours)*") == "BERT"
    assert results._MARKERS.sub("", "GPT  (this work)†") == "GPT"
    assert [m["surname"] for m in references.INVERTED_RE.finditer("Smith, J., Jones, A. B. and van der Berg, C.")] \
        == ["Smith", "Jones"]
    assert [m["surname"] for m in references.INVERTED_RE.finditer("Smith, J. & Lee, K.-H.")] == ["Smith", "Lee"]


@pytest.mark.parametrize("text, term", [
    ("The F1 score, i.e., the harmonic mean", "The F1 score"), ("We define the gap score as the", "gap score"),
    ("Perplexity is defined as the", "Perplexity"), ("a hyper-parameter, i. e. a value", "a hyper-parameter"),
])
def test_definition_patterns_keep_their_matches(text, term):
    found = next(m for pattern, _ in concepts._DEFINITIONS if (m := pattern.search(text)))
    assert found.group("t") == term


def test_citation_numbers_labels_and_authors_keep_their_splits():
    assert mentions.expand("3, 5-7 ;9") == [3, 5, 6, 7, 9]
    assert mentions.expand_labels("2 to 4 and 6") == ["2", "3", "4", "6"]
    assert references.split_authors("A. Smith, B. Jones, and C. Lee") == ["A. Smith", "B. Jones", "C. Lee"]
    assert references.split_authors("A. Smith & B. Jones et al.") == ["A. Smith", "B. Jones"]
    assert references.split_authors("Smith, A., Jones, B.") == ["A. Smith", "B. Jones"]


@pytest.mark.parametrize("item, name, year", [
    ("Smith et al., 2019", "Smith", "2019"), ("see van der Berg and Lee 2020a", "van der Berg", "2020a"),
    ("O'Neil & Jean-Luc Picard, 1999", "O'Neil", "1999"), ("e.g.McDonald 2001", "McDonald", "2001"),
    ("1999a", None, None),
])
def test_author_year_item_pattern_keeps_its_matches(item, name, year):
    found = mentions.ITEM_RE.search(item)
    assert (found and (found["name"], found["year"])) == (name and (name, year))


@pytest.mark.parametrize("before, name", [
    ("as shown by Smith et al. ", "Smith"), ("following de la Cruz and Brown ", "de la Cruz"),
    ("in Vaswani ", "Vaswani"), ("in the work of ", None),
])
def test_narrative_citation_pattern_keeps_its_matches(before, name):
    found = mentions.NARRATIVE_RE.search(before)
    assert (found and found["name"]) == name
