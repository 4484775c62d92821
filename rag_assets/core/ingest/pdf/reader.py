"""The page reader: every page of a PDF with its text, tables and footnote zones, fast enough
for 200-page filings.

Where the time goes (measured on the 3M 10-K, 160 pages): pdfplumber spends ~0.5 s per page
building its character objects in Python, and only ~0.02 s per page finding and reading tables
once those exist. So PDFium (pypdfium2, C++) does the reading: text in reading order, the geometry
of drawn rules, type sizes of sampled characters; and pdfplumber's own table algorithm
(``TableFinder``, default "lines" strategy) runs on the edges PDFium reports. Pages are spread
over worker processes for long documents.

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

One page never fails a document: each step after a page's text (OCR, ruled tables,
superscripts, joined rows, aligned tables) that raises leaves the page without what it adds and
records why (``Page.faults``: page, reader, cause; one warning per fault); anything else that
fails on a page keeps its plain text. A parser's error that still escapes, in a worker process
or not, is one ``DocumentError`` line naming the file, the page and the cause. A file PDFium
cannot open is read from qpdf's repair of it (``repair.py``).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache, partial
from multiprocessing import current_process, get_context
from pathlib import Path
from typing import TypeVar

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw

from rag_assets.core.ingest import ocr
from rag_assets.core.ingest.layout import label_from_lines
from rag_assets.core.ingest.pages import (
    NOTE_SIZE_RATIO,
    TABLE_PLACEHOLDER,
    TABLE_PLACEHOLDER_RE,
    DocumentError,
    Page,
    PageFault,
    PageReader,
    TableBlock,
    one_line_cause,
)
from rag_assets.core.ingest.pdf.aligned_tables import (
    ALIGNED_KEY,
    align_tables,
    continue_ruled_tables,
)
from rag_assets.core.ingest.pdf.geometry import (
    SUPERSCRIPT_RATIO,
    CharSample,
    Line,
    path_bounds,
    printed_rows,
    sample_chars,
)
from rag_assets.core.ingest.pdf.ligatures import mark_hyphens, restore_ligatures
from rag_assets.core.ingest.pdf.parser import PageParser, PageReadError, ParsedPage
from rag_assets.core.ingest.pdf.repair import repaired_file
from rag_assets.core.ingest.pdf.ruled_tables import (
    Grid,
    Piece,
    Rule,
    cut_tables,
    find_grids,
    table_of,
)
from rag_assets.core.text.markers import (
    DISPLACED_LINE_RE,
    GLUED_DIGITS_RE,
    LEADING_DIGITS_RE,
    MARKER_TOKEN_RE,
    SUPERSCRIPT_DIGITS,
    TO_SUPERSCRIPT,
)

UPPER_SHARE = 0.6  # the body type is measured on the upper 60% of pages
RULE_MAX_WIDTH = 0.6  # a footnote separator is a short rule: at most 60% of the page width
RULE_MIN_WIDTH = 0.04
PAGES_PER_TASK = 8
MIN_PAGES_FOR_WORKERS = 24
MIN_CHARS_PER_PAGE = 20
# an image this large (points) on a page with next to no text layer is read by OCR: a line of
# text is an inch or more wide; a rule, a bullet or a spacer pixel is not
MIN_IMAGE_SIDE = 72.0
MIN_IMAGE_THICKNESS = 6.0


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


@dataclass
class PdfRead:
    """A PDF's pages, the notes about the file, and, for a file PDFium could not open as it
    is, why it was repaired (``repair.py``) before being read."""

    pages: list[Page]
    warnings: list[str] = field(default_factory=list)
    repair_cause: str | None = None


def load_pdf_pages(
    path: Path, warnings: list[str], workers: int = 2, parser: PageParser | None = None,
    *, use_ocr: bool = True,
) -> list[Page]:
    """Every page of a PDF; notes about the file (rotated pages, flagged pages, a repair) are
    appended to ``warnings``. ``parser`` reads the pages (PDFium and pdfplumber's table finder
    unless another is given; ``use_ocr`` False: it reads no image by OCR)."""
    read = read_pdf(path, workers, parser, use_ocr=use_ocr)
    warnings.extend(read.warnings)
    return read.pages


def read_pdf(path: Path, workers: int = 2, parser: PageParser | None = None, *,
             use_ocr: bool = True) -> PdfRead:
    """Every page of a PDF; a file PDFium cannot open is read from qpdf's repair of it, and
    refused in one line only when qpdf cannot open it either (or it needs a password).
    ``use_ocr`` (the settings' ``runtime.ocr``) False: a page that is only an image is flagged,
    not read by OCR."""
    parse = parser or partial(_load_range, use_ocr=use_ocr)
    try:
        n_pages = _page_count(path)
    except DocumentError as err:
        if not isinstance(err.__cause__, pdfium.PdfiumError) or "password" in err.cause:
            raise
        refused = str(err.__cause__).strip().rstrip(".")  # "Failed to load ... (PDFium: ...)"
        with repaired_file(path, refused) as (fixed, cause):
            try:
                n_pages = _page_count(fixed)
            except DocumentError as again:
                raise DocumentError(
                    path, f"corrupt or not a PDF ({refused}; and its repair by qpdf: "
                    f"{again.cause})") from again
            read = _read_pages(path, fixed, n_pages, workers, parse)
        read.repair_cause = cause
        read.warnings.insert(0, f"repaired {path.name}: {cause}")
        return read
    return _read_pages(path, path, n_pages, workers, parse)


def _page_count(path: Path) -> int:
    pdf = open_pdf(path)
    n_pages = len(pdf)
    pdf.close()
    if n_pages == 0:
        raise DocumentError(path, "PDF has no pages")
    return n_pages


def _read_pages(
    path: Path, source: Path, n_pages: int, workers: int, parse: PageParser
) -> PdfRead:
    """The pages of ``source`` (``path`` itself, or its repaired copy), every note and error
    naming ``path``."""
    warnings: list[str] = []
    parts = _parsed(path, source, n_pages, workers, parse)
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
    for page in pages:  # the letters of ligatures the font lost, now the page is read
        page.text = restore_ligatures(page.text)
        for table in page.tables:
            table.rows = [[restore_ligatures(cell) for cell in row] for row in table.rows]
            table.title = table.title and restore_ligatures(table.title)
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
    warnings.extend(f"{path.name}: {fault.line()}" for page in pages for fault in page.faults)
    return PdfRead(pages, warnings)


def _parsed(
    path: Path, source: Path, n_pages: int, workers: int, parse: PageParser
) -> list[list[ParsedPage]]:
    """Every run of pages parsed, by 2 spawned workers for a long document. A parser's error
    that escapes is one line naming the file, the page and the cause (``PageReadError``, see
    ``_parse_isolated``), never the pool's remote traceback."""
    ranges = [range(s, min(s + PAGES_PER_TASK, n_pages)) for s in range(0, n_pages, PAGES_PER_TASK)]
    # a daemonic process (a Celery worker's pool process, which executes a step of the scale
    # profile) may not start processes of its own: it parses the pages itself
    if not (workers > 1 and n_pages >= MIN_PAGES_FOR_WORKERS and not current_process().daemon):
        try:
            return [_parse_one_run(path, parse, str(source), r) for r in ranges]
        finally:
            _cached_pdf.cache_clear()
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(_parse_isolated, parse, str(source), r) for r in ranges]
        parts = []
        for future, run in zip(futures, ranges, strict=True):
            try:
                parts.append(future.result())
            except Exception as exc:
                pool.shutdown(wait=True, cancel_futures=True)
                raise _page_error(path, run, exc) from exc
        return parts


