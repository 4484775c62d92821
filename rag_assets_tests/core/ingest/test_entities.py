"""Whose statements a page prints: another company's statements in a 10-K (an equity
investee's under Rule 3-09) are no statement pages of the registrant, and their figures no facts
of it. Rules on hand-written lines, then Corning's 2015 10-K, which prints Dow Corning's and
Samsung Corning Precision Materials' statements after its own."""

from __future__ import annotations

import pytest

from rag_assets.core.ingest.context import document_context
from rag_assets.core.ingest.entities import (
    entity_key,
    heading_of,
    other_entity_pages,
    page_entity,
    registrant_statements,
    same_entity,
)
from rag_assets.core.ingest.facts import extract_facts
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.ingest.pages import Page
from rag_assets_tests.real_filings import real_filing

CORNING_2015 = "financebench-bulk/pdfs/CORNING_2015_10K.pdf"
ITEM_8 = "Item 8. Financial Statements and Supplementary Data"
ITEM_9 = "Item 9. Changes in and Disagreements with Accountants"


@pytest.mark.parametrize(("line", "expected"), [
    # the company before the title, after the filing's running head
    ("DowCorningIndex DOW CORNING CORPORATION AND SUBSIDIARIES CONSOLIDATED STATEMENTS OF "
     "CASH FLOWS", (True, "DOW CORNING CORPORATION AND SUBSIDIARIES")),
    ("SamsungIndex Samsung Corning Precision Materials Co., Ltd. Consolidated Balance Sheets "
     "December 31, 2013 and 2012", (True, "Samsung Corning Precision Materials Co., Ltd.")),
    # the company after the title, on a page the PDF ran into one line
    ("Corning Index Consolidated Statements of Cash Flows Corning Incorporated and Subsidiary "
     "Companies Years ended December 31, (In millions) 2015 2014 2013",
     (True, "Corning Incorporated and Subsidiary Companies")),
    ("Consolidated Statements of Changes in Shareholders’ Equity Corning Incorporated and "
     "Subsidiary Companies", (True, "Corning Incorporated and Subsidiary Companies")),
    ("DOW CORNING CORPORATION AND SUBSIDIARIES NOTES TO CONSOLIDATED FINANCIAL STATEMENTS",
     (True, "DOW CORNING CORPORATION AND SUBSIDIARIES")),
    # a title that names no company; prose that names a statement is no heading
    ("CONSOLIDATED STATEMENTS OF INCOME", (True, None)),
    ("In our opinion, the accompanying consolidated balance sheets present fairly", (False, None)),
    ("Item 8. Financial Statements and Supplementary Data", (False, None)),
])
def test_a_heading_names_the_company_whose_statements_follow(
        line: str, expected: tuple[bool, str | None]) -> None:
    assert heading_of(line) == expected


def test_a_name_on_its_own_line_beside_the_title_names_the_page() -> None:
    assert page_entity(["Table of Contents", "3M Company and Subsidiaries",
                        "Consolidated Statement of Income"]) == "3M Company and Subsidiaries"
    assert page_entity(["48", "Consolidated Statements of Earnings",
                        "GENERAL MILLS, INC. AND SUBSIDIARIES"]) == \
        "GENERAL MILLS, INC. AND SUBSIDIARIES"
    assert page_entity(["Net sales $ 9,111 $ 9,715", "Samsung Display Co., Ltd."]) is None


def test_one_company_in_its_several_forms_and_not_another_that_shares_a_word() -> None:
    coke = entity_key("THE COCA-COLA COMPANY AND SUBSIDIARIES")
    assert coke == ("coca", "cola") == entity_key("Coca Cola Co")
    assert same_entity(entity_key("CO STCO WHOLESALE CORPORATION"),
                       entity_key("Costco Wholesale Corporation"))
    assert same_entity(entity_key("Wal-Mart Stores, Inc."), entity_key("Wal-Mart"))
    corning = entity_key("CORNING INCORPORATED")
    assert not same_entity(entity_key("DOW CORNING CORPORATION AND SUBSIDIARIES"), corning)
    assert not same_entity(entity_key("Samsung Corning Precision Materials Co., Ltd."), corning)


def _page(*lines: str) -> list[str]:
    return list(lines)


REGISTRANT_SET = _page("Consolidated Statements of Cash Flows",
                       "Corning Incorporated and Subsidiary Companies", "Net income 1,339")
