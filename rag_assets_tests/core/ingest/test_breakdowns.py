"""The parts a note prints of a statement's line, on 3M's 2018 10-K and on tables built to fail
the total's check."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.chunks.report import process_report
from rag_assets.core.ingest.breakdowns import breakdown_facts
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets.core.ingest.pages import Page, TableBlock
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
needs_corpora = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


@needs_corpora
def test_3m_interest_expense_is_read_from_the_note_on_other_expense() -> None:
    """3M's income statement prints "Other expense (income), net" alone; Note 1's table under
    "Other expense (income), net consists of the following:" gives interest expense, its total
    ($207 million in 2018) the statement's line."""
    facts = read_facts("3m-10k", 2018, real_filing("sec-10k/3M_2018_10K.pdf").pages)
    interest = {f.fiscal_year: f for f in facts if f.concept == "interest_expense"}
    assert {y: f.value for y, f in interest.items()} == {2018: 350e6, 2017: 322e6, 2016: 199e6}
    assert {(f.statement, f.page, f.label) for f in interest.values()} == {
        ("income_statement", 79, "Interest expense")}
    # the ingest stage reads the same facts: what the financial_statements asset stores
    report = process_report(real_filing("sec-10k/3M_2018_10K.pdf"), "3m-10k", 2018)
    assert [f for f in report.facts if f.concept == "interest_expense"] == list(
        interest.values())


def _line(value: float, year: int) -> StatementFact:
    return StatementFact(document="d", year=2018, statement="income_statement",
                         label="Other expense (income), net", period=str(year), fiscal_year=year,
                         months=12, value=value * 1e6, scale=1e6, printed=f"{value:,.0f}",
                         page=3, quote="Other expense (income), net", column=1, row=9)


def _note(total: str) -> Page:
    table = TableBlock(index=1, title="Other expense (income), net consists of the following:",
                       rows=[["(Millions)", "2018", "2017"], ["Interest expense", "$ 350", "$ 322"],
                             ["Interest income", "(70)", "(50)"], ["Total", total, "$ 144"]])
    return Page(page_index=79, text="[[TABLE 1]]", tables=[table])


def test_a_note_whose_total_is_not_the_line_gives_nothing() -> None:
    facts = [_line(207, 2018), _line(144, 2017)]
    assert {(f.concept, f.fiscal_year) for f in breakdown_facts([_note("$ 207")], facts)} == {
        ("interest_expense", 2018), ("interest_expense", 2017),
        ("nonoperating_interest_income", 2018), ("nonoperating_interest_income", 2017)}
    assert breakdown_facts([_note("$ 208")], facts) == []


def test_a_part_the_statement_prints_is_not_added_and_only_checked_years_are() -> None:
    printed = _line(350, 2018).model_copy(update={"label": "Interest expense",
                                                  "concept": "interest_expense"})
    added = breakdown_facts([_note("$ 207")], [_line(207, 2018), printed])
    # 2018's interest expense is the statement's; 2017's total is unchecked (no line fact)
    assert [(f.concept, f.fiscal_year, f.value) for f in added] == [
        ("nonoperating_interest_income", 2018, -70e6)]
