"""A PDF page drawn as a PNG by PDFium, to show a citation where it is printed.

Drawn at ``VIEW_SCALE`` (90 dpi): a 10-K page is about 765 x 990 pixels, enough to read its
figures beside the answer and small enough (roughly 100-200 KB) to embed each cited page in one
self-contained HTML file as a data URI.
"""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium

VIEW_SCALE = 1.25  # PDF points to pixels: 72 dpi x 1.25 = 90 dpi


def page_png(path: Path, page: int, scale: float = VIEW_SCALE) -> bytes:
    """Page ``page`` (zero-based) of the PDF at ``path`` as PNG bytes."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        image = pdf[page].render(scale=scale).to_pil()
    finally:
        pdf.close()
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
