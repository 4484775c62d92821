"""Dividends per share read from the row a 10-K prints them in, on American Water's real 10-K
for 2021 (dev; its selected financial data prints "Cash dividends declared per common share" for
five years), the row as the table reader gives it: the figure of the year asked, else nothing."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.evidence import page_table_rows
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.per_share_dividends import per_share_dividend
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")

DOCUMENT, YEAR, PAGE = "american-water-works-10k", 2021, 54


def _answer(question: str) -> str | None:
    pages = PageTexts.from_pages(DOCUMENT, YEAR, real_filing(
        "financebench-dev/pdfs/AMERICANWATERWORKS_2021_10K.pdf").pages)
    rows = page_table_rows(pages, DOCUMENT, YEAR, PAGE)
    found = per_share_dividend(read_question(question), rows)
    if found is None:
        return None
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return found.text


def test_the_year_asked_is_read_from_the_per_share_row() -> None:
    assert _answer("How much did American Water Works pay in dividends per share in FY2021?") \
        == "Cash dividends declared per common share: $2.41 in 2021."
    assert _answer("What was American Water's dividend per share in 2019?") == (
        "Cash dividends declared per common share: $2.00 in 2019.")


def test_no_single_year_or_no_printed_year_gives_nothing() -> None:
    assert _answer("What was American Water's dividend per share in 2015?") is None
    assert _answer("How did American Water's dividends per share change from 2020 to "
                   "2021?") is None  # two periods: the trend is another question's
    assert _answer("How much did American Water pay in dividends in 2021?") is None  # dollars
