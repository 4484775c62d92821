"""Dividends per share, from the row a filing prints them in: the figure of the period asked.

The cash flow statement carries dividends paid in dollars, not per share; a 10-K prints the
per-share amount in a row of its own (the selected financial data, Item 5 or the equity note:
"Cash dividends declared per common share $ 2.41 $ 2.20 $ 2.00", Item 201 of Regulation S-K).
A question that asks the dividends per share of a period (``finance_terms``'s
``dividends_per_share``) gets that row's cell under the period asked, as printed: from the rows
retrieval returned, else from the rows of the filing's pages that print such a row (retrieval
often returns the dividend sentences of Item 5 and not the table). A row that prints no column
of the period, or two, gives nothing. A filing that prints no such row may state the year's
total in its equity note, one amount for each year listed: "which resulted in total year
declared and paid dividends of $5.44, $4.70 and $4.44 per share, respectively" after "in 2018,
2017 and 2016" (3M's 2018 10-K); the amount in the year's place is given, not a quarter's
("$1.36 ... per share for each quarter"). The quarterly data of a 10-K (Item 302) print a
year's four quarters in one row ("Dividends per share: 2015: $ 0.41; ... 2015: $ 0.44",
General Mills 2015): the year's is their sum, said as such. Else the statement of equity's
row of the common dividend may print it in its label, once in each year's block ("Dividends
declared-common stock ($1.60 per share)", Kraft Heinz 2021). Else nothing, and the quotes
answer.
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
from rag_assets.core.text.figures import MONEY_RE
from rag_assets.core.text.periods import (
    BALANCE_DATED_RE,
    EACH_QUARTER_RE,
    INSTALLMENTS_RE,
    QUARTERLY_DATA_RE,
)
from rag_assets.core.text.years import years_in

METRIC = "dividends_per_share"
# "Cash dividends declared per common share", "Dividends paid per share", "Dividends per share",
# "Cash dividends paid per 3M common share" (3M's 2018 10-K, Item 5)
PER_SHARE_RE = re.compile(r"\bdividends?\b(?:\s+[\w-]+){0,2}?\s+per\s+"
                          r"(?:(?:[\w&.-]+\s+)?(?:common|ordinary)\s+)?share\b", re.IGNORECASE)
# one amount for each year listed, "respectively": "dividends of $5.44, $4.70 and $4.44 per
# share" (3M 2018), "dividend was $1.60 per share, $1.56 per share and $1.48 per share in 2019,
# 2018 and 2017" (Coca-Cola 2019, Item 7), "Dividends (per share - $1.60, $1.56 and $1.48 in
# 2019, 2018 and 2017, respectively)" (Coca-Cola's equity statement)
_AMOUNT = r"\$\s?\d[\d.]*(?:\s+per\s+(?:common\s+)?share)?"
LISTED_RE = re.compile(r"\bdividends?\s+(?:(?:declared|paid|and)\s+)*"
                       r"(?:(?:of|totaled|totaling|were|was)\s+|\(\s*per\s+share\s*[-\u2013\u2014]\s*)"
                       rf"(?P<amounts>{_AMOUNT}(?:,\s+{_AMOUNT})*,?\s+and\s+{_AMOUNT})"
                       r"(?:\s+per\s+(?:common\s+)?share)?[^.;]*?\brespectively\b", re.IGNORECASE)

# a statement of equity's row that prints the per-share amount in its label: "Dividends
# declared-common stock ($1.60 per share)" (Kraft Heinz 2021), in the block of one year; a
# noncontrolling interest's or a preferred stock's dividend is not the common share's
LABELLED_RE = re.compile(r"\bdividends?\b[^()$]*\(\s*\$\s?(?P<n>\d[\d.]*)\s+per\s+"
                         r"(?:common\s+)?share\s*\)", re.IGNORECASE)
OTHER_HOLDERS_RE = re.compile(r"\b(?:noncontrolling|non-controlling|minority|preferred)\b",
                              re.IGNORECASE)
COUNTS = {"two": 2, "three": 3, "four": 4}
PAYABLE_RE = re.compile(r"\bpayable\b", re.IGNORECASE)
# a statement's balance row goes on with its figures ("Balance at May 31, 2022 305 $ — 1,266")
FIGURES_AFTER_RE = re.compile(r"\s*(?:\$\s*)?(?:[\d(—–-])")
# the balance that closes a year's block of a statement of equity: "Balance at December 28,
# 2019", "Balances as of January 31, 2021"
CLOSING_BALANCE_RE = re.compile(r"^\s*balances?\s+(?:at|as\s+of)\b", re.IGNORECASE)


def per_share_dividend(question: Question, selected: Sequence[EvidenceUnit],
                       pool: Sequence[EvidenceUnit] = (), page_rows: PageRows | None = None,
                       scan: Scan | None = None) -> DirectAnswer | None:
    """The per-share dividend of the one period asked, or None."""
    if question.metrics != [METRIC] or question.expects != "figure" or len(question.periods) != 1:
        return None
    period = question.periods[0]
    found = _from_rows(period, [*selected, *pool], scan)
    if found is None and scan is not None and page_rows is not None:
        # the filing's pages that print such a row, read as rows
        def rows_of_pages(pattern: re.Pattern[str]) -> list[EvidenceUnit]:
            """The rows of the pages whose sentences match ``pattern``, each page read once."""
            pages = dict.fromkeys((u.document, u.year, u.page) for u in scan([pattern]))
            return [r for key in pages for r in page_rows(*key)]

        # each reading only when the one before finds nothing: a scan reads the whole filing
        found = (_from_rows(period, rows_of_pages(PER_SHARE_RE), scan)
                 or next((found for unit in scan([LISTED_RE])
                          if (found := _from_listed(period, unit)) is not None), None)
                 or _from_equity_blocks(period, rows_of_pages(LABELLED_RE))
                 or next((found for unit in scan([LABELLED_RE])
                          if (found := _from_equity_text(period, unit)) is not None), None))
    return found


def _in_installments(found: DirectAnswer, amount: float, scan: Scan) -> DirectAnswer:
    """A quarter's declared dividend that is the year's, paid in installments: Walmart's board
    approves the fiscal year's annual dividend in its first quarter ("$2.28 in three months
    2023"), and the filing says how it is paid ("paid in four quarterly installments of $0.57
    per share"). The installment is named when installments times it make the amount the row
    declares (``amount``); else the row's answer as it is."""
    for unit in scan([INSTALLMENTS_RE]):
        said = " ".join(unit.text.split())
        for match in INSTALLMENTS_RE.finditer(said):
            count = COUNTS.get(match["count"].lower()) or int(match["count"])
            each = float(match["each"])
            if count > 1 and abs(count * each - amount) < 0.005:
                # quoted up to the installment: the sentence runs on into the dates' table
                quoted = unit.model_copy(update={"quote": said[:match.end()],
                                                 "text": said[:match.end()]})
                return DirectAnswer(
                    kind="dividend", units=[*found.units, quoted], supports=found.supports,
                    text=f"{found.text.rstrip('.')}, the year's dividend, paid in {match['count']} "
                         f"quarterly installments of ${match['each']} per share.")
    return found