def _parse_one_run(path: Path, parse: PageParser, source: str, run: range) -> list[ParsedPage]:
    try:
        return _parse_isolated(parse, source, run)
    except Exception as exc:
        raise _page_error(path, run, exc) from exc


def _parse_isolated(parse: PageParser, source: str, run: range) -> list[ParsedPage]:
    """``parse(source, run)``; when it raises, the run again page by page, so that the error
    names the page it came from (``PageReadError``). Module-level: workers run it."""
    try:
        return parse(source, run)
    except DocumentError:
        raise
    except Exception as exc:
        if len(run) == 1:
            raise PageReadError(run[0], one_line_cause(exc)) from exc
        return [page for i in run for page in _parse_isolated(parse, source, range(i, i + 1))]


def _page_error(path: Path, run: range, exc: Exception) -> DocumentError:
    """One line for a parse that failed: the page and the cause (``DocumentError`` as is)."""
    if isinstance(exc, DocumentError):
        return DocumentError(path, exc.cause)
    if isinstance(exc, PageReadError):
        return DocumentError(path, f"page {exc.page_index + 1} could not be read ({exc.cause})")
    where = f"page(s) {page_ranges(run)}"
    if isinstance(exc, BrokenProcessPool):
        return DocumentError(path, f"{where}: a reader process died ({one_line_cause(exc)})")
    return DocumentError(path, f"{where} could not be read ({one_line_cause(exc)})")


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


def _load_range(path: str, indices: range, use_ocr: bool = True) -> list[ParsedPage]:
    """The default page parser (see ``parser.PageParser``), run in the workers."""
    pdf = _cached_pdf(path)
    return [_load_page(pdf, i, use_ocr) for i in indices]


