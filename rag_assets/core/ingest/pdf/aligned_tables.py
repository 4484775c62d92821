"""Aligned tables: statements printed without rules, found from the alignment of their figures.

Statements printed without rules (General Mills, Activision, Coca-Cola, 3M, most of Lockheed
Martin's) give the lines strategy nothing to find; they are found by alignment
(``TableBlock.found_by == "alignment"``): a header of periods (``May 31, 2020 May 26, 2019``,
``(Millions) 2018 2017 2016``, ``Year Ended December 31, 2017 2016 2015``, with a caption line
such as ``Fiscal Year`` above it), then lines that end in one figure per period (``$ 1,677.8``,
``(6,433.3)``, ``—`` for nil, ``22.2 %``), whose last digits stand in the same columns, with
label-only lines (``Current assets:``, a wrapped label) between them. The header's years must
run without a gap (a row of patent expiry years is no header); a line that opens with a note
marker and words, a sentence followed by another, a line where PDFium ran several rows into
one, or one into which displaced note markers were moved by position ends the table; rows with
a figure in the right column must be at least 90% of the rows with figures. So a table of
contents, a page of prose that names years, or a numbered list makes no table. Each row keeps
its label whole with its note markers (``... licenses (1)``), which the footnote reader cites in
the cell; a marker printed under its label or a label printed over two lines joins its row.
The table's lines give way to its placeholder, as a ruled table's do, before line sizes and
note lines are recorded (the body size is measured before, so it does not move). A ruled table
whose grid rules only its first rows (Corning's geographic areas, JPMorgan's 10-Q tables) takes
the lines printed right under it that end in one figure per column (``continue_ruled_tables``).
Why PDFium's text and not pdfplumber's text strategy: the latter needs pdfplumber's character
objects (~0.5 s per page); here the candidate lines come from the text already read, and
PDFium gives the box of each figure's last digit (a few calls per row, on pages with a header
of periods). Measured on the 3M 10-K (160 pages, one process): ~50 ms in all, 1.5-2% of the
load, while reading ruled tables word by word saved ~300 ms against the bounded-text call per
cell.
"""

from __future__ import annotations

import re
import statistics
from bisect import bisect_left
from collections import Counter
from dataclasses import replace
from itertools import pairwise

import pypdfium2 as pdfium

from rag_assets.core.ingest.pages import TABLE_PLACEHOLDER, TABLE_PLACEHOLDER_RE, TableBlock
from rag_assets.core.ingest.pdf.geometry import SUPERSCRIPT_RATIO, Line
from rag_assets.core.ingest.pdf.ruled_tables import figure_text
from rag_assets.core.text.figures import NO_FIGURE_RE, is_figure
from rag_assets.core.text.labels import LABEL_CARRIES_ON_RE
from rag_assets.core.text.markers import FROM_SUPERSCRIPT, SUPERSCRIPT_DIGITS
from rag_assets.core.text.periods import DURATIONS
from rag_assets.core.text.prose import UNITS_NOTE_RE
from rag_assets.core.text.years import HEADER_YEAR_RE, WHOLE_YEAR_RE

ALIGNED_KEY = 10_000  # placeholder keys of aligned tables until numbering (grids count from 0)
MIN_ALIGNED_ROWS = 3  # rows with a figure in every column
DAY_RE = re.compile(r"^\d{1,2},?$")
MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec",
}
PERIOD_WORDS = {
    "at", "as", "of", "for", "the", "year", "years", "fiscal", "ended", "ending", "quarter",
    "quarters", "months", "weeks", "three", "six", "nine", "twelve", "period", "periods",
}
SIGN_RE = re.compile(r"^[$€£]\(?$|^\($")  # "$", "$(", "(" before a figure
SUFFIX_RE = re.compile(r"^(?:%|\)|\)%|\([a-z]\)|\*{1,3}|[†‡])$")  # after a figure
# a note's definition: its marker, then words ("¹ $ 0.28" is a wrapped row's marker and figures)
NOTE_START_RE = re.compile(
    rf"^(?:\(\d{{1,2}}\)|\([a-z]\)|\*{{1,3}}|[†‡]|[{SUPERSCRIPT_DIGITS}]+)\s*(?:[^\W\d_]|[“\"])"
)
MARKER_ONLY_RE = re.compile(
    rf"^(?:\(?\d{{1,2}}\)?|\(?[a-z]\)|\*{{1,3}}|[†‡]|[{SUPERSCRIPT_DIGITS}]+)$"
)
PROSE_RE = re.compile(r"[a-z]{2,}[.!?] [A-Z]")  # a sentence ends and another begins

_Group = tuple[int, int, int]  # a figure in a line: start, end, position of its last digit