def _from_listed(period: tuple[str | None, str], unit: EvidenceUnit) -> DirectAnswer | None:
    """The amount in the place of the year asked in a sentence that lists a year's dividends
    per share for each year it names, "respectively"; a quarter's list is not the year's."""
    if period[0] is not None:
        return None  # a quarter or a half asked: the year's list is not its figure
    years = list(dict.fromkeys(years_in(unit.text)))
    for match in LISTED_RE.finditer(unit.text):
        amounts = [money["n"] for money in MONEY_RE.finditer(match["amounts"])]
        if (EACH_QUARTER_RE.search(match[0]) or len(amounts) != len(years)
                or int(period[1]) not in years):
            continue
        amount = amounts[years.index(int(period[1]))]
        return DirectAnswer(kind="dividend", units=[unit],
                            text=f"Dividends per share: ${amount} in {period[1]} (stated: "
                                 f"\"{' '.join(match[0].split())}\").")
    return None


def _from_rows(period: tuple[str | None, str], units: Sequence[EvidenceUnit],
               scan: Scan | None = None) -> DirectAnswer | None:
    """The cell under the period asked of the first row labelled as dividends per share; a
    quarter's with the installment it is paid in, when the filing says (``scan``)."""
    for unit in units:
        row = read_row(unit)
        if row is None or not PER_SHARE_RE.search(row.label):
            continue
        cells = [c for c in row.cells if heading_has(c.heading, period)]
        if len(cells) == 1 and cells[0].value > 0:
            cell = cells[0]
            found = DirectAnswer(kind="dividend", units=[unit],
                                 text=f"{row.label}: {cell.printed.replace('$ ', '$')} in "
                                      f"{cell.heading}.")
            return (_in_installments(found, cell.value, scan)
                    if period[0] is not None and scan is not None else found)
        if (period[0] is None and len(cells) == 4 and all(c.value > 0 for c in cells)
                and QUARTERLY_DATA_RE.search(f"{unit.scope} {unit.caption}")):
            quarters = ", ".join(f"${c.value:.2f}" for c in cells)
            return DirectAnswer(kind="dividend", units=[unit], supports=unit.quote, text=(
                f"{row.label}: ${sum(c.value for c in cells):.2f} in {period[1]}, the sum of "
                f"the four quarters the quarterly data print ({quarters})."))
    return None


