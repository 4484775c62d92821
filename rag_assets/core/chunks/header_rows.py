"""Rows printed as text under a ruled header: one table, so that each row keeps its columns.

Some filings rule a table's header and print its rows as plain lines of figures below it
(JPMorgan's segment results: a ruled header of segment names over "2021 | 2020 | Change", then
``Total net revenue $ 12,517 $ 13,287 (6) % $ 14,605 ...`` as text). The PDF reader finds the
header as a table of headings only and the rows as prose, so a row read alone has lost which
segment and which year each figure is. A line right under such a header that prints exactly one
cell per value column is a row of that table; the first line that does not ends it (a ratio
row that leaves its "Change" cells blank stays prose, as printed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.ingest.statement_tables import YEAR_RE, markdown_cells
from rag_assets.core.text.figures import parse_figure, trailing_cells

_SEPARATOR_RE = re.compile(r"\|(?:\s*:?-+:?\s*\|)+")
MAX_WRAPPED_LABEL = 60  # a longer line without figures is prose, not a row's label


def _headings_only(rows: Sequence[Sequence[str]]) -> bool:
    """No cell after a row's first holds an amount: names, years and words only."""
    return all(parse_figure(cell) is None or YEAR_RE.fullmatch(cell.strip())
               for row in rows for cell in row[1:])


def rows_under_header(table_lines: Sequence[str], lines: Sequence[str], start: int
                      ) -> tuple[list[str], int]:
    """The markdown rows of the text lines from ``lines[start]`` on that belong to the table
    of ``table_lines`` (markdown), and the index of the first line that does not: none unless
    the table is headings only and the lines print one cell per value column, at least one of
    them a figure. The cells are the page's words (:func:`trailing_cells`), so a quote of the
    row is found on the page."""
    rows = [markdown_cells(line) for line in table_lines if not _SEPARATOR_RE.fullmatch(line)]
    if not rows or not _headings_only(rows):
        return [], start
    width = max(len(r) for r in rows) - 1
    found: list[str] = []
    at = start
    while width >= 2 and at < len(lines):
        label, cells = _row(lines[at])
        taken = 1
        if not cells and at + 1 < len(lines) and len(label) <= MAX_WRAPPED_LABEL:
            # a label wrapped over two lines ("Income/(loss) before income" / "tax expense/
            # (benefit) 8,917 246 ..."): one row; a caption line stays a row without figures
            rest, cells = _row(lines[at + 1])
            label, taken = (f"{label} {rest}", 2) if len(cells) == width else (label, 1)
            cells = cells if taken == 2 else [""] * width
        if not label or len(cells) != width:
            break
        found.append("| " + " | ".join(c.replace("|", "\\|") for c in [label, *cells]) + " |")
        at += taken
    while found and not _figures_in(found[-1]):
        found.pop()  # caption lines after the last row are the prose that follows the table
        at -= 1
    return found, at


def _row(line: str) -> tuple[str, list[str]]:
    label, cells = trailing_cells(line.strip())
    return (label, cells) if any(parse_figure(c) is not None for c in cells) else (
        line.strip(), [])


def _figures_in(row: str) -> bool:
    return any(parse_figure(c) is not None for c in markdown_cells(row)[1:])
