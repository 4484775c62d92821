"""Writer-independent page specs of the layout matrix and their two renderers (fpdf2, reportlab).

A spec says what a page holds (paragraphs with inline citations, tables, two-column blocks,
notes under a rule at the foot) and its type sizes; each renderer lays it out its own way:

* **fpdf2**: explicit placement. Lines are broken here (greedy, no hyphenation) in Helvetica and
  drawn with ``FPDF.text`` at computed baselines; a superscript is a smaller font on a raised
  baseline; tables are drawn cell by cell.
* **reportlab**: platypus flowables in Times-Roman. ``Paragraph`` breaks the lines (``<super>``
  for superscripts, ``bulletText`` for hanging labels, ``<br/>`` for forced breaks), ``Frame``s
  place the body, the columns and the foot notes, ``Table`` draws the tables.

Inline markup in paragraph, cell and note text (the only way a citation is written, so the
ground truth is read from the spec and not guessed from the prose):

* ``{[12]}``, ``{(1)}``, ``{(a)}``: a citation printed as it reads (``[12]``, ``(1)``, ``(a)``);
* ``{^12}``: a citation drawn as a raised, smaller ``12`` glued to the text before it; its
  canonical marker is the Unicode superscript ``¹²``;
* ``\\n``: a forced line break.

A page whose body would run into its notes raises :class:`SpecLayoutError` (pages are composed
explicitly, so the ground truth's page numbers cannot drift).
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal
from xml.sax.saxutils import escape

import fpdf
import pypdfium2 as pdfium
from fpdf import FPDF

from rag_assets.core.text.markers import FROM_SUPERSCRIPT, TO_SUPERSCRIPT
from rag_assets.samples.pdf_layout import LayoutError, check_latin1

PageSize = Literal["A4", "Letter"]
PAGE_SIZES: dict[str, tuple[float, float]] = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}
CREATION_DATE = datetime(2024, 1, 1, tzinfo=UTC)

MARGIN_X = 60.0
HEADER_BASELINE = 36.0  # from the top
BODY_TOP = 64.0  # top of the first body line, from the top
FOOTER_BASELINE = 34.0  # from the bottom
NOTES_BOTTOM = 54.0  # the last note line ends this far above the bottom
RULE_GAP = 6.0  # between the rule and the first note line
BODY_GAP = 10.0  # minimum space between the body and the rule
SUP_SCALE = 0.62
SUP_RISE = 0.38

CITE = re.compile(r"\{(\[\d+\]|\(\d+\)|\([a-z]\)|\^\d+)\}")
FILE_ID = re.compile(rb"/ID\s*\[\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>")


class SpecLayoutError(LayoutError):
    """A composed page does not fit, or a cell is too narrow for its text."""


# ------------------------------------------------------------------------------------ specs


@dataclass(frozen=True)
class Para:
    """Body text. ``label`` is a hanging label printed before it (a recital number, not a
    citation); ``size`` defaults to the body size."""

    text: str
    size: float = 10.0
    bold: bool = False
    label: str | None = None
    justify: bool = False
    center: bool = False
    space_after: float = 6.0


@dataclass(frozen=True)
class Note:
    """A definition: canonical ``marker`` (``[3]``, ``(1)``, ``(a)``, ``¹``) and its text;
    ``marker=None`` continues the last note of the previous page."""

    marker: str | None
    text: str


@dataclass(frozen=True)
class Table:
    """``rows[0]`` is the header row; ``widths`` are fractions of the text width.

    ``rules``: ``grid`` rules every cell, ``lines`` draws a rule above and below the header and
    below the last row (10-K style). ``notes`` are printed right under the table."""

    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...]
    rules: Literal["grid", "lines"] = "grid"
    size: float = 9.0
    title: str | None = None
    notes: tuple[Note, ...] = ()
    note_size: float = 8.0
    space_after: float = 8.0


@dataclass(frozen=True)
class Columns:
    """Two text columns side by side, each a list of paragraphs."""

    left: tuple[Para, ...]
    right: tuple[Para, ...]
    gap: float = 20.0


Block = Para | Table | Columns


@dataclass(frozen=True)
class Foot:
    """The page's note zone: a rule ``rule`` x text width long, then the notes."""

    notes: tuple[Note, ...]
    size: float = 7.5
    leading: float | None = None
    hanging: bool = False
    indent: float = 18.0
    rule: float = 1 / 3
    gap: float = 2.0


