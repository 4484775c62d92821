"""Dividends per share, from the row a filing prints them in: the figure of the period asked.

The cash flow statement carries dividends paid in dollars, not per share; a 10-K prints the
per-share amount in a row of its own (the selected financial data, Item 5 or the equity note:
"Cash dividends declared per common share $ 2.41 $ 2.20 $ 2.00", Item 201 of Regulation S-K).
A question that asks the dividends per share of a period (``finance_terms``'s
``dividends_per_share``) gets that row's cell under the period asked, as printed: from the rows
retrieval returned, else from the rows of the filing's pages that print such a row (retrieval
often returns the dividend sentences of Item 5 and not the table). A row that prints no column
of the period, or two, gives nothing, and the quotes answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import (
    DirectAnswer,
    PageRows,
    Scan,
    heading_has,
    read_row,
)
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.question.question import Question

METRIC = "dividends_per_share"
# "Cash dividends declared per common share", "Dividends paid per share", "Dividends per share"
PER_SHARE_RE = re.compile(r"\bdividends?\b(?:\s+[\w-]+){0,2}?\s+per\s+(?:common\s+|ordinary\s+)?"
                          r"share\b", re.IGNORECASE)


def per_share_dividend(question: Question, selected: Sequence[EvidenceUnit],
                       pool: Sequence[EvidenceUnit] = (), page_rows: PageRows | None = None,
                       scan: Scan | None = None) -> DirectAnswer | None:
    """The per-share dividend of the one period asked, or None."""
    if question.metrics != [METRIC] or question.expects != "figure" or len(question.periods) != 1:
        return None
    period = question.periods[0]
    found = _from_rows(period, [*selected, *pool])
    if found is not None or scan is None:
        return found  # else the filing's pages that print such a row, read as rows
    if page_rows is None:
        return None
    pages = dict.fromkeys((u.document, u.year, u.page) for u in scan([PER_SHARE_RE]))
    return _from_rows(period, [r for key in pages for r in page_rows(*key)])


def _from_rows(period: tuple[str | None, str], units: Sequence[EvidenceUnit]
               ) -> DirectAnswer | None:
    """The cell under the period asked of the first row labelled as dividends per share."""
    for unit in units:
        row = read_row(unit)
        if row is None or not PER_SHARE_RE.search(row.label):
            continue
        cells = [c for c in row.cells if heading_has(c.heading, period)]
        if len(cells) == 1 and cells[0].value > 0:
            cell = cells[0]
            return DirectAnswer(kind="dividend", units=[unit],
                                text=f"{row.label}: {cell.printed.replace('$ ', '$')} in "
                                     f"{cell.heading}.")
    return None
