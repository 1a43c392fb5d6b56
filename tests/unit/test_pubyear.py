"""The publication year is read from what page 1 states about the paper, never from the years it cites, its
references or the PDF's creation date (every generated paper cites 2023-2025 and was "created" in 2026)."""

from __future__ import annotations

import pytest

from extractors.pipeline import parse_pdf
from tests.pdf_factory import DatedPage, dated_paper, write

CASES = {
    "arXiv stamp": (DatedPage(stamp="arXiv:1810.04805v2  [cs.CL]  24 May 2019"), 2019),
    "old-style arXiv stamp": (DatedPage(stamp="arXiv:hep-ph/9412269v1  8 Dec 1994"), 1994),
    "arXiv stamp without its date: the id's year": (DatedPage(stamp="arXiv:1504.06236v2  [cs.SI]"), 2015),
    "proceedings line over a copyright line of the year before": (
        DatedPage(head=["Proceedings of NAACL-HLT 2018, pages 84-91"],
                  footnote=["New Orleans, Louisiana, June 1 - 6, 2018. (c) 2017 Association for Linguistics"]), 2018),
    "journal issue line over its online-first copyright and dates": (
        DatedPage(head=["International Journal of Tests (2014), 26:1, 147-154"],
                  footnote=["Received 9 May 2013; accepted 18 Sep 2013.", "© The Authors 2013."]), 2014),
    "journal name over its volume (year) article line, conference acronym above": (
        DatedPage(head=["TESTCONF-2021", "Journal of Physics: Conference Series", "2188 (2022) 012011"]), 2022),
    "journal running head on every page": (
        DatedPage(running_head="IEEE TRANSACTIONS ON TESTING, VOL. 7, NO. 5, OCTOBER 1997",
                  footnote=["Manuscript received September 1, 1996."]), 1997),
    "conference footnote": (
        DatedPage(footnote=["33rd Conference on Neural Information Processing Systems (NeurIPS 2019), Vancouver."]),
        2019),
    "ACM conference line": (DatedPage(footnote=["KDD '12, August 12-16, 2012, Beijing, China.",
                                                "Copyright 2012 ACM 978-1-4503-1462-6/12/08 ...$15.00."]), 2012),
    "publication date under the title": (DatedPage(under_title="Submitted 25 March 2016. Published 5 June 2017"),
                                         2017),
    "copyright line alone": (DatedPage(footnote=["© 2012 The Authors. Published by Example Press."]), 2012),
    "arXiv stamp under a copyright line": (
        DatedPage(stamp="arXiv:2103.00020v1  [cs.CV]  26 Feb 2021", footnote=["Copyright 2020 IEEE."]), 2020),
    "received and accepted dates: the latest": (
        DatedPage(footnote=["Received 3 March 2015; accepted 1 February 2016."]), 2016),
    "a DOI that encodes its year": (DatedPage(footnote=["doi:10.1016/j.test.2018.01.004"]), 2018),
    "an ACL Anthology DOI": (DatedPage(footnote=["https://doi.org/10.18653/v1/2020.acl-main.207"]), 2020),
    "no statement: no year": (DatedPage(footnote=["Code is available from the authors."]), None),
    "a dataset's year in a footnote is not the paper's": (
        DatedPage(footnote=["1 We use the CoNLL-2003 data and the 2010 release of the corpus."]), None),
}


@pytest.mark.parametrize("case", CASES, ids=str)
def test_publication_year_from_the_statement_on_page_1(tmp_path, case):
    dates, year = CASES[case]
    assert parse_pdf(write(tmp_path, "paper.pdf", dated_paper(dates))).metadata.year == year


def test_one_column_paper_reads_the_same(tmp_path):
    dates = DatedPage(head=["Journal of Tests 12 (2011) 2493-2537"], stamp="arXiv:1201.00001v1  [cs.LG]  3 Jan 2012")
    assert parse_pdf(write(tmp_path, "paper.pdf", dated_paper(dates, columns=1))).metadata.year == 2011
