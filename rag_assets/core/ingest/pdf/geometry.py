"""What PDFium says about where things are on a page, read by the page reader and by both table
finders: a printed line with the box of its first character, characters sampled along a line
(their type size), and the bounds of drawn objects (rules, images).

Kept apart so that the table modules need nothing from the reader: imports run reader → tables
→ geometry.
"""

from __future__ import annotations

import ctypes
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


@dataclass
class CharSample:
    """A character's loose box (PDF points): three per line give its type size and extent."""

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


def sample_chars(textpage: pdfium.PdfTextPage, start: int, line: str) -> list[CharSample]:
    """Loose boxes of up to three characters spread over a line (first one first)."""
    positions = [i for i, ch in enumerate(line) if not ch.isspace()]
    picks = {positions[0], positions[len(positions) // 2], positions[-1]} if positions else set()
    out = []
    for pos in sorted(picks):
        left, bottom, right, top = textpage.get_charbox(start + pos, loose=True)
        out.append(CharSample(round(top - bottom, 1), left, bottom, top, right))
    return out


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
