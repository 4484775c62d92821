"""PDF pages with text, tables and footnote zones, fast enough for 200-page filings.

Where the time goes (measured on the 3M 10-K, 160 pages): pdfplumber spends ~0.5 s per page
building its character objects in Python, and only ~0.02 s per page finding and reading tables
once those exist. So PDFium (pypdfium2, C++) does the reading: text in reading order, the geometry
of drawn rules, type sizes of sampled characters; and pdfplumber's own table algorithm
(``TableFinder``, default "lines" strategy) runs on the edges PDFium reports. Pages are spread
over worker processes for long documents.

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

What the PDF says about footnotes, recorded per page for ``core/footnotes.py`` to read: the type
size of every line (``Page.line_sizes``) against the document's body size (``Page.body_size``:
the most common size in the upper 60% of pages, where notes do not sit: a footnote-heavy page
carries more characters in notes than in prose), and the lines below a short separator rule
drawn at the margin in the lower half of the page (``Page.note_lines``). Superscript digits
(smaller and raised) glued to a word or a figure, or opening a note line, are rewritten as
Unicode superscripts (``sales³``, ``2028¹``, ``³ Includes``). A page with ``/Rotate`` is read
in the orientation its content was written in (PDFium would otherwise list its lines bottom to
top), with a warning.
"""

from __future__ import annotations

import ctypes
import re
import statistics
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from multiprocessing import get_context
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
from pdfplumber.table import TableFinder, TableSettings
from pdfplumber.utils import rect_to_edges

from rag_assets.core.layout import label_from_lines
from rag_assets.core.pages import (
    NOTE_SIZE_RATIO,
    SUPERSCRIPT_DIGITS,
    TABLE_PLACEHOLDER,
    TABLE_PLACEHOLDER_RE,
    DocumentError,
    Page,
    TableBlock,
)

UPPER_SHARE = 0.6  # the body type is measured on the upper 60% of pages
RULE_MAX_WIDTH = 0.6  # a footnote separator is a short rule: at most 60% of the page width
RULE_MIN_WIDTH = 0.04
RULE_MAX_THICKNESS = 2.0  # points
SUPERSCRIPT_RATIO = 0.85
PAGES_PER_TASK = 8
MIN_PAGES_FOR_WORKERS = 24
MIN_CHARS_PER_PAGE = 20
TO_SUPERSCRIPT = str.maketrans("0123456789", SUPERSCRIPT_DIGITS)
# digits that may be a superscript note number glued to what precedes it ("sales3", "202811");
# only their type size and raise decide
GLUED_DIGITS_RE = re.compile(r"(?<=[\w%).,;:”’\"])(\d{1,2})(?=[\s,.;:)]|$)")
LEADING_DIGITS_RE = re.compile(r"^(\d{1,2})(?=\s*[A-Z(\"“$])")
MARKER_TOKEN_RE = re.compile(r"\(\d{1,2}\)|\([a-z]\)|\*{1,3}|[†‡]")
DISPLACED_LINE_RE = re.compile(r"^\s*(?:(?:\(\d{1,2}\)|\([a-z]\)|\*{1,3}|[†‡])[\s,]*)+$")
_TABLE_SETTINGS = TableSettings.resolve(None)


class _PageGeometry:
    """The three attributes of a pdfplumber ``Page`` that ``TableFinder`` reads."""

    def __init__(self, bbox: tuple[float, float, float, float], edges: list[dict]) -> None:
        self.bbox = bbox
        self.edges = edges
        self.chars: list[dict] = []


def open_pdf(path: Path) -> pdfium.PdfDocument:
    """Open a PDF (an empty user password is tried, as readers do) or say why it cannot be."""
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if "password" in message.lower():
            raise DocumentError(path, "password-protected PDF (a password is needed)") from exc
        cause = message.strip().rstrip(".")
        raise DocumentError(path, f"corrupt or not a PDF ({cause})") from exc


@lru_cache(maxsize=2)
def _cached_pdf(path: str) -> pdfium.PdfDocument:
    return open_pdf(Path(path))


