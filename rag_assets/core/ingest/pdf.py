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
note lines are recorded (the body size is measured before, so it does not move). Why PDFium's
text and not pdfplumber's text strategy: the latter needs pdfplumber's character objects
(~0.5 s per page); here the candidate lines come from the text already read, and PDFium gives
the box of each figure's last digit (a few calls per row, on pages with a header of periods).
Measured on the 3M 10-K (160 pages, one process): ~50 ms in all, 1.5-2% of the load, while
reading ruled tables word by word saved ~300 ms against the bounded-text call per cell.

What the PDF says about footnotes, recorded per page for ``core/footnotes/stitching.py`` to read:
the type size of every line (``Page.line_sizes``) against the document's body size
(``Page.body_size``: the most common size in the upper 60% of pages, where notes do not sit: a
footnote-heavy page carries more characters in notes than in prose), and the lines below a short
separator rule drawn at the margin in the lower half of the page (``Page.note_lines``).
Superscript digits (smaller and raised) glued to a word or a figure, or opening a note line, are
rewritten as Unicode superscripts (``sales³``, ``2028¹``, ``³ Includes``). A page with
``/Rotate`` is read in the orientation its content was written in (PDFium would otherwise list
its lines bottom to top), with a warning.

A page whose text layer holds next to nothing but which draws an image (a scanned page) is
rendered and read by OCR (``core/ingest/ocr.py``: tesseract), its lines keeping the OCR's row
heights as type sizes (the body of OCR'd pages measured apart); where OCR cannot run or reads
nothing, and on a blank page, the page says so (``Page.text_source == "none"``, ``text_note``)
and a warning names it. A page with text is never rendered.
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
from itertools import pairwise
from multiprocessing import get_context
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
from pdfplumber.table import TableFinder, TableSettings
from pdfplumber.utils import rect_to_edges

from rag_assets.core.ingest import ocr
from rag_assets.core.ingest.layout import label_from_lines
from rag_assets.core.ingest.pages import (
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
# an image this large (points) on a page with next to no text layer is read by OCR: a line of
# text is an inch or more wide; a rule, a bullet or a spacer pixel is not
MIN_IMAGE_SIDE = 72.0
MIN_IMAGE_THICKNESS = 6.0
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
    # more characters in notes than in prose, but the notes sit at the foot. Pages read by OCR
    # measure type on their own scale (tesseract's row height): their body is measured apart
    upper: Counter[float] = Counter()
    ocr_upper: Counter[float] = Counter()
    for part in parts:
        for page, weights, _ in part:
            (ocr_upper if page.text_source == "ocr" else upper).update(weights)
    body = _body_size((n, size) for size, n in upper.items())
    ocr_body = _body_size((n, size) for size, n in ocr_upper.items())
    rotated = [str(page.page_index + 1) for part in parts for page, _, turned in part if turned]
    for page in pages:
        page.body_size = ocr_body if page.text_source == "ocr" else body
    if rotated:
        warnings.append(
            f"{path.name}: page(s) {', '.join(rotated)} carry /Rotate: read in the orientation "
            "their text was written in"
        )
    warnings.extend(text_source_warnings(path.name, pages))
    n_chars = sum(len(p.text.strip()) for p in pages)
    if n_chars < MIN_CHARS_PER_PAGE * n_pages and not any(p.tables for p in pages):
        unread = [p for p in pages if (p.text_note or "").startswith(ocr.IMAGE_NOTE)]
        why = (
            "a scanned PDF, " + unread[0].text_note[len(ocr.IMAGE_NOTE) + 2:]
            if unread and unread[0].text_note
            else "OCR found too little text in its images"
            if any(p.text_source == "ocr" for p in pages)
            else "no image to read by OCR either"
        )
        raise DocumentError(path, f"no text layer ({n_chars} characters on {n_pages} pages): {why}")
    return pages


def text_source_warnings(name: str, pages: list[Page]) -> list[str]:
    """One line for the pages read by OCR (their figures deserve a look) and one per reason a
    page has no text (an image OCR could not read, a blank page): never silently empty."""
    out = []
    read = [p for p in pages if p.text_source == "ocr"]
    if read:
        words = sum(len(p.text.split()) for p in read)
        out.append(
            f"{name}: page(s) {page_ranges(p.page_index for p in read)} have no text layer: "
            f"read by OCR ({ocr.engine()}, {ocr.OCR_DPI} dpi, {words} words): "
            "OCR may misread a figure"
        )
    by_note: dict[str, list[int]] = {}
    for p in pages:
        if p.text_source == "none":
            by_note.setdefault(p.text_note or "no text", []).append(p.page_index)
    out += [f"{name}: page(s) {page_ranges(indices)} without text: {note}"
            for note, indices in by_note.items()]
    return out


def page_ranges(indices: Iterable[int]) -> str:
    """Page numbers (1-based) of 0-based indices, runs joined: ``2-4, 7``."""
    numbers = sorted({i + 1 for i in indices})
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _load_range(path: str, indices: range) -> list[tuple[Page, Counter[float], bool]]:
    pdf = _cached_pdf(path)
    return [_load_page(pdf, i) for i in indices]


def _load_page(pdf: pdfium.PdfDocument, index: int) -> tuple[Page, Counter[float], bool]:
    """A page, the characters per type size in its upper 60% (for the body size), and whether
    it carries ``/Rotate`` (for the warning).

    A page whose text layer holds next to nothing (``ocr.has_text``) while an image is drawn on
    it is rendered and read by OCR, as it is displayed (``/Rotate`` applied); where OCR cannot
    run or reads nothing, the page is read as any other and marked ``text_source="none"`` with
    the reason. A page with text never gets here: its cost is one character count.
    """
    page = pdf[index]
    rotation = page.get_rotation()
    rotated = rotation != 0
    if rotated:
        page.set_rotation(0)  # in this process's copy only: text in the order it was written
    width, height = page.get_size()
    textpage = page.get_textpage()
    text = clean_pdf_text(textpage.get_text_range())
    missing: str | None = None  # why a page with an image and no text layer was not read
    if not ocr.has_text(text) and _has_image(page):
        read, missing = _read_by_ocr(pdf, page, index, rotation)
        if read is not None:
            page.close()
            return read[0], read[1], False
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
        lines.append(_Line(
            text_line, start, size, first.left, first.bottom, first.top, samples[-1].right, line
        ))
    _reattach_displaced_markers(lines, textpage)
    lines = _join_split_rows(lines)
    upper: Counter[float] = Counter()
    for ln in lines:
        if ln.size and height and ln.top > height * (1 - UPPER_SHARE):
            upper[ln.size] += len(ln.text)
    body = _body_size(
        [(n, size) for size, n in upper.items()] or [(len(ln.text), ln.size) for ln in lines]
    )
    # statements printed without rules: found after the body size is measured, which they
    # would otherwise shift
    blocks = {n: TableBlock(index=n, rows=rows) for n, rows in found.items()}
    lines = _align_tables(lines, textpage, blocks, ALIGNED_KEY)
    lines, tables = _number_tables(lines, blocks)
    lines = _foot_notes_last(lines, body)
    margin = min((ln.left for ln in lines if ln.size), default=0.0)
    texts = [_indented(ln, margin, body) for ln in lines]
    for table in tables:
        if table.found_by == "rules":
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
    if not ocr.has_text(record.text) and not tables:
        record.text_source = "none"
        record.text_note = missing or (
            "no text layer and no image: a blank page" if not record.text.strip()
            else f"next to no text layer (under {ocr.MIN_TEXT_CHARS} characters) and no image"
        )
    return record, upper, rotated


def _has_image(page: pdfium.PdfPage) -> bool:
    """An image of at least ``MIN_IMAGE_SIDE`` by ``MIN_IMAGE_THICKNESS`` points on the page
    (inside form XObjects too)."""
    return any(
        max(right - left, top - bottom) >= MIN_IMAGE_SIDE
        and min(right - left, top - bottom) >= MIN_IMAGE_THICKNESS
        for left, bottom, right, top in _path_bounds(page, kind=pdfium_raw.FPDF_PAGEOBJ_IMAGE)
    )


def _read_by_ocr(
    pdf: pdfium.PdfDocument, page: pdfium.PdfPage, index: int, rotation: int
) -> tuple[tuple[Page, Counter[float]] | None, str | None]:
    """The page read by OCR with its characters per type size in its upper 60% (OCR's scale),
    or None and why not (OCR unavailable, failed, or found no word)."""
    reason = ocr.unavailable()
    if reason is not None:
        return None, f"{ocr.IMAGE_NOTE}, not read: {reason}"
    # images scaled without smoothing: a 150 dpi scan smoothed up to the OCR resolution ran its
    # note lines together in tesseract's eyes; pixels repeated (or dropped) read clean
    image = page.render(scale=ocr.OCR_DPI / 72, rotation=rotation, grayscale=True,
                        no_smoothimage=True).to_pil()
    try:
        result = ocr.read_image(image, ocr.OCR_DPI)
    except ocr.OcrError as err:
        return None, f"{ocr.IMAGE_NOTE}, OCR failed: {err}"
    if not result.lines:
        return None, f"{ocr.IMAGE_NOTE}, OCR ({result.engine}) found no text in it"
    height = image.height * 72 / ocr.OCR_DPI
    lines = [_Line(ln.text, -1, ln.size, ln.left, ln.bottom, ln.top, ln.right, ln.text)
             for ln in result.lines]
    upper: Counter[float] = Counter()
    for ln in lines:
        if ln.size and ln.top > height * (1 - UPPER_SHARE):
            upper[ln.size] += len(ln.text)
    body = _body_size(
        [(n, size) for size, n in upper.items()] or [(len(ln.text), ln.size) for ln in lines]
    )
    # the text margin: where most lines start (a speck read as a letter at the edge of a scan
    # is no margin)
    lefts = sorted(ln.left for ln in lines)
    margin = lefts[len(lefts) // 10]
    texts = [_indented(ln, margin, body) for ln in lines]
    record = Page(
        page_index=index,
        page_label=pdf.get_page_label(index) or label_from_lines(texts),
        text="\n".join(texts),
        line_sizes=[ln.size for ln in lines],
        text_source="ocr",
        text_note=result.note(ocr.OCR_DPI),
    )
    return (record, upper), None


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
    raw: str = ""  # the text as PDFium gave it from ``start`` ("" once joined with another line)
    moved_in: bool = False  # note markers PDFium emitted elsewhere were put in it by position


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
            host.moved_in = moved = True
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


def _path_bounds(
    page: pdfium.PdfPage, max_depth: int = 15, kind: int = pdfium_raw.FPDF_PAGEOBJ_PATH
) -> Iterator[tuple[float, ...]]:
    """Bounds of every path object (or object of ``kind``) on the page, form XObjects included.

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
            found = pdfium_raw.FPDFPageObj_GetType(obj)
            if found == kind:
                if pdfium_raw.FPDFPageObj_GetBounds(obj, *boxes):
                    yield left.value, bottom.value, right.value, top.value
            elif found == pdfium_raw.FPDF_PAGEOBJ_FORM and depth < max_depth:
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
    lines: list[_Line], found: dict[int, TableBlock]
) -> tuple[list[_Line], list[TableBlock]]:
    """Tables numbered 1, 2, ... in the order their placeholders stand in the text."""
    tables: list[TableBlock] = []
    for line in lines:
        match = TABLE_PLACEHOLDER_RE.match(line.text)
        if match and int(match.group(1)) in found:
            table = found[int(match.group(1))]
            table.index = len(tables) + 1
            tables.append(table)
            line.text = TABLE_PLACEHOLDER.format(index=table.index)
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
        cells = [_figure_text((c or "").replace("\x02", "-")) for c in row]
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
FIGURE_START_RE = re.compile(r"^(?:[$€£]\s?)?\(?[-–—]?\.?\d|^[-–—]$")
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
        else:  # "24.5" "%", "(11)" "%", "—" "%"
            takes = before[-1].isdigit() or before[-1] in ")—–-"
        if takes:
            cells[prev] = before + run
            cells[i] = rest


# --- statements printed without rules ---------------------------------------------------------

ALIGNED_KEY = 10_000  # placeholder keys of aligned tables until numbering (grids count from 0)
MIN_ALIGNED_ROWS = 3  # rows with a figure in every column
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
FROM_SUPERSCRIPT = str.maketrans(SUPERSCRIPTS, "0123456789")
YEAR_RE = re.compile(rf"^(?:19|20)\d\d[*{SUPERSCRIPTS}]*$")
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
FIGURE_RE = re.compile(
    rf"^[$€£]?\(?[-–]?(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d+)?\)?%?[{SUPERSCRIPTS}]*$"
)
NIL_RE = re.compile(r"^(?:[-–—]+|n/a|N/A|NM|nm)$")
SIGN_RE = re.compile(r"^[$€£]\(?$|^\($")  # "$", "$(", "(" before a figure
SUFFIX_RE = re.compile(r"^(?:%|\)|\)%|\([a-z]\)|\*{1,3}|[†‡])$")  # after a figure
# a note's definition: its marker, then words ("¹ $ 0.28" is a wrapped row's marker and figures)
NOTE_START_RE = re.compile(
    rf"^(?:\(\d{{1,2}}\)|\([a-z]\)|\*{{1,3}}|[†‡]|[{SUPERSCRIPTS}]+)\s*(?:[^\W\d_]|[“\"])"
)
MARKER_ONLY_RE = re.compile(rf"^(?:\(?\d{{1,2}}\)?|\(?[a-z]\)|\*{{1,3}}|[†‡]|[{SUPERSCRIPTS}]+)$")
PROSE_RE = re.compile(r"[a-z]{2,}[.!?] [A-Z]")  # a sentence ends and another begins
CARRIES_ON_RE = re.compile(
    r"(?:[,;-]|\b(?:of|and|or|to|for|the|in|on|from|by|with|net))$", re.IGNORECASE
)

_Group = tuple[int, int, int]  # a figure in a line: start, end, position of its last digit


def _period_token(token: str) -> bool:
    word = token.lower().rstrip(".,")
    return bool(YEAR_RE.match(token) or DAY_RE.match(token)) or word in MONTHS | PERIOD_WORDS


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
    years = [int(t[:4]) for t in periods if YEAR_RE.match(t)]
    if len(years) < 2 or not periods or not YEAR_RE.match(periods[-1]):
        return None
    counts = Counter(years)
    if len(counts) < 2 or max(counts) - min(counts) + 1 != len(counts) or len(
        set(counts.values())
    ) != 1:
        return None
    label = " ".join(prefix)
    if prefix and not (label.startswith("(") and label.endswith(")")) and (
        len(prefix) > 5 or label.endswith(".") or any(FIGURE_RE.match(t) for t in prefix)
    ):
        return None
    cells: list[str] = []
    current: list[str] = []
    for token in periods:
        current.append(token)
        if YEAR_RE.match(token):
            cells.append(" ".join(current))
            current = []
    if all(YEAR_RE.match(c) for c in cells[1:]) and not YEAR_RE.match(cells[0]):
        words = cells[0].split()  # "Year Ended December 31, 2017 2016 2015": the caption
        label, cells[0] = " ".join([*prefix, *words[:-1]]), words[-1]
    return label, cells


def _period_caption(text: str) -> bool:
    """A line of period words with no year: ``Fiscal Year``, ``For the Years Ended December
    31,`` (the header's caption)."""
    tokens = text.split()
    return bool(tokens) and all(
        _period_token(t) and not YEAR_RE.match(t) for t in tokens
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
        if not (FIGURE_RE.match(figure) or NIL_RE.match(figure)) or (
            j < i and NIL_RE.match(figure) and tokens[i][2] != "%"
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
    line: _Line, textpage: pdfium.PdfTextPage, groups: list[_Group]
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


def _align_tables(
    lines: list[_Line], textpage: pdfium.PdfTextPage, blocks: dict[int, TableBlock], key: int
) -> list[_Line]:
    """Statements printed without rules become tables (``found_by="alignment"``): a header of
    periods, then lines that end in one figure per period, their right edges aligned in
    columns; label-only lines (``Current assets:``, a wrapped label) may stand between them.
    The table's lines give way to its placeholder, as a ruled table's do."""
    found: list[tuple[int, int, TableBlock]] = []
    i = 0
    while i < len(lines):
        header = _period_header(lines[i].text.strip()) if lines[i].size else None
        table = _aligned_table(lines, i, header, textpage) if header else None
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
    out: list[_Line] = []
    at = 0
    for first, end, block in found:
        out.extend(lines[at:first])
        out.append(_Line(TABLE_PLACEHOLDER.format(index=block.index)))
        blocks[block.index] = block
        at = end
    out.extend(lines[at:])
    return out


def _aligned_table(
    lines: list[_Line], h: int, header: tuple[str, list[str]], textpage: pdfium.PdfTextPage
) -> tuple[int, int, list[list[str]]] | None:
    """The table whose header of periods is line ``h``: (its first line, the line after its
    last, its rows), or None when the lines below are no aligned figures."""
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
    rows: list[list[str]] = []
    placed: list[bool] = []
    for n, groups in entries:
        text = lines[n].text.strip()
        offset = len(lines[n].text) - len(lines[n].text.lstrip())
        pieces = [_figure_text(text[s - offset:e - offset]) for s, e, _ in groups]
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
                    fits = abs(columns[col] - x) <= tol and tall >= SUPERSCRIPT_RATIO * digit_height
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
    end = max(i for i, p in enumerate(placed) if p) + 1  # the last row with a figure in place
    rows, entries, placed = rows[:end], entries[:end], placed[:end]
    several = [p for (_, groups), p in zip(entries, placed, strict=True) if len(groups) >= 2]
    labelled = sum(1 for row, p in zip(rows, placed, strict=True) if p and row[0])
    if sum(several) < 0.9 * len(several) or labelled < 0.5 * sum(placed):
        return None
    rows = _join_wrapped_labels(rows)
    return first, entries[-1][0] + 1, [[label, *periods], *rows]


def _figure_text(text: str) -> str:
    """A cell's words one space apart, a closing ``)`` or ``%`` glued to its figure."""
    return CLOSE_UP_RE.sub("", " ".join(text.split()))


def _figures_in_a_row(text: str) -> int:
    """The longest run of figures (``$`` signs aside) in a label: a label holds a year or a
    count, not the figures of another row."""
    best = run = 0
    for token in text.split():
        if FIGURE_RE.match(token) or (run and NIL_RE.match(token)):  # "Issued — 7,040": a dash
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
            or CARRIES_ON_RE.search(prev[0])
        ):
            out[-1] = [f"{prev[0]} {label}".strip(), *row[1:]]
        else:
            out.append(row)
    return out


def _aligned_title(lines: list[_Line], first: int, floor: int) -> str | None:
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
