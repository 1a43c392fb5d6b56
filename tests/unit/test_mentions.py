from extractors.mentions import find_mentions
from extractors.model import (Audit, Chunk, Document, Equation, Float, Metadata, Profile, Reference, Section,
                              TextLine)
from extractors.pipeline import parse_pdf
from tests.pdf_factory import floats_paper, write

SHA = "0" * 64


def reference(n: int, marker: str | None, authors: list[str], year: int) -> Reference:
    return Reference(id=f"ref{n}", ordinal=n, marker=marker, raw="x", authors=authors, year=year, page=2,
                     bbox=(0, 0, 1, 1))


def document(text: str, references: list[Reference]) -> Document:
    return Document(
        sha256=SHA, file_name="t.pdf", page_count=2, text=text, metadata=Metadata(),
        sections=[Section(id="sec31", number="3.1", title="Data", level=2, parent_id=None, ordinal=0, page_start=1,
                          page_end=1, box={"page": 1, "bbox": (0, 0, 1, 1)}, char_start=0, char_end=len(text)),
                  Section(id="sec2", number="2", title="Method", level=1, parent_id=None, ordinal=1, page_start=1,
                          page_end=1, box={"page": 1, "bbox": (0, 0, 1, 1)}, char_start=0, char_end=0)],
        figures=[Float(id="fig1", kind="figure", label="1", caption="c", page=1, bbox=(0, 0, 1, 1),
                       caption_bbox=(0, 0, 1, 1))],
        tables=[Float(id="tabII", kind="table", label="II", caption="c", page=1, bbox=(0, 0, 1, 1),
                      caption_bbox=(0, 0, 1, 1))],
        equations=[Equation(id="eq2", label="2", text="a = b", page=1, bbox=(0, 0, 1, 1))],
        references=references,
        chunks=[Chunk(id="chunk0", kind="text", text=text, section_id="sec31", section_path=["Data"], page_start=1,
                      page_end=1, boxes=[{"page": 1, "bbox": (10, 20, 30, 40)}], char_start=0, char_end=len(text),
                      content_hash="h")],
        profile=Profile(text_kind="native", chars_per_page=1.0, columns=1), audit=Audit(sha256=SHA, page_count=2))


def triples(mentions):
    return [(m.kind, m.text, m.target_label, m.target_id) for m in mentions]


def test_cross_references_resolve_to_their_elements():
    text = "As shown in Figure 1 and Table II, the loss in Eq. (2) follows Section 3.1, §2, Fig. 7 and Fig. 1b."
    mentions = find_mentions(document(text, []))
    assert triples(mentions) == [
        ("figure", "Figure 1", "1", "fig1"), ("table", "Table II", "II", "tabII"), ("equation", "Eq. (2)", "2", "eq2"),
        ("section", "Section 3.1", "3.1", "sec31"), ("section", "§2", "2", "sec2"), ("figure", "Fig. 7", "7", None),
        ("figure", "Fig. 1b", "1b", "fig1")]
    first = mentions[0]
    assert text[first.char_start:first.char_end] == "Figure 1"
    assert (first.chunk_id, first.page, first.bbox) == ("chunk0", 1, (10, 20, 30, 40))


def test_a_part_numbered_apart_prefixes_the_label_of_figures_and_tables_only():
    """"Appendix Table II" is the appendix's table AII, not the paper's Table II; a heading 'APPENDIX' over a
    paragraph citing 'Table II' is no part of that citation; "Supplementary Eq. (2)" is not the paper's own."""
    text = "See Appendix Table II and Supplementary Fig. 1.\n\nAPPENDIX\n\nTable II lists Supplementary Eq. (2)."
    assert triples(find_mentions(document(text, []))) == [
        ("table", "Appendix Table II", "AII", None), ("figure", "Supplementary Fig. 1", "S1", None),
        ("table", "Table II", "II", "tabII"), ("equation", "Supplementary Eq. (2)", "2", None)]


def test_numbered_citations_expand_ranges_and_ignore_intervals():
    refs = [reference(n, f"[{n}]", ["A. Author"], 2000 + n) for n in range(1, 5)]
    text = "Prior work [1, 3-4] uses values in [0, 1] and [9]."
    mentions = find_mentions(document(text, refs))
    assert triples(mentions) == [("citation", "[1, 3-4]", label, f"ref{label}") for label in ("1", "3", "4")]


def test_keyed_citations_resolve_by_key():
    refs = [reference(1, "[Smi20]", ["A. Smith"], 2020), reference(2, "[ABC+19]", ["A. Able"], 2019)]
    text = "Both [Smi20; ABC+19] and [Smi20] agree, unlike [see appendix]."
    assert [(m.text, m.target_label, m.target_id) for m in find_mentions(document(text, refs))] == [
        ("[Smi20; ABC+19]", "Smi20", "ref1"), ("[Smi20; ABC+19]", "ABC+19", "ref2"), ("[Smi20]", "Smi20", "ref1")]


def test_author_year_citations_resolve_by_surname_year_and_suffix():
    refs = [reference(1, None, ["Lee Chen", "Bo Wu"], 2019), reference(2, None, ["Lee Chen"], 2019),
            reference(3, None, ["Alice Smith", "Bob Jones"], 2020), reference(4, None, ["Dan van der Berg"], 2018)]
    text = "Smith et al. (2020) agree with earlier results (Chen, 2019b; van der Berg, 2018; Nobody, 2001)."
    assert [(m.text, m.target_id) for m in find_mentions(document(text, refs))] == [
        ("Smith et al. (2020)", "ref3"),
        ("(Chen, 2019b; van der Berg, 2018; Nobody, 2001)", "ref2"),
        ("(Chen, 2019b; van der Berg, 2018; Nobody, 2001)", "ref4"),
        ("(Chen, 2019b; van der Berg, 2018; Nobody, 2001)", None)]


def test_a_mention_has_the_box_of_its_line():
    text = "First line here.\n\nSee Figure 1 now."
    doc = document(text, []).model_copy(update={"lines": [
        TextLine(char_start=0, char_end=16, page=1, bbox=(50, 40, 200, 50)),
        TextLine(char_start=18, char_end=35, page=2, bbox=(50, 60, 200, 70))]})
    mention = find_mentions(doc)[0]
    assert (mention.text, mention.page, mention.bbox, mention.char_start) == ("Figure 1", 2, (50, 60, 200, 70), 22)


def test_generated_paper_mentions_point_at_the_found_floats(tmp_path):
    data, truth = floats_paper()
    doc = parse_pdf(write(tmp_path, "floats.pdf", data))
    mentions = [m for m in find_mentions(doc) if m.kind in ("figure", "table")]
    ids = {(f.kind, f.label): f.id for f in doc.figures + doc.tables}
    assert {(m.kind, m.target_label) for m in mentions} == {("figure", "1"), ("figure", "2"), ("table", "1"),
                                                            ("table", "II")}
    assert all(m.target_id == ids[(m.kind, m.target_label)] for m in mentions)
    assert all(doc.text[m.char_start:m.char_end] == m.text for m in mentions)
    assert not any(m.text == "Figure 1" and doc.text[m.char_end:m.char_end + 1] == ":" for m in mentions)
