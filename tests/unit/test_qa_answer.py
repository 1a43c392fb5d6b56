"""Extractive answers: sentence splitting, scoring, composition within 300 characters, page of a sentence,
and the benchmark's scoring rules. Exact outputs on hand-made passages."""

import pytest

from bench.qa import Scored, _pieces, answer_correct, by_kind, evidence_hit, qa_norm
from kg.qa.answer import (ANSWER_CHARS, _has_new_name, _words, compose, confidence, evidence_units,
                          locate_in_chunk, score_units, short_forms, units_of, with_other_forms)
from kg.qa.engine import _not_named_in
from kg.qa.reader import NUMERIC_Q
from kg.qa.retrieval import LIST_HEAD, fuse, with_heads
from kg.qa.text import abbreviations, question_proper, sentences, stem, terms, tokens

PASSAGE = ("We ran all experiments on a cluster of 200 processors. Each run used 40 random task sets (Fig. 3 shows "
           "the spread). The scheduler, as in Smith et al. 2004, is written in C.")


def chunk(id, text, score=1.0, bboxes=None, page=1):
    return {"id": id, "text": text, "score": score, "bboxes": bboxes or [], "page_start": page, "paper_sha256": "x"}


def test_sentences_keep_abbreviations_inside():
    assert [PASSAGE[a:b] for a, b in sentences(PASSAGE)] == [
        "We ran all experiments on a cluster of 200 processors.",
        "Each run used 40 random task sets (Fig. 3 shows the spread).",
        "The scheduler, as in Smith et al. 2004, is written in C.",
    ]


def test_tokens_keep_numbers_whole_and_terms_drop_question_words():
    assert tokens("S2ORC has 81.1M papers, 7,918 families and 0.959 TEDs.") == [
        "s2orc", "has", "81.1m", "papers", "7,918", "families", "and", "0.959", "teds"]
    assert terms("How many processors does the simulated cluster have?") == ["processor", "simulat", "cluster"]
    assert [stem(w) for w in ("datasets", "families", "trained", "class")] == ["dataset", "family", "train", "class"]


def test_long_sentences_become_clause_windows_within_an_answer():
    long = "Results: " + ", ".join(f"model {i} reaches {i}.5 points" for i in range(30)) + "."
    spans = units_of(long)
    assert all(b - a <= 300 for a, b in spans)
    assert spans[0][0] == 0 and max(b for _, b in spans) == len(long)


def test_a_long_table_row_is_one_unit_whose_cell_asked_for_leads_the_answer():
    """A row whose named cells run past an answer's length is not cut into windows: the cell the question asks for,
    far along the row, is still read with the row's label and table."""
    cells = " | ".join(f"{data} {metric}: 0.{n}{m}" for n, data in enumerate(("MIMIC-III-MED", "MIMIC-IV-GU", "eICU"))
                       for m, metric in enumerate(("Jaccard", "DDI", "PRAUC", "F1")))
    row = f"Table 2 | Methods: KEHGCN | {cells}"
    assert len(row) > 300 and units_of(row) == ((0, len(row)),)
    units = score_units("What Jaccard score does KEHGCN reach on eICU?", [chunk("c1", row)])
    assert units[0].answer_text.startswith("Table 2, KEHGCN, eICU Jaccard: 0.20")


def test_numeric_question_prefers_the_sentence_with_a_new_number():
    units = score_units("How many processors does the cluster have?", [chunk("c1", PASSAGE)])
    assert units[0].text == "We ran all experiments on a cluster of 200 processors."
    answer, taken = compose(units)
    assert answer.startswith("We ran all experiments on a cluster of 200 processors.")
    assert len(answer) <= ANSWER_CHARS + 120 and taken[0] is units[0]


def test_no_support_gives_an_empty_answer_and_low_confidence():
    units = score_units("What is the boiling point of mercury?", [chunk("c1", PASSAGE)])
    assert compose(units) == ("", [])
    assert confidence([]) == 0.0


def test_a_chunk_without_box_starts_gives_its_first_box_and_one_without_boxes_its_page():
    text = "A" * 100 + " second half " + "B" * 100
    c = chunk("c1", text, bboxes=["4:50,600,300,700", "5:50,60,300,160"], page=4)
    assert locate_in_chunk(c, 150) == (4, "4:50,600,300,700")
    assert locate_in_chunk(chunk("c2", text, page=7), 150) == (7, None)