@dataclass(frozen=True)
class PageSpec:
    blocks: tuple[Block, ...]
    foot: Foot | None = None
    size: PageSize = "A4"
    rotate: int = 0


@dataclass(frozen=True)
class Style:
    """Document-wide type: body size and leading factor, furniture (header/footer) size."""

    body: float = 10.0
    leading: float = 1.25
    furniture: float = 8.0


# ---------------------------------------------------------------------------------- markup


def segments(text: str) -> list[tuple[str, bool]]:
    """``(text, superscript)`` runs of a markup string, citations printed as they read."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for match in CITE.finditer(text):
        if match.start() > pos:
            out.append((text[pos:match.start()], False))
        token = match.group(1)
        out.append((token[1:], True) if token.startswith("^") else (token, False))
        pos = match.end()
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def plain(text: str) -> str:
    """The text as printed (superscript digits as plain digits), whitespace-normalized."""
    return " ".join("".join(part for part, _ in segments(text)).split())


def citations(text: str) -> list[str]:
    """Canonical markers cited by a markup string, in order."""
    out = []
    for token in CITE.findall(text):
        out.append(token[1:].translate(TO_SUPERSCRIPT) if token.startswith("^") else token)
    return out


def marker_markup(marker: str) -> str:
    """How a definition's own marker is printed (a superscript marker is raised)."""
    if marker[0] in "⁰¹²³⁴⁵⁶⁷⁸⁹":
        return "{^" + marker.translate(FROM_SUPERSCRIPT) + "}"
    return marker


def _leading(size: float, style: Style) -> float:
    return round(size * style.leading, 2)


# ------------------------------------------------------------------------------------ fpdf2

Word = list[tuple[str, bool]]
BREAK: Word = []  # sentinel for a forced line break