def _period_token(token: str) -> bool:
    """A word of a period: a year, a day, a month or a period word; words joined by a slash
    are each one ("As of/Year ended December 31, 2015": Netflix's segment note)."""
    if "/" in token and not HEADER_YEAR_RE.match(token):
        return all(_period_token(part) for part in token.split("/"))
    word = token.lower().rstrip(".,")
    return bool(HEADER_YEAR_RE.match(token) or DAY_RE.match(token)) or word in MONTHS | PERIOD_WORDS


def _period_header(text: str) -> tuple[str, list[str]] | None:
    """A header of periods (``May 31, 2020 May 26, 2019``, ``(Millions) 2018 2017 2016``,
    ``Year Ended December 31, 2017 2016 2015``): its label and one cell per period; None for
    any other line. Its years run without a gap, each as often as the others (``2021 2020
    2021 2020``): a row of years (patent expiries) is no header."""
    tokens = text.split()
    cut = len(tokens)
    while cut and _period_token(tokens[cut - 1]):
        cut -= 1
    prefix, periods = tokens[:cut], tokens[cut:]
    years = [int(t[:4]) for t in periods if HEADER_YEAR_RE.match(t)]
    if len(years) < 2 or not periods or not HEADER_YEAR_RE.match(periods[-1]):
        return None
    counts = Counter(years)
    if len(counts) < 2 or max(counts) - min(counts) + 1 != len(counts) or (
        len(set(counts.values())) != 1 and year_runs(years) is None
    ):
        return None
    label = " ".join(prefix)
    if prefix and not (label.startswith("(") and label.endswith(")")) and (
        len(prefix) > 5 or label.endswith(".") or any(is_figure(t) for t in prefix)
    ):
        return None
    cells: list[str] = []
    current: list[str] = []
    for token in periods:
        current.append(token)
        if HEADER_YEAR_RE.match(token):
            cells.append(" ".join(current))
            current = []
    if all(HEADER_YEAR_RE.match(c) for c in cells[1:]) and not HEADER_YEAR_RE.match(cells[0]):
        words = cells[0].split()  # "Year Ended December 31, 2017 2016 2015": the caption
        label, cells[0] = " ".join([*prefix, *words[:-1]]), words[-1]
    return label, cells


def year_runs(years: list[int], repeated: bool = False) -> list[int] | None:
    """The lengths of the runs of consecutive years a header of several kinds of column prints,
    each kind over its own years ("2018 2017 2016 2018 2017": net sales over three years, net
    property over two; 3M's geographic areas): two runs or more, each of two years or more, of
    unequal lengths unless ``repeated`` (runs of one length are a header's plain repetition,
    "2019 2018 2019 2018" under "Pension Benefits" and "Other Benefits"); else None."""
    runs, direction = [1], 0
    for before, year in pairwise(years):
        step = year - before
        if abs(step) == 1 and (runs[-1] == 1 or step == direction):
            runs[-1] += 1
        else:
            runs.append(1)
        direction = step if abs(step) == 1 else 0
    if len(runs) < 2 or min(runs) < 2 or (len(set(runs)) == 1 and not repeated):
        return None
    return runs


def _period_caption(text: str) -> bool:
    """A line of period words with no year: ``Fiscal Year``, ``For the Years Ended December
    31,`` (the header's caption)."""
    tokens = text.split()
    return bool(tokens) and all(
        _period_token(t) and not HEADER_YEAR_RE.match(t) for t in tokens
    ) and any(t.lower().rstrip(".,") in PERIOD_WORDS | MONTHS for t in tokens)


def _trailing_figures(text: str) -> list[_Group]:
    """The figures a line ends with, left to right: ``$ 1,677.8``, ``(6,433.3)``, ``17 %``,
    ``—``, with the sign before and the ``%``, ``)`` or note marker after each."""
    tokens = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", text)]
    groups: list[_Group] = []
    i = len(tokens) - 1
    while i >= 0:
        end = tokens[i][1]
        j = i
        while j > 0 and i - j < 2 and SUFFIX_RE.match(tokens[j][2]):
            j -= 1
        figure = tokens[j][2]
        if not (is_figure(figure) or NO_FIGURE_RE.fullmatch(figure)) or (
            j < i and NO_FIGURE_RE.fullmatch(figure) and tokens[i][2] != "%"
        ):
            break
        digits = [k for k, ch in enumerate(figure) if ch.isdigit() and ch.isascii()]
        anchor = tokens[j][0] + (digits[-1] if digits else len(figure) - 1)
        start = tokens[j][0]
        if j > 0 and SIGN_RE.match(tokens[j - 1][2]):
            j -= 1
            start = tokens[j][0]
        elif j > 0 and len(tokens[j - 1][2]) > 1 and tokens[j - 1][2][-1] in "$€£":
            start = tokens[j - 1][1] - 1  # "interests$ 2,210.8": the sign ran into the label
        groups.append((start, end, anchor))
        i = j - 1
    return groups[::-1]


