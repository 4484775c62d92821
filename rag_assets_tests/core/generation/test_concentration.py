"""Is a revenue base diversified, or does one segment dominate it: the largest segment's share
of the segment table's total, on real filings of three companies (the table's page read
whole, as retrieval returns it)."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.concentration import concentration
from rag_assets.core.generation.direct import direct_answer
from rag_assets.core.generation.direct_rows import load_cues
from rag_assets.core.generation.evidence import page_table_rows, units_of
from rag_assets.core.generation.metric_questions import parse_question
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.question.question import read_question
from rag_assets.core.retrieval.retriever import Hit
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


@pytest.mark.parametrize(("path", "document", "year", "page", "question", "opens"), [
    # Costco 2018 (p.58): United States Operations 102,286 of total revenue 141,576, 72.2%
    ("financebench-bulk/pdfs/COSTCO_2018_10K.pdf", "costco-10k", 2018, 58,
     "Does Costco have a diversified revenue base, or does one segment dominate its FY2018 "
     "revenue?", "No. United States Operations had the largest total revenue"),
    # Kraft Heinz 2021 (p.114): United States 18,604 of net sales 26,042, 71.4%; asked the
    # other way round, the same share is a yes
    ("financebench-bulk/pdfs/KRAFTHEINZ_2021_10K.pdf", "kraft-heinz-10k", 2021, 114,
     "Is Kraft Heinz's revenue dominated by one segment in 2021?",
     "Yes. United States had the largest net sales in 2021: $18,604 million, 71.4%"),
    # Corning 2022 (p.101): Optical Communications 5,023 of segment net sales 14,805, 33.9%
    ("financebench-dev/pdfs/CORNING_2022_10K.pdf", "corning-10k", 2022, 101,
     "Does Corning have a diversified revenue base in FY2022?",
     "Yes. Optical Communications had the largest segment net sales"),
])
def test_the_largest_segments_share_says_whether_one_dominates(
        path: str, document: str, year: int, page: int, question: str, opens: str) -> None:
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    rows = page_table_rows(pages, document, year, page)
    asked = read_question(question)
    assert parse_question(asked) is None  # no "Yes." from the total's value
    found = direct_answer(asked, rows, rows, lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None and found.text.startswith(opens), found and found.text
    assert found.text.endswith(("so one segment dominates.", "so the base is diversified."))
    marks = [c.mark for c in verify_claims([found.claim()], pages)[0].citations]
    assert marks and set(marks) == {"valid"}


def test_a_customer_concentration_is_no_segments_question() -> None:
    """"Significant customer concentration" asks of major customers (ASC 280-10-50-42: Walmart's
    21% of Kraft Heinz's net sales), never of the segments' shares."""
    document, year, path = ("kraft-heinz-10k", 2021,
                            "financebench-bulk/pdfs/KRAFTHEINZ_2021_10K.pdf")
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    rows = page_table_rows(pages, document, year, 114)
    asked = read_question("Does Kraft Heinz have significant customer concentration as of "
                          "FY2021?")
    assert concentration(asked, rows, rows, None, load_cues()) is None


def test_a_table_that_disaggregates_revenue_ranks_no_segment() -> None:
    """Walmart 2022 prints its segment table (p.77: net sales under "Walmart U.S.", "Walmart
    International", "Sam's Club", their headings above the grid's top rule) before the tables
    that disaggregate each segment's net sales by merchandise category or market (p.78). Asked
    of both, the segments are ranked (Walmart U.S. 393,247 of 567,762); asked of the
    disaggregation alone, no category ("Grocery") and no market is named a segment: the
    ranking gives nothing, while a category asked is ranked from the same rows."""
    document, year, path = ("walmart-10k", 2022, "financebench-bulk/pdfs/WALMART_2022_10K.pdf")
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    disaggregated = page_table_rows(pages, document, year, 77)
    segments = page_table_rows(pages, document, year, 76)
    asked = read_question("Does Walmart have a diversified revenue base?")
    found = concentration(asked, disaggregated, [*disaggregated, *segments], None, load_cues())
    assert found is not None and found.text.startswith(
        "No. Walmart U.S. had the largest net sales (the fiscal year ended January 31, 2022): "
        "$393,247 million, 69.3% of the $567,762 million total"), found and found.text
    ranked = read_question("Which segment had the largest revenue?")
    assert direct_answer(ranked, disaggregated, disaggregated, None) is None
    # the same table ranks what it disaggregates by, asked so
    category = read_question("Which merchandise category had the largest net sales at "
                             "Walmart U.S.?")
    found = direct_answer(category, disaggregated, disaggregated, None)
    assert found is not None and found.text.startswith(
        "Grocery had the largest net sales in 2022: $218,944 million"), found


def test_net_sales_by_platform_in_the_segment_note_ranks_no_segment() -> None:
    """Kraft Heinz 2021's segment note prints "Net sales by platform were (in millions):" (a
    type of good, ASC 606-10-55-91) over its dates and table, in the chunk headed "Note 21.
    Segment Reporting": its Flavorful Hydration (+8%) is no segment. The segments are
    ranked from "Net sales by segment" (p.115): International grew the fastest."""
    document, year, path = ("kraft-heinz-10k", 2021,
                            "financebench-bulk/pdfs/KRAFTHEINZ_2021_10K.pdf")
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    hit = Hit(chunk_id="c", document=document, year=year, page_start=115, page_end=115,
              rank=0, score=0.0, stage="page",
              context="The Kraft Heinz Company | 10-K fiscal 2021 | Note 21. Segment Reporting",
              text="\n".join(["Net sales by platform were (in millions):",
                              "December 25, 2021 December 26, 2020 December 28, 2019",
                              "| USD millions | 2021 | 2020 | 2019 |", "|---|---|---|---|",
                              "| Taste Elevation | $ 7,267 | $ 6,808 | $ 6,581 |",
                              "| Fast Fresh Meals | 6,665 | 6,819 | 6,298 |",
                              "| Flavorful Hydration | 1,777 | 1,648 | 1,495 |",
                              "| Total net sales | $ 26,042 | $ 26,185 | $ 24,977 |"]))
    platforms = [u for u in units_of(hit, lambda *_: 115) if u.is_row]
    asked = read_question("Which segment of Kraft Heinz grew the fastest in FY2021?")
    assert direct_answer(asked, platforms, platforms, None) is None
    segments = page_table_rows(pages, document, year, 114)
    found = direct_answer(asked, platforms, [*platforms, *segments], None)
    assert found is not None and found.text.startswith(
        "International grew the fastest of the segments: its net sales rose 7% ($350 million)")


def test_a_members_share_is_read_from_a_release_table_printed_without_rules() -> None:
    """Pfizer's Q2 2023 release (p.3, check's company: found asking it, in-sample): the
    revenue table under "% Change" over "Total Oper." is read, so Primary Care's share of the
    quarter's total revenues is computed; "customer group" is what Pfizer calls the member."""
    document, year = "pfizer-earnings-q2", 2023
    pages = PageTexts.from_pages(document, year, real_filing(
        "financebench-bulk/pdfs/PFIZER_2023Q2_EARNINGS.pdf").pages)
    rows = page_table_rows(pages, document, year, 2)
    asked = read_question("What share of Pfizer's Q2 2023 total revenues came from the Primary "
                          "Care customer group?")
    found = direct_answer(asked, rows, rows, lambda d, y, p: page_table_rows(pages, d, y, p))
    assert found is not None and found.text.startswith(
        "Primary Care: 45.6% of total revenues ($5,810 million of $12,734 million"), found
    marks = [c.mark for c in verify_claims([found.claim()], pages)[0].citations]
    assert marks and set(marks) == {"valid"}
