"""The supplemental cash flow disclosures a note prints, read as cash flow facts."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.ingest.filing_facts import read_facts
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
needs_corpora = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def _paid(path: str, document: str, year: int) -> dict[tuple[str, int | None], tuple[float, int]]:
    facts = read_facts(document, year, real_filing(path).pages)
    return {(f.concept, f.fiscal_year): (f.value, f.page) for f in facts
            if f.concept in ("interest_paid", "income_taxes_paid")}


@needs_corpora
def test_general_mills_cash_interest_payments_are_read_from_its_supplemental_note() -> None:
    """General Mills' fiscal 2022 10-K prints no interest paid under its cash flow statement;
    Note 18 (p.88, index 87) does: "Certain Consolidated Statements of Cash Flows amounts are as
    follows: ... Cash interest payments $ 357.8 $ 412.5 $ 418.5; Cash paid for income taxes
    545.3 636.1 403.3". The note's quarterly data table on the same page gives no fact."""
    paid = _paid("financebench-wide/pdfs/GENERALMILLS_2022_10K.pdf", "general-mills-10k", 2022)
    assert paid == {
        ("interest_paid", 2022): (357.8e6, 87), ("interest_paid", 2021): (412.5e6, 87),
        ("interest_paid", 2020): (418.5e6, 87), ("income_taxes_paid", 2022): (545.3e6, 87),
        ("income_taxes_paid", 2021): (636.1e6, 87), ("income_taxes_paid", 2020): (403.3e6, 87)}


@needs_corpora
def test_corning_interest_paid_is_read_under_its_cash_paid_caption() -> None:
    """Corning's 2022 10-K (p.66, index 65): "Cash paid for interest and income taxes:" over
    "Interest (1) $ 275 $ 287 $ 298" and "Income taxes, net of refunds received $ 426 $ 377
    $ 220": each row read with its caption; the accruals for capital expenditures above them
    are no supplemental line item. Its 2020 10-K titles the table with no-break spaces
    ("Supplemental disclosure of cash flow information"), read the same (p.77, index 76)."""
    paid = _paid("financebench-dev/pdfs/CORNING_2022_10K.pdf", "corning-10k", 2022)
    assert {k: v for k, (v, _) in paid.items()} == {
        ("interest_paid", 2022): 275e6, ("interest_paid", 2021): 287e6,
        ("interest_paid", 2020): 298e6, ("income_taxes_paid", 2022): 426e6,
        ("income_taxes_paid", 2021): 377e6, ("income_taxes_paid", 2020): 220e6}
    earlier = _paid("financebench-wide/pdfs/CORNING_2020_10K.pdf", "corning-10k", 2020)
    assert earlier[("interest_paid", 2020)] == (298e6, 76)
    assert earlier[("interest_paid", 2018)] == (205e6, 76)


@needs_corpora
def test_american_water_interest_paid_net_of_capitalized_amount_is_read() -> None:
    """American Water's 2021 10-K prints it under the cash flow statement itself (p.88, index
    87): "Cash paid during the year for: Interest, net of capitalized amount $ 389 $ 382
    $ 383", the caption's words in another order than "net of amounts capitalized" (the
    statement's own reader, not the notes'; the statement's figure is the one kept)."""
    paid = _paid("financebench-dev/pdfs/AMERICANWATERWORKS_2021_10K.pdf",
                 "american-water-works-10k", 2021)
    interest = {year: value for (concept, year), (value, page) in paid.items()
                if concept == "interest_paid" and page == 87}
    assert interest == {2021: 389e6, 2020: 382e6, 2019: 383e6}