def _figure_boxes(
    line: Line, textpage: pdfium.PdfTextPage, groups: list[_Group]
) -> list[tuple[float, float]] | None:
    """Where each figure's last digit ends and how tall it is (PDF points), from PDFium's
    character boxes; None when the line's text is no longer PDFium's (a joined line, a marker
    moved into it)."""
    if not line.raw or not groups:
        return None
    tail = line.text[groups[0][0]:]
    if not line.raw.endswith(tail.translate(FROM_SUPERSCRIPT)):
        return None
    shift = len(line.raw) - len(line.text)
    out = []
    for _, _, anchor in groups:
        _, bottom, right, top = textpage.get_charbox(line.start + shift + anchor)
        out.append((right, top - bottom))
    return out


def align_tables(
    lines: list[Line], textpage: pdfium.PdfTextPage, blocks: dict[int, TableBlock], key: int
) -> list[Line]:
    """Statements printed without rules become tables (``found_by="alignment"``): a header of
    periods, then lines that end in one figure per period, their right edges aligned in
    columns; label-only lines (``Current assets:``, a wrapped label) may stand between them.
    The table's lines give way to its placeholder, as a ruled table's do."""
    found: list[tuple[int, int, TableBlock]] = []
    i = 0
    while i < len(lines):
        header = _period_header(lines[i].text.strip()) if lines[i].size else None
        table = (_aligned_table(lines, i, header, textpage) if header
                 else _named_columns_table(lines, i, textpage)
                 or _durations_table(lines, i, textpage)
                 or _years_over_names_table(lines, i, textpage))
        if table is None:
            i += 1
            continue
        first, end, rows = table
        key += 1
        floor = found[-1][1] if found else 0
        found.append((first, end, TableBlock(
            index=key, rows=rows, title=_aligned_title(lines, first, floor), found_by="alignment"
        )))
        i = end
    if not found:
        return lines
    out: list[Line] = []
    at = 0
    for first, end, block in found:
        out.extend(lines[at:first])
        out.append(Line(TABLE_PLACEHOLDER.format(index=block.index)))
        blocks[block.index] = block
        at = end
    out.extend(lines[at:])
    return out