class _FpdfWriter:
    font = "helvetica"

    def __init__(self, header: str, style: Style, n_pages: int) -> None:
        self.pdf = FPDF(unit="pt", format="A4")
        self.pdf.set_auto_page_break(auto=False)
        self.pdf.set_creation_date(CREATION_DATE)
        self.pdf.set_title(check_latin1(header))
        self.pdf.set_author("rag-assets layout matrix (fictitious content)")
        self.pdf.set_creator("rag-assets layout matrix")
        self.pdf.set_producer(f"py-pdf/fpdf2 {fpdf.FPDF_VERSION}")  # fpdf2 writes none itself
        self.pdf.c_margin = 0
        self.header, self.style, self.n_pages = header, style, n_pages

    # measuring and drawing runs -------------------------------------------------------------
    def _font(self, size: float, bold: bool, sup: bool) -> None:
        self.pdf.set_font(self.font, "B" if bold else "", size * SUP_SCALE if sup else size)

    def _width(self, word: Word, size: float, bold: bool) -> float:
        total = 0.0
        for text, sup in word:
            self._font(size, bold, sup)
            total += self.pdf.get_string_width(text)
        return total

    def _words(self, text: str) -> list[Word]:
        words: list[Word] = []
        current: Word = []
        for part, sup in segments(check_latin1(text)):
            if sup:
                current.append((part, True))
                continue
            for i, chunk in enumerate(re.split(r"(\n| +)", part)):
                if i % 2:  # separator
                    if current:
                        words.append(current)
                        current = []
                    if chunk == "\n":
                        words.append(BREAK)
                elif chunk:
                    current.append((chunk, False))
        if current:
            words.append(current)
        return words

    def _lines(self, words: list[Word], widths: Sequence[float], size: float,
               bold: bool) -> list[tuple[list[Word], bool]]:
        """Greedy lines; ``widths[i]`` is line i's width (the last one repeats). Each line
        comes with whether it ends a paragraph or a forced break (no justification)."""
        self._font(size, bold, False)
        space = self.pdf.get_string_width(" ")
        lines: list[tuple[list[Word], bool]] = []
        line: list[Word] = []
        used = 0.0
        for word in words:
            if word is BREAK:
                lines.append((line, True))
                line, used = [], 0.0
                continue
            width = self._width(word, size, bold)
            limit = widths[min(len(lines), len(widths) - 1)]
            if line and used + space + width > limit:
                lines.append((line, False))
                line, used = [], 0.0
            used = used + space + width if line else width
            line.append(word)
        lines.append((line, True))
        return lines

    def _draw_line(self, x: float, baseline: float, line: list[Word], size: float, bold: bool,
                   extra: float = 0.0) -> None:
        """Runs of one style are drawn in one call, spaces included, so the PDF has real
        space characters; ``extra`` widens every gap (justification)."""
        self._font(size, bold, False)
        space = self.pdf.get_string_width(" ")
        for i, word in enumerate(line):
            for text, sup in word:
                self._font(size, bold, sup)
                rise = size * SUP_RISE if sup else 0.0
                self.pdf.text(x, baseline - rise, text)
                x += self.pdf.get_string_width(text)
            if i < len(line) - 1:
                self._font(size, bold, False)
                self.pdf.text(x, baseline, " ")
                x += space + extra

    def _paragraph(self, x: float, top: float, width: float, text: str, size: float,
                   bold: bool = False, *, label: str | None = None, indent: float = 0.0,
                   justify: bool = False, center: bool = False,
                   leading: float | None = None) -> float:
        """Draw a paragraph with its first line's top at ``top``; returns the bottom."""
        leading = leading or _leading(size, self.style)
        words = self._words(text)
        if label is not None:
            lines = self._lines(words, [width - indent], size, bold)
        else:
            lines = self._lines(words, [width], size, bold)
        y = top
        for n, (line, last) in enumerate(lines):
            baseline = y + size * 0.8
            if n == 0 and label is not None:
                self._draw_line(x, baseline, self._words(label), size, bold)
            lx = x + (indent if label is not None else 0.0)
            avail = width - (indent if label is not None else 0.0)
            used = self._line_width(line, size, bold)
            extra = 0.0
            if justify and not last and len(line) > 1:
                extra = (avail - used) / (len(line) - 1)
            if center:
                lx += (avail - used) / 2
            self._draw_line(lx, baseline, line, size, bold, extra)
            y += leading
        return y

    def _line_width(self, line: list[Word], size: float, bold: bool) -> float:
        self._font(size, bold, False)
        space = self.pdf.get_string_width(" ")
        return sum(self._width(w, size, bold) for w in line) + space * max(len(line) - 1, 0)

    def _note(self, x: float, top: float, width: float, note: Note, size: float,
              hanging: bool, indent: float, leading: float | None = None) -> float:
        if note.marker is None:
            return self._paragraph(x + (indent if hanging else 0), top,
                                   width - (indent if hanging else 0), note.text, size,
                                   leading=leading)
        marker = marker_markup(note.marker)
        if hanging:
            return self._paragraph(x, top, width, note.text, size, label=marker, indent=indent,
                                   leading=leading)
        return self._paragraph(x, top, width, f"{marker} {note.text}", size, leading=leading)

    # blocks -----------------------------------------------------------------------------------
    def _table(self, x: float, top: float, width: float, table: Table) -> float:
        y = top
        if table.title:
            y = self._paragraph(x, y, width, table.title, self.style.body, True) + 2
        row_h = round(table.size * 1.9, 2)
        widths = [f * width for f in table.widths]
        self.pdf.set_line_width(0.5)
        for r, row in enumerate(table.rows):
            if len(row) != len(widths):
                raise SpecLayoutError(f"row width mismatch: {row!r}")
            bold = r == 0
            cx = x
            for c, (cell, cw) in enumerate(zip(row, widths, strict=True)):
                words = self._words(cell)
                used = self._line_width(words, table.size, bold)
                if used > cw - 8:
                    raise SpecLayoutError(f"cell text too wide for {cw:.0f} pt: {cell!r}")
                if table.rules == "grid":
                    self.pdf.rect(cx, y, cw, row_h)
                tx = cx + 4 if c == 0 else cx + cw - 4 - used
                self._draw_line(tx, y + row_h / 2 + table.size * 0.35, words, table.size, bold)
                cx += cw
            if table.rules == "lines" and r in (0, len(table.rows) - 1):
                self.pdf.line(x, y + row_h, x + width, y + row_h)
            if table.rules == "lines" and r == 0:
                self.pdf.line(x, y, x + width, y)
            y += row_h
        if table.notes:
            y += 5
            for note in table.notes:
                y = self._note(x, y, width, note, table.note_size, False, 0) + 1.5
        return y + table.space_after

    def _block(self, x: float, top: float, width: float, block: Block) -> float:
        size = self.style.body
        if isinstance(block, Para):
            bottom = self._paragraph(
                x, top, width, block.text, block.size or size, block.bold, label=block.label,
                indent=28.0 if block.label else 0.0, justify=block.justify, center=block.center)
            return bottom + block.space_after
        if isinstance(block, Table):
            return self._table(x, top, width, block)
        col_w = (width - block.gap) / 2
        left = top
        for para in block.left:
            left = self._block(x, left, col_w, para)
        right = top
        for para in block.right:
            right = self._block(x + col_w + block.gap, right, col_w, para)
        return max(left, right)

    def _foot_height(self, foot: Foot, width: float) -> float:
        leading = foot.leading or _leading(foot.size, self.style)
        total = 0.0
        for note in foot.notes:
            indent = foot.indent if foot.hanging else 0.0
            text = note.text if note.marker is None or foot.hanging else (
                f"{marker_markup(note.marker)} {note.text}")
            lines = self._lines(self._words(text), [width - indent], foot.size, False)
            total += len(lines) * leading + foot.gap
        return total - foot.gap

    def page(self, number: int, spec: PageSpec) -> None:
        w, h = PAGE_SIZES[spec.size]
        self.pdf.add_page(format=(w, h))
        pdf, width = self.pdf, w - 2 * MARGIN_X
        fs = self.style.furniture
        self._font(fs, False, False)
        pdf.text(MARGIN_X, HEADER_BASELINE, check_latin1(self.header))
        footer = f"Page {number}/{self.n_pages}"
        pdf.text((w - pdf.get_string_width(footer)) / 2, h - FOOTER_BASELINE, footer)
        y = BODY_TOP
        for block in spec.blocks:
            y = self._block(MARGIN_X, y, width, block)
        if spec.foot is None:
            if y > h - NOTES_BOTTOM:
                raise SpecLayoutError(f"page {number} overflows")
            return
        foot = spec.foot
        leading = foot.leading or _leading(foot.size, self.style)
        notes_top = h - NOTES_BOTTOM - self._foot_height(foot, width)
        rule_y = notes_top - RULE_GAP
        if y > rule_y - BODY_GAP:
            raise SpecLayoutError(f"page {number} overflows into its notes")
        if foot.rule:
            pdf.set_line_width(0.5)
            pdf.line(MARGIN_X, rule_y, MARGIN_X + foot.rule * width, rule_y)
        y = notes_top
        for note in foot.notes:
            y = self._note(MARGIN_X, y, width, note, foot.size, foot.hanging, foot.indent,
                           leading) + foot.gap