def test_page_of_a_sentence_is_read_from_where_each_box_begins_not_from_box_heights():
    text = "A" * 30 + " " + "B" * 182
    c = chunk("c1", text, bboxes=["3:50,100,300,700", "4:50,60,300,160"], page=3) | {"box_starts": [0, 31]}
    assert locate_in_chunk(c, 10) == (3, "3:50,100,300,700")
    assert locate_in_chunk(c, 31) == (4, "4:50,60,300,160")
    assert locate_in_chunk(c, 50) == (4, "4:50,60,300,160")


def test_reciprocal_rank_fusion():
    fused = fuse([[chunk("a", ""), chunk("b", "")], [chunk("b", ""), chunk("c", "")]])
    assert [c["id"] for c in fused] == ["b", "a", "c"]
    assert round(fused[0]["score"], 6) == round(1 / 62 + 1 / 61, 6)


def test_gold_rules():
    assert qa_norm("It runs at 90 FPS (GeForce GTX-680); 6.20% error.") == "it runs at 90 fps geforce gtx-680 6.20% error."
    item = {"answers": ["MUSCLE", "PRANK"], "answer_kind": "all", "pages": [7]}
    assert answer_correct(item, "Programs such as MUSCLE and PRANK are supported.")
    assert not answer_correct(item, "MUSCLE only")
    assert answer_correct({**item, "answer_kind": "any"}, "MUSCLE only")
    assert not answer_correct(item, "x" * 300 + " MUSCLE and PRANK")  # only the first 300 characters count
    assert evidence_hit(item, [3, 5, 7]) and not evidence_hit(item, [3, 5, 6, 7])


def test_baseline_chunks_cut_at_spaces_under_1000_characters():
    text = " ".join(["word"] * 600)
    pieces = _pieces(text)
    assert [len(p) for p in pieces] == [999, 994, 994, 9]
    assert " ".join(pieces) == text


def test_one_shared_word_is_not_support():
    units = score_units("What is the boiling point of mercury?", [chunk("c1", "Each point is an average of 40 runs.")])
    assert units[0].matched == 1 and compose(units, needed_terms=2) == ("", [])


def test_abbreviations_pair_short_forms_with_the_words_whose_initials_they_spell():
    text = ("We use existing knowledge bases (KBs) of entities, unlike the Never-Ending Language Learner (NELL) "
            "and the Bag of Concepts (BoC) metric; see (iii) and (Shen et al.) and (BERT).")
    assert abbreviations(text) == [("KBs", "knowledge bases"), ("NELL", "Never-Ending Language Learner"),
                                   ("BoC", "Bag of Concepts")]


def test_a_short_form_in_a_sentence_answers_a_question_about_its_long_form():
    text = ("We use existing knowledge bases (KBs) of entities to ground mentions. Grounding needs a curated "
            "resource of entities. We use two KBs: UMLS and DBpedia.")
    best = score_units("Which two knowledge bases are used?", [chunk("c1", text)])[0]
    assert best.text == "We use two KBs: UMLS and DBpedia."
    assert with_other_forms({"two", "kbs"}, short_forms([chunk("c1", text)])) == {"two", "kbs", "knowledg", "base"}


def test_a_count_in_a_list_question_adds_where_repeated_and_costs_nothing_where_not():
    """'Which three genes': the sentence listing three genes rarely says 'three', and must cover the question as
    well as it covers 'Which genes'; one that repeats the count ('three genes: ...') covers it better. A pair is
    no list to tell by: 'two' counts as any word of the question."""
    listing = "We analysed the 16S rRNA gene, the ammonia gene amoA, and the carboxylase gene accA as markers."
    counting = "Three genes served as markers: 16S rRNA, amoA and accA."
    chunks = [chunk("c1", f"{listing} {counting} The ocean is deep.")]

    def coverage(question: str, text: str) -> float:
        return next(u.coverage for u in score_units(question, chunks) if u.text == text)

    assert coverage("Which three genes were used as markers?", listing) == pytest.approx(
        coverage("Which genes were used as markers?", listing))
    assert coverage("Which three genes were used as markers?", counting) > coverage(
        "Which genes were used as markers?", counting)
    assert coverage("Which two genes were used as markers?", listing) < coverage(
        "Which genes were used as markers?", listing)


