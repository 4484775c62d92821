"""A fiscal quarter's name against the year its columns end in, from the fiscal-year naming a
filing defines in words (no filing read: the definitions as Walmart's and Ulta's print them)."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.fiscal_names import periods_as_printed, quarter_shift
from rag_assets.core.text.periods import FiscalYearEnd, fiscal_year_defined

WALMART = ('the fiscal year ending January 31, 2024 ("fiscal 2024") and the fiscal year ended '
           'January 31, 2023 ("fiscal 2023")')
ULTA = "the fiscal year ending January 28, 2023 (\u201cfiscal 2022\u201d)"
JUNE = 'our fiscal year ends on June 30, 2023 ("fiscal year 2023")'


def test_the_naming_a_filing_defines() -> None:
    assert fiscal_year_defined(WALMART) == FiscalYearEnd(month=1, gap=0)
    assert fiscal_year_defined(ULTA) == FiscalYearEnd(month=1, gap=1)
    assert fiscal_year_defined(JUNE) == FiscalYearEnd(month=6, gap=0)
    assert fiscal_year_defined("Net sales increased 7.6% in fiscal 2024.") is None
    # two definitions that disagree define nothing
    assert fiscal_year_defined(f"{WALMART} {ULTA}") is None


@pytest.mark.parametrize(("text", "shifts"), [
    (WALMART, [-1, -1, -1, 0]),  # Q1-Q3 of fiscal 2024 end in 2023, Q4 in January 2024
    (ULTA, [0, 0, 0, 1]),  # Q1-Q3 of fiscal 2022 end in 2022, Q4 in January 2023
    (JUNE, [-1, -1, 0, 0]),  # September and December 2022, then March and June 2023
])
def test_each_quarter_ends_three_months_after_the_one_before(text: str, shifts: list[int]) -> None:
    assert [quarter_shift(fiscal_year_defined(text), q) for q in (1, 2, 3, 4)] == shifts


def test_no_naming_defined_leaves_the_votes_to_decide() -> None:
    assert quarter_shift(fiscal_year_defined("Net sales increased in the first quarter."),
                         1) is None
    assert quarter_shift(fiscal_year_defined(WALMART), 5) is None


def test_the_quarters_asked_dated_as_their_columns_print_them() -> None:
    """Walmart's "Q1 fiscal 2024" is headed "Three Months Ended April 30, 2023": a table read
    for a direct answer is read in the column of 2023; a year asked stays as asked."""
    shift = quarter_shift(fiscal_year_defined(WALMART), 1)
    assert shift == -1
    assert periods_as_printed([("Q1", "2024")], shift) == [("Q1", "2023")]
    assert periods_as_printed([(None, "2024")], shift) == [(None, "2024")]
    fourth = quarter_shift(fiscal_year_defined(WALMART), 4) or 0
    assert periods_as_printed([("Q4", "2024")], fourth) == [("Q4", "2024")]