def load_pdf_pages(path: Path, warnings: list[str], workers: int = 2) -> list[Page]:
    """Every page of a PDF; notes about the file (rotated pages) are appended to ``warnings``."""
    pdf = open_pdf(path)
    n_pages = len(pdf)
    pdf.close()
    if n_pages == 0:
        raise DocumentError(path, "PDF has no pages")
    ranges = [range(s, min(s + PAGES_PER_TASK, n_pages)) for s in range(0, n_pages, PAGES_PER_TASK)]
    if workers > 1 and n_pages >= MIN_PAGES_FOR_WORKERS:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            parts = list(pool.map(_load_range, [str(path)] * len(ranges), ranges))
    else:
        parts = [_load_range(str(path), r) for r in ranges]
        _cached_pdf.cache_clear()
    pages = [page for part in parts for page, _, _ in part]
    # the body type is measured on the upper part of pages: a footnote-heavy release can carry
    # more characters in notes than in prose, but the notes sit at the foot
    upper: Counter[float] = Counter()
    for part in parts:
        for _, weights, _ in part:
            upper.update(weights)
    body = _body_size((n, size) for size, n in upper.items())
    rotated = [str(page.page_index + 1) for part in parts for page, _, turned in part if turned]
    for page in pages:
        page.body_size = body
    if rotated:
        warnings.append(
            f"{path.name}: page(s) {', '.join(rotated)} carry /Rotate: read in the orientation "
            "their text was written in"
        )
    n_chars = sum(len(p.text.strip()) for p in pages)
    if n_chars < MIN_CHARS_PER_PAGE * n_pages and not any(p.tables for p in pages):
        raise DocumentError(
            path,
            f"no text layer ({n_chars} characters on {n_pages} pages): "
            "a scanned PDF? run OCR on it first",
        )
    return pages


def _load_range(path: str, indices: range) -> list[tuple[Page, Counter[float], bool]]:
    pdf = _cached_pdf(path)
    return [_load_page(pdf, i) for i in indices]


def _load_page(pdf: pdfium.PdfDocument, index: int) -> tuple[Page, Counter[float], bool]:
    """A page, the characters per type size in its upper 60% (for the body size), and whether
    it carries ``/Rotate`` (for the warning)."""
    page = pdf[index]
    rotated = page.get_rotation() != 0
    if rotated:
        page.set_rotation(0)  # in this process's copy only: text in the order it was written
    width, height = page.get_size()
    textpage = page.get_textpage()
    text = clean_pdf_text(textpage.get_text_range())
    grids, rules = _find_grids(page, width, height)
    raw: list[tuple[int, str, list[_CharSample]]] = []
    offset = 0
    for raw_line in text.split("\r\n"):
        start, offset = offset, offset + len(raw_line) + 2
        line = raw_line.replace("\n", " ").replace("\r", " ").rstrip()  # same offsets
        raw.append((start, line, _sample_chars(textpage, start, line) if line.strip() else []))
    pieces, found = _cut_tables(textpage, grids, raw, height)
    boxes = [(n, grids[n].box) for n in found]
    rules = [r for r in rules if _table_of((r[0] + r[1]) / 2, r[2], boxes) is None]

    lines: list[_Line] = []
    seen_tables: set[int] = set()
    for start, line, samples, in_table in pieces:
        if in_table is not None:
            if in_table not in seen_tables:
                seen_tables.add(in_table)
                lines.append(_Line(TABLE_PLACEHOLDER.format(index=in_table)))
            continue
        if not samples:
            lines.append(_Line(""))
            continue
        first = samples[0]
        size = statistics.median(c.height for c in samples)
        text_line = _mark_superscripts(textpage, start, line, size)
        lines.append(
            _Line(text_line, start, size, first.left, first.bottom, first.top, samples[-1].right)
        )
    _reattach_displaced_markers(lines, textpage)
    lines = _join_split_rows(lines)
    lines, tables = _number_tables(lines, found)
    upper: Counter[float] = Counter()
    for ln in lines:
        if ln.size and height and ln.top > height * (1 - UPPER_SHARE):
            upper[ln.size] += len(ln.text)
    body = _body_size(
        [(n, size) for size, n in upper.items()] or [(len(ln.text), ln.size) for ln in lines]
    )
    lines = _foot_notes_last(lines, body)
    margin = min((ln.left for ln in lines if ln.size), default=0.0)
    texts = [_indented(ln, margin, body) for ln in lines]
    for table in tables:
        table.title = _title_before(texts, TABLE_PLACEHOLDER.format(index=table.index))
    label = pdf.get_page_label(index) or label_from_lines(texts)
    page.close()
    record = Page(
        page_index=index,
        page_label=label,
        text="\n".join(texts),
        note_lines=_lines_below_rule(lines, rules, margin, width, height),
        line_sizes=[ln.size if ln.text.strip() else 0.0 for ln in lines],
        tables=tables,
    )
    return record, upper, rotated