def _aligned_table(
    lines: list[Line], h: int, header: tuple[str, list[str]], textpage: pdfium.PdfTextPage,
    centred: bool = False
) -> tuple[int, int, list[list[str]]] | None:
    """The table whose header of periods is line ``h``: (its first line, the line after its
    last, its rows), or None when the lines below are no aligned figures. ``centred``: the
    figures may be centred in their columns (a release's table of percentages)."""
    label, periods = header
    k = len(periods)
    first = h
    if h and lines[h - 1].size and _period_caption(lines[h - 1].text):
        label, first = f"{lines[h - 1].text.strip()} {label}".strip(), h - 1
    entries: list[tuple[int, list[_Group]]] = []  # line, its figures ([] for a label line)
    labels_in_a_row = 0
    for n in range(h + 1, len(lines)):
        text = lines[n].text.strip()
        if not text or not lines[n].size or _period_header(text):
            break
        if NOTE_START_RE.match(text) or PROSE_RE.search(text) or lines[n].moved_in:
            # a note below the table (even one that prints figures), a paragraph; a line that
            # took markers PDFium emitted elsewhere (Pfizer) has no geometry of its own to check
            break
        groups = _trailing_figures(lines[n].text)
        if groups and _figures_in_a_row(lines[n].text[: groups[0][0]]) >= max(k, 2):
            break  # PDFium ran several printed rows into one line
        if not groups:
            labels_in_a_row += 1
            if labels_in_a_row > 3 or len(text) > 150 or (
                text.endswith(".") and len(text.split()) >= 6
            ):
                break
        else:
            labels_in_a_row = 0
        entries.append((n, groups))
    boxes = {n: _figure_boxes(lines[n], textpage, groups) for n, groups in entries if groups}
    full = [b for n, groups in entries if len(groups) == k and (b := boxes[n])]
    if len(full) < MIN_ALIGNED_ROWS:
        return None
    columns = [statistics.median(b[j][0] for b in full) for j in range(k)]
    digit_height = statistics.median(b[j][1] for b in full for j in range(k))
    tol = max(2.0, 0.4 * statistics.median(lines[n].size for n, _ in entries))
    if any(b - a <= tol for a, b in pairwise(columns)):
        return None
    # in a table of centred figures, a row with a figure per column may reach further: a
    # wider figure's last digit stands right of the others' (Costco's "-10.0%" under "0.3%")
    full_tol = max(tol, min(b - a for a, b in pairwise(columns)) / 4) if centred and k > 1 \
        else tol
    rows: list[list[str]] = []
    placed: list[bool] = []
    for n, groups in entries:
        text = lines[n].text.strip()
        offset = len(lines[n].text) - len(lines[n].text.lstrip())
        pieces = [figure_text(text[s - offset:e - offset]) for s, e, _ in groups]
        cells = [""] * k
        label_end = len(text)
        row_boxes = boxes.get(n)
        if groups and row_boxes is None:  # no geometry: the last figures fill the last columns
            label_end = groups[-k:][0][0] - offset
            for j, piece in enumerate(pieces[-k:], start=k - len(pieces[-k:])):
                cells[j] = piece
        elif groups:
            assert row_boxes is not None
            last = None
            for (s, _, anchor), piece, (x, tall) in zip(groups, pieces, row_boxes, strict=True):
                if text[anchor - offset].isdigit():  # figures are set flush right
                    col = min(range(k), key=lambda j: abs(columns[j] - x))
                    reach = full_tol if len(groups) == k else tol
                    fits = abs(columns[col] - x) <= reach and (
                        tall >= SUPERSCRIPT_RATIO * digit_height)
                else:  # a dash for nil may stand anywhere in its column
                    col = bisect_left(columns, x - tol)
                    left = columns[col - 1] if col else columns[0] - (columns[1] - columns[0]) / 2
                    fits = col < k and x > left
                if fits and (last is None or col > last):
                    if last is None:
                        label_end = s - offset
                    cells[col], last = piece, col
                elif last is not None:  # a note number printed after a figure: stays with it
                    cells[last] = f"{cells[last]} {piece}"
        rows.append([text[:label_end].strip(), *cells])
        placed.append(any(cells))
    if not any(placed):  # every figure fell outside the columns (a superscript, a stray dash)
        return None
    end = max(i for i, p in enumerate(placed) if p) + 1  # the last row with a figure in place
    rows, entries, placed = rows[:end], entries[:end], placed[:end]
    several = [p for (_, groups), p in zip(entries, placed, strict=True) if len(groups) >= 2]
    labelled = sum(1 for row, p in zip(rows, placed, strict=True) if p and row[0])
    if sum(several) < 0.9 * len(several) or labelled < 0.5 * sum(placed):
        return None
    rows = _join_wrapped_labels(rows)
    runs = year_runs([int(p.split()[-1][:4]) for p in periods], repeated=True) if all(
        HEADER_YEAR_RE.match(p.split()[-1]) for p in periods if p) and all(periods) else None
    if runs is not None:  # a kind of column per run of years: each named by the words over it
        kinds = _kinds_over(lines, first, lines[h + 1:entries[-1][0] + 1], runs, textpage)
        if kinds is None:  # runs of one length unnamed stay a header repeated, as printed
            return None if len(set(runs)) > 1 else (first, entries[-1][0] + 1,
                                                    [[label, *periods], *rows])
        first, names = kinds
        periods = [f"{names[g]} {period}" for g, run in enumerate(runs)
                   for period in periods[sum(runs[:g]):sum(runs[:g + 1])]]
    return first, entries[-1][0] + 1, [[label, *periods], *rows]


MAX_KIND_LINES = 4  # lines a kind of column's name is printed over ("Property, Plant and" ...)


def _kinds_over(lines: list[Line], first: int, rows: list[Line], runs: list[int],
                textpage: pdfium.PdfTextPage) -> tuple[int, list[str]] | None:
    """(the header's first line, each run's name): the phrases of the short lines above a
    header of several runs of years ("Net Sales" over 2018 2017 2016, "Property, Plant and" /
    "Equipment - net" over 2018 2017), each given to the run whose columns its middle stands
    over; a line with a phrase over no run, or across two, is above the header. None unless
    every run is named."""
    centres = _column_centres(rows, textpage, sum(runs))
    if centres is None:
        return None
    gap = min(b - a for a, b in pairwise(centres))
    ends = [sum(runs[:g + 1]) for g in range(len(runs))]
    bounds = [((centres[e - r - 1] + centres[e - r]) / 2 if e - r else centres[0] - gap / 2,
               (centres[e - 1] + centres[e]) / 2 if e < len(centres) else centres[-1] + gap / 2)
              for e, r in zip(ends, runs, strict=True)]
    named: list[list[str]] = [[] for _ in runs]
    top = first
    for n in range(first - 1, max(first - 1 - MAX_KIND_LINES, -1), -1):
        if not _may_head(lines[n]) or _trailing_figures(lines[n].text) or not lines[
                n].raw.endswith(lines[n].text):
            break
        if len(set(runs)) == 1 and _names_periods(lines[n].text):
            break  # "Thirteen weeks ended" over runs of one length: the periods' caption
        placed: list[tuple[int, str]] = []
        for left, right, phrase in _phrases(lines[n], textpage):
            over = [g for g, (a, b) in enumerate(bounds) if a <= (left + right) / 2 <= b
                    and left >= a - gap and right <= b + gap]
            if right < bounds[0][0]:
                continue  # the stub's words
            if len(over) != 1:
                placed = []
                break
            placed.append((over[0], phrase))
        if not placed:
            break
        for g, phrase in reversed(placed):
            named[g].insert(0, phrase)
        top = n
    if not all(named):
        return None
    return top, [" ".join(words) for words in named]