def _load_page(pdf: pdfium.PdfDocument, index: int, use_ocr: bool = True) -> ParsedPage:
    """The page fully read; where a step after its text fails beyond the steps guarded one by
    one (``_read_page``), the page as its plain text, flagged (``Page.faults``): one page's
    layout never fails a document."""
    try:
        return _read_page(pdf, index, use_ocr)
    except Exception as exc:
        return _plain_page(pdf, index, PageFault.of(index, "layout", exc)), Counter(), False


def _plain_page(pdf: pdfium.PdfDocument, index: int, fault: PageFault) -> Page:
    """The page's text as PDFium lists it, no sizes, no tables, carrying ``fault``; an empty
    page (``text_source="none"``) when not even that can be read."""
    try:
        page = pdf[index]
        text = clean_pdf_text(page.get_textpage().get_text_range())
        label = pdf.get_page_label(index)
        page.close()
    except Exception as exc:
        failed = PageFault.of(index, "text", exc)
        return Page(page_index=index, text="", text_source="none",
                    text_note=f"the page could not be read ({failed.cause})",
                    faults=[fault, failed])
    lines = [ln.replace("\n", " ").replace("\r", " ").rstrip() for ln in text.split("\r\n")]
    return Page(page_index=index, page_label=label or label_from_lines(lines),
                text="\n".join(lines), faults=[fault])


T = TypeVar("T")


def _guarded(faults: list[PageFault], index: int, reader: PageReader, fallback: T,
             step: Callable[..., T], *args: object) -> T:
    """``step(*args)``, or ``fallback`` with the failure recorded in ``faults`` (once per
    reader and page): a step after the text that fails costs the page that step only."""
    try:
        return step(*args)
    except Exception as exc:
        if not any(f.reader == reader for f in faults):
            faults.append(PageFault.of(index, reader, exc))
        return fallback


def _read_page(pdf: pdfium.PdfDocument, index: int, use_ocr: bool = True) -> ParsedPage:
    """The page read (:func:`_read_opened_page`) and closed whatever happens: a run
    interrupted mid-page (Ctrl-C, a terminated step) leaves no page or text page for
    PDFium's finalizers to close at interpreter exit, where they print a traceback."""
    page = pdf[index]
    try:
        return _read_opened_page(pdf, page, index, use_ocr)
    finally:
        page.close()


def _read_opened_page(pdf: pdfium.PdfDocument, page: pdfium.PdfPage, index: int,
                      use_ocr: bool = True) -> ParsedPage:
    """A page, the characters per type size in its upper 60% (for the body size), and whether
    it carries ``/Rotate`` (for the warning).

    A page whose text layer holds next to nothing (``ocr.has_text``) while an image is drawn on
    it is rendered and read by OCR, as it is displayed (``/Rotate`` applied); where OCR cannot
    run or reads nothing, the page is read as any other and marked ``text_source="none"`` with
    the reason. A page with text never gets here: its cost is one character count.

    OCR, ruled tables, superscripts, joined rows and aligned tables are each guarded
    (``_guarded``): one that fails leaves the page without what it adds, and says so.
    """
    faults: list[PageFault] = []
    rotation = page.get_rotation()
    rotated = rotation != 0
    if rotated:
        page.set_rotation(0)  # in this process's copy only: text in the order it was written
    width, height = page.get_size()
    textpage = page.get_textpage()
    text = clean_pdf_text(textpage.get_text_range())
    missing: str | None = None  # why a page with an image and no text layer was not read
    if not ocr.has_text(text) and _has_image(page):
        not_read: _OcrRead = (None, None)
        read, missing = _guarded(faults, index, "ocr", not_read,
                                 _read_by_ocr, pdf, page, index, rotation, use_ocr)
        if faults:
            missing = f"{ocr.IMAGE_NOTE}, OCR failed: {faults[-1].cause}"
        if read is not None:
            page.close()
            return read[0], read[1], False
    no_grids: tuple[list[Grid], list[Rule]] = ([], [])
    grids, rules = _guarded(faults, index, "ruled_tables", no_grids,
                            find_grids, page, width, height)
    raw: list[tuple[int, str, list[CharSample]]] = []
    offset = 0
    for raw_line in text.split("\r\n"):
        start, offset = offset, offset + len(raw_line) + 2
        line = raw_line.replace("\n", " ").replace("\r", " ").rstrip()  # same offsets
        for at, row in printed_rows(textpage, start, line):
            raw.append((at, row, sample_chars(textpage, at, row) if row.strip() else []))
    prose: tuple[list[Piece], dict[int, list[list[str]]]] = (
        [(start, line, samples, None) for start, line, samples in raw], {})
    pieces, found = _guarded(faults, index, "ruled_tables", prose,
                             cut_tables, textpage, grids, raw, height)
    boxes = [(n, grids[n].box) for n in found]
    rules = [r for r in rules if table_of((r[0] + r[1]) / 2, r[2], boxes) is None]

    lines: list[Line] = []
    seen_tables: set[int] = set()
    for start, line, samples, in_table in pieces:
        if in_table is not None:
            if in_table not in seen_tables:
                seen_tables.add(in_table)
                lines.append(Line(TABLE_PLACEHOLDER.format(index=in_table)))
            continue
        if not samples:
            lines.append(Line(""))
            continue
        first = samples[0]
        size = statistics.median(c.height for c in samples)
        text_line = _guarded(faults, index, "superscripts", line,
                             _mark_superscripts, textpage, start, line, size)
        lines.append(Line(
            text_line, start, size, first.left, first.bottom, first.top, samples[-1].right, line,
            bold=all(c.bold for c in samples),
        ))
    _guarded(faults, index, "superscripts", None, _reattach_displaced_markers, lines, textpage)
    lines = _guarded(faults, index, "lines", lines, _join_split_rows, lines)
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
    lines = _guarded(faults, index, "ruled_tables", lines, continue_ruled_tables, lines, blocks)
    lines = _guarded(faults, index, "aligned_tables", lines,
                     align_tables, lines, textpage, blocks, ALIGNED_KEY)
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
        bold_lines=[n for n, ln in enumerate(lines) if ln.bold and ln.text.strip()],
        tables=tables,
        faults=faults,
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
        for left, bottom, right, top in path_bounds(page, kind=pdfium_raw.FPDF_PAGEOBJ_IMAGE)
    )


