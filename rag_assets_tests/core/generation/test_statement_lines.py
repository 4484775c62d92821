"""The largest line of a side of the balance sheet (Regulation S-X Rule 5-02's order), from
statement facts built here and from a real filing's."""

from __future__ import annotations

from functools import cache

import pytest

from rag_assets.core.generation.statement_lines import asks_largest_line, largest_line
from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets_tests.real_filings import CORPORA, real_filing


def _row(label: str, value: float, row: int, total: bool = False) -> StatementFact:
    return StatementFact(document="acme-10k", year=2021, statement="balance_sheet", label=label,
                         period="2021", fiscal_year=2021, months=None, value=value * 1e6,
                         scale=1e6, printed=f"{value:,.0f}", page=40, row=row, column=0,
                         quote=f"{label} {value:,.0f}", total=total)


SHEET = [("Cash and cash equivalents", 3000), ("Inventories", 2500),
         ("Total current assets", 5500), ("Goodwill", 30000), ("Intangible assets, net", 40000),
         ("Total assets", 75500), ("Accounts payable", 4500), ("Total current liabilities", 7000),
         ("Long-term debt", 21000), ("Deferred income taxes", 10000),
         ("Common stock", 1), ("Retained earnings", 37499),
         ("Total liabilities and equity", 75500)]


def _sheet(*, total_liabilities: bool) -> list[StatementFact]:
    rows = list(SHEET)
    if total_liabilities:
        rows.insert(10, ("Total liabilities", 38000))
    return [_row(label, value, i, total=label.startswith("Total"))
            for i, (label, value) in enumerate(rows)]


def test_the_largest_liability_is_the_largest_line_between_the_assets_and_the_equity() -> None:
    found = largest_line("What was the largest liability in Acme's balance sheet in FY2021?",
                         [2021], _sheet(total_liabilities=True), "Acme")
    assert found is not None and found.headline == (
        "Long-term debt was Acme's largest liability at the end of FY2021: $21,000 million, "
        "55.3% of total liabilities of $38,000 million.")
    assert [o.label for o in found.operands] == ["Long-term debt", "Total liabilities"]
    # no "Total liabilities" printed: the equity's first line ends them, their lines summed
    summed = largest_line("Which liability was the largest on Acme's balance sheet in FY2021?",
                          [2021], _sheet(total_liabilities=False), "Acme")
    assert summed is not None and summed.headline.endswith(
        "59.2% of the 3 liability lines summed, $35,500 million.")


def test_the_largest_asset_is_read_above_total_assets() -> None:
    found = largest_line("What is Acme's largest asset as of FY2021?", [2021],
                         _sheet(total_liabilities=True), "Acme")
    assert found is not None and found.headline.startswith(
        "Intangible assets, net was Acme's largest asset at the end of FY2021: $40,000 million, "
        "53.0% of total assets of $75,500 million")


def test_only_a_question_of_the_largest_line_is_read() -> None:
    assert asks_largest_line("What was the largest liability in Acme's balance sheet?") == \
        "liability"
    assert asks_largest_line("What are Acme's total liabilities in FY2021?") is None
    assert largest_line("What is Acme's largest asset as of FY2021?", [2021], [], "Acme") is None


@cache
def _facts(path: str, document: str, year: int) -> list[StatementFact]:
    return read_facts(document, year, real_filing(path).pages)


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
def test_kraft_heinz_2021_largest_liability_and_asset() -> None:
    """Kraft Heinz 2021 (bulk), balance sheet p.56: long-term debt $21,061 million of total
    liabilities of $43,942 million; intangible assets $43,542 million of $93,394 million."""
    facts = _facts("financebench-bulk/pdfs/KRAFTHEINZ_2021_10K.pdf", "kraft-heinz-10k", 2021)
    debt = largest_line("What was the largest liability in Kraft Heinz's balance sheet in "
                        "FY2021?", [2021], facts, "Kraft Heinz")
    assert debt is not None and debt.headline == (
        "Long-term debt was Kraft Heinz's largest liability at the end of FY2021: $21,061 "
        "million, 47.9% of total liabilities of $43,942 million.")
    assets = largest_line("What is Kraft Heinz's largest asset as of FY2021?", [2021], facts,
                          "Kraft Heinz")
    assert assets is not None and assets.headline.startswith("Intangible assets, net was")