OTHER_SET = _page("DOW CORNING CORPORATION AND SUBSIDIARIES CONSOLIDATED STATEMENTS OF INCOME",
                  "Net Sales $ 5,649.3 $ 6,221.3")
UNTITLED = _page("Capital expenditures (287.9) (249.8) (363.3)")
NOTES = _page("Corning Index Notes to Consolidated Financial Statements Corning Incorporated "
              "and Subsidiary Companies 1. Summary of Significant Accounting Policies")


def test_another_company_holds_the_pages_from_its_heading_to_the_registrants_or_an_item() -> None:
    pages = [REGISTRANT_SET, UNTITLED, OTHER_SET, UNTITLED, NOTES, OTHER_SET, UNTITLED]
    items = [ITEM_8] * 6 + [ITEM_9]
    assert other_entity_pages(pages, items, ["CORNING INCORPORATED", "Corning", "GLW"]) == [
        False, False, True, True, False, True, False]


def test_without_the_cover_name_the_first_company_named_is_the_registrant() -> None:
    pages = [REGISTRANT_SET, UNTITLED, OTHER_SET, UNTITLED]
    expected = [False, False, True, True]
    assert other_entity_pages(pages, [ITEM_8] * 4, [None]) == expected
    assert other_entity_pages(pages, [ITEM_8] * 4, ["UNITED STATES SECURITIES"]) == expected


def test_another_companys_pages_are_no_statement_pages_but_mdna_stays() -> None:
    assert registrant_statements(["cash_flow", "cash_flow", "segment_note", "mdna"],
                                 [False, True, True, True]) == ["cash_flow", None, None, "mdna"]


def test_a_statement_wrapped_at_the_page_width_is_read_as_one_run_of_rows() -> None:
    """Corning 2015's cash flow statement: the PDF runs its rows together and wraps them, each
    line ending inside the next row's label; read a line at a time it gave no row of a year."""
    page = Page(page_index=89, text="\n".join([
        "Consolidated Statements of Cash Flows Corning Incorporated and Subsidiary Companies "
        "Years ended December 31, (In millions) 2015 2014 2013 Cash Flows from",
        "  Operating Activities: Net income $ 1,339 $ 2,472 $ 1,961 Adjustments to",
        "  reconcile net income to net cash provided by",
        "  operating activities: Depreciation 1,130 1,167 971 Amortization of purchased",
        "   intangibles 54 33 31 Net cash provided by operating",
        "  activities 2,809 4,709 2,787 Cash Flows from",
        "  Investing Activities: Capital expenditures (1,250) (1,076) (1,019) Acquisitions of",
        "   businesses (732) 66 (68) Net cash used in",
        "  investing activities (685) (962) (1,004)",
    ]))
    facts = extract_facts("corning", 2015, [page], ["cash_flow"])
    by_concept = {f.concept: f.value for f in facts if f.fiscal_year == 2015}
    assert by_concept["capital_expenditure"] == pytest.approx(-1_250e6)
    assert by_concept["operating_cash_flow"] == pytest.approx(2_809e6)
    assert by_concept["investing_cash_flow"] == pytest.approx(-685e6)


# --- Corning's 2015 10-K -------------------------------------------------------------------------

DOW_CORNING = range(149, 156)  # zero-based: its statements, pp. 150-156 as printed in the PDF
SAMSUNG_CORNING = range(189, 194)


@pytest.mark.slow
def test_corning_2015_reads_its_own_statements_never_its_investees() -> None:
    """Dow Corning's statements (Rule 3-09) follow Corning's own: capex read from Dow Corning's
    cash flow statement (287.9 on p.154) had answered for Corning's (1,250 on p.90)."""
    pages = real_filing(CORNING_2015).pages
    context = document_context("corning", 2015, pages)
    kinds = context.statements(pages)
    assert kinds[86:90] == ["income_statement", "comprehensive_income", "balance_sheet",
                            "cash_flow"]
    assert all(kinds[at] is None for at in [*DOW_CORNING, *SAMSUNG_CORNING])
    facts = read_facts("corning", 2015, pages, context)
    # the statements' pages, and Corning's own note of interest and income taxes paid (p.95)
    assert facts and all(86 <= f.page < 92 or (f.page == 94 and f.concept in {
        "interest_paid", "income_taxes_paid"}) for f in facts)
    capex = [f for f in facts if f.concept == "capital_expenditure" and f.fiscal_year == 2015]
    assert [(f.value, f.page) for f in capex] == [(pytest.approx(-1_250e6), 89)]