def render_fpdf2(path: Path, header: str, pages: Sequence[PageSpec], style: Style) -> Path:
    writer = _FpdfWriter(header, style, len(pages))
    for number, spec in enumerate(pages, start=1):
        writer.page(number, spec)
    path.parent.mkdir(parents=True, exist_ok=True)
    writer.pdf.output(str(path))
    return path


# -------------------------------------------------------------------------------- reportlab


def _rl_markup(text: str) -> str:
    """Spec markup as reportlab paragraph markup."""
    out = []
    for part, sup in segments(check_latin1(text)):
        if sup:
            out.append(f"<super>{escape(part)}</super>")
        else:
            out.append(escape(part).replace("\n", "<br/>"))
    return "".join(out)


class _ReportlabWriter:
    font, bold_font = "Times-Roman", "Times-Bold"

    def __init__(self, path: Path, header: str, style: Style, n_pages: int) -> None:
        from reportlab.pdfgen.canvas import Canvas

        self.canvas = Canvas(str(path), pagesize=PAGE_SIZES["A4"], invariant=1,
                             pageCompression=1)
        self.canvas.setTitle(header)
        self.canvas.setAuthor("rag-assets layout matrix (fictitious content)")
        self.canvas.setCreator("rag-assets layout matrix")
        self.header, self.style, self.n_pages = check_latin1(header), style, n_pages

    def _pstyle(self, size: float, *, bold: bool = False, leading: float | None = None,
                indent: float = 0.0, justify: bool = False, center: bool = False,
                space_after: float = 0.0):
        from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
        from reportlab.lib.styles import ParagraphStyle

        font = self.bold_font if bold else self.font
        return ParagraphStyle(
            name=f"s{size}{bold}{indent}", fontName=font, fontSize=size,
            leading=leading or _leading(size, self.style), leftIndent=indent,
            bulletIndent=0, bulletFontName=font, bulletFontSize=size, spaceAfter=space_after,
            alignment=TA_JUSTIFY if justify else (TA_CENTER if center else TA_LEFT),
        )

    def _note_flowable(self, note: Note, size: float, leading: float | None, hanging: bool,
                       indent: float):
        from reportlab.platypus import Paragraph

        style = self._pstyle(size, leading=leading, indent=indent if hanging else 0.0)
        if note.marker is None:
            return Paragraph(_rl_markup(note.text), style)
        marker = _rl_markup(marker_markup(note.marker))
        if hanging:
            return Paragraph(_rl_markup(note.text), style, bulletText=marker)
        return Paragraph(f"{marker} {_rl_markup(note.text)}", style)

    def _flowables(self, block: Block, width: float) -> list:
        from reportlab.platypus import Paragraph, Spacer, TableStyle
        from reportlab.platypus import Table as RLTable

        if isinstance(block, Para):
            style = self._pstyle(block.size, bold=block.bold, justify=block.justify,
                                 center=block.center, indent=28.0 if block.label else 0.0)
            bullet = _rl_markup(block.label) if block.label else None
            return [Paragraph(_rl_markup(block.text), style, bulletText=bullet),
                    Spacer(1, block.space_after)]
        if isinstance(block, Table):
            out: list = []
            if block.title:
                out += [Paragraph(_rl_markup(block.title), self._pstyle(self.style.body,
                                                                        bold=True)),
                        Spacer(1, 3)]
            data = [[plain(cell) for cell in row] for row in block.rows]
            commands = [
                ("FONT", (0, 0), (-1, -1), self.font, block.size),
                ("FONT", (0, 0), (-1, 0), self.bold_font, block.size),
                ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
            if block.rules == "grid":
                commands.append(("GRID", (0, 0), (-1, -1), 0.5, "black"))
            else:
                commands += [("LINEABOVE", (0, 0), (-1, 0), 0.5, "black"),
                             ("LINEBELOW", (0, 0), (-1, 0), 0.5, "black"),
                             ("LINEBELOW", (0, -1), (-1, -1), 0.5, "black")]
            table = RLTable(data, colWidths=[f * width for f in block.widths],
                            style=TableStyle(commands), hAlign="LEFT")
            out += [table, Spacer(1, 5)]
            for note in block.notes:
                out += [self._note_flowable(note, block.note_size, None, False, 0),
                        Spacer(1, 1.5)]
            out.append(Spacer(1, block.space_after))
            return out
        raise TypeError(block)

    def _frame(self, x: float, top: float, width: float, bottom: float, flowables: list,
               number: int) -> float:
        from reportlab.platypus import Frame

        frame = Frame(x, bottom, width, top - bottom, leftPadding=0, rightPadding=0,
                      topPadding=0, bottomPadding=0, showBoundary=0)
        frame.addFromList(flowables, self.canvas)
        if flowables:
            raise SpecLayoutError(f"page {number} overflows into its notes")
        return frame._y

    def page(self, number: int, spec: PageSpec) -> None:
        from reportlab.platypus import Frame

        c = self.canvas
        w, h = PAGE_SIZES[spec.size]
        c.setPageSize((w, h))
        width = w - 2 * MARGIN_X
        c.setFont("Helvetica", self.style.furniture)
        c.drawString(MARGIN_X, h - HEADER_BASELINE, self.header)
        c.drawCentredString(w / 2, FOOTER_BASELINE, f"Page {number}/{self.n_pages}")
        floor = NOTES_BOTTOM
        foot_flowables: list = []
        if spec.foot is not None:
            foot = spec.foot
            for note in foot.notes:
                foot_flowables.append(self._note_flowable(note, foot.size, foot.leading,
                                                          foot.hanging, foot.indent))
            heights = [f.wrap(width, h)[1] for f in foot_flowables]
            notes_h = sum(heights) + foot.gap * (len(heights) - 1)
            notes_top = NOTES_BOTTOM + notes_h
            frame = Frame(MARGIN_X, NOTES_BOTTOM - 1, width, notes_h + 2, leftPadding=0,
                          rightPadding=0, topPadding=0, bottomPadding=0)
            from reportlab.platypus import Spacer

            spaced: list = []
            for i, f in enumerate(foot_flowables):
                spaced += [f, Spacer(1, foot.gap)] if i < len(foot_flowables) - 1 else [f]
            frame.addFromList(spaced, c)
            if spaced:
                raise SpecLayoutError(f"page {number}: notes do not fit their zone")
            rule_y = notes_top + RULE_GAP
            if foot.rule:
                c.setLineWidth(0.5)
                c.line(MARGIN_X, rule_y, MARGIN_X + foot.rule * width, rule_y)
            floor = rule_y + BODY_GAP
        y = h - BODY_TOP
        for block in spec.blocks:
            if isinstance(block, Columns):
                col_w = (width - block.gap) / 2
                left = self._frame(MARGIN_X, y, col_w, floor,
                                   [f for p in block.left for f in self._flowables(p, col_w)],
                                   number)
                right = self._frame(MARGIN_X + col_w + block.gap, y, col_w, floor,
                                    [f for p in block.right for f in self._flowables(p, col_w)],
                                    number)
                y = min(left, right)
            else:
                y = self._frame(MARGIN_X, y, width, floor, self._flowables(block, width),
                                number)
        c.showPage()


def render_reportlab(path: Path, header: str, pages: Sequence[PageSpec], style: Style) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = _ReportlabWriter(path, header, style, len(pages))
    for number, spec in enumerate(pages, start=1):
        writer.page(number, spec)
    writer.canvas.save()
    return path


def apply_rotation(path: Path, pages: Sequence[PageSpec]) -> None:
    """Set ``/Rotate`` on the pages whose spec asks for it (the content stays portrait).

    PDFium writes a random second file identifier when it saves; it is replaced by a hash of
    the rest of the file so the fixture stays byte-identical between runs."""
    if not any(spec.rotate for spec in pages):
        return
    doc = pdfium.PdfDocument(path.read_bytes())
    try:
        for index, spec in enumerate(pages):
            if spec.rotate:
                doc[index].set_rotation(spec.rotate)
        buffer = io.BytesIO()
        doc.save(buffer)
    finally:
        doc.close()
    data = buffer.getvalue()
    ids = list(FILE_ID.finditer(data))
    if ids:
        last = ids[-1]
        stable = hashlib.md5(data[:last.start(2)] + data[last.end(2):]).hexdigest().upper()
        data = data[:last.start(2)] + stable.encode() + data[last.end(2):]
    path.write_bytes(data)