def _lines_below_rule(
    lines: list[_Line], rules: list[tuple[float, float, float]], margin: float, width: float,
    height: float,
) -> list[int]:
    """The lines printed under the short rule drawn at the text margin in the lower half of the
    page: a footnote separator (a table's or a signature's rule is long, or not at the margin).
    By position, not by text order: some writers emit the notes before the body."""
    separators = [
        y for left, right, y in rules
        if y < height * 0.5
        and RULE_MIN_WIDTH * width <= right - left <= RULE_MAX_WIDTH * width
        and abs(left - margin) <= 0.03 * width
    ]
    if not separators:
        return []
    rule = max(separators)  # PDF y grows upwards: the highest short rule in the lower half
    return [n for n, ln in enumerate(lines) if ln.size and ln.top < rule]


@dataclass
class _Line:
    """A printed line with the geometry of its first character (PDF points, origin bottom-left)."""

    text: str
    start: int = -1
    size: float = 0.0
    left: float = 0.0
    bottom: float = 0.0
    top: float = 0.0
    right: float = 0.0


@dataclass
class _CharSample:
    height: float
    left: float
    bottom: float
    top: float
    right: float

    @property
    def x_center(self) -> float:
        return self.left + 1.0

    @property
    def y_center(self) -> float:
        return (self.bottom + self.top) / 2


def clean_pdf_text(text: str) -> str:
    """PDFium marks hyphenation with U+0002 / U+FFFE; both stand for a printed hyphen."""
    return text.replace("\x02", "-").replace("\ufffe", "-").replace("\x00", "")


def _indented(line: _Line, margin: float, body: float) -> str:
    """Keep indentation as leading spaces: continuation lines of a note are indented."""
    if not line.size or not body:
        return line.text
    spaces = min(12, max(0, round((line.left - margin) / (body * 0.5))))
    return " " * spaces + line.text


def _foot_notes_last(lines: list[_Line], body: float) -> list[_Line]:
    """Lines in smaller type printed below all the body text come last in reading order.

    Some writers draw the foot of a page (notes, footer) before its body; PDFium lists text in
    drawing order, so a note that runs over to the next page would not end its page.
    """
    body_lines = [ln for ln in lines if ln.size >= body * NOTE_SIZE_RATIO and ln.text.strip()]
    if not body_lines:
        return lines
    floor = min(ln.bottom for ln in body_lines)
    at_foot = [
        bool(ln.size) and ln.size < body * NOTE_SIZE_RATIO and ln.top <= floor + 1.0
        for ln in lines
    ]
    if not any(at_foot):
        return lines
    foot = sorted(
        (ln for ln, below in zip(lines, at_foot, strict=True) if below),
        key=lambda ln: (-ln.top, ln.left),
    )
    return [ln for ln, below in zip(lines, at_foot, strict=True) if not below] + foot


def _join_split_rows(lines: list[_Line]) -> list[_Line]:
    """One printed line that PDFium split where the baseline moved (a superscript marker, a
    raised note number) is joined again: a piece that starts just right of the previous piece,
    on the same row. A lone smaller number at either end of the join is a superscript marker."""
    out: list[_Line] = []
    for line in lines:
        prev = out[-1] if out else None
        if prev is None or not (prev.size and line.size and _continues_row(prev, line)):
            out.append(line)
            continue
        left, right = prev.text.rstrip(), line.text.strip()
        if left.strip().isdigit() and prev.size < line.size * SUPERSCRIPT_RATIO:
            left = left.strip().translate(TO_SUPERSCRIPT)
        if right.isdigit() and line.size < prev.size * SUPERSCRIPT_RATIO:
            right = right.translate(TO_SUPERSCRIPT)
        glued = right[:1] in ",.;:)" or right[:1] in SUPERSCRIPT_DIGITS
        main = line if len(right) > len(left.strip()) else prev
        out[-1] = _Line(
            left + ("" if glued else " ") + right, prev.start, main.size, prev.left,
            main.bottom, main.top, line.right,
        )
    return out


