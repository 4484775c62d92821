"""Where a stored page stands in its filing: the Item in force on each page, read once per
report from the pages themselves by the form's own numbering (real 10-K and 10-Q)."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.ingest.sections import sections_of
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


@pytest.mark.parametrize(("path", "document", "expected"), [
    ("financebench-wide/pdfs/GENERALMILLS_2019_10K.pdf", "general-mills-10k",
     {5: "Item 1. Business", 19: "Item 7. Management's Discussion and Analysis",
      52: "Item 8. Financial Statements and Supplementary Data"}),
    # a 10-Q numbers its Items by Part: MD&A is Part I, Item 2
    ("financebench-bulk/pdfs/AMERICANWATERWORKS_2023Q2_10Q.pdf", "american-water-works-10q-q2",
     {5: "Part I, Item 1. Financial Statements",
      40: "Part I, Item 2. Management's Discussion and Analysis"}),
])
def test_each_page_knows_its_item(path: str, document: str, expected: dict[int, str]) -> None:
    pages = PageTexts.from_pages(document, 2023, real_filing(path).pages)
    items = pages.page_items(document, 2023)
    assert {page: items[page] for page in expected} == expected
    assert pages.page_items(document, 2023) is items  # read once per report
    mdna = [page for page, item in items.items() if item and "mdna" in sections_of(item)]
    assert 19 in mdna or 40 in mdna
    assert pages.page_items("absent", 2023) == {}


def test_each_page_knows_the_statement_it_is() -> None:
    """Nike's FY2022 segment note opens on p87 and prints its table of revenues, EBIT,
    additions and depreciation by segment at the top of p89 under no title of its own: a page
    of figures after the note's pages carries the note (so a ranking reads it)."""
    pages = PageTexts.from_pages("nike-10k", 2022, real_filing(
        "financebench-bulk/pdfs/NIKE_2022_10K.pdf").pages)
    kinds = pages.page_statements("nike-10k", 2022)
    assert [page for page, kind in kinds.items() if kind == "segment_note"] == [87, 88, 89, 90]
    assert kinds[57] == "income_statement" and kinds[59] == "balance_sheet"
    assert pages.page_statements("nike-10k", 2022) is kinds  # classified once per report
    assert pages.page_statements("absent", 2022) == {}


def test_a_page_of_figures_carries_the_segment_note_only_as_a_table_carried_on() -> None:
    """Walmart's Q1 fiscal 2024 10-Q names no Item a page reader finds, and its MD&A's pages of
    figures follow the segment note's: they open with prose, so they are no part of it."""
    pages = PageTexts.from_pages("walmart-10q-q1", 2024, real_filing(
        "financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf").pages)
    kinds = pages.page_statements("walmart-10q-q1", 2024)
    assert [page for page, kind in kinds.items() if kind == "segment_note"] == [13, 14]