def test_a_best_sentence_that_only_restates_the_question_is_followed_by_the_next_one():
    text = ("Jobs are parallel tasks. The main feature is to consider two criteria that are optimized together. "
            "These criteria are the makespan and the minsum. They are complementary.")
    other = "Both criteria matter to users of the Icluster machines."
    units = score_units("Which two criteria does the scheduler optimize together?",
                        [chunk("c1", text), chunk("c2", other, score=0.5)])
    answer, taken = compose(units)
    assert answer == ("The main feature is to consider two criteria that are optimized together. "
                      "These criteria are the makespan and the minsum.")
    assert [u.chunk["id"] for u in taken] == ["c1", "c1"]


def test_what_is_the_quantity_questions_want_a_number():
    asks = ["What is the resolution of the video?", "What is the dimensionality of the vectors?",
            "What are the average scores?", "What is the main idea?", "What is a knowledge base?"]
    assert [bool(NUMERIC_Q.search(q)) for q in asks] == [True, True, True, False, False]


def test_a_number_question_is_led_by_the_best_supported_sentence_with_a_number_not_a_citation():
    text = ("A new synthetic stereo video sequence is introduced, as in [19], with disparity maps. "
            "The sequence has a resolution of 640 x 480 pixels.")
    units = score_units("What is the resolution of the new synthetic stereo video sequence?", [chunk("c1", text)])
    assert [u.lacks_number for u in units] == [True, False]
    assert compose(units)[0] == ("The sequence has a resolution of 640 x 480 pixels. A new synthetic stereo video "
                                 "sequence is introduced, as in [19], with disparity maps.")


def test_only_the_sentence_right_after_an_announcing_one_skips_the_score_cut_off():
    text = ("Jobs are parallel tasks. The main feature is to consider two criteria that are optimized together. "
            "These criteria are the makespan and the minsum. Users submit jobs through a web portal. "
            "The portal was written in Java.")
    units = score_units("Which two criteria does the scheduler optimize together?", [chunk("c1", text)])
    answer, taken = compose(units)
    assert answer == ("The main feature is to consider two criteria that are optimized together. "
                      "These criteria are the makespan and the minsum.")
    assert [u.start for u in taken] == [text.index("The main"), text.index("These")]



def test_a_consonant_doubled_before_an_ending_meets_the_word():
    assert stem("running") == stem("run") == "run"
    assert stem("stopped") == stem("stop") and stem("planned") == stem("plan")
    assert stem("added") == stem("add") == "add" and stem("falling") == "fall" and stem("missing") == "miss"


def test_a_greek_letter_is_a_token_by_its_name():
    assert tokens("The \u03c72 of \u03a9m = 0.27") == ["the", "chi", "2", "of", "omega", "m", "0.27"]
    assert terms("What chi-squared value?") == ["chi", "squar", "valu"]


def test_the_frame_of_a_question_is_no_term_of_it():
    assert terms(question_proper("Roughly how many machines were in the cluster?")) == ["machin", "cluster"]
    assert terms(question_proper("On what kind of machine were the experiments run?")) == ["machin", "experiment", "run"]
    assert terms(question_proper("In Table 12, how long is a run?")) == ["tabl", "12", "run"]


def test_the_same_answer_in_a_repeated_statement_is_said_once():
    chunks = [chunk(f"f{i}", f"Figure {i}: Performance ratio for the simulation on 200 processors, {kind} tasks",
                    score=1.0) for i, kind in enumerate(["highly parallel", "mixed parallel"], start=4)]
    chunks.append(chunk("t", "The runs were made assuming a simulated cluster of 200 processors.", score=0.5))
    answer, taken = compose(score_units("How many processors does the simulated cluster have?", chunks))
    assert [u.chunk["id"] for u in taken] == ["t", "f4"] or [u.chunk["id"] for u in taken] == ["f4", "t"]


def test_word_families_meet_in_one_stem():
    assert {stem(w) for w in ("automate", "automates", "automated", "automating")} == {"automat"}
    assert {stem(w) for w in ("score", "scores", "scoring", "scored")} == {"scor"}
    assert stem("analyses") == stem("analysis") == "analysis" and stem("hypotheses") == "hypothesis"
    assert [stem(w) for w in ("base", "bases", "use", "processes")] == ["base", "base", "use", "process"]


def test_a_new_name_is_a_word_with_inner_capitals_or_a_capitalised_word_inside_the_sentence():
    question = _words("Which program does VESPA automate?")
    assert _has_new_name("We present VESPA, which runs codeML.", question)  # 'codeML'
    assert _has_new_name("It was written by Webb and colleagues.", question)  # 'Webb', not first
    assert not _has_new_name("VESPA automates the analyses.", question)  # no fragment 'ESPA' of a known name
    assert not _has_new_name("Construction of spaces We test it. The program runs.", question)  # stop words
    assert not _has_new_name("Programs are run automatically.", question)  # first word of the sentence