def _continues_row(prev: _Line, line: _Line) -> bool:
    overlap = min(prev.top, line.top) - max(prev.bottom, line.bottom)
    shorter = min(prev.top - prev.bottom, line.top - line.bottom)
    gap = line.left - prev.right
    return shorter > 0 and overlap >= 0.5 * shorter and -1.0 <= gap <= 1.5 * max(
        prev.size, line.size
    )


def _has_words(rows: list[list[str]]) -> bool:
    return any(sum(ch.isalpha() for ch in cell) >= 3 for row in rows for cell in row)


def _reattach_displaced_markers(lines: list[_Line], textpage: pdfium.PdfTextPage) -> None:
    """Put superscript markers that PDFium emitted out of reading order back in their line.

    Some filings draw superscripts as separate text objects at the end of the content stream;
    PDFium then lists them as lines of bare markers (``(a)``, ``(b), (c)``) near the page end.
    Each is moved, by its position, into the printed line it sits on.
    """
    anchors = [ln for ln in lines if ln.size and not DISPLACED_LINE_RE.match(ln.text)]
    for stray in [ln for ln in lines if ln.size and DISPLACED_LINE_RE.match(ln.text)]:
        moved = False
        for match in MARKER_TOKEN_RE.finditer(stray.text):
            left, bottom, right, top = textpage.get_charbox(stray.start + match.start(), loose=True)
            centre = (bottom + top) / 2
            host = next(
                (a for a in anchors if a.bottom - 1 <= centre <= a.top + (top - bottom)), None
            )
            if host is None:
                continue
            host.text = _insert_at_x(host, textpage, match.group(0), left)
            moved = True
        if moved:
            stray.text, stray.size = "", 0.0


def _insert_at_x(host: _Line, textpage: pdfium.PdfTextPage, token: str, x: float) -> str:
    text = host.text
    for pos in range(len(text)):
        left, _, right, _ = textpage.get_charbox(host.start + pos, loose=True)
        if (left + right) / 2 > x:
            return text[:pos].rstrip() + " " + token + " " + text[pos:].lstrip()
    return text + " " + token


