"""Did the company buy back shares in the quarter asked, and how many: Item 703's table of issuer
purchases.

Regulation S-K Item 703 makes a 10-Q (Part II, Item 2) and a 10-K (Item 5) print, for each
month of the quarter and for the quarter, the total number of shares the issuer purchased. A
yes or no asked of a quarter's buyback is read from that table's row for the quarter asked
("Second quarter: Total number of shares of common stock repurchased: 4,981,047; ... Aggregate
purchase price of common stock repurchases (in millions): $ 622", JPMorgan's 10-Q for Q2 2022)
before any sentence: a sentence saying the program is suspended may speak of a later date
(JPMorgan suspended its buybacks in July 2022, after the quarter it bought $622 million in).
A row of the quarter that prints a count above zero says yes, one that prints zero says no;
a row that prints none ("—"), or no such row, leaves the question to the sentences.

"How many shares did it repurchase?" is read from the same table's quarter row, or from a row
that is the count itself ("Total number of shares repurchased 4.8 16.9" under "Three Months
Ended April 30, 2023 2022", Walmart's MD&A for Q1 fiscal 2024), in the column its heading dates
as the period asked, else its first: a filing prints the period it reports first (Regulation
S-X Rule 10-01(c): the interim period, then the same period of the preceding year).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import (
    DirectAnswer,
    PageRows,
    Row,
    Scan,
    heading_has,
    load_cues,
    read_row,
    scale_in,
    scale_of,
)
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.question.question import Question
from rag_assets.core.text.periods import quarter_label_re

INTENT = "buybacks"
# Item 703's columns: "Total number of shares (of common stock) purchased", "... repurchased"
SHARES_RE = re.compile(r"\btotal\s+number\s+of\s+(?:[\w-]+\s+){0,4}?shares\b[^:]*?\b"
                       r"(?:re)?purchased\b", re.IGNORECASE)
# the dollars beside them, where printed: "Aggregate purchase price of common stock repurchases"
PRICE_RE = re.compile(r"\baggregate\s+purchase\s+price\b", re.IGNORECASE)


def purchases_yes_no(question: Question, selected: Sequence[EvidenceUnit],
                     pool: Sequence[EvidenceUnit] = (), page_rows: PageRows | None = None,
                     scan: Scan | None = None) -> DirectAnswer | None:
    """"Yes." or "No." from the quarter's row of Item 703's table, or None."""
    if (question.expects != "yes_no" or INTENT not in question.intents
            or len(question.periods) != 1 or question.periods[0][0] is None):
        return None
    label_re = quarter_label_re(question.periods[0][0])
    stopped = question.phrased("stopped") is not None
    found = _from_rows(label_re, [*selected, *pool], stopped)
    if found is not None or scan is None or page_rows is None:
        return found
    pages = dict.fromkeys((u.document, u.year, u.page) for u in scan([SHARES_RE]))
    return _from_rows(label_re, [r for key in pages for r in page_rows(*key)], stopped)


def _from_rows(label_re: re.Pattern[str], units: Sequence[EvidenceUnit],
               stopped: bool = False) -> DirectAnswer | None:
    """The quarter's row: "Yes" when it bought shares, or, asked whether buybacks stopped
    (``stopped``: "Did it pause share buybacks in Q2?"), "No" when it bought shares."""
    for unit in units:
        row = read_row(unit)
        if row is None or not label_re.search(row.label):
            continue
        shares = [c for c in row.cells if SHARES_RE.search(c.heading)]
        if len(shares) != 1:
            continue
        price = next((c for c in row.cells if PRICE_RE.search(c.heading)), None)
        said = [f"{c.heading}: {c.printed}" for c in (shares[0], price) if c is not None]
        return DirectAnswer(kind="yes_no", units=[unit], supports=unit.text, text=(
            f"{'Yes' if (shares[0].value > 0) != stopped else 'No'}. {row.label}: "
            f"{'; '.join(said)} "
            f"(Item 703's table of issuer purchases)."))
    return None


def purchases_count(question: Question, selected: Sequence[EvidenceUnit],
                    pool: Sequence[EvidenceUnit] = (), page_rows: PageRows | None = None,
                    scan: Scan | None = None) -> DirectAnswer | None:
    """The number of shares bought back in the period asked, as the filing's table prints it,
    or None."""
    if (INTENT not in question.intents or question.expects == "yes_no"
            or not question.phrased("shares_counted")):
        return None
    period = question.periods[0] if len(question.periods) == 1 else None
    found = _count_from_rows(period, [*selected, *pool])
    if found is not None or scan is None or page_rows is None:
        return found
    pages = dict.fromkeys((u.document, u.year, u.page) for u in scan([SHARES_RE]))
    return _count_from_rows(period, [r for key in pages for r in page_rows(*key)])


def _count_from_rows(period: tuple[str | None, str] | None, units: Sequence[EvidenceUnit]
                     ) -> DirectAnswer | None:
    label_re = quarter_label_re(period[0]) if period and period[0] else None
    rows = [row for unit in units if (row := read_row(unit)) is not None and row.cells]
    for row in rows:  # Item 703's table: the quarter's row, its count column
        shares = [c for c in row.cells if SHARES_RE.search(c.heading)]
        if label_re is not None and label_re.search(row.label) and len(shares) == 1:
            # its scale only as its own heading prints one: the table's "(in millions)" is
            # the dollars' column's (JPMorgan's "Aggregate purchase price ... (in millions)")
            return _count_answer(row, shares[0].heading, shares[0].printed,
                                 scale_in(shares[0].heading, load_cues()))
    for row in rows:  # a row that is the count: the period asked's column, else the first
        if SHARES_RE.search(row.label):
            cell = next((c for c in row.cells if period and heading_has(c.heading, period)),
                        row.cells[0])
            return _count_answer(row, cell.heading, cell.printed,
                                 scale_of(row.unit, load_cues()))
    return None


def _count_answer(row: Row, heading: str, printed: str, scale: str) -> DirectAnswer:
    where = f"{row.label}, {heading}" if heading else row.label
    return DirectAnswer(kind="count", units=[row.unit],
                        supports=row.unit.text,
                        text=f"{printed.strip()}{scale} shares ({where}: {printed.strip()}).")
