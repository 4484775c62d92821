"""A filer's fiscal-year names against the years its statements' columns end in.

Most filers call a fiscal year by the calendar year it ends in (Walmart's fiscal 2023 ended
January 31, 2023). Retailers whose 52/53-week year ends in late January or early February often
call it by the year it began: Ulta Beauty's fiscal 2022 ended January 28, 2023, and its
release's columns print 2023. A question asks in the filer's names ("fiscal 2022"), so the
statement facts are relabelled to them before the metric engine reads them.

The filing says which naming it uses where its prose gives an amount for a fiscal period that
its statements print ("$8.6 billion in fiscal 2021" beside a column of 8,630,889 ended January
29, 2022): each amount that matches the columns of one year only is a vote for the gap between
the name and that year. A gap of one year needs two votes and more than the gap of none;
otherwise the columns' years stand. The votes are per filing: a retailer's first three quarters
end in the year they are named for, its fourth quarter and its year in the next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rag_assets.core.ingest.facts import StatementFact
from rag_assets.core.text.periods import FiscalYearEnd, amounts_by_fiscal_name

LEAST_VOTES = 2
QUARTERS, MONTHS_PER_QUARTER = 4, 3


def fiscal_name_shift(facts: Sequence[StatementFact], text: str) -> int:
    """How many years a fiscal period's name lags the year its columns end in: 1 when the
    filing's prose names its statements' amounts that way, else 0."""
    votes: Counter[int] = Counter()
    for amount in amounts_by_fiscal_name(text):
        years = {f.fiscal_year for f in facts
                 if f.fiscal_year and f.unit == "USD" and f.months == amount.months
                 and abs(abs(f.value) - amount.value) <= amount.tolerance}
        if len(years) == 1 and (gap := years.pop() - amount.fiscal_name) in (0, 1):
            votes[gap] += 1
    return 1 if votes[1] >= LEAST_VOTES and votes[1] > votes[0] else 0


def quarter_shift(defined: FiscalYearEnd | None, quarter: int) -> int | None:
    """How many years a fiscal quarter's name lags the year its columns end in, from the
    fiscal-year naming the filing defines ('the fiscal year ending January 31, 2024 ("fiscal
    2024")'; ``defined``, read once per filing by :meth:`PageTexts.fiscal_year_defined`): a
    quarter ends three months apart from the next, the fourth with the year, so
    the first quarter of Walmart's fiscal 2024 ends in April 2023 (-1) and the fourth of Ulta's
    fiscal 2022 in January 2023 (1); None when the filing defines no naming. A 10-Q prints no
    amount for its quarter "in fiscal 2024" for the votes to read."""
    if defined is None or not 1 <= quarter <= QUARTERS:
        return None
    ends_month = defined.month - MONTHS_PER_QUARTER * (QUARTERS - quarter)
    return defined.gap - (1 if ends_month <= 0 else 0)


def in_fiscal_names(facts: Sequence[StatementFact], shift: int) -> list[StatementFact]:
    """The facts with each column's year given as the filer names its fiscal periods."""
    if not shift:
        return list(facts)
    return [f.model_copy(update={"fiscal_year": f.fiscal_year - shift})
            if f.fiscal_year else f for f in facts]


def periods_as_printed(periods: Sequence[tuple[str | None, str]], shift: int
                       ) -> list[tuple[str | None, str]]:
    """The quarters asked with the year their columns print: Walmart's "Q1 fiscal 2024" is
    headed "Three Months Ended April 30, 2023" (``shift`` -1, :func:`quarter_shift`); a year
    asked, or no shift, as asked."""
    return [(q, str(int(y) + shift)) if q and shift else (q, y) for q, y in periods]
