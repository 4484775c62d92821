"""How the metric engine writes what it computed: a result as an analyst writes it (24.26,
1.9%, $3,215 million), an operand as statements print it (millions), the period and the subject
of a headline. Plain Python; no Dagster."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from rag_assets.core.generation.metric_questions import SCALES, MetricQuestion
from rag_assets.core.question.vocabulary import Unit
from rag_assets.core.text.periods import MONTHS_IN_WORDS


def wrap(shown: str) -> str:
    """A sum or difference in parentheses where it is an operand of another operation."""
    return f"({shown})" if re.search(r"\s[-+]\s", shown) and not (
        shown.startswith("(") and shown.endswith(")")) else shown


def short(value: float) -> str:
    """An operand in the computation line: millions, as statements print them."""
    if abs(value) >= 1e5:
        return f"{value / 1e6:,.{decimals_needed(value / 1e6)}f}"
    return f"{value:,.{decimals_needed(value)}f}"


def decimals_needed(value: float, most: int = 3) -> int:
    """The fewest decimals (up to ``most``) that print ``value`` without losing it."""
    for d in range(most + 1):
        if math.isclose(round(value, d), value, abs_tol=10 ** -(most + 2)):
            return d
    return most


def period_name(fiscal_year: int, kind: str, months: int) -> str:
    """A period as a missing operand names it: "the end of FY2019", "the 6 months of FY2023"."""
    if kind == "stock":
        return f"the end of FY{fiscal_year}"
    return f"FY{fiscal_year}" if months == 12 else f"the {months} months of FY{fiscal_year}"


def format_value(value: float, unit: Unit, decimals: int | None,
                 scale: str | None = None) -> str:
    """A result as an analyst writes it: 24.26, 1.9%, 45.10 days, $2.45 (per share), $3,215
    million, -$1,561 million, $0.40 billion; a ratio below 1 that its rounding leaves one
    digit of is also written as a percentage ("0.7 (67.8%)": a payout ratio to one decimal)."""
    if unit == "percent":
        return f"{value * 100:,.{1 if decimals is None else decimals}f}%"
    if unit == "days":
        return f"{value:,.{2 if decimals is None else decimals}f} days"
    if unit == "USD/share":  # EPS as statements print it, to the cent
        return f"{'-' if value < 0 else ''}${abs(value):,.{2 if decimals is None else decimals}f}"
    if unit == "shares":  # a share count, in millions as statements print most
        shown = value / 1e6 if abs(value) >= 1e6 else value
        return (f"{shown:,.{decimals_needed(shown) if decimals is None else decimals}f} million "
                f"shares" if abs(value) >= 1e6 else f"{value:,.0f} shares")
    if unit == "ratio":
        ratio = f"{value:,.{2 if decimals is None else decimals}f}"
        if 0 < abs(value) < 1 and len(ratio.strip("-0.,")) < 2:  # 0.678 to one decimal: "0.7"
            return f"{ratio} ({value * 100:,.{1 if decimals is None else decimals}f}%)"
        return ratio
    sign = "-" if value < 0 else ""
    size = abs(value)
    if scale is None:
        scale = "millions" if size >= 1e6 else None
    if scale is None:
        return f"{sign}${size:,.{decimals or 0}f}"
    shown = size / SCALES[scale]
    if decimals is None:
        decimals = 2 if scale == "billions" else decimals_needed(shown)
    return f"{sign}${shown:,.{decimals}f} {scale[:-1]}"


MULTIPLE_FROM = 2  # an amount that became at least this many times what it was: said as "2.7x"


def dollars_moved(then: float, now: float, scale: str | None, decimals: int | None = None,
                  whole_share_only: bool = False) -> str:
    """A dollar amount's move as MD&A states it: "rose $344 million (7.7%)", "fell $233
    million (18.7%)", in ``scale`` and ``decimals`` as :func:`format_value` takes them; with
    ``whole_share_only``, no percentage for a move larger than the amount it moved from
    ("rose $540.3 million": a row that was next to nothing the year before); an amount that
    at least doubled is said as a multiple too, as an analyst says it ("rose $1,485.5 million
    (167.7%; 2.7x)"). "" when it did not move or the amount it moved from is not positive (no
    share of it is meaningful)."""
    change = now - then
    if not change or then <= 0:
        return ""
    share = abs(change) / then
    multiple = f"; {now / then:.1f}x" if now >= MULTIPLE_FROM * then else ""
    percent = "" if whole_share_only and share > 1 else f" ({share * 100:.1f}%{multiple})"
    return (f"{'rose' if change > 0 else 'fell'} "
            f"{format_value(abs(change), 'USD', decimals, scale)}{percent}")


def subject_of(company: str | None) -> str:
    """A headline's possessive subject: "Acme's", "NIKE, Inc's", "3M Holdings'"."""
    if not company:
        return "The"
    return f"{company}'" if company.endswith("s") else f"{company}'s"


def interim_period(months: int, year: int) -> str:
    """An interim period by its length and the calendar year it ends in, as the statement's
    column heading dates it ("three months ended April 30, 2023"): a fiscal year's name
    would be wrong for a filer whose fiscal year is not the calendar year (Walmart's first
    quarter of fiscal 2024 ends in April 2023)."""
    return f"{MONTHS_IN_WORDS.get(months, str(months))} months ended in {year}"


def period_of(question: MetricQuestion, year: int) -> str:
    """One period of a trend: "FY2019", or an interim one ("three months ended in 2023")."""
    return f"FY{year}" if question.months == 12 else \
        f"the {interim_period(question.months, year + question.end_year_shift)}"


def trend_when(question: MetricQuestion, year: int, latest: int, balances: bool) -> str:
    """When a trend's value stands: "in FY2022", "in the three months ended in 2023"; a
    balance of an interim report at the end of its period, the earlier one at the preceding
    fiscal year's end, which a 10-Q compares it with (Regulation S-X Rule 10-01(c)(1):
    Corning's December 31, 2022; Walmart's January 31, 2023, not the April 30, 2022 it adds:
    ``Evaluator.year_end_columns``)."""
    if not balances or question.months == 12:
        return f"in {period_of(question, year)}"
    if year != latest:
        # a year before asked: the date its balance sheet prints in that year (a 10-Q that
        # prints no quarter a year before gives the fiscal year's end)
        return (f"on its {year + question.end_year_shift} balance sheet date" if question.year_ago
                else "at the end of its preceding fiscal year")
    return f"at the end of {period_of(question, year)}"


def when_asked(question: MetricQuestion, years: Sequence[int]) -> str:
    """The period a headline names: "Q2 (three months ended in 2023)", "year-to-date Q2
    (six months ended in 2023)", "FY2017-FY2019 3-year average", "FY2022"."""
    end = years[-1] + question.end_year_shift if years else 0
    if question.quarter and years:
        through = "" if question.months <= 3 else "year-to-date "
        return f"{through}Q{question.quarter} ({interim_period(question.months, end)})"
    if question.months not in (12,) and years:
        return interim_period(question.months, end)
    if question.aggregate == "average" and len(years) > 1:
        return f"FY{years[0]}-FY{years[-1]} {len(years)}-year average"
    if question.aggregate == "cagr" and len(years) > 1:
        return f"FY{years[0]}-FY{years[-1]} {years[-1] - years[0]}-year"
    return f"FY{years[-1]}" if years else ""
