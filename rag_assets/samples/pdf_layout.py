"""Shared fpdf2 page layout for the generated PDF reports (earnings release, annual reports).

The PDF parser of the pipeline relies on this layout, so it lives in one place:

* running header at the top of every page, 8 pt, identical on every page;
* footer ``Page N/M`` centered at the bottom of every page, 8 pt;
* body text 10 pt Helvetica, left aligned (no justification, so word spacing stays plain);
* tables ruled on every cell (pdfplumber's ``lines`` strategy finds them), a bold 10 pt title
  line just above, first row is the header row; optional 7.5 pt notes directly under the table;
* page footnotes at the bottom of the page above the footer, 7.5 pt, after a 60 mm rule, one
  definition per paragraph, each starting with its marker.

Pages are composed explicitly (no automatic page break): a page whose content does not fit
raises :class:`LayoutError` instead of silently moving footnotes to another page, because the
golden questions pin page numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from rag_assets.core.footnotes.groundtruth import FootnoteTruth, TruthFootnote

FONT = "helvetica"
HEADER_PT = 8.0
BODY_PT = 10.0
NOTE_PT = 7.5
TITLE_PT = 15.0
HEADING_PT = 12.0

LEFT_MM = 20.0
RIGHT_MM = 20.0
HEADER_Y_MM = 10.0
BODY_TOP_MM = 20.0
FOOTER_FROM_BOTTOM_MM = 12.0
NOTES_BOTTOM_GAP_MM = 16.0  # page footnotes end this far above the page bottom
RULE_MM = 60.0
BODY_LH_MM = 5.0
NOTE_LH_MM = 3.4
NOTE_GAP_MM = 0.8
ROW_H_MM = 6.5
PARA_GAP_MM = 2.0

# A footnote marker as a whitespace-separated token, possibly followed by punctuation.
MARKER_TOKEN = re.compile(r"(?:\[\d{1,3}\]|\(\d{1,2}\)|\([a-z]\)|\*)[.,;:)]*")

# A definition as written: its marker, then a space, then its text.
DEFINITION = re.compile(r"^(\[\d{1,4}\]|\(\d{1,2}\)|\([a-z]\)|\*) ")
# A citation anywhere in body text, glued or not ("4%(d)", "EBITDA*", "Revenue [15]").
CITATION = re.compile(r"\[\d{1,4}\]|\(\d{1,2}\)|\([a-z]\)|\*")

# A fixed creation date keeps the files byte-identical between runs.
CREATION_DATE = datetime(2024, 1, 1, tzinfo=UTC)


class LayoutError(ValueError):
    """Raised when a composed page does not fit, or text is not latin-1."""


@dataclass(frozen=True)
class Title:
    """Document title (bold, larger); only used at the top of a first page."""

    text: str


@dataclass(frozen=True)
class Heading:
    """Section heading, bold 12 pt."""

    text: str


@dataclass(frozen=True)
class Paragraph:
    """Body paragraph, 10 pt; footnote markers are written inline in ``text``."""

    text: str


@dataclass(frozen=True)
class Table:
    """A fully ruled table; ``rows[0]`` is the header row.

    ``notes`` are printed directly under the table in 7.5 pt (10-K style); leave it empty when
    the markers in the cells are defined in the page footnotes instead.
    """

    title: str
    rows: Sequence[Sequence[str]]
    widths: Sequence[float]
    notes: Sequence[str] = ()


Block = Title | Heading | Paragraph | Table


@dataclass(frozen=True)
class Page:
    """One physical page: body blocks top-down, then footnote definitions at the bottom."""

    blocks: Sequence[Block]
    footnotes: Sequence[str] = field(default_factory=tuple)


class _ReportPDF(FPDF):
    """FPDF with the running header and the ``Page N/M`` footer."""

    def __init__(self, header_text: str, total_pages: int) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self._header_text = header_text
        self._total_pages = total_pages
        self.set_auto_page_break(auto=False)
        self.set_margins(LEFT_MM, BODY_TOP_MM, RIGHT_MM)
        self.set_creation_date(CREATION_DATE)
        self.set_title(header_text)
        self.set_author("rag-assets sample generator (fictitious content)")

    def header(self) -> None:
        self.set_font(FONT, "", HEADER_PT)
        self.set_xy(LEFT_MM, HEADER_Y_MM)
        self.cell(0, 4, self._header_text, align="L")

    def footer(self) -> None:
        self.set_font(FONT, "", HEADER_PT)
        self.set_xy(LEFT_MM, self.h - FOOTER_FROM_BOTTOM_MM)
        self.cell(0, 4, f"Page {self.page_no()}/{self._total_pages}", align="C")


def check_latin1(text: str) -> str:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError as exc:
        raise LayoutError(f"not latin-1 (core fonts only): {text!r}") from exc
    return text


def _wrap(pdf: FPDF, text: str) -> list[str]:
    """Greedy word wrap in the current font that never starts a line with a marker.

    A marker token (``[3]``, ``(1)``, ``(a)``, ``*``, with trailing punctuation) is glued to the
    word before it, so a wrapped line can only start with a marker when it is a footnote
    definition: the parser's "line starts with a marker" rule stays unambiguous.
    """
    units: list[str] = []
    for token in check_latin1(text).split(" "):
        if units and MARKER_TOKEN.fullmatch(token):
            units[-1] = f"{units[-1]} {token}"
        else:
            units.append(token)
    width = pdf.w - LEFT_MM - RIGHT_MM - 2 * pdf.c_margin
    lines: list[str] = []
    current = ""
    for unit in units:
        candidate = f"{current} {unit}" if current else unit
        if current and pdf.get_string_width(candidate) > width:
            lines.append(current)
            current = unit
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def _write_lines(pdf: FPDF, text: str, line_height: float) -> None:
    for line in _wrap(pdf, text):
        pdf.set_x(LEFT_MM)
        pdf.cell(0, line_height, line, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _notes_height(pdf: FPDF, notes: Sequence[str]) -> float:
    pdf.set_font(FONT, "", NOTE_PT)
    return sum(len(_wrap(pdf, note)) * NOTE_LH_MM + NOTE_GAP_MM for note in notes)


def _write_notes(pdf: FPDF, notes: Sequence[str]) -> None:
    """Small-font definitions, one paragraph each, starting with the marker."""
    pdf.set_font(FONT, "", NOTE_PT)
    for note in notes:
        _write_lines(pdf, note, NOTE_LH_MM)
        pdf.set_y(pdf.get_y() + NOTE_GAP_MM)


def _write_table(pdf: FPDF, table: Table) -> None:
    if any(len(row) != len(table.widths) for row in table.rows):
        raise LayoutError(f"row width mismatch in {table.title!r}")
    pdf.set_font(FONT, "B", BODY_PT)
    _write_lines(pdf, table.title, BODY_LH_MM + 1)
    for i, row in enumerate(table.rows):
        pdf.set_font(FONT, "B" if i == 0 else "", BODY_PT)
        pdf.set_x(LEFT_MM)
        for j, (text, width) in enumerate(zip(row, table.widths, strict=True)):
            if pdf.get_string_width(check_latin1(text)) > width - 2 * pdf.c_margin:
                raise LayoutError(f"cell text too wide for {width} mm: {text!r}")
            align = "L" if j == 0 else ("C" if i == 0 else "R")
            pdf.cell(width, ROW_H_MM, text, border=1, align=align)
        pdf.ln(ROW_H_MM)
    if table.notes:
        pdf.set_y(pdf.get_y() + 1.5)
        _write_notes(pdf, table.notes)


def _write_block(pdf: FPDF, block: Block) -> None:
    pdf.set_x(LEFT_MM)
    if isinstance(block, Title):
        pdf.set_font(FONT, "B", TITLE_PT)
        _write_lines(pdf, block.text, 7)
        pdf.set_y(pdf.get_y() + 3)
    elif isinstance(block, Heading):
        pdf.set_y(pdf.get_y() + 1)
        pdf.set_font(FONT, "B", HEADING_PT)
        _write_lines(pdf, block.text, 6)
        pdf.set_y(pdf.get_y() + 1)
    elif isinstance(block, Paragraph):
        pdf.set_font(FONT, "", BODY_PT)
        _write_lines(pdf, block.text, BODY_LH_MM)
    else:
        _write_table(pdf, block)
    pdf.set_y(pdf.get_y() + PARA_GAP_MM)


def render_pdf(path: Path, header_text: str, pages: Sequence[Page]) -> Path:
    """Write ``pages`` to ``path`` with the shared header/footer/footnote layout.

    Raises :class:`LayoutError` if a page's body would run into its footnote block, so a text
    edit can never silently shift content (and golden-question pages) to another page.
    """
    pdf = _ReportPDF(check_latin1(header_text), total_pages=len(pages))
    for number, page in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_xy(LEFT_MM, BODY_TOP_MM)
        for block in page.blocks:
            _write_block(pdf, block)
        notes_top = pdf.h - NOTES_BOTTOM_GAP_MM - _notes_height(pdf, page.footnotes) - 2.5
        if pdf.get_y() > notes_top - 2:
            raise LayoutError(f"page {number} of {path.name} overflows into its footnotes")
        if page.footnotes:
            pdf.set_line_width(0.2)
            pdf.line(LEFT_MM, notes_top, LEFT_MM + RULE_MM, notes_top)
            pdf.set_xy(LEFT_MM, notes_top + 2.5)
            _write_notes(pdf, page.footnotes)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


def _body_texts(page: Page) -> list[str]:
    out: list[str] = []
    for block in page.blocks:
        if isinstance(block, Table):
            out += [block.title] + [cell for row in block.rows for cell in row]
        else:
            out.append(block.text)
    return out


def pages_truth(document: str, year: int, pages: Sequence[Page]) -> FootnoteTruth:
    """The ground truth of composed pages: every footnote and table note as written.

    ``[N]`` is document-wide. ``(1)``, ``(a)`` and ``*`` are scoped: a citation on page p
    credits the definition with that marker on p, else on p+1, else on p-1. Raises
    ``ValueError`` for a definition without a marker, a citation that resolves to nothing, or
    a definition nobody cites (a generator mistake, not a layout case).
    """
    footnotes: list[TruthFootnote] = []
    for index, page in enumerate(pages):
        notes = [n for b in page.blocks if isinstance(b, Table) for n in b.notes]
        for note in [*notes, *page.footnotes]:
            match = DEFINITION.match(note)
            if match is None:
                raise ValueError(f"{document} page {index}: definition without marker: {note!r}")
            text = note[match.end():]
            footnotes.append(TruthFootnote(
                marker=match.group(1), page=index, text=" ".join(text.split()),
                cites=CITATION.findall(text)))
    for index, page in enumerate(pages):
        for marker in (m for text in _body_texts(page) for m in CITATION.findall(text)):
            candidates = [fn for fn in footnotes if fn.marker == marker]
            if not marker.startswith("["):
                for near in (index, index + 1, index - 1):
                    on_page = [fn for fn in candidates if fn.page == near]
                    if len(on_page) > 1:
                        raise ValueError(f"{document} page {near}: {marker} defined twice")
                    if on_page:
                        candidates = on_page
                        break
                else:
                    candidates = []
            if not candidates:
                raise ValueError(f"{document} page {index}: {marker} resolves to nothing")
            for fn in candidates:
                if index not in fn.cited_pages:
                    fn.cited_pages.append(index)
    uncited = [f"{fn.marker} (page {fn.page})" for fn in footnotes if not fn.cited_pages]
    if uncited:
        raise ValueError(f"{document}: never cited: {', '.join(uncited)}")
    for fn in footnotes:
        fn.cited_pages.sort()
    return FootnoteTruth(document=document, year=year, footnotes=footnotes)
