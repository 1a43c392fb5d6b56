"""The duplicate detector as a pure function: which pairs it proposes, why, and that blocking keeps it from
comparing every pair."""

from __future__ import annotations

from extractors.semantic import duplicates
from extractors.semantic.duplicates import Definition, Named, acronym_letters, initials, propose


def _pairs(candidates) -> set[frozenset[str]]:
    return {frozenset((c.source, c.target)) for c in candidates}


def test_an_abbreviation_and_its_expansion_are_proposed_by_initials_and_by_the_text():
    entities = [Named("Dataset", "d1", "S2ORC"), Named("Dataset", "d2", "Semantic Scholar Open Research Corpus"),
                Named("Method", "m1", "SVM"), Named("Method", "m2", "support vector machines"),
                Named("Method", "m3", "LSTM"), Named("Method", "m4", "long short-term memory")]
    found = propose(entities, [Definition("LSTM", "long short-term memory", "chunk_7")])
    assert _pairs(found) == {frozenset(("d1", "d2")), frozenset(("m1", "m2")), frozenset(("m3", "m4"))}
    defined = next(c for c in found if c.source == "m3")
    assert defined.score == duplicates.DEFINED and defined.chunk_ids == ("chunk_7",)
    assert defined.reasons[0] == "abbreviation: the text defines 'LSTM' as 'long short-term memory'"
    by_initials = next(c for c in found if c.source == "d1")
    assert by_initials.score == duplicates.INITIALS and "spells the initials" in by_initials.reasons[0]


def test_spelling_variants_are_proposed_but_narrower_names_other_words_and_numbers_are_not():
    entities = [Named("Concept", "c1", "tokenization"), Named("Concept", "c2", "tokenisation"),
                Named("Method", "t1", "Sparse Routing Transformer"), Named("Method", "t2", "sparse routing transfromer"),
                Named("Method", "m1", "neural network"), Named("Method", "m2", "recurrent neural network"),
                Named("Metric", "x1", "labeled attachment score"), Named("Metric", "x2", "unlabeled attachment score"),
                Named("Method", "g1", "GROBID"), Named("Method", "g2", "GrobidNN"),
                Named("Method", "r1", "RealtimeBP"), Named("Method", "r2", "RealtimeBFV"),
                Named("Method", "m3", "ResNet-50"), Named("Method", "m4", "ResNet-101"),
                Named("Dataset", "d1", "CIFAR-10"), Named("Dataset", "d2", "CIFAR-100")]
    assert _pairs(propose(entities)) == {frozenset(("c1", "c2")), frozenset(("t1", "t2"))}


def test_two_nodes_of_one_name_are_proposed_first():
    entities = [Named("Metric", "x1", "F1-score"), Named("Metric", "x2", "F1 score"),
                Named("Method", "m1", "SVM"), Named("Method", "m2", "support vector machine")]
    found = propose(entities)
    assert [(c.source, c.target, c.score) for c in found] == [("x1", "x2", duplicates.SAME_NAME),
                                                               ("m1", "m2", duplicates.INITIALS)]
    assert found[0].reasons == ("same name: 'F1-score' and 'F1 score'",)


def test_an_entity_is_never_its_own_duplicate():
    entities = [Named("Dataset", "d1", "NCBI-disease", aliases=("NCBI disease",)), Named("Dataset", "d2", "GENIA")]
    assert propose(entities) == []


def test_two_letter_acronyms_need_the_text_to_define_them():
    entities = [Named("Method", "m1", "TM"), Named("Method", "m2", "Translation Matrix")]
    assert propose(entities) == []
    assert _pairs(propose(entities, [Definition("TM", "translation matrix")])) == {frozenset(("m1", "m2"))}


def test_only_entities_of_one_label_pair_up():
    entities = [Named("Dataset", "d1", "SQuAD"), Named("Task", "t1", "Stanford Question Answering Dataset"),
                Named("Metric", "x1", "F1 score"), Named("Task", "t2", "F1 scores")]
    assert propose(entities) == []


def test_aliases_count_as_names():
    entities = [Named("Method", "m1", "BERT", aliases=("Bidirectional Encoder Representations from Transformers",)),
                Named("Method", "m2", "bidirectional encoder representations from transformer")]
    assert _pairs(propose(entities)) == {frozenset(("m1", "m2"))}


def test_the_embedding_cosine_holds_back_a_spelling_match_whose_meaning_differs():
    entities = [Named("Concept", "c1", "tokenization"), Named("Concept", "c2", "tokenisation")]
    orthogonal = lambda names: [[1.0, 0.0], [0.0, 1.0]][: len(names)]  # noqa: E731
    same = lambda names: [[1.0, 0.0]] * len(names)  # noqa: E731
    assert propose(entities, embed=orthogonal) == []
    (candidate,) = propose(entities, embed=same)
    assert "embedding cosine 1.00" in candidate.reasons


def test_results_are_ordered_best_first_and_do_not_depend_on_input_order():
    entities = [Named("Method", "m2", "support vector machine"), Named("Method", "m1", "SVM"),
                Named("Method", "m3", "CNN"), Named("Method", "m4", "convolutional neural network")]
    definitions = [Definition("CNN", "convolutional neural network")]
    forward, backward = propose(entities, definitions), propose(entities[::-1], definitions)
    assert forward == backward
    assert [c.score for c in forward] == sorted((c.score for c in forward), reverse=True)
    assert forward[0].source == "m3"


def test_initials_and_acronym_letters():
    assert initials("Semantic Scholar Open Research Corpus") == "ssorc"
    assert initials("Bidirectional Encoder Representations from Transformers") == "bert"
    assert initials("word") == ""
    assert acronym_letters("S2ORC") == "ssorc"
    assert acronym_letters("BiLSTM") == "bilstm"
    assert acronym_letters("tokenization") == ""


def test_blocking_keeps_a_large_label_far_from_quadratic(monkeypatch):
    """Unrelated names share no block, so the pairs judged grow with the names, not their square."""
    judged: list[tuple[str, str]] = []
    real = duplicates._judge

    def counting(label, a, b, *rest):
        judged.append((a.id, b.id))
        return real(label, a, b, *rest)

    monkeypatch.setattr(duplicates, "_judge", counting)
    words = ["".join(chr(97 + (i * 7 + k * 3) % 26) for k in range(8)) + f"q{i:04d}" for i in range(1000)]
    entities = [Named("Concept", f"c{i}", f"{w} alpha{i % 50:02d}") for i, w in enumerate(words)]
    propose(entities)
    assert len(judged) < 1000 * 30, len(judged)  # all pairs would be about half a million