def test_a_sentence_that_announces_after_a_glued_heading_is_followed_by_the_next_one():
    text = ("Construction of vector spaces We test two types of vector representations. "
            "The cbow model learns vectors by predicting a word from its context. Vectors have 300 dimensions.")
    answer, _ = compose(score_units("Which two types of vector representations are tested?", [chunk("c1", text)]))
    assert answer.startswith("Construction of vector spaces We test two types of vector representations. "
                             "The cbow model learns vectors")


def test_the_heads_of_the_ranked_lists_stay_candidates_when_fusion_ranks_them_low():
    words = [chunk("w1", ""), chunk("w2", ""), chunk("w3", ""), chunk("w4", "")]  # matches the question's words
    similar = [chunk(f"s{i}", "") for i in range(6)]  # resembles the question and mentions its entity
    fused = fuse([words, similar, list(similar)])
    assert [c["id"] for c in fused[:6]] == [f"s{i}" for i in range(6)]
    assert LIST_HEAD == 3
    assert [c["id"] for c in with_heads(fused, [words, similar], k=6)] == ["s0", "s1", "s2", "w1", "w2", "w3"]
    assert [c["id"] for c in with_heads(fused, [words, similar], k=8)] == ["s0", "s1", "s2", "s3", "s4", "w1", "w2",
                                                                           "w3"]


def test_evidence_skips_sentences_that_repeat_one_already_listed():
    chunks = [chunk("a", "The cluster was simulated with 200 processors."),
              chunk("f4", "Figure 4: Performance ratio for the simulation on 200 processors, highly parallel tasks"),
              chunk("f5", "Figure 5: Performance ratio for the simulation on 200 processors, mixed parallel tasks"),
              chunk("b", "The runs were made assuming a cluster of 200 processors and 25 to 400 tasks.")]
    units = score_units("How many processors does the simulated cluster have?", chunks)
    assert [u.chunk["id"] for u in units] == ["a", "f4", "f5", "b"]  # without the rule, f5 would be listed third
    assert [u.chunk["id"] for u in evidence_units(units[:1], units, 3)] == ["a", "f4", "b"]
    assert [u.chunk["id"] for u in evidence_units(units[1:3], units, 3)] == ["f4", "f5", "a"]  # the answer's stay


def test_bench_rows_group_by_question_type_overall_and_within_each_half():
    rows = [Scored("a.pdf", "q1", "?", "", True, True, [1], kind="numeric"),
            Scored("b.pdf", "q1", "?", "", False, True, [1], kind="numeric"),
            Scored("b.pdf", "q2", "?", "", False, False, [1], kind="list")]
    grouped = by_kind(rows, {"dev": ["a"], "held-out": ["b"]})
    assert {name: [(r.file, r.id) for r in group] for name, group in grouped.items()} == {
        "dev: type numeric": [("a.pdf", "q1")], "held-out: type list": [("b.pdf", "q2")],
        "held-out: type numeric": [("b.pdf", "q1")], "type list": [("b.pdf", "q2")],
        "type numeric": [("a.pdf", "q1"), ("b.pdf", "q1")]}


def test_an_element_is_about_only_the_names_its_caption_does_not_spell_out():
    caption = "Figure 4: Performance ratio for the simulation on 200 processors, highly parallel tasks"
    assert _not_named_in(caption, ["performance ratio", None, "makespan"]) == ["makespan"]
    assert _not_named_in(caption, ["ratio for the"]) == []  # whole words, wherever they are
    assert _not_named_in(caption, ["ratio f"]) == ["ratio f"]  # not a piece of a word


def test_a_word_of_the_same_family_counts_part_and_one_merely_beginning_alike_counts_nothing():
    question = "Which spectra were simulated in the experiments?"
    family = score_units(question, [chunk("c1", "The spectrum was given by a simulation of the early universe.")])
    alike = score_units(question, [chunk("c2", "The spectacle was given by the experience of the early universe.")])
    assert abs(family[0].coverage - 2 * 0.7 / 3) < 1e-9  # 'spectrum' for 'spectra', 'simulation' for 'simulated'
    assert alike[0].coverage == 0.0  # 'spectacle' and 'experience' only begin like the question's words