DURATION_WORDS = frozenset({"ended", "ending", "weeks", "months", "quarter", "quarters"})


def _names_periods(text: str) -> bool:
    """A line over a header that captions its periods, not kinds of column ("Thirteen weeks
    ended  Thirty-nine weeks ended", "Fiscal Year", "(Unaudited)"): a duration word, period
    words only, or a parenthesised remark."""
    words = text.split()
    return _period_caption(text) or (text.startswith("(") and text.endswith(")")) or any(
        w.lower().rstrip(".,") in DURATION_WORDS for w in words)


def _figures_in_a_row(text: str) -> int:
    """The longest run of figures (``$`` signs aside) in a label: a label holds a year or a
    count, not the figures of another row."""
    best = run = 0
    for token in text.split():
        if is_figure(token) or (run and NO_FIGURE_RE.fullmatch(token)):  # "Issued — 7,040": a dash
            run += 1
            best = max(best, run)
        elif not SIGN_RE.match(token):
            run = 0
    return best


def _join_wrapped_labels(rows: list[list[str]]) -> list[list[str]]:
    """A label printed over two lines is one row: a label-only line followed by figures whose
    label is empty, a lone note marker or carries on in lower case, or a label line that
    ends in the middle of a phrase (``, ``, ``of``, ``and``)."""
    out: list[list[str]] = []
    for row in rows:
        prev = out[-1] if out else None
        label = row[0]
        if prev is not None and not any(prev[1:]) and (
            not label or MARKER_ONLY_RE.match(label) or label[:1].islower()
            or LABEL_CARRIES_ON_RE.search(prev[0])
        ):
            out[-1] = [f"{prev[0]} {label}".strip(), *row[1:]]
        else:
            out.append(row)
    return out


def _aligned_title(lines: list[Line], first: int, floor: int) -> str | None:
    """Up to three short lines printed right above an aligned table (the statement's name, the
    company, the unit), in printed order, not below line ``floor`` (the table before); None
    when a paragraph or a row of figures ends right above it."""
    above: list[str] = []
    for n in range(first - 1, max(first - 4, floor - 1), -1):
        text = lines[n].text.strip()
        if (
            not text or TABLE_PLACEHOLDER_RE.match(text) or len(text) > 120
            or text.endswith(".") or _trailing_figures(text)
        ):
            break
        above.append(text)
        if text.endswith(":"):
            break
    return " ".join(reversed(above)) or None


MAX_CAPTIONS_BELOW = 2  # label-only lines in a row ("Asia Pacific:") a continued table holds
MIN_COLUMNS_BELOW = 2  # a line of prose may end in one figure; rarely in two


def continue_ruled_tables(lines: list[Line], blocks: dict[int, TableBlock]) -> list[Line]:
    """A ruled table's rows printed below its last rule join it: lines right under its
    placeholder that end in one figure per column of its last row (Corning's geographic areas:
    the grid rules its header and first country, the other countries and the regions' totals
    stand below as plain lines), with the caption lines between them ("Asia Pacific:"). The
    rows join in printed order and their lines give way to the table, as its ruled rows did."""
    out: list[Line] = []
    n = 0
    while n < len(lines):
        out.append(lines[n])
        match = TABLE_PLACEHOLDER_RE.match(lines[n].text.strip())
        block = blocks.get(int(match.group(1))) if match else None
        n += 1
        if block is None or block.found_by != "rules" or not block.rows:
            continue
        width = len(block.rows[-1]) - 1  # its columns of figures
        if width >= MIN_COLUMNS_BELOW:
            rows, n = _rows_below(lines, n, width)
            block.rows.extend(rows)
    return out


