from extractors.scoring import (abstract_correct, norm, norm_label, references_correct, score_floats, score_paper,
                                score_sections, title_correct)


def test_norm_removes_numbering_and_punctuation():
    assert norm("3.2  Related-Work:") == "related work"
    assert norm("IV. RESULTS") == "results"
    assert norm("A.1 Comparison") == "comparison"
    assert norm_label("Figure 3") == norm_label("3") == "3"
    assert norm_label("Table IV") == "iv"


def test_sections_one_to_one_with_levels():
    gold = [{"title": "Introduction", "level": 1, "page": 1}, {"title": "Related Work", "level": 1, "page": 2},
            {"title": "Method", "level": 1, "page": 3}]
    pred = [{"title": "1 Introduction", "level": 1, "page": 1}, {"title": "Introduction", "level": 2, "page": 1},
            {"title": "2 Related work", "level": 2, "page": 2}]
    c = score_sections(gold, pred)
    assert (c.matched, c.predicted, c.gold) == (2, 3, 3)
    assert c.rate("level") == 0.5  # ties go to the first prediction: Introduction level 1 ok, Related Work not
    assert round(c.f1, 4) == round(2 * (2 / 3) * (2 / 3) / (4 / 3), 4)


def test_floats_by_label_with_page_and_caption():
    gold = [{"label": "1", "page": 2, "caption_start": "Overview of the system"},
            {"label": "2", "page": 4, "caption_start": "Results on the test set"}]
    pred = [{"label": "Figure 1", "page": 2, "caption": "Overview of the system architecture and data flow."},
            {"label": "2", "page": 5, "caption": "Something else entirely"}]
    c = score_floats(gold, pred)
    assert (c.matched, c.extra["page"], c.extra["caption"]) == (2, 1, 1)


def test_title_abstract_references():
    assert title_correct("Identifying Relations for Open IE", "Identifying relations for open IE.")
    assert not title_correct("Identifying Relations for Open IE", "Microsoft Word - x.doc")
    gold = {"start": "We introduce the problem", "end": "expressions in Italian)."}
    assert abstract_correct(gold, "We introduce the problem of x ... expressions in Italian). Extra")
    assert not abstract_correct(gold, "We introduce the problem of x")
    assert references_correct(32, 33) and references_correct(100, 105) and not references_correct(100, 106)
    assert not references_correct(10, None)


def test_missing_prediction_scores_empty():
    gold = {"title": "A Title", "authors": ["A B"], "abstract": {"start": "x", "end": "y"}, "references_count": 3,
            "sections": [{"title": "Intro", "level": 1, "page": 1}], "figures": [], "tables": [],
            "equations": {"numbered": [], "unnumbered_display_count": 0}}
    s = score_paper(gold, {})
    assert s["sections"].recall == 0 and s["title"].matched == 0 and s["references"].matched == 0
