"""What moved the effective tax rate, read from the filing's rate reconciliation.

ASC 740-10-50-12 has a public entity reconcile its effective income tax rate to the statutory
rate, item by item, for every year it presents; the income taxes note prints it as a table
that opens with the statutory rate and closes with the effective rate. The items whose share
of pretax income moved most between the two years asked are what moved the rate, each cited
on its row. The page is read line by line, a ruled row by its cells (a blank cell: none that
year) and a line of text by the figures it ends with, whether the reconciliation is ruled,
printed as text (Coca-Cola 2019) or both (Corning 2020's first rows ruled): a percentage per
item and year, or, printed in amounts, each item over the pretax income its first row's tax at
the statutory rate implies. A line that prints fewer figures than years leaves unsaid which
year it is blank in, and a label that swallowed a cell leaves its row unread, so no item is
named that such a line might outmove. Hand-written because no library reads a
filing's notes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.records import SourceCitation
from rag_assets.core.ingest.pages import markdown_cells
from rag_assets.core.text.figures import parse_figure, trailing_cells
from rag_assets.core.text.markers import SUPERSCRIPT_DIGITS
from rag_assets.core.text.years import FISCAL_YEAR_RE, years_in

OPENS_RE = re.compile(r"\bstatutory\b.*\brate\b|\brate\b.*\bstatutory\b", re.IGNORECASE)
CLOSES_RE = re.compile(r"\beffective\b.*\btax\b.*\brate\b|^total\b|^(?:\(?benefit\)?\s+)?provision "
                       r"for income taxes\b|^income tax (?:expense|provision)\b", re.IGNORECASE)
# the statutory rate a reconciliation in amounts names in its first row ("Expected tax expense
# at U.S. Federal statutory rate of 35%"): each item over the pretax income it implies
STATUTORY_RATE_RE = re.compile(r"(\d{1,2}(?:\.\d+)?)\s?%")
MOVERS = 3  # items named at most
MIN_POINTS = 0.3  # percentage points an item must move to be named
DECIMAL_RE = re.compile(r"\d\.\d")
DECIMAL_FIGURE_RE = re.compile(r"\(?-?\d[\d,]*\.\d+\)?")


# a note's mark set apart beside rates printed with decimals ("0.1 7 52.4 8", Coca-Cola 2019;
# "Tax credits (2) (29.7)", Corning 2020): no cell
NOTE_MARKS_RE = re.compile(r"\(?\d{1,2}\)?")
# several notes' marks set apart ("1,2,3", "9,10"): never a figure, whose groups are of three
MARK_LISTS_RE = re.compile(r"(?<!\S)\d{1,2}(?:,\d{1,2})+(?!\S)")


class Mover(NamedTuple):
    """An item of the reconciliation, its share of pretax income in the two years (a blank
    cell: none), and where it is printed: its row's quote on its page."""

    label: str
    before: float
    after: float
    document: str
    year: int
    page: int
    quote: str

    @property
    def points(self) -> float:
        return self.after - self.before


def _figure(cell: str) -> float | None:
    """A printed percentage (the one cell grammar, :func:`parse_figure`: "21.0%", "(0.5)",
    its note marks left out); a cell a year leaves blank is 0: no such item that year."""
    return 0.0 if not cell.strip() else parse_figure(cell)


def _points_per_unit(opening: Sequence[str], at: Sequence[int]) -> list[float] | None:
    """What one printed unit of each column asked is in points of pretax income: 1 for a
    reconciliation printed in percentages; for one printed in amounts, the statutory rate its
    first row names over that row's amount (the tax at that rate: 100 x rate / amount); None
    when neither can be read."""
    cells = [opening[i] if i < len(opening) else "" for i in at]
    if all("%" in c for c in cells):
        return [1.0] * len(cells)
    rate = STATUTORY_RATE_RE.search(opening[0])
    amounts = [parse_figure(c) for c in cells]
    if rate is None or any(not a for a in amounts):
        return None
    return [float(rate.group(1)) / a for a in amounts if a]


def rate_movers(pages: PageTexts, document: str, year: int, years: tuple[int, int]
                ) -> list[Mover]:
    """The reconciliation items that moved most from ``years[0]`` to ``years[1]`` (the
    column headings' years), largest first, each with the row unit that cites it; empty when
    the filing prints no reconciliation of both years."""
    for page in pages.pages_of(document, year):
        text = pages.get(document, year, page) or ""
        if OPENS_RE.search(text) and (movers := _line_movers(text, years,
                                                             (document, year, page))):
            return movers
    return []


