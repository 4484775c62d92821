"""Ruled tables: the tables a PDF draws with rules, found by pdfplumber's ``TableFinder``
(default "lines" strategy) on the edges PDFium reports, and their cells read word by word.

Ruled tables are read word by word, not by PDFium's bounded-text call per cell: that call takes
every character whose box touches the cell, so a ``)`` or a ``$`` overhanging a rule, or a
descender crossing one, came out in two cells (``(36)`` then ``)``, ``$ $ 124``), and a cell
drawn over several rows put all their figures in its first row. Each word (characters with no
space or wide gap between them) goes to the one cell its centre falls in, in the grid row of its
height. A printed row belongs to the table its first word stands in: PDFium sometimes runs a
table's first row on from its title or header years, and such a line is cut where the printed
row changes, so every character ends in the text or in one cell (checked on all the real
filings). ``clean_table_rows`` then puts each figure's pieces in one cell (``$`` before a spacer
and the figure, ``(`` and ``)``, ``%``: ``$ 1,419``, ``(36)``, ``(1.2)%``), by moving text, never
dropping it, drops empty columns and joins neighbouring columns that no row fills both of (the
year printed over the ``$`` spacer, the figures in the cell after it).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import pypdfium2 as pdfium
from pdfplumber.table import TableFinder, TableSettings
from pdfplumber.utils.geometry import rect_to_edges

from rag_assets.core.ingest.pdf.geometry import CharSample, path_bounds, sample_chars
from rag_assets.core.text.periods import PERIOD_CAPTION_RE, PRINTED_DATE_RE
from rag_assets.core.text.years import FISCAL_YEAR_RE, WHOLE_YEAR_RE

if TYPE_CHECKING:
    from pdfplumber.page import Page as PlumberPage

RULE_MAX_THICKNESS = 2.0  # points
_TABLE_SETTINGS = TableSettings.resolve(None)


class _PageGeometry:
    """The three attributes of a pdfplumber ``Page`` that ``TableFinder`` reads."""

    def __init__(
        self, bbox: tuple[float, float, float, float], edges: list[dict[str, Any]]
    ) -> None:
        self.bbox = bbox
        self.edges = edges
        self.chars: list[dict[str, Any]] = []


Rule = tuple[float, float, float]  # left, right, y of a thin horizontal path (PDF points)


@dataclass
class Grid:
    """A ruled table as pdfplumber's finder sees it: its cells (pdfplumber coordinates, top
    down) and its bounding box in PDF points (origin bottom-left)."""

    cells: list[tuple[float, float, float, float]]
    box: tuple[float, float, float, float]


def find_grids(
    page: pdfium.PdfPage, width: float, height: float
) -> tuple[list[Grid], list[Rule]]:
    """pdfplumber's lines-strategy table finder over the rules PDFium reports; also the thin
    horizontal rules of the page (footnote separators among them)."""
    edges: list[dict[str, Any]] = []
    rules: list[Rule] = []
    for left, bottom, right, top in path_bounds(page):
        if top - bottom > height * 1.05 or right - left > width * 1.05:
            continue  # bounds of a path drawn inside a form or clipped: not a rule on this page
        if top - bottom <= RULE_MAX_THICKNESS and right - left > 2 * (top - bottom):
            rules.append((left, right, (top + bottom) / 2))
        rect = {
            "x0": left, "x1": right, "y0": bottom, "y1": top,
            "top": height - top, "bottom": height - bottom, "doctop": height - top,
            "width": right - left, "height": top - bottom, "object_type": "rect",
        }
        edges.extend(rect_to_edges(rect))
    if not edges:
        return [], rules
    # the finder reads a pdfplumber Page's bbox, edges and chars only: this stands in for it
    page_like = cast("PlumberPage", _PageGeometry((0, 0, width, height), edges))
    finder = TableFinder(page_like, _TABLE_SETTINGS)
    grids = []
    for table in finder.tables:
        x0, top, x1, bottom = table.bbox
        grids.append(Grid(list(table.cells), (x0, height - bottom, x1, height - top)))
    return grids, rules


Piece = tuple[int, str, list["CharSample"], int | None]  # start, text, samples, ruled table
# a word of a line: start, end (in the line), text, centre x, centre y, height (PDF points)
_Word = tuple[int, int, str, float, float, float]


def cut_tables(
    textpage: pdfium.PdfTextPage,
    grids: list[Grid],
    raw: list[tuple[int, str, list[CharSample]]],
    height: float,
) -> tuple[list[Piece], dict[int, list[list[str]]]]:
    """The page's lines cut into prose and ruled-table pieces, and each table's cleaned rows
    (keyed by the grid's position).

    A printed row belongs to the table its first word stands in, with all its words (a figure
    printed past the last rule goes to the last column). PDFium sometimes runs a table's first
    row on from the lines above it (a title, the header years): such a line is cut where the
    printed row changes, so a word lands in the text or in a cell, never in both and never in
    neither. A row that starts left of a grid (rules drawn under some columns only) stays prose.
    A grid whose rows are no table (a box around text, a paragraph framed, a "table" without
    words) gives its words back to the prose; one that opens with a row of figures takes the
    headings printed above its top rule (:func:`_headed`).
    """
    words_of: dict[int, list[_Word]] = {}
    for number, (start, line, samples) in enumerate(raw):
        if samples and any(_touches(samples, g.box) for g in grids):
            words_of[number] = _line_words(textpage, start, line)
    rejected: set[int] = set()
    while True:
        boxes = [(n, g.box) for n, g in enumerate(grids) if n not in rejected]
        pieces: list[Piece] = []
        table_words: dict[int, list[_Word]] = {}
        for number, (start, line, samples) in enumerate(raw):
            words = words_of.get(number)
            if not words or not boxes:
                pieces.append((start, line, samples, None))
                continue
            runs: list[tuple[int | None, list[_Word]]] = []
            for row in _printed_rows(words):
                at = table_of(row[0][3], row[0][4], boxes)
                if runs and runs[-1][0] == at:
                    runs[-1][1].extend(row)
                else:
                    runs.append((at, row))
            if len(runs) == 1 and runs[0][0] is None:
                pieces.append((start, line, samples, None))
                continue
            for at, run in runs:
                if at is not None:
                    table_words.setdefault(at, []).extend(run)
                    pieces.append((start, "", [], at))
                    continue
                begin, end = run[0][0], run[-1][1]
                part, at_start = line[begin:end], start + begin
                pieces.append((at_start, part, sample_chars(textpage, at_start, part), None))
        found: dict[int, list[list[str]]] = {}
        for n, words in table_words.items():
            cells = _grid_rows(grids[n], words, height)
            rows = clean_table_rows(cells)
            if rows is None or not _has_words(rows) or _boxed_prose(rows):
                rejected.add(n)
                continue
            found[n], pieces = _headed(n, grids[n], cells, rows, pieces, textpage)
        if len(found) == len(table_words):
            return pieces, found


def _headed(n: int, grid: Grid, cells: list[list[str]], rows: list[list[str]],
            pieces: list[Piece], textpage: pdfium.PdfTextPage
            ) -> tuple[list[list[str]], list[Piece]]:
    """Table ``n``'s rows under the headings printed above its top rule when it opens with a
    row of figures (:func:`_header_above`), the prose pieces they were taken from now the
    table's; else the rows and pieces as they are."""
    if not _opens_with_data(rows):
        return rows, pieces
    header, used, crowded = _header_above(grid, cells, pieces, textpage)
    with_header = clean_table_rows([*header, *cells]) if used else None
    # headings that stand over no column of figures part columns the rules joined: not taken
    if with_header is None or len(with_header[0]) != len(rows[0]):
        return rows, pieces
    if _captioned(rows) and (crowded or len(header) > 1):
        # a grid that opens with a caption takes headings that name its columns one to one:
        # Kraft Heinz's organic net sales table prints six headings over five ruled columns
        # ("Organic Net Sales", "Price", "Volume/Mix" over one), and "Acquisitions and" over
        # "Divestitures", which no line of groups is
        return rows, pieces
    return with_header, [(start, "", [], n) if table is None and start in used
                         else (start, line, samples, table)
                         for start, line, samples, table in pieces]


# a sentence that leads into the table ("... is provided in the following table:"), never a
# heading over a group of its columns
LEAD_IN_RE = re.compile(r":\s*$|(?:\S+\s+){8}")
HEADER_LINES = 6  # lines of column headings a grid's top rule may leave above it, at most


def _opens_with_data(rows: list[list[str]]) -> bool:
    """The grid's first row prints figures under a label (dates among them), no headings, or
    is a caption over such a row (Walmart 2022's segment table: "Fiscal Year Ended January 31,
    2022" over its net sales): its column headings are printed above its top rule (16% of the
    corpora's ruled tables, American Water's state table among them), and the markdown table
    would take the row for its header."""
    cells = [c for c in rows[int(_captioned(rows))][1:] if c]
    figures = [c for c in cells if FIGURE_START_RE.match(c) and not FISCAL_YEAR_RE.fullmatch(c)]
    # a dated row (Walmart's debt issued, "April 18, 2023 | $ 750 | April 15, 2026 | 4.000%"):
    # dates beside its figures, never a header's dates alone
    return bool(figures) and all(c in figures or PRINTED_DATE_RE.fullmatch(c) for c in cells)


def _captioned(rows: list[list[str]]) -> bool:
    """The grid's first row is a caption over its rows of figures: a label alone."""
    return len(rows) > 1 and bool(rows[0][0]) and not any(rows[0][1:])


def _header_above(grid: Grid, cells: list[list[str]], pieces: list[Piece],
                  textpage: pdfium.PdfTextPage) -> tuple[list[list[str]], set[int], bool]:
    """The header rows printed right above a grid that opens with a row of figures: the lines
    stacked over its top rule (each within two of its heights of the one below), inside its
    width, that print a heading over each of two columns or more, each phrase in the column of
    figures or words nearest its centre, upper lines first (of a line PDFium ran on into the
    grid's first row, the part above the grid); above them, a line of headings each over a
    group of those columns is a row of its own (:func:`_over_groups`), unless the lowest line
    was joined from pieces (:func:`_printed_lines`): then the grid stays unheaded, as before
    the join (American Water 2022's "Weighted Average Grant", wider than the column it heads
    over a joined line, is no group's heading). Also the offsets of the
    prose pieces taken, and whether a line put two of its phrases over one column (more
    headings than ruled columns)."""
    left, _, right, top = grid.box
    xs = sorted({c[0] for c in grid.cells})
    ends = [*xs[1:], right]
    # the columns that print a figure or a word: not the spacers that hold a "$" or "("
    centres = {j: (xs[j] + ends[j]) / 2 for j in range(len(xs))
               if any(any(ch.isalnum() for ch in r[j]) for r in cells)}
    above = sorted(((start, text, samples) for start, text, samples, table in pieces
                    if table is None and samples and min(c.bottom for c in samples) >= top - 1
                    and min(c.left for c in samples) >= left - 2
                    and max(c.right for c in samples) <= right + 2),
                   key=lambda piece: min(c.bottom for c in piece[2]))
    columns: list[list[tuple[float, str]]] = [[] for _ in xs]  # (top, phrase): upper first
    groups = [""] * len(xs)
    used: set[int] = set()
    crowded = False
    edge = top
    lines = _printed_lines(above)
    joined = bool(lines) and len(lines[0][0]) > 1
    for starts, text, samples in lines[:HEADER_LINES]:
        size = max(c.height for c in samples)
        if min(c.bottom for c in samples) - edge > 2 * size or not centres:
            break
        if any(map(any, columns[1:])) and PERIOD_CAPTION_RE.match(text.strip()):
            break  # a period over the headings ("2021", American Water's segment note): caption
        phrases = sorted(p for start, line in starts for p in _phrases(textpage, start, line))
        if any(_prints_amounts(phrase) for _, _, _, phrase in phrases):
            break  # a row of figures printed between two grids: no heading
        spanning = [sum(x0 <= x <= x1 for x in centres.values()) > 1 for x0, x1, _, _ in phrases]
        if any(spanning):
            headed = {j: centres[j] for j in centres if j > 0 and columns[j]}
            if all(spanning) and len(headed) > 1 and not any(
                    LEAD_IN_RE.search(phrase) for _, _, _, phrase in phrases):
                if joined:  # a heading wider than its column, above a joined line: unheaded
                    return [[""] * len(xs)], set(), False
                groups = _over_groups(phrases, headed, len(xs))
                used.update(start for start, _ in starts)
            break  # the groups' line tops the header
        placed = [(min(centres, key=lambda j: abs(centres[j] - (x0 + x1) / 2)), high, phrase)
                  for x0, x1, high, phrase in phrases]
        if len({j for j, _, _ in placed}) < 2 and not any(map(any, columns[1:])):
            break  # a line over one column is a heading's upper part, never the header's first
        crowded = crowded or len({j for j, _, _ in placed}) < len(placed)
        for j, high, phrase in placed:
            columns[j].append((high, phrase))
        used.update(start for start, _ in starts)
        edge = max(c.top for c in samples)
    row = [" ".join(p for _, p in sorted(column, key=lambda e: -e[0])) for column in columns]
    return ([groups, row] if any(groups) else [row]), used, crowded


def _printed_lines(pieces: list[tuple[int, str, list[CharSample]]]
                   ) -> list[tuple[list[tuple[int, str]], str, list[CharSample]]]:
    """The pieces (sorted from the lowest up), each a line of its own, but the pieces of the
    lowest printed line joined: PDFium may give one line's headings as two pieces (American
    Water 2020's "Businesses" under "Regulated", then "Businesses Other Consolidated"), and
    the lowest read alone would put a heading over one column first, which no header opens
    with. Pieces that print a year are not joined: a line of years is a header of periods,
    which the chunker reads with the captions over it (MGM's release: "2022 2021 2022 2021"
    under its three and twelve months). Each line: its pieces (offset, text), its text, its
    characters."""
    lines = [([(start, text)], text, samples) for start, text, samples in pieces]
    while len(lines) > 1 and abs(min(c.bottom for c in lines[0][2])
                                 - min(c.bottom for c in lines[1][2])) < 1.0 and not any(
            FISCAL_YEAR_RE.search(text) for _, text, _ in lines[:2]):
        (starts, text, chars), (more, then, samples) = lines[0], lines[1]
        lines[:2] = [([*starts, *more], f"{text} {then}", [*chars, *samples])]
    return lines


def _over_groups(phrases: list[tuple[float, float, float, str]], centres: dict[int, float],
                 width: int) -> list[str]:
    """A row of headings each over a group of columns ("Operating Revenues (in millions)"
    over water, wastewater, total and share), each in the first column of its group, the rest
    blank, as a header spanning columns prints (``spanned`` reads it so): a column headed below
    (``centres``) is in the group of the heading nearest it."""
    def distance(j: int, phrase: tuple[float, float, float, str]) -> float:
        return max(phrase[0] - centres[j], centres[j] - phrase[1], 0.0)

    row = [""] * width
    for j in sorted(centres):
        heading = min(phrases, key=lambda p: distance(j, p))[3]
        if heading not in row:
            row[j] = heading
    return row


NUMBER_TOKEN_RE = re.compile(r"[($]*\d[\d,.]*\)?%?")


def _prints_amounts(phrase: str) -> bool:
    """A phrase that prints an amount ("(2,678)", "$4.44", "24.4%") or only bare numbers that
    are no years ("52 222"): figures, not a column's heading ("2021", "12/10", "Level 1")."""
    numbers = [t for t in phrase.split() if NUMBER_TOKEN_RE.fullmatch(t)]
    if any(re.search(r"[,.()$%]", t) for t in numbers):
        return True
    return len(numbers) == len(phrase.split()) and not all(FISCAL_YEAR_RE.fullmatch(t)
                                                             for t in numbers)


def _phrases(textpage: pdfium.PdfTextPage, start: int, line: str
             ) -> list[tuple[float, float, float, str]]:
    """A heading line's phrases, each with its left, right and top (PDF points): characters on
    one row less than one and a half of their height apart ("December 31, 2021" is one,
    "2021   2020" two)."""
    # left, right, top, bottom, characters; a phrase's characters share its baseline (a
    # period's box is a fraction of a letter's height, its bottom the letters')
    phrases: list[tuple[float, float, float, float, list[str]]] = []
    for pos, ch in enumerate(line):
        if ch.isspace():
            continue
        x0, y0, x1, y1 = textpage.get_charbox(start + pos)
        if phrases:
            first, right, high, low, chars = phrases[-1]
            tall = max(y1 - y0, high - low)
            if x0 - right <= 1.5 * tall and x0 >= first and min(y1, high) > max(y0, low):
                gap = " " if line[pos - 1].isspace() else ""
                phrases[-1] = (first, x1, max(high, y1), min(low, y0), [*chars, gap + ch])
                continue
        phrases.append((x0, x1, y1, y0, [ch]))
    return [(x0, x1, y1, "".join(chars)) for x0, x1, y1, _, chars in phrases]


def _printed_rows(words: list[_Word]) -> list[list[_Word]]:
    """A PDFium line cut where the text moves to another printed row (a raised marker does not
    count: the row changes when the centre moves by more than the height of the type)."""
    rows: list[list[_Word]] = []
    for word in words:
        if rows and abs(word[4] - rows[-1][-1][4]) <= word[5]:
            rows[-1].append(word)
        else:
            rows.append([word])
    return rows


def _touches(samples: list[CharSample], box: tuple[float, float, float, float]) -> bool:
    """The line (by its sampled characters) overlaps the box."""
    left, bottom, right, top = box
    return (
        min(c.left for c in samples) <= right and max(c.right for c in samples) >= left
        and min(c.bottom for c in samples) <= top and max(c.top for c in samples) >= bottom
    )


def _grid_rows(grid: Grid, words: list[_Word], height: float) -> list[list[str]]:
    """The text of a ruled table, word by word: each printed word goes to the one cell its
    centre falls in (a row of the grid by height, the column where its cell starts).

    PDFium's bounded-text call takes every character whose box touches the rectangle, so a
    closing ``)`` or a ``$`` that overhangs a cell edge came out twice (``(36)`` then ``)``), and
    a cell drawn over several rows took all their figures into its first row.
    """
    xs = sorted({c[0] for c in grid.cells})
    tops = sorted({c[1] for c in grid.cells})
    column_of: dict[tuple[int, int], int] = {}  # (row, column) -> column where its cell starts
    for x0, top, x1, bottom in grid.cells:
        c0 = bisect_right(xs, x0) - 1
        rows = [r for r, y in enumerate(tops) if top <= y < bottom] or [bisect_right(tops, top) - 1]
        for r in rows:
            for c in range(c0, bisect_left(xs, x1)):
                column_of.setdefault((r, c), c0)
    slots: dict[tuple[int, int], list[str]] = {}
    for _, _, word, x, y, _ in words:
        r = min(max(bisect_right(tops, height - y) - 1, 0), len(tops) - 1)
        c = min(max(bisect_right(xs, x) - 1, 0), len(xs) - 1)
        slots.setdefault((r, column_of.get((r, c), c)), []).append(word)
    return [[" ".join(slots.get((r, c), [])) for c in range(len(xs))] for r in range(len(tops))]


def _line_words(textpage: pdfium.PdfTextPage, start: int, line: str) -> list[_Word]:
    """The words of a printed line with their centres (PDF points): runs of characters without
    a space between them or a gap wider than 0.6 of their height."""
    words: list[_Word] = []
    begin = -1
    left = right = bottom = top = 0.0
    for pos, ch in enumerate([*line, " "]):
        if not ch.isspace():
            x0, y0, x1, y1 = textpage.get_charbox(start + pos)
            if begin >= 0:
                tall = max(y1 - y0, top - bottom, 1.0)
                if x0 - right <= 0.6 * tall and x0 >= left - 0.5 and abs(y0 - bottom) <= tall:
                    right, bottom, top = max(right, x1), min(bottom, y0), max(top, y1)
                    continue
                words.append(_word(line, begin, pos, left, bottom, right, top))
            begin, left, bottom, right, top = pos, x0, y0, x1, y1
        elif begin >= 0:
            words.append(_word(line, begin, pos, left, bottom, right, top))
            begin = -1
    return words


def _word(
    line: str, begin: int, end: int, left: float, bottom: float, right: float, top: float
) -> _Word:
    return begin, end, line[begin:end], (left + right) / 2, (bottom + top) / 2, top - bottom


def table_of(
    x: float, y: float, boxes: list[tuple[int, tuple[float, float, float, float]]]
) -> int | None:
    """The key of the box the point (PDF points) stands in: a printed row's table, or the
    table a rule belongs to (the reader's rules inside a table are no note separators)."""
    for index, (left, bottom, right, top) in boxes:
        if left <= x <= right and bottom <= y <= top:
            return index
    return None


def _has_words(rows: list[list[str]]) -> bool:
    return any(sum(ch.isalpha() for ch in cell) >= 3 for row in rows for cell in row)


MIN_PROSE_CELL_WORDS = 6  # a table prints some shorter cell: a figure, a date, a heading
MIN_CUT_CELL_WORDS = 3  # where the box cuts a line, a piece of it: "businesses (the “Cheese ..."
MIN_BOXED_LINES = 3  # two rows of two long cells may be a table of text (a standard and its note)
SENTENCE_END_RE = re.compile(r"[a-z0-9)][.;:] +[A-Z(]|[a-z][.:]$")


def _boxed_prose(rows: list[list[str]]) -> bool:
    """Whether a grid's rows are a paragraph set in a box (American Water frames the passages
    of its 2020 10-K that changed, its Note 6's acquisitions among them; Kraft Heinz's 2021
    MD&A boxes the end of its divestitures' sentence and its Assan Foods acquisition): the
    lines of one paragraph, each row one cell but the first and the last (where the box cuts a
    line at an indent, and a piece of the line may be short: "businesses (the “Cheese
    Transaction”)."), every cell a line of words, and a sentence ending in one; a table prints
    some short cell, a figure, a date or a heading, and a table of text fills several cells of
    its middle rows."""
    def filled(part: Sequence[Sequence[str]]) -> list[str]:
        return [cell for row in part for cell in row if cell.strip()]

    split = [n for n, row in enumerate(rows) if sum(bool(c.strip()) for c in row) > 1]
    cut = filled([rows[0], rows[-1]]) if rows else []
    return (len(rows) >= MIN_BOXED_LINES and set(split) <= {0, len(rows) - 1}
            and all(len(c.split()) >= MIN_PROSE_CELL_WORDS for c in filled(rows[1:-1]))
            and all(len(c.split()) >= MIN_CUT_CELL_WORDS and _has_words([[c]]) for c in cut)
            and any(len(c.split()) >= MIN_PROSE_CELL_WORDS for c in cut)
            and any(SENTENCE_END_RE.search(c) for c in filled(rows)))


def clean_table_rows(rows: Sequence[Sequence[str | None]]) -> list[list[str]] | None:
    """Tidy cell text, put each figure's pieces in one cell, drop empty rows and columns, and
    join two neighbouring columns that no row fills both of.

    Filings print a figure over several cells: ``$`` (or ``(``) in one, the number in the next
    (often after an empty spacer cell), the closing ``)`` or ``%`` in a third. A cell of opening
    signs is glued to the next figure, a cell that opens with closing signs gives them to the
    figure before it (``$ 1,419``, ``(36)``, ``(1.2)%``); text only moves, none is dropped.
    Returns None for a "table" that is really a box around text (fewer than 2 rows or columns).
    """
    tidy: list[list[str]] = []
    for row in rows:
        cells = [figure_text((c or "").replace("\x02", "-")) for c in row]
        _merge_split_figures(cells)
        if any(cells):
            tidy.append(cells)
    if not tidy:
        return None
    width = max(len(r) for r in tidy)
    tidy = [r + [""] * (width - len(r)) for r in tidy]
    _markers_to_labels(tidy, width)
    # two neighbouring columns that no row fills both of are one column that the rules split
    # (the year over the "$" spacer, the figures in the cell after it); the first column holds
    # the labels, and a header above them is no label
    columns: list[list[str]] = []
    for j in range(width):
        column = [r[j] for r in tidy]
        if not any(column):
            continue
        if len(columns) > 1 and not any(a and b for a, b in zip(columns[-1], column, strict=True)):
            columns[-1] = [a or b for a, b in zip(columns[-1], column, strict=True)]
        else:
            columns.append(column)
    if len(tidy) < 2 or len(columns) < 2:
        return None
    return [list(row) for row in zip(*columns, strict=True)]


CELL_MARKER_RE = re.compile(r"^(?:\(\d{1,2}\)|\([a-z]\)|\*{1,3}|[†‡]|[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,2})$")


def _markers_to_labels(rows: list[list[str]], width: int) -> None:
    """A column that holds nothing but note markers (``(1)``, ``(a)``, ``*``) was the marker
    printed after its label in a cell of its own: each marker joins the label before it in its
    row, where the footnote reader sees it cited (``(1)`` alone in a cell opens the cell, as a
    list number does; in a column of figures it is a negative one and stays)."""
    for j in range(1, width):
        column = [r[j] for r in rows if r[j]]
        if not column or not all(CELL_MARKER_RE.match(c) for c in column):
            continue
        for row in rows:
            before = next((i for i in range(j - 1, -1, -1) if row[i]), None)
            if row[j] and before is not None and any(ch.isalpha() for ch in row[before]):
                row[before], row[j] = f"{row[before]} {row[j]}", ""


OPENING_CELL_RE = re.compile(r"^[$€£(]+(?: [$€£(]+)*$")  # "$", "(", "$ (", "($"
FIGURE_START_RE = re.compile(r"^(?:[$€£]\s?)?\(?[-–—]?\.?\d|^(?:[$€£]\s?)?[-–—]$")
CLOSING_RE = re.compile(r"^[)%]+")
CLOSE_UP_RE = re.compile(r"(?<=\d)\s+(?=[)%])|(?<=\d\))\s+(?=%)")  # "17 %", "(3,900 )"
TRAILING_OPENING_RE = re.compile(r"\s([$€£(]+(?: [$€£(]+)*)$")


def _merge_split_figures(cells: list[str]) -> None:
    """Glue the pieces of a figure printed in separate cells, in place (see clean_table_rows)."""
    for i, cell in enumerate(cells):
        if OPENING_CELL_RE.match(cell):
            head, signs = "", cell
        else:  # "Projected benefit obligation $": the sign stood in the label's cell
            trailing = TRAILING_OPENING_RE.search(cell)
            if not trailing:
                continue
            head, signs = cell[: trailing.start()], trailing.group(1)
        nxt = next((j for j in range(i + 1, len(cells)) if cells[j]), None)
        if nxt is not None and (
            FIGURE_START_RE.match(cells[nxt]) or OPENING_CELL_RE.match(cells[nxt])
        ):
            cells[nxt] = signs + ("" if signs.endswith("(") else " ") + cells[nxt]
            cells[i] = head
    for i, cell in enumerate(cells):
        closing = CLOSING_RE.match(cell)
        if not closing:
            continue
        prev = next((j for j in range(i - 1, -1, -1) if cells[j]), None)
        run = closing.group(0)
        rest = cell[len(run):].strip()
        if prev is None or rest[:1].isalpha():
            continue  # "% change" is a header, no closing sign
        before = cells[prev]
        if ")" in run:  # "(394" ")" and "(11" ")%": the figure before opened a parenthesis
            takes = before.count("(") > before.count(")")
        else:  # "24.5" "%", "(11)" "%", "—" "%"; never a year's heading: the "%" of "% /
            # Change" wrapped over two header rows stands beside "2021" (MGM's release)
            takes = (before[-1].isdigit() or before[-1] in ")—–-") and not (
                WHOLE_YEAR_RE.match(before))
        if takes:
            cells[prev] = before + run
            cells[i] = rest


def figure_text(text: str) -> str:
    """A cell's words one space apart, a closing ``)`` or ``%`` glued to its figure."""
    return CLOSE_UP_RE.sub("", " ".join(text.split()))
