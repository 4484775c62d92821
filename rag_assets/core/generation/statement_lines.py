"""The largest line of a side of the balance sheet: "What was the largest liability in X's
balance sheet in FY2021?", "What is its largest asset?".

Regulation S-X Rule 5-02 orders a balance sheet: the assets down to "Total assets", then the
liabilities (to "Total liabilities" where one is printed), then the equity. The largest
liability (or asset) is the largest line item of that side the statement prints for the year
asked, its totals and subtotals aside, said with its share of the side's total (total
liabilities, else the side's lines summed, and total assets), each row cited. Read from the
statement facts; hand-written because no library reads a filing's statements.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.metric_engine import MetricAnswer, Operand
from rag_assets.core.generation.metric_format import format_value, subject_of
from rag_assets.core.generation.metric_questions import MetricQuestion
from rag_assets.core.ingest.facts import StatementFact

LARGEST_RE = re.compile(
    r"\b(?:largest|biggest|greatest)\s+(?:single\s+)?(?P<side>liabilit(?:y|ies)|assets?)\b|"
    r"\b(?P<other>liabilit(?:y|ies)|assets?)\s+(?:is|was|were)\s+the\s+(?:largest|biggest)\b",
    re.IGNORECASE)
TOTAL_ASSETS_RE = re.compile(r"^total assets$", re.IGNORECASE)
TOTAL_LIABILITIES_RE = re.compile(r"^total liabilities$", re.IGNORECASE)
# where the liabilities end when no "Total liabilities" is printed: the equity's first lines
EQUITY_RE = re.compile(r"\bequity\b|\bcommitments and contingencies\b|^(?:common|preferred|"
                       r"capital) stock\b|^retained earnings\b|^additional paid|\bshareowners\b|"
                       r"\bstockholders\b|\bshareholders\b|\bnoncontrolling\b", re.IGNORECASE)
SUBTOTAL_RE = re.compile(r"^total\b", re.IGNORECASE)


def asks_largest_line(text: str) -> str | None:
    """"liability" or "asset" when the question asks the balance sheet's largest one."""
    found = LARGEST_RE.search(text)
    if found is None or not re.search(r"\bbalance sheet\b|\bliabilit|\basset", text,
                                      re.IGNORECASE):
        return None
    side = (found["side"] or found["other"]).lower()
    return "liability" if side.startswith("liabilit") else "asset"


def _side(rows: Sequence[StatementFact], side: str
          ) -> tuple[list[StatementFact], StatementFact | None]:
    """The lines of one side of a balance sheet, in print order, and its printed total."""
    at = next((i for i, r in enumerate(rows) if TOTAL_ASSETS_RE.match(r.label)), None)
    if at is None:
        return [], None
    if side == "asset":
        return list(rows[:at]), rows[at]
    after = rows[at + 1:]
    end = next((i for i, r in enumerate(after) if TOTAL_LIABILITIES_RE.match(r.label)
                or EQUITY_RE.search(r.label)), len(after))
    total = after[end] if end < len(after) and TOTAL_LIABILITIES_RE.match(after[end].label) \
        else None
    return list(after[:end]), total


def largest_line(text: str, years: Sequence[int], facts: Sequence[StatementFact],
                 company: str | None) -> MetricAnswer | None:
    """The answer to a question :func:`asks_largest_line` reads, or None."""
    side = asks_largest_line(text)
    balance = [f for f in facts if f.statement == "balance_sheet" and f.months is None
               and f.fiscal_year is not None and f.unit == "USD"]
    if side is None or not balance:
        return None
    year = max(years) if years else max(f.fiscal_year or 0 for f in balance)
    rows = sorted({(f.page, f.row): f for f in balance if f.fiscal_year == year}.values(),
                  key=lambda f: (f.page, f.row))
    lines, total = _side(rows, side)
    items = [f for f in lines if not f.total and not SUBTOTAL_RE.match(f.label) and f.value > 0]
    if len(items) < 2:
        return None
    top = max(items, key=lambda f: f.value)
    whole = total.value if total is not None else sum(f.value for f in items)
    amount, whole_shown = (format_value(v, "USD", None, None) for v in (top.value, whole))
    of = (f"total {'liabilities' if side == 'liability' else 'assets'} of {whole_shown}"
          if total is not None else f"the {len(items)} {side} lines summed, {whole_shown}")
    owner = subject_of(company) if company else "the company's"
    headline = (f"{top.label} was {owner} largest {side} at the end of FY{year}: {amount}, "
                f"{100 * top.value / whole:.1f}% of {of}.")
    asked = MetricQuestion(question=text, target="total_liabilities" if side == "liability"
                           else "total_assets", is_metric=False, years=[year], aggregate="choice")
    cited = [top, *([total] if total is not None else [])]
    return MetricAnswer(question=asked, status="answered", value=top.value,
                        values={year: top.value}, headline=headline,
                        operands=[Operand.read(f.concept or "line", f.label, year, f, f.value)
                                  for f in cited])
