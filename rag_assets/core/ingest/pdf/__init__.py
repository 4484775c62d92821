"""The PDF engine: pages with text, tables and footnote zones, fast enough for 200-page filings.

One module per concept, imports running one way (reader → tables → geometry): ``reader`` (the
pages, their lines, superscripts, note zones and OCR, and the pool of spawned workers),
``ruled_tables`` (tables drawn with rules), ``aligned_tables`` (statements printed without
rules, found by the alignment of their figures), ``geometry`` (the lines and boxes all three
read), ``parser`` (what the reader asks of a page parser), ``ligatures`` (PDFium's U+FFFE read
as the hyphen or the lost ligature it stands for) and ``repair`` (qpdf's repair of a file
PDFium cannot open).
"""

from rag_assets.core.ingest.pdf.aligned_tables import _period_header as _period_header  # tests
from rag_assets.core.ingest.pdf.parser import PageParser, PageReadError, ParsedPage
from rag_assets.core.ingest.pdf.reader import (
    PdfRead,
    clean_pdf_text,
    load_pdf_pages,
    open_pdf,
    page_ranges,
    read_pdf,
    text_source_warnings,
)
from rag_assets.core.ingest.pdf.ruled_tables import clean_table_rows

__all__ = [
    "PageParser",
    "PageReadError",
    "ParsedPage",
    "PdfRead",
    "clean_pdf_text",
    "clean_table_rows",
    "load_pdf_pages",
    "open_pdf",
    "page_ranges",
    "read_pdf",
    "text_source_warnings",
]