def _rows_below(lines: list[Line], start: int, k: int) -> tuple[list[list[str]], int]:
    """The rows of ``k`` figures printed from line ``start`` on, with the captions between
    them, and the line after the last of them (``start`` when there is none)."""
    rows: list[list[str]] = []
    captions: list[list[str]] = []
    end = start
    for n in range(start, len(lines)):
        text = " ".join(lines[n].text.split())  # spaced as the ruled cells are (no-break too)
        if (not text or not lines[n].size or NOTE_START_RE.match(text)
                or PROSE_RE.search(text) or _period_header(text)):
            break
        groups = [] if _one_period(text) else _trailing_figures(text)
        if not groups:
            if len(captions) >= MAX_CAPTIONS_BELOW or len(text) > 80 or text.endswith("."):
                break
            captions.append([text, *[""] * k])
            continue
        while len(groups) > k and MARKER_ONLY_RE.match(text[groups[0][0]:groups[0][1]]):
            groups = groups[1:]  # "Depreciation (1) $ 548 ...": the label's note mark
        label = text[: groups[0][0]].strip()
        figures = [figure_text(text[s:e]) for s, e, _ in groups]
        if (len(groups) != k or not label or _figures_in_a_row(label) >= 2
                or all(HEADER_YEAR_RE.match(f) for f in figures)):
            break  # not this table's row: another table's header of years
        rows += [*captions, [label, *figures]]
        captions, end = [], n + 1
    return _join_wrapped_labels(rows), end  # "Research, development" / "and engineering ..."


def _one_period(text: str) -> bool:
    """A caption naming one period ("For the year ended December 31, 2019"): a segment note's
    next block of the same columns, not a row whose figure is a year."""
    tokens = text.split()
    return (all(_period_token(t) for t in tokens)
            and sum(bool(HEADER_YEAR_RE.match(t)) for t in tokens) == 1
            and any(t.lower().rstrip(".,") in PERIOD_WORDS for t in tokens))


# ----------------------------------------------------------- tables whose header names columns

MAX_HEADER_LINES = 12  # a header of names wrapped over lines ("Walmart" / "International")
SPILL = 1.5  # how far past half the gap to the next column a header word may reach


def _block_caption(text: str) -> bool:
    """The caption of a block of rows, one period: "Fiscal Year Ended January 31, 2020", "For
    the year ended December 31, 2019", or a year alone ("2018"; Costco's segment note)."""
    tokens = text.split()
    return _one_period(text) or (0 < len(tokens) <= 2 and bool(WHOLE_YEAR_RE.match(tokens[-1]))
                                 and all(t.lower() in PERIOD_WORDS for t in tokens[:-1]))


def _named_columns_table(
    lines: list[Line], c: int, textpage: pdfium.PdfTextPage
) -> tuple[int, int, list[list[str]]] | None:
    """A table whose header names its columns and whose rows come in blocks, each captioned
    by its period (Walmart's and Costco's segment notes: a column per segment and one for the
    total, a block per fiscal year): line ``c`` is the first block's caption, the rows below
    are read as an aligned table's, and each word of the header lines above goes to the
    column of figures it stands over; a caption printed over the names (3M's "Year ended
    December 31, 2018" over its regions) heads the names below it. None unless every column
    is named."""
    caption = lines[c].text.strip()
    if not lines[c].size or c + 1 >= len(lines) or not _block_caption(caption):
        return None
    below = _names_below(lines, c)  # the caption over the names (3M's sales by geography)
    h = c + len(below)  # the line the rows are read after
    k = _columns_below(lines, h)
    if k < 2:
        return None
    header = below or _header_lines(lines, c)
    named = _named_rows(lines, h, k, header, textpage) if header else None
    if named is None:
        return None
    end, rows, stub, columns = named
    if any(any(_period_token(t) and not t.isalpha() for t in name.split()) for name in columns):
        return None  # a header of dates wrapped over lines ("May 26," / "2019 May 27," / "2018")
    first = c if below else c - len(header)
    return first, end, [[stub, *columns], [caption, *[""] * k], *rows[1:]]


def _durations_table(
    lines: list[Line], c: int, textpage: pdfium.PdfTextPage
) -> tuple[int, int, list[list[str]]] | None:
    """A table whose header names each column by its duration and prints no year (Costco's
    release: "12 Weeks 12 Weeks 36 Weeks 36 Weeks" over "Adjusted* Adjusted*", then a row per
    region of comparable sales; the sentence leading into it names the fiscal year): line
    ``c`` names one duration per column of figures, the short lines under it qualify the
    columns they stand over; every phrase is placed by where it is printed. None unless each
    column's name holds a duration."""
    caption = lines[c].text.strip()
    durations = [m for pattern, _ in DURATIONS for m in pattern.finditer(caption)]
    if not lines[c].size or len(durations) < 2 or not _period_caption(caption):
        return None
    below = _names_below(lines, c)
    h = c + len(below)
    k = _columns_below(lines, h)
    if k != len(durations):
        return None
    named = _named_rows(lines, h, k, [lines[c], *below], textpage, centred=True)
    if named is None or not all(any(p.search(name) for p, _ in DURATIONS) for name in named[3]):
        return None
    end, rows, stub, columns = named
    return c, end, [[stub, *columns], *rows[1:]]