def _sample_chars(textpage: pdfium.PdfTextPage, start: int, line: str) -> list[_CharSample]:
    """Loose boxes of up to three characters spread over a line (first one first)."""
    positions = [i for i, ch in enumerate(line) if not ch.isspace()]
    picks = {positions[0], positions[len(positions) // 2], positions[-1]} if positions else set()
    out = []
    for pos in sorted(picks):
        left, bottom, right, top = textpage.get_charbox(start + pos, loose=True)
        out.append(_CharSample(round(top - bottom, 1), left, bottom, top, right))
    return out


def _body_size(lines: Iterable[tuple[int, float]]) -> float:
    """The type size that carries most characters (callers pass the upper part of pages, where
    notes do not sit)."""
    weights: Counter[float] = Counter()
    for n_chars, size in lines:
        if size:
            weights[size] += n_chars
    return weights.most_common(1)[0][0] if weights else 0.0


def _raised_small(textpage: pdfium.PdfTextPage, index: int, line_size: float) -> bool:
    """The character at ``index`` is set smaller than the line and raised above the one before."""
    _, bottom, _, top = textpage.get_charbox(index, loose=True)
    prev = textpage.get_charbox(index - 1, loose=True)
    return (top - bottom) < line_size * SUPERSCRIPT_RATIO and bottom > prev[1] + 0.15 * (
        prev[3] - prev[1]
    )


def _mark_superscripts(
    textpage: pdfium.PdfTextPage, start: int, line: str, line_size: float
) -> str:
    if not any(ch.isdigit() for ch in line):
        return line
    out, last = [], 0
    for match in GLUED_DIGITS_RE.finditer(line):
        # "20281": the two digits "81" are no superscript, but the "1" alone may be
        for begin in range(match.start(), match.end()):
            if _raised_small(textpage, start + begin, line_size):
                out.append(line[last:begin])
                out.append(line[begin : match.end()].translate(TO_SUPERSCRIPT))
                last = match.end()
                break
    out.append(line[last:])
    marked = "".join(out)
    lead = LEADING_DIGITS_RE.match(line)
    if lead:  # a note that opens with its superscript marker: "¹Includes ..."
        digit = textpage.get_charbox(start, loose=True)
        text_at = lead.end() + len(line[lead.end():]) - len(line[lead.end():].lstrip())
        after = textpage.get_charbox(start + text_at, loose=True)
        after_height = after[3] - after[1]
        if digit[3] - digit[1] < after_height * SUPERSCRIPT_RATIO and (
            digit[1] > after[1] + 0.15 * after_height
        ):
            rest = marked[len(lead.group(1)):]
            marked = lead.group(1).translate(TO_SUPERSCRIPT) + " " + rest.lstrip()
    return marked


def _title_before(lines: list[str], placeholder: str) -> str | None:
    at = lines.index(placeholder) if placeholder in lines else -1
    for line in reversed(lines[:at] if at > 0 else []):
        if line.strip():
            text = line.strip()
            if TABLE_PLACEHOLDER_RE.match(text):
                return None  # two tables in a row: the line above is the other table
            return text if len(text) <= 120 and not text.endswith(".") else None
    return None


def _table_of(x: float, y: float, boxes: list[tuple[int, tuple]]) -> int | None:
    for index, (left, bottom, right, top) in boxes:
        if left <= x <= right and bottom <= y <= top:
            return index
    return None


def _path_bounds(page: pdfium.PdfPage, max_depth: int = 15) -> Iterator[tuple[float, ...]]:
    """Bounds of every path object on the page, form XObjects included.

    The raw PDFium calls: ``page.get_objects`` wraps each of a filing's ~4,000 objects per page
    (mostly text) in Python objects, which was half of the load time of a 10-K.
    """
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    boxes = (ctypes.byref(left), ctypes.byref(bottom), ctypes.byref(right), ctypes.byref(top))
    stack = [(page.raw, True, 0)]
    while stack:
        parent, is_page, depth = stack.pop()
        count = (pdfium_raw.FPDFPage_CountObjects if is_page
                 else pdfium_raw.FPDFFormObj_CountObjects)(parent)
        get = pdfium_raw.FPDFPage_GetObject if is_page else pdfium_raw.FPDFFormObj_GetObject
        for i in range(count):
            obj = get(parent, i)
            kind = pdfium_raw.FPDFPageObj_GetType(obj)
            if kind == pdfium_raw.FPDF_PAGEOBJ_PATH:
                if pdfium_raw.FPDFPageObj_GetBounds(obj, *boxes):
                    yield left.value, bottom.value, right.value, top.value
            elif kind == pdfium_raw.FPDF_PAGEOBJ_FORM and depth < max_depth:
                stack.append((obj, False, depth + 1))


Rule = tuple[float, float, float]  # left, right, y of a thin horizontal path (PDF points)


@dataclass
class _Grid:
    """A ruled table as pdfplumber's finder sees it: its cells (pdfplumber coordinates, top
    down) and its bounding box in PDF points (origin bottom-left)."""

    cells: list[tuple[float, float, float, float]]
    box: tuple[float, float, float, float]


def _find_grids(
    page: pdfium.PdfPage, width: float, height: float
) -> tuple[list[_Grid], list[Rule]]:
    """pdfplumber's lines-strategy table finder over the rules PDFium reports; also the thin
    horizontal rules of the page (footnote separators among them)."""
    edges: list[dict] = []
    rules: list[Rule] = []
    for left, bottom, right, top in _path_bounds(page):
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
    finder = TableFinder(_PageGeometry((0, 0, width, height), edges), _TABLE_SETTINGS)
    grids = []
    for table in finder.tables:
        x0, top, x1, bottom = table.bbox
        grids.append(_Grid(list(table.cells), (x0, height - bottom, x1, height - top)))
    return grids, rules


_Piece = tuple[int, str, list["_CharSample"], int | None]  # start, text, samples, ruled table
# a word of a line: start, end (in the line), text, centre x, centre y, height (PDF points)
_Word = tuple[int, int, str, float, float, float]


def _cut_tables(
    textpage: pdfium.PdfTextPage,
    grids: list[_Grid],
    raw: list[tuple[int, str, list[_CharSample]]],
    height: float,
) -> tuple[list[_Piece], dict[int, list[list[str]]]]:
    """The page's lines cut into prose and ruled-table pieces, and each table's cleaned rows
    (keyed by the grid's position).

    A printed row belongs to the table its first word stands in, with all its words (a figure
    printed past the last rule goes to the last column). PDFium sometimes runs a table's first
    row on from the lines above it (a title, the header years): such a line is cut where the
    printed row changes, so a word lands in the text or in a cell, never in both and never in
    neither. A row that starts left of a grid (rules drawn under some columns only) stays prose.
    A grid whose rows are no table (a box around text, a "table" without words) gives its
    words back to the prose.
    """
    words_of: dict[int, list[_Word]] = {}
    for number, (start, line, samples) in enumerate(raw):
        if samples and any(_touches(samples, g.box) for g in grids):
            words_of[number] = _line_words(textpage, start, line)
    rejected: set[int] = set()
    while True:
        boxes = [(n, g.box) for n, g in enumerate(grids) if n not in rejected]
        pieces: list[_Piece] = []
        table_words: dict[int, list[_Word]] = {}
        for number, (start, line, samples) in enumerate(raw):
            words = words_of.get(number)
            if not words or not boxes:
                pieces.append((start, line, samples, None))
                continue
            runs: list[tuple[int | None, list[_Word]]] = []
            for row in _printed_rows(words):
                at = _table_of(row[0][3], row[0][4], boxes)
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
                pieces.append((at_start, part, _sample_chars(textpage, at_start, part), None))
        found: dict[int, list[list[str]]] = {}
        for n, words in table_words.items():
            rows = clean_table_rows(_grid_rows(grids[n], words, height))
            if rows is None or not _has_words(rows):
                rejected.add(n)
            else:
                found[n] = rows
        if len(found) == len(table_words):
            return pieces, found


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


def _touches(samples: list[_CharSample], box: tuple[float, float, float, float]) -> bool:
    """The line (by its sampled characters) overlaps the box."""
    left, bottom, right, top = box
    return (
        min(c.left for c in samples) <= right and max(c.right for c in samples) >= left
        and min(c.bottom for c in samples) <= top and max(c.top for c in samples) >= bottom
    )


def _grid_rows(grid: _Grid, words: list[_Word], height: float) -> list[list[str]]:
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


def _number_tables(
    lines: list[_Line], found: dict[int, list[list[str]]]
) -> tuple[list[_Line], list[TableBlock]]:
    """Tables numbered 1, 2, ... in the order their placeholders stand in the text."""
    tables: list[TableBlock] = []
    for line in lines:
        match = TABLE_PLACEHOLDER_RE.match(line.text)
        if match and int(match.group(1)) in found:
            index = len(tables) + 1
            tables.append(TableBlock(index=index, rows=found[int(match.group(1))]))
            line.text = TABLE_PLACEHOLDER.format(index=index)
    return lines, tables


def clean_table_rows(rows: list[list[str | None]]) -> list[list[str]] | None:
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
        cells = [" ".join((c or "").replace("\x02", "-").split()) for c in row]
        _merge_split_figures(cells)
        if any(cells):
            tidy.append(cells)
    if not tidy:
        return None
    width = max(len(r) for r in tidy)
    tidy = [r + [""] * (width - len(r)) for r in tidy]
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


OPENING_CELL_RE = re.compile(r"^[$€£(]+(?: [$€£(]+)*$")  # "$", "(", "$ (", "($"
FIGURE_START_RE = re.compile(r"^(?:[$€£]\s?)?\(?[-–—]?\.?\d|^[-–—]$")
CLOSING_RE = re.compile(r"^[)%]+")
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
        else:  # "24.5" "%", "(11)" "%", "—" "%"
            takes = before[-1].isdigit() or before[-1] in ")—–-"
        if takes:
            cells[prev] = before + run
            cells[i] = rest
