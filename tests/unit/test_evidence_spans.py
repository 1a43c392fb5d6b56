"""Where an edge is stated in its passage (kg.read.evidence.edge_spans) and which boxes print it (span_boxes): every
box the spans touch, not the passage's first."""

from __future__ import annotations

from kg.read.evidence import edge_spans, span_boxes

TEXT = "We use BERT here. BERTScore is another thing. Then BERT again, where a token is a unit of text."
BOXES = ["1:0,0,100,10", "1:0,10,100,20", "2:0,0,100,10"]
STARTS = [0, 18, 46]  # the second box begins at "BERTScore", the third at "Then"


def test_the_mention_spans_an_edge_keeps_are_used_relative_to_the_passage():
    at = TEXT.index("BERT again")
    spans = edge_spans(TEXT, 1000, {"char_starts": [1000 + at], "char_ends": [1000 + at + 4]}, [{"name": "x"}])
    assert spans == [(at, at + 4)]


def test_a_definition_sentence_is_the_span_of_a_defines_edge():
    sentence = "where a token is a unit of text"
    [(start, end)] = edge_spans(TEXT, 0, {}, [{"name": "token", "definition": sentence.upper() + "  "}])
    assert TEXT[start:end] == sentence


def test_names_and_aliases_are_found_as_whole_words_only():
    spans = edge_spans(TEXT, None, {}, [{"name": "bert", "aliases": ["unit of text"]}, {"title": "a paper"}])
    assert [TEXT[a:b] for a, b in spans] == ["BERT", "BERT", "unit of text"]


def test_every_box_a_span_touches_is_kept():
    first, again = TEXT.index("BERT"), TEXT.index("BERT again")
    assert span_boxes(BOXES, STARTS, [(again, again + 4)]) == [BOXES[2]]
    assert span_boxes(BOXES, STARTS, [(first, first + 4), (again, again + 4)]) == [BOXES[0], BOXES[2]]
    assert span_boxes(BOXES, STARTS, [(10, 30)]) == BOXES[:2]  # one span across a line break


def test_no_spans_or_no_box_offsets_give_no_boxes():
    assert span_boxes(BOXES, STARTS, []) == []
    assert span_boxes(BOXES, [], [(0, 4)]) == []