def _years_over_names_table(
    lines: list[Line], c: int, textpage: pdfium.PdfTextPage
) -> tuple[int, int, list[list[str]]] | None:
    """A table whose years each stand over a block of named columns (Corning 2015's
    geographic areas: "2015 2014 2013", each over "Net sales (2)" and "Long-lived assets (1)",
    the years run by PDFium onto the sentence leading into the table): line ``c`` ends in the
    years, the short lines under it name the columns, and each column takes the year printed
    nearest over it. The words before the years stay the page's line above the table, its
    title, so no text is lost. None unless every year heads as many columns as the others,
    under the same names."""
    tokens = lines[c].text.split()
    cut = len(tokens)
    while cut and HEADER_YEAR_RE.fullmatch(tokens[cut - 1]):
        cut -= 1
    years = tokens[cut:]  # the years the line ends in, not one the sentence before names
    if not lines[c].size or len(tokens) - cut < 2 or not lines[c].raw.endswith(lines[c].text):
        return None
    below = _names_below(lines, c)
    h = c + len(below)
    k = _columns_below(lines, h)
    per_year = k // (len(tokens) - cut)
    if not below or per_year < 2 or per_year * (len(tokens) - cut) != k:
        return None
    named = _named_rows(lines, h, k, below, textpage)
    if named is None:
        return None
    end, rows, stub, columns = named
    printed = [(left + right) / 2 for left, right, word in _phrases(lines[c], textpage)
               if HEADER_YEAR_RE.fullmatch(word)][-len(years):]
    centres = _column_centres(lines[h + 1:end], textpage, k)
    if centres is None or len(printed) != len(years):
        return None
    over = [min(range(len(printed)), key=lambda y: abs(printed[y] - x)) for x in centres]
    blocks = [columns[j:j + per_year] for j in range(0, k, per_year)]
    if over != sorted(over) or any(over.count(y) != per_year for y in range(len(printed))) or (
            any(block != blocks[0] for block in blocks)):
        return None
    heads = tokens[cut:]
    header = [stub, *(f"{name} {heads[y]}" for name, y in zip(columns, over, strict=True))]
    if not cut:
        return c, end, [header, *rows[1:]]
    # the sentence the years ran onto stays a line of the page, right above the table: its
    # title ("Information concerning principal geographic areas was as follows"), which says
    # what the rows are
    lines[c] = replace(lines[c], text=" ".join(tokens[:cut]), raw="")
    return c + 1, end, [header, *rows[1:]]


def _named_rows(lines: list[Line], h: int, k: int, header: list[Line],
                textpage: pdfium.PdfTextPage, centred: bool = False
                ) -> tuple[int, list[list[str]], str, list[str]] | None:
    """The aligned rows of ``k`` columns under line ``h`` and the names ``header`` gives their
    columns: (the line after the last row, the rows, the stub's words, each column's name)."""
    table = _aligned_table(lines, h, ("", [""] * k), textpage, centred)
    if table is None:
        return None
    _, end, rows = table
    centres = _column_centres(lines[h + 1:end], textpage, k)
    names = _column_names(header, textpage, centres) if centres else None
    return None if names is None else (end, rows, names[0], names[1])


def _columns_below(lines: list[Line], h: int) -> int:
    """The columns of the rows under line ``h``: the most common count of figures among the
    first rows that print two or more, past the caption rows that print none (Coca-Cola's
    "Net operating revenues:" over "Third party $ 6,434 ..."); a row whose label ends in a
    note mark ("... end of period (1) 44,738 ...", Netflix) counts one more, so the first row
    alone does not say."""
    counts: list[int] = []
    for n in range(h + 1, min(h + 1 + 2 * MIN_ALIGNED_ROWS, len(lines))):
        found = len(_trailing_figures(lines[n].text))
        if found >= 2:
            counts.append(found)
        elif not found and not lines[n].text.strip().endswith(":") and not counts:
            return 0
    return Counter(counts).most_common(1)[0][0] if counts else 0


def _names_below(lines: list[Line], c: int) -> list[Line]:
    """The header lines printed between a block's caption (line ``c``) and its first row of
    figures ("Year ended December 31, 2018" / "Net Sales (Millions)" / "United" / "States Asia
    Pacific" ... over "Industrial $ 4,538 $ 3,554 ..."), or none when the line under the caption
    prints figures or what lies between is no header (a sentence, a placeholder, too many)."""
    below: list[Line] = []
    for n in range(c + 1, min(c + 1 + 2 * MAX_HEADER_LINES, len(lines))):
        if _trailing_figures(lines[n].text) and not _ends_in_a_note_mark(lines[n].text):
            return below
        text = lines[n].text.strip()
        if not _may_head(lines[n]) or _block_caption(text) or text.endswith(":"):
            return []  # a row's caption ("Net operating revenues:") is no column's name
        below.append(lines[n])
    return []


