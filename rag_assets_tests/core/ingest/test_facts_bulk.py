"""Statement facts on the real filings the reader used to miss (issue 36 item 8): 10-Ks, 10-Qs
and releases of ``financebench-bulk`` (and General Mills 2022 of -wide) whose statements gave
no facts or lost a key item. Each value is the one the statement page prints, read on the page;
the quote a citation gives is on that page. ``bench/statement_bench.py`` measures all filings."""

from __future__ import annotations

from functools import cache

import pytest

from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.ingest.identities import check_identities, share_holding
from rag_assets.core.ingest.pages import Page, raw_page_text
from rag_assets.core.ingest.statements import classify_pages, page_lines
from rag_assets_tests.real_filings import real_filing

BULK = "financebench-bulk/pdfs"


@cache
def _filing(path: str) -> tuple[list[Page], list[StatementFact]]:
    pages = real_filing(path).pages
    return pages, read_facts("doc", 0, pages)


def _fact(path: str, concept: str, year: int, months: int | None) -> StatementFact:
    pages, facts = _filing(path)
    found = [f for f in facts if f.concept == concept and f.fiscal_year == year
             and (months is None or f.months == months)]
    assert found, f"no {concept} for {year} ({months} months) in {path}"
    fact = min(found, key=lambda f: (f.rank, f.page, f.row))
    page_text = " ".join(raw_page_text(pages[fact.page]).replace("|", " ").split())
    assert all(word in page_text for word in " ".join(fact.quote.split("|")).split()), fact.quote
    return fact


# (filing, concept, year, months, USD, zero-based page) as the statement page prints them
CHEAP = [
    # a release printed from a browser: statements run on under prose and other tables, the
    # title carries a superscript marker, "Quarters Ended" over the quarter's columns, the
    # financing activities on the cash flow statement's second page
    (f"{BULK}/LOCKHEEDMARTIN_2023Q2_10Q.pdf", "revenue", 2023, 3, 16_693e6, 8),
    (f"{BULK}/LOCKHEEDMARTIN_2023Q2_10Q.pdf", "net_income", 2023, 3, 1_681e6, 8),
    (f"{BULK}/LOCKHEEDMARTIN_2023Q2_10Q.pdf", "total_assets", 2023, None, 56_978e6, 10),
    (f"{BULK}/LOCKHEEDMARTIN_2023Q2_10Q.pdf", "financing_cash_flow", 2023, 6, -945e6, 12),
    # the title printed after the rows, "% Incr. / (Decr.)" columns beside the periods, the
    # units line "(millions, except per share data)" after the table
    (f"{BULK}/PFIZER_2023Q2_EARNINGS.pdf", "revenue", 2023, 3, 12_734e6, 17),
    (f"{BULK}/PFIZER_2023Q2_EARNINGS.pdf", "revenue", 2022, 6, 53_402e6, 17),
    (f"{BULK}/PFIZER_2023Q2_EARNINGS.pdf", "net_income", 2023, 6, 7_870e6, 17),
    # "Thirteen weeks ended", and a running head "Third Quarter 2022 Form 10-Q Page 2" no row
    (f"{BULK}/FOOTLOCKER_2023Q3_10Q.pdf", "revenue", 2022, 3, 2_173e6, 4),
    (f"{BULK}/FOOTLOCKER_2023Q3_10Q.pdf", "revenue", 2022, 9, 6_413e6, 4),
]
SLOW = [
    # "MGM RESORTS INTERNATIONAL AND SUBSIDIARIES CONSOLIDATED BALANCE SHEETS": 0 facts before
    (f"{BULK}/MGMRESORTS_2019_10K.pdf", "revenue", 2019, 12, 12_899_672e3, 57),
    (f"{BULK}/MGMRESORTS_2019_10K.pdf", "total_assets", 2019, None, 33_876_356e3, 56),
    (f"{BULK}/MGMRESORTS_2019_10K.pdf", "operating_cash_flow", 2019, 12, 1_810_401e3, 59),
    # "Consolidated Statements of Operations (1)": the title's marker had been read as a row
    (f"{BULK}/AMD_2018_10K.pdf", "revenue", 2018, 12, 6_475e6, 50),
    (f"{BULK}/AMD_2018_10K.pdf", "total_assets", 2018, None, 4_556e6, 52),
    # "Consolidated Statem ents of Income (Loss)", "heets Consolidated Balance Sheets"
    (f"{BULK}/CORNING_2018_10K.pdf", "revenue", 2018, 12, 11_290e6, 79),
    (f"{BULK}/CORNING_2018_10K.pdf", "total_assets", 2018, None, 27_505e6, 81),
    # the page head in one table cell: "Table of Contents Consolidated Statements of Earnings
    # GENERAL MILLS, INC. AND SUBSIDIARIES (In Millions, Except per Share Data) Fiscal Year
    # 2015 2014 2013" (no fact before)
    (f"{BULK}/GENERALMILLS_2015_10K.pdf", "revenue", 2015, 12, 17_630.3e6, 51),
    (f"{BULK}/GENERALMILLS_2015_10K.pdf", "total_assets", 2015, None, 21_964.5e6, 53),
    (f"{BULK}/GENERALMILLS_2015_10K.pdf", "operating_cash_flow", 2015, 12, 2_542.8e6, 55),
    # a whole statement page given by the PDF as one line of text (no fact before)
    (f"{BULK}/CORNING_2015_10K.pdf", "revenue", 2015, 12, 9_111e6, 86),
    (f"{BULK}/CORNING_2015_10K.pdf", "total_assets", 2015, None, 28_547e6, 88),
    # its cash flow labels wrapped over rows ("Net cash provided" / "by operating" /
    # "activities 2,809 ..."): read as one run; a per-share row under the EPS caption
    (f"{BULK}/CORNING_2015_10K.pdf", "operating_cash_flow", 2015, 12, 2_809e6, 89),
    (f"{BULK}/CORNING_2015_10K.pdf", "dividends_per_share", 2015, 12, 0.36, 86),
    # the cash flow statement's last rows on the page after a blank one that prints only "79":
    # the blank page neither ends the statement nor loses its columns' years
    (f"{BULK}/BLOCK_2018_10K.pdf", "financing_cash_flow", 2018, 12, 515_755e3, 80),
    # run-on lines: "... 3,676.2 Cash Flows - Investing Activities" ends a row with a caption
    ("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "operating_cash_flow", 2022, 12,
     3_316.1e6, 48),
]