def _from_equity_blocks(period: tuple[str | None, str], units: Sequence[EvidenceUnit]
                        ) -> DirectAnswer | None:
    """The per-share amount a statement of equity prints in the label of its common dividend's
    row, in the block of the year asked: the rows above the balance that closes that year
    ("Balance at December 25, 2021" closes 2021's). A quarter's or a half's asked: nothing."""
    if period[0] is not None:
        return None
    tables: dict[tuple[str, int, str], list[EvidenceUnit]] = {}
    for unit in units:
        if unit.is_row:
            tables.setdefault((unit.document, unit.year, unit.scope), []).append(unit)
    for rows in tables.values():
        block: list[tuple[EvidenceUnit, re.Match[str]]] = []
        for unit in rows:
            row = read_row(unit)
            label = row.label if row is not None else ""
            closing = years_in(label) if CLOSING_BALANCE_RE.match(label) else []
            if closing:
                if closing[-1] == int(period[1]) and len(block) == 1:
                    cited, stated = block[0]
                    return DirectAnswer(kind="dividend", units=[cited],
                                        text=f"Dividends per share: ${stated['n']} in "
                                             f"{period[1]} (stated: \"{stated[0]}\").")
                block = []
            elif (found := LABELLED_RE.search(label)) and not OTHER_HOLDERS_RE.search(label):
                block.append((unit, found))
    return None


def _from_equity_text(period: tuple[str | None, str], unit: EvidenceUnit) -> DirectAnswer | None:
    """The same reading as :func:`_from_equity_blocks` on the text of a statement of equity
    that no table reader took apart: the common dividend's label with its per-share amount,
    the only one in the block the year-end balance of the year asked closes ("Dividends on
    common stock ($1.190 per share) ... Balance at May 31, 2022", Nike's FY2022 10-K). A text
    is such a statement where its balances, each followed by its figures, are struck at the
    date of its last (the year-end: an opening balance at another date closes no year); a
    label of a preferred or noncontrolling holder's dividend, one naming a year, or a dividend
    payable (a liability's row) is no year's common dividend declared."""
    if period[0] is not None:
        return None
    text = " ".join(unit.text.split())
    balances = [b for b in BALANCE_DATED_RE.finditer(text) if FIGURES_AFTER_RE.match(text, b.end())]
    year_end = balances[-1]["day"].lower() if balances else ""
    closing = [b for b in balances if b["day"].lower() == year_end]
    start = 0
    for balance in closing:
        block = [m for m in LABELLED_RE.finditer(text, start, balance.start())
                 if not OTHER_HOLDERS_RE.search(text[max(start, m.start() - 40):m.end()])
                 and not years_in(m[0]) and not PAYABLE_RE.search(m[0])]
        start = balance.end()
        if balance["year"] == period[1] and len(block) == 1:
            stated = block[0]
            cited = unit.model_copy(update={"quote": stated[0], "text": stated[0]})
            return DirectAnswer(kind="dividend", units=[cited],
                                text=f"Dividends per share: ${stated['n']} in {period[1]} "
                                     f"(stated: \"{stated[0]}\").")
    return None