def _ends_in_a_note_mark(text: str) -> bool:
    """A name's line that ends in its note mark ("assets (1)", Corning's geographic areas):
    words, then a parenthesized number that is no figure of a row."""
    groups = _trailing_figures(text)
    return len(groups) == 1 and bool(re.fullmatch(r"\(\d{1,2}\)", text[groups[0][0]:].strip())
                                     ) and bool(re.search(r"[^\W\d_]{2,}", text[:groups[0][0]]))


def _header_lines(lines: list[Line], c: int) -> list[Line]:
    """The short lines right above line ``c`` that print no figure: a header of names, top
    line first; none when a sentence or a table ends right above."""
    above: list[Line] = []
    for n in range(c - 1, max(c - 1 - MAX_HEADER_LINES, -1), -1):
        text = lines[n].text.strip()
        if not _may_head(lines[n]) or text.endswith(":") or _trailing_figures(text):
            break
        above.append(lines[n])
    return above[::-1]


def _may_head(line: Line) -> bool:
    """A line that may be a header's: short words set on the page, not a placeholder, a
    sentence or a paragraph's line."""
    text = line.text.strip()
    return bool(text and line.size and line.raw and not TABLE_PLACEHOLDER_RE.match(text)
                and len(text) <= 100 and not PROSE_RE.search(text)
                and not (text.endswith(".") and len(text.split()) >= 6))


def _char_span(line: Line, textpage: pdfium.PdfTextPage, start: int, end: int
               ) -> tuple[float, float]:
    """The left and right edges of ``line.text[start:end]`` (PDF points)."""
    shift = len(line.raw) - len(line.text)
    left, _, _, _ = textpage.get_charbox(line.start + shift + start)
    _, _, right, _ = textpage.get_charbox(line.start + shift + end - 1)
    return left, right


def _column_centres(rows: list[Line], textpage: pdfium.PdfTextPage, k: int
                    ) -> list[float] | None:
    """The middle of each column of figures, from the rows that print one figure per column
    (the median of each figure's extent); None without three such rows."""
    spans: list[list[float]] = []
    for line in rows:
        groups = _trailing_figures(line.text)
        if len(groups) != k or not line.raw or not line.raw.endswith(
                line.text[groups[0][0]:].translate(FROM_SUPERSCRIPT)):
            continue
        spans.append([sum(_char_span(line, textpage, s, e)) / 2 for s, e, _ in groups])
    if len(spans) < MIN_ALIGNED_ROWS:
        return None
    return [statistics.median(s[j] for s in spans) for j in range(k)]


def _column_names(header: list[Line], textpage: pdfium.PdfTextPage, centres: list[float]
                  ) -> tuple[str, list[str]] | None:
    """(the stub's words, each column's name): each phrase of a header line (words a word
    space apart: "Europe, Middle" centred over its column) goes to the column whose middle is
    nearest its own, within half the narrowest gap between columns, and reaches at most
    halfway into the next column; a phrase left of the first column, or the table's units
    wherever they stand (Netflix centres "(in thousands)" under its names), is the stub's
    ("(Amounts in millions)"). None when a column is left unnamed, or a phrase stands across
    two columns or right of the last."""
    half = min(b - a for a, b in pairwise(centres)) / 2
    stub: list[tuple[int, float, str]] = []
    named: list[list[tuple[int, float, str]]] = [[] for _ in centres]
    for n, line in enumerate(header):  # in printed order: a wrapped name's first line first
        if not line.raw.endswith(line.text):  # the offsets _char_span counts from
            return None
        for left, right, phrase in _phrases(line, textpage):
            middle = (left + right) / 2
            j = min(range(len(centres)), key=lambda i: abs(centres[i] - middle))
            inside = ((j == 0 or left >= centres[j] - SPILL * half)
                      and (j == len(centres) - 1 or right <= centres[j] + SPILL * half))
            if UNITS_NOTE_RE.fullmatch(phrase):
                stub.append((n, left, phrase))
            elif abs(centres[j] - middle) <= half and inside:
                named[j].append((n, left, phrase))
            elif right < centres[0]:
                stub.append((n, left, phrase))
            else:
                return None  # across two columns, or right of the last
    if not all(named):
        return None
    return (" ".join(w for *_, w in sorted(stub)),
            [" ".join(w for *_, w in sorted(words)) for words in named])


def _phrases(line: Line, textpage: pdfium.PdfTextPage) -> list[tuple[float, float, str]]:
    """The line's phrases, each (left edge, right edge, its words): words set less than a
    type size apart are one phrase; a wider gap parts two columns' names."""
    phrases: list[tuple[float, float, str]] = []
    for word in re.finditer(r"\S+", line.text):
        left, right = _char_span(line, textpage, word.start(), word.end())
        if phrases and left - phrases[-1][1] < line.size:
            first, _, words = phrases[-1]
            phrases[-1] = (first, right, f"{words} {word.group()}")
        else:
            phrases.append((left, right, word.group()))
    return phrases

