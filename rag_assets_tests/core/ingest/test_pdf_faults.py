"""One page never fails a document, and a damaged PDF is repaired before it is refused
(issue 36 items 1-2): a page whose tables cannot be read keeps its text and is flagged; qpdf
rebuilds a PDF whose cross-reference table PDFium cannot read; what still fails is one line
naming the file, the page and the cause."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from fpdf import FPDF

from rag_assets.core.ingest.documents import load_document
from rag_assets.core.ingest.pages import DocumentError, Page
from rag_assets.core.ingest.pdf import ParsedPage, load_pdf_pages, read_pdf
from rag_assets.core.ingest.pdf import reader as pdf_reader
from rag_assets_tests.real_filings import CORPORA, real_filing

DAMAGED = CORPORA / "damaged" / "INTEL_2023_8K_dated-2023-08-16.pdf"
RELEASE = "financebench-wide/pdfs/ULTABEAUTY_2023Q4_EARNINGS.pdf"  # 9 pages, 6 aligned


def _first_aligned_page(pages: list[Page]) -> Page:
    return next(p for p in pages if any(t.found_by == "alignment" for t in p.tables))


def test_a_page_whose_aligned_tables_fail_keeps_its_text_and_is_flagged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The aligned-table reader raises on one page of a real filing (as the old ``max()`` of
    an empty sequence did): that page is flagged and keeps every line of the statement as text;
    every other page reads as before."""
    path = CORPORA / RELEASE
    clean = real_filing(RELEASE)
    target = _first_aligned_page(clean.pages)
    aligned = next(t for t in target.tables if t.found_by == "alignment")
    original = pdf_reader.align_tables
    seen: list[int] = []

    def breaking(lines, textpage, blocks, key):  # type: ignore[no-untyped-def]
        seen.append(0)
        if len(seen) == target.page_index + 1:  # pages are read in order in one process
            raise ValueError("max() arg is an empty sequence")
        return original(lines, textpage, blocks, key)

    monkeypatch.setattr(pdf_reader, "align_tables", breaking)
    warnings: list[str] = []
    pages = load_pdf_pages(path, warnings, workers=1)
    assert len(pages) == len(clean.pages)
    flagged = [p for p in pages if p.faults]
    assert [p.page_index for p in flagged] == [target.page_index]
    fault = flagged[0].faults[0]
    assert (fault.reader, fault.cause) == ("aligned_tables", "ValueError: max() arg is an "
                                           "empty sequence")
    assert f"{path.name}: page {target.page_index + 1}: aligned_tables failed" in "\n".join(
        warnings)
    broken = pages[target.page_index]
    assert not any(t.found_by == "alignment" for t in broken.tables)
    figures = [cell.split()[-1] for row in aligned.rows[1:] for cell in row[1:] if cell]
    assert len(figures) >= 6 and all(figure in broken.text for figure in figures)
    assert all(row[0].split()[0] in broken.text for row in aligned.rows[1:] if row[0])
    others = [(p.text, len(p.tables)) for p in pages if p.page_index != target.page_index]
    assert others == [(p.text, len(p.tables)) for p in clean.pages
                      if p.page_index != target.page_index]


def test_a_page_whose_layout_fails_after_its_text_keeps_the_plain_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A failure no single step guards (here: numbering the tables) costs the page its layout,
    never its words: it comes back as PDFium's plain text, flagged ``layout``."""
    path = CORPORA / RELEASE
    clean = real_filing(RELEASE)

    def failing(lines, found):  # type: ignore[no-untyped-def]
        raise KeyError("table 3")

    monkeypatch.setattr(pdf_reader, "_number_tables", failing)
    pages = load_pdf_pages(path, [], workers=1)
    assert len(pages) == len(clean.pages)
    assert {f.reader for p in pages for f in p.faults} == {"layout"}
    for page, before in zip(pages, clean.pages, strict=True):
        words = Counter(before.text.split())
        assert sum((words - Counter(page.text.split())).values()) <= 0.2 * sum(words.values())


def test_the_damaged_intel_8k_is_read_from_its_repair() -> None:
    """PDFium refuses the file (a damaged cross-reference table); qpdf rebuilds it in memory
    and the pages are read from the rebuilt copy."""
    doc = real_filing(DAMAGED)
    assert doc.repaired and doc.repair_cause
    assert "Data format error" in doc.repair_cause and "qpdf" in doc.repair_cause
    assert doc.warnings[0].startswith(f"repaired {DAMAGED.name}: ")
    assert len(doc.pages) >= 2 and all(p.text.strip() for p in doc.pages[:2])
    text = "\n".join(p.text for p in doc.pages)
    assert "INTEL CORPORATION" in text and "FORM 8-K" in text
    assert "Date of Report (Date of earliest event reported): August 16, 2023" in text


def test_a_file_qpdf_cannot_open_either_is_refused_in_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(random.Random(36).randbytes(4096))
    with pytest.raises(DocumentError) as caught:
        load_document(junk)
    message = str(caught.value)
    assert message.startswith("junk.pdf: corrupt or not a PDF (")
    assert "qpdf could not repair it: PdfError: unable to find trailer dictionary" in message
    assert "\n" not in message and str(tmp_path) not in message


def _fails_on_page_30(path: str, indices: range, /) -> list[ParsedPage]:
    """A parser that raises on page 30 (index 29), as the aligned-table reader once did in a
    worker; module-level, so that spawned workers find it."""
    if 29 in indices:
        raise ValueError("max() arg is an empty sequence")
    return [(Page(page_index=i, text=f"page {i + 1} text", line_sizes=[10.0]),
             Counter({10.0: 12}), False) for i in indices]


def test_a_worker_exception_is_one_line_naming_the_file_and_the_page(tmp_path: Path) -> None:
    out = FPDF()
    for _ in range(40):  # past MIN_PAGES_FOR_WORKERS: read by the pool of spawned workers
        out.add_page()
    path = tmp_path / "long-report.pdf"
    out.output(str(path))
    with pytest.raises(DocumentError) as caught:
        read_pdf(path, workers=2, parser=_fails_on_page_30)
    message = str(caught.value)
    assert message == ("long-report.pdf: page 30 could not be read (ValueError: max() arg is an "
                       "empty sequence)")
    assert "_RemoteTraceback" not in message
