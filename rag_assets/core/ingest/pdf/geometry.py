"""What PDFium says about where things are on a page, read by the page reader and by both table
finders: a printed line with the box of its first character, characters sampled along a line
(their type size), and the bounds of drawn objects (rules, images).

Kept apart so that the table modules need nothing from the reader: imports run reader → tables
→ geometry.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw

SUPERSCRIPT_RATIO = 0.85  # a character under 85% of its line's size is set small (a superscript)


@dataclass
class Line:
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
    bold: bool = False  # every sampled character set in a bold face (a heading's weight)


@dataclass
class CharSample:
    """A character's loose box (PDF points): three per line give its type size and extent."""

    height: float
    left: float
    bottom: float
    top: float
    right: float
    bold: bool = False

    @property
    def x_center(self) -> float:
        return self.left + 1.0

    @property
    def y_center(self) -> float:
        return (self.bottom + self.top) / 2


def sample_chars(textpage: pdfium.PdfTextPage, start: int, line: str) -> list[CharSample]:
    """Loose boxes of up to three characters spread over a line (first one first), each with
    whether it is set bold."""
    positions = [i for i, ch in enumerate(line) if not ch.isspace()]
    picks = {positions[0], positions[len(positions) // 2], positions[-1]} if positions else set()
    out = []
    for pos in sorted(picks):
        left, bottom, right, top = textpage.get_charbox(start + pos, loose=True)
        out.append(CharSample(round(top - bottom, 1), left, bottom, top, right,
                              is_bold(textpage, start + pos)))
    return out


# a bold face by its name, as PDF fonts are named ("TimesNewRomanPS-BoldMT", "ABCDEF+Times New
# Roman,BoldItalic", "Arial-BoldMT", "Helvetica-Black"): most filings' fonts declare no weight
BOLD_FONT_RE = re.compile(rb"bold|black|heavy|demi|semibd", re.IGNORECASE)
BOLD_WEIGHT = 600  # the weight a font declares, when it does: 700 is bold (ISO 32000, FontWeight)
FONT_NAME_BYTES = 128


def is_bold(textpage: pdfium.PdfTextPage, index: int) -> bool:
    """Whether the character at ``index`` is set in a bold face: by the weight its font
    declares, else by the font's name (PDFium's ``FPDFText_GetFontWeight`` and
    ``FPDFText_GetFontInfo``; pypdfium2 wraps neither)."""
    if pdfium_raw.FPDFText_GetFontWeight(textpage.raw, index) >= BOLD_WEIGHT:
        return True
    name = ctypes.create_string_buffer(FONT_NAME_BYTES)
    flags = ctypes.c_int()
    pdfium_raw.FPDFText_GetFontInfo(textpage.raw, index, name, FONT_NAME_BYTES,
                                    ctypes.byref(flags))
    return BOLD_FONT_RE.search(name.value) is not None


# how a table's printed row ends: a figure ("4,023.8", "(52)", "24%", "2022"), a dash for
# nothing, or a caption's colon ("Net sales:"); a hyphen is a word broken at the row's end
ROW_END_RE = re.compile(r"(?:\d%?\)?|[—–:])$")
WORD_RE = re.compile(r"[^\W\d_]{2,}")  # a word of two letters or more, no note marker
HEADING_WORDS = 4  # a row of at most this many words over a blank line is a heading
ROW_STEP = 0.5  # points a character's top lies below the last one's bottom: a new printed row


def printed_rows(textpage: pdfium.PdfTextPage, start: int, line: str) -> list[tuple[int, str]]:
    """A line of PDFium's text cut where it runs over printed rows of a table, each piece with
    its offset in the page's text: PDFium joins rows set close together into one line (General
    Mills prints "In Millions 2022 2021 2020 U.S. Meals & Baking Solutions $ 4,023.8 ... U.S.
    Snacks 3,191.4 ..." as one), and a table whose rows run on is read as prose. A row ends
    where the next character sits wholly below the last one, left of its right edge, after a
    figure or a caption's colon (``ROW_END_RE``), or right of the last when it lies under a
    lead-in's colon or a short heading by more than twice the row's tallest character, a
    blank line between (American Water's segment note centres its caption "2021" under "...
    for the years ended December 31:", and PDFium runs the two into one line; a wrapped
    label's rows are closer; a paragraph's last line keeps its folio); a label
    or a sentence wrapped over rows stays joined, as PDFium joined it (Corning 2015 sets "Net
    cash provided / by operating / activities 2,809" over three rows). A piece of one character
    is text set vertically: the line is kept whole. Characters are boxed only where the first
    and the last sit on different rows: most lines cost two boxes."""
    marks = [i for i, ch in enumerate(line) if not ch.isspace()]
    if len(marks) < 2 or not _below(textpage.get_charbox(start + marks[-1], loose=True),
                                    textpage.get_charbox(start + marks[0], loose=True)):
        return [(start, line)]
    cuts, prev, in_row, tallest = [0], None, 0, 0.0
    for i in marks:
        box = textpage.get_charbox(start + i)
        # right of the last, a blank line below a lead-in's colon or a short heading: a
        # centred caption of its own ("December 31:" over "2021"; "Table of Contents" over
        # "2020"); a paragraph's last line keeps its folio, note markers their footer
        apart = (prev is not None and box[0] >= prev[2] and box[3] < prev[1] - 2 * tallest
                 and _heads(line[cuts[-1]:i]))
        if prev is not None and _below(box, prev) and (box[0] < prev[2] or apart):
            if in_row < 2:
                return [(start, line)]  # set vertically: one character a row
            if apart or ROW_END_RE.search(line[cuts[-1]:i].rstrip()):
                cuts.append(i)
            in_row, tallest = 0, 0.0
        prev, in_row, tallest = box, in_row + 1, max(tallest, box[3] - box[1])
    bounds = [*cuts, len(line)]
    return [(start + a, line[a:b].rstrip()) for a, b in zip(bounds, bounds[1:], strict=False)]


def _heads(row: str) -> bool:
    """A row that a caption set a blank line under it stands apart from: a lead-in ending in
    a colon, or a heading of two to four words ("Table of Contents")."""
    words = len(WORD_RE.findall(row))
    return row.rstrip().endswith(":") or (1 < words <= HEADING_WORDS
                                           and words == len(row.split()))


def _below(box: tuple[float, ...], above: tuple[float, ...]) -> bool:
    """``box`` (left, bottom, right, top) lies wholly under ``above``."""
    return box[3] < above[1] - ROW_STEP


def path_bounds(
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