def _page_lines(text: str) -> list[tuple[str, list[str], str]]:
    """(label, cells, quote) of each line of a page: a ruled row's cells as ruled (a blank one
    kept: none that year), a text line's trailing figures; a line of words alone is a label
    the next line goes on with ("Repatriation tax on accumulated previously untaxed" /
    "foreign earnings 9.1 (1.2)"), whose quote is the line of figures."""
    out: list[tuple[str, list[str], str]] = []
    carried = ""
    for line in text.splitlines():
        if line.lstrip().startswith("|"):
            cells = markdown_cells(line)
            if cells and not all(set(c) <= set("-: ") for c in cells):  # not the rule
                out.append((cells[0], cells[1:], " ".join(c for c in cells if c)))
            carried = ""
            continue
        label, cells = trailing_cells(MARK_LISTS_RE.sub(" ", line.replace(" %", "%")))
        if not cells:
            carried = f"{carried} {label}".strip()
            continue
        out.append((f"{carried} {label}".strip(), cells, " ".join(line.split())))
        carried = ""
    return out


def _line_movers(text: str, years: tuple[int, int], where: tuple[str, int, int]
                 ) -> list[Mover]:
    """The movers of a reconciliation printed as lines (:func:`_page_lines`) from the
    statutory rate's line to the effective rate's, the years' columns in the order the
    nearest line of years above prints them; an item named only when it moved more than any
    line of fewer figures than years could have."""
    lines = _page_lines(text)
    opens = next((i for i, (label, cells, _) in enumerate(lines)
                  if OPENS_RE.search(label) and len(cells) >= 2
                  and not all(FISCAL_YEAR_RE.fullmatch(c) for c in cells)), None)
    if opens is None:
        return []
    order = next((printed for label, cells, _ in reversed(lines[:opens])
                  if len(printed := years_in(f"{label} {' '.join(cells)}")) >= 2), [])
    width = len(lines[opens][1])
    if len(order) != width or any(y not in order for y in years):
        return []
    at = [order.index(y) for y in years]
    scale = _points_per_unit([lines[opens][0], *lines[opens][1]], [i + 1 for i in at])
    closes = next((i for i in range(opens + 1, len(lines)) if CLOSES_RE.search(lines[i][0])),
                  None)
    if scale is None or closes is None:
        return []
    marks = all(DECIMAL_RE.search(c) for c in lines[opens][1])  # a set-apart integer: a mark
    read, unsure = [], 0.0
    for label, cells, quote in lines[opens + 1:closes]:
        if DECIMAL_RE.search(label):  # a cell the reader ran into the label: no row to read,
            # and it may have moved as much as its figures add up to
            seen = [abs(v) for f in DECIMAL_FIGURE_RE.findall(f"{label} {' '.join(cells)}")
                    if (v := parse_figure(f)) is not None]
            unsure = max(unsure, sum(seen) * max(scale))
            continue
        kept = [c.rstrip(SUPERSCRIPT_DIGITS) for c in cells
                if not (marks and NOTE_MARKS_RE.fullmatch(c))]
        values = [_figure(c) for c in kept]
        if len(values) != width or any(v is None for v in values):
            unsure = max(unsure, sum(abs(v or 0.0) * max(scale) for v in values))
            continue
        before, after = (round((values[i] or 0.0) * k, 1) for i, k in zip(at, scale,
                                                                           strict=True))
        read.append(Mover(label, before, after, *where, quote))
    named = [m for m in read if abs(m.points) >= MIN_POINTS and abs(m.points) > unsure]
    return sorted(named, key=lambda m: -abs(m.points))[:MOVERS]


def movers_clause(movers: Sequence[Mover]) -> tuple[str, list[SourceCitation]]:
    """The movers as a clause ("its rate reconciliation (p.77) moved most on audit
    settlements & change in reserve, 1.6% to 3.7%, and ...") and a citation per row."""
    shown = [f"{m.label}, {m.before:g}% to {m.after:g}%" for m in movers]
    listed = "; ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]
    cited = [SourceCitation(document=m.document, year=m.year, page=m.page, quote=m.quote,
                            supports=m.quote) for m in movers]
    page = movers[0].page
    return f"its rate reconciliation (p.{page + 1}) moved most on {listed}", cited
