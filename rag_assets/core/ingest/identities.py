"""Accounting identities a filing prints the parts of: extraction checked without ground truth.

A statement prints its own checks: total assets equal total liabilities and equity, gross
profit is revenue less cost of revenue, the three cash-flow totals (and the exchange-rate
effect) add up to the change in cash. Facts that satisfy them were very likely read right
(right rows, right columns, right signs); a broken identity points at the rows to look at. The
checks compare values in one column of one statement (one period), within a rounding tolerance
of one printed unit per operand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, Field

from rag_assets.core.ingest.facts import StatementFact


class IdentityCheck(BaseModel):
    """One identity in one column: what it says, the two sides and whether they agree."""

    identity: str
    statement: str
    period: str
    page: int
    left: float
    right: float
    holds: bool
    concepts: list[str] = Field(description="the concepts it was computed from")


# name -> (statement, left concept, right side as (concept, sign) terms; optional terms)
IDENTITIES: dict[str, tuple[str, str, tuple[tuple[str, int], ...], tuple[str, ...]]] = {
    "assets = liabilities + equity": (
        "balance_sheet", "total_assets", (("liabilities_and_equity", 1),), ()),
    "gross profit = revenue - cost of revenue": (
        "income_statement", "gross_profit", (("revenue", 1), ("cost_of_revenue", -1)), ()),

    "operating + investing + financing (+ FX) = change in cash": (
        "cash_flow", "change_in_cash",
        (("operating_cash_flow", 1), ("investing_cash_flow", 1), ("financing_cash_flow", 1),
         ("fx_effect_on_cash", 1), ("change_in_cash_held_for_sale", 1)),
        ("fx_effect_on_cash", "change_in_cash_held_for_sale")),
}


def _best(facts: Sequence[StatementFact]) -> StatementFact:
    """Of several rows of one concept in one column, the preferred label, first printed."""
    return min(facts, key=lambda f: (f.rank, f.page, f.row))


def check_identities(facts: Sequence[StatementFact]) -> list[IdentityCheck]:
    """Every identity whose parts are all printed in one column of one statement."""
    columns: dict[tuple[str, int, int], dict[str, list[StatementFact]]] = defaultdict(
        lambda: defaultdict(list))
    for fact in facts:
        if fact.concept and fact.unit == "USD":
            columns[(fact.statement, fact.page, fact.column)][fact.concept].append(fact)
    # a statement over two pages (a balance sheet): the column carries on to the next page
    merged: dict[tuple[str, str], dict[str, list[StatementFact]]] = defaultdict(
        lambda: defaultdict(list))
    for (statement, _, _), concepts in columns.items():
        for concept, found in concepts.items():
            for fact in found:
                merged[(statement, f"{fact.period}|{fact.months}|{fact.fiscal_year}")][
                    concept].append(fact)
    checks: list[IdentityCheck] = check_subtotals(facts)
    for name, (statement, left, terms, optional) in IDENTITIES.items():
        for (stmt, _), concepts in merged.items():
            if stmt != statement or left not in concepts:
                continue
            needed = [c for c, _ in terms if c not in optional]
            if any(c not in concepts for c in needed):
                continue
            lhs = _best(concepts[left])
            used = [lhs]
            total = 0.0
            for concept, sign in terms:
                if concept in concepts:
                    fact = _best(concepts[concept])
                    used.append(fact)
                    # a cost printed in parentheses (Lockheed) is subtracted all the same
                    value = abs(fact.value) if sign < 0 else fact.value
                    total += sign * value
            tolerance = max(f.scale for f in used) * len(used)
            checks.append(IdentityCheck(
                identity=name, statement=statement, period=lhs.period, page=lhs.page,
                left=lhs.value, right=total, holds=abs(lhs.value - total) <= tolerance,
                concepts=[f.concept or "" for f in used],
            ))
    return checks


# subtotals checked against the rows above them: the concept, and the concept whose row opens
# the section (None: the statement's first row)
SUBTOTALS: dict[str, str | None] = {"current_assets": None, "current_liabilities": "total_assets"}


def _sums_to(parts: list[float], total: float, tolerance: float) -> int | None:
    """How many trailing parts add up to ``total`` (an inner subtotal), or None."""
    running = 0.0
    for k in range(1, len(parts) + 1):
        running += parts[-k]
        if abs(running - total) <= tolerance:
            return k
    return None


def _section_parts(rows: Sequence[StatementFact]) -> list[float]:
    parts: list[float] = []
    for fact in rows:
        k = _sums_to(parts, fact.value, fact.scale) if fact.total else None
        if k is not None:
            del parts[-k:]
        parts.append(fact.value)
    return parts


def check_subtotals(facts: Sequence[StatementFact]) -> list[IdentityCheck]:
    """A subtotal equals the rows printed above it; an inner subtotal ("Total inventories")
    stands for the rows it closes."""
    by_column: dict[tuple[int, int], list[StatementFact]] = defaultdict(list)
    for fact in facts:
        if fact.unit == "USD":
            by_column[(fact.page, fact.column)].append(fact)
    checks: list[IdentityCheck] = []
    for column in by_column.values():
        column.sort(key=lambda f: f.row)
        for target, opener in SUBTOTALS.items():
            ends = [i for i, f in enumerate(column) if f.concept == target and f.rank < 100]
            if not ends:
                continue
            end = ends[0]
            start = 0
            if opener is not None:
                opened = [i for i, f in enumerate(column[:end]) if f.concept == opener]
                if not opened:
                    continue
                start = opened[-1] + 1
            total = column[end]
            # the section may open lower (American Water prints plant first): the earliest
            # start from which the rows add up, else the statement's first row
            starts = list(range(start, max(start + 1, end - 1)))
            tried = [_section_parts(column[s:end]) for s in starts]
            parts = next((p for p in tried if abs(sum(p) - total.value) <= total.scale * len(p)),
                         tried[0])
            if len(parts) < 2:
                continue
            checks.append(IdentityCheck(
                identity=f"{target.replace('_', ' ')} = the rows above it",
                statement=total.statement, period=total.period, page=total.page,
                left=total.value, right=sum(parts),
                holds=abs(total.value - sum(parts)) <= total.scale * len(parts),
                concepts=[target],
            ))
    return checks


def share_holding(checks: Sequence[IdentityCheck]) -> float | None:
    """The share of checkable identities that hold (None when nothing was checkable)."""
    return sum(c.holds for c in checks) / len(checks) if checks else None