# a page read by OCR with its characters per type size, or None and why not
_OcrRead = tuple[tuple[Page, Counter[float]] | None, str | None]


def _read_by_ocr(
    pdf: pdfium.PdfDocument, page: pdfium.PdfPage, index: int, rotation: int, use_ocr: bool
) -> _OcrRead:
    """The page read by OCR with its characters per type size in its upper 60% (OCR's scale),
    or None and why not (OCR turned off or unavailable, failed, or found no word)."""
    reason = ocr.unavailable(use_ocr)
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
    lines = [Line(ln.text, -1, ln.size, ln.left, ln.bottom, ln.top, ln.right, ln.text)
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
    lines: list[Line], rules: list[tuple[float, float, float]], margin: float, width: float,
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


def clean_pdf_text(text: str) -> str:
    """PDFium marks hyphenation with U+0002 / U+FFFE, each a printed hyphen; a U+FFFE that
    stands for a ligature the font lost is kept, one character for one, until the page is read
    (``ligatures.py``)."""
    return mark_hyphens(text.replace("\x02", "-")).replace("\x00", "")


def _indented(line: Line, margin: float, body: float) -> str:
    """Keep indentation as leading spaces: continuation lines of a note are indented."""
    if not line.size or not body:
        return line.text
    spaces = min(12, max(0, round((line.left - margin) / (body * 0.5))))
    return " " * spaces + line.text


def _foot_notes_last(lines: list[Line], body: float) -> list[Line]:
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


def _join_split_rows(lines: list[Line]) -> list[Line]:
    """One printed line that PDFium split where the baseline moved (a superscript marker, a
    raised note number) is joined again: a piece that starts just right of the previous piece,
    on the same row. A lone smaller number at either end of the join is a superscript marker."""
    out: list[Line] = []
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
        out[-1] = Line(
            left + ("" if glued else " ") + right, prev.start, main.size, prev.left,
            main.bottom, main.top, line.right, bold=prev.bold and line.bold,
        )
    return out


def _continues_row(prev: Line, line: Line) -> bool:
    overlap = min(prev.top, line.top) - max(prev.bottom, line.bottom)
    shorter = min(prev.top - prev.bottom, line.top - line.bottom)
    gap = line.left - prev.right
    return shorter > 0 and overlap >= 0.5 * shorter and -1.0 <= gap <= 1.5 * max(
        prev.size, line.size
    )


def _reattach_displaced_markers(lines: list[Line], textpage: pdfium.PdfTextPage) -> None:
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


def _insert_at_x(host: Line, textpage: pdfium.PdfTextPage, token: str, x: float) -> str:
    text = host.text
    for pos in range(len(text)):
        left, _, right, _ = textpage.get_charbox(host.start + pos, loose=True)
        if (left + right) / 2 > x:
            return text[:pos].rstrip() + " " + token + " " + text[pos:].lstrip()
    return text + " " + token


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
    bottom: float  # pypdfium2 has no type hints: a char box is (left, bottom, right, top)
    top: float
    _, bottom, _, top = textpage.get_charbox(index, loose=True)
    prev: tuple[float, float, float, float] = textpage.get_charbox(index - 1, loose=True)
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


def _number_tables(
    lines: list[Line], found: dict[int, TableBlock]
) -> tuple[list[Line], list[TableBlock]]:
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