@pytest.mark.parametrize(("path", "concept", "year", "months", "expected", "page"), CHEAP)
def test_key_items_of_statements_printed_in_releases_and_10qs(
    path: str, concept: str, year: int, months: int | None, expected: float, page: int
) -> None:
    fact = _fact(path, concept, year, months)
    assert (fact.value, fact.page) == (pytest.approx(expected), page)


@pytest.mark.slow
@pytest.mark.parametrize(("path", "concept", "year", "months", "expected", "page"), SLOW)
def test_key_items_of_10ks_that_gave_none(
    path: str, concept: str, year: int, months: int | None, expected: float, page: int
) -> None:
    fact = _fact(path, concept, year, months)
    assert (fact.value, fact.page) == (pytest.approx(expected), page)


def test_change_columns_are_no_periods() -> None:
    """Pfizer's release prints "% Incr. / (Decr.)" after each pair of periods: those cells
    are percentages of no period, not the next column's dollars."""
    _, facts = _filing(f"{BULK}/PFIZER_2023Q2_EARNINGS.pdf")
    revenue = [f for f in facts if f.concept == "revenue" and f.page == 17]
    assert [(f.fiscal_year, f.months, f.unit, f.value) for f in revenue] == [
        (2023, 3, "USD", 12_734e6), (2022, 3, "USD", 27_742e6), (None, None, "%", -54.0),
        (2023, 6, "USD", 31_015e6), (2022, 6, "USD", 53_402e6), (None, None, "%", -42.0)]


def test_a_release_statement_under_other_tables_reads_from_its_title() -> None:
    """Lockheed's balance sheet is printed under a pension reconciliation on the same page:
    none of the reconciliation's rows is a balance sheet row, and its identities hold."""
    pages, facts = _filing(f"{BULK}/LOCKHEEDMARTIN_2023Q2_10Q.pdf")
    kinds = classify_pages([page_lines(p) for p in pages])
    assert kinds[8:13] == ["income_statement", None, "balance_sheet", "cash_flow", "cash_flow"]
    labels = {f.label for f in facts if f.page == 10}
    assert "Total assets" in labels and not any("FAS/CAS" in label for label in labels)
    checks = check_identities(facts)
    assert checks and share_holding(checks) == 1.0


@pytest.mark.slow
def test_cost_of_revenue_from_its_printed_parts() -> None:
    """Activision Blizzard 2015 prints four "Cost of sales—<kind>" rows and no total: cost of
    revenue is their sum, quoting every part (921 + 224 + 412 + 28 for 2015)."""
    fact = _fact(f"{BULK}/ACTIVISIONBLIZZARD_2015_10K.pdf", "cost_of_revenue", 2015, 12)
    assert fact.value == pytest.approx(1_585e6)
    assert fact.printed == "921 + 224 + 412 + 28"
    assert fact.quote.count("|") == 3 and fact.quote.startswith("Cost of sales—product costs")


def test_a_row_under_the_cash_paid_caption_is_read_with_it() -> None:
    """Kraft Heinz 2021's cash flow statement (p.58) prints "CASH PAID DURING THE PERIOD FOR:"
    over "Interest" and "Income taxes, net of refunds" (ASC 230-10-50-2): interest and taxes
    paid, not an interest row of no concept."""
    path = f"{BULK}/KRAFTHEINZ_2021_10K.pdf"
    interest = _fact(path, "interest_paid", 2021, 12)
    assert (interest.value, interest.page, interest.label) == (1_196e6, 57, "Interest")
    assert _fact(path, "income_taxes_paid", 2020, 12).value == 1_027e6
