"""Furniture is narrow: repeated content stays, running headers and page footers go.

The documents of issue 12: a PDF whose pages repeat one paragraph and one footnote, a long PDF
where every page defines its own note in the same words with other digits, and plain-text
reports with a note under a rule on every page (UTF-8 and cp1252).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from rag_assets.core.footnotes.checks import text_conservation
from rag_assets.core.footnotes.stitching import build_footnote_index, page_views, stitch_document
from rag_assets.core.ingest.documents import load_document

HEADER = "Acme Holdings plc | Annual Report 2024"
PARAGRAPH = (
    "Group revenue was stable at GBP 1.2 billion and the board proposes an unchanged dividend "
    "of 12 pence per share [1]."
)


def _pdf(path: Path, pages: list[tuple[str, str]]) -> Path:
    """One page per (body, note): a running header, body 10 pt, a rule, the note 7.5 pt and a
    ``Page N/M`` footer."""
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    for number, (body, note) in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_font("helvetica", size=8)
        pdf.set_xy(20, 10)
        pdf.cell(0, 5, HEADER)
        pdf.set_font("helvetica", size=10)
        pdf.set_xy(20, 25)
        pdf.multi_cell(170, 5, body)
        pdf.line(20, 250, 80, 250)
        pdf.set_font("helvetica", size=7.5)
        pdf.set_xy(20, 252)
        pdf.multi_cell(170, 3.4, note)
        pdf.set_font("helvetica", size=8)
        pdf.set_xy(20, 285)
        pdf.cell(170, 5, f"Page {number}/{len(pages)}", align="C")
    pdf.output(str(path))
    return path


def _ingest(path: Path):  # noqa: ANN202
    loaded = load_document(path)
    index = build_footnote_index(loaded.pages)
    stitched = stitch_document(loaded.pages, index)
    return loaded, index, stitched


def test_a_paragraph_and_note_repeated_on_every_page_are_content(tmp_path: Path) -> None:
    note = "[1] Subject to approval at the annual meeting."  # short, like a running footer
    path = _pdf(tmp_path / "repeated.pdf", [(PARAGRAPH, note)] * 40)
    loaded, index, stitched = _ingest(path)
    assert [f.marker for f in index.footnotes] == ["[1]"]
    assert len(index.footnotes[0].cited_pages) == 40 and index.unresolved == []
    assert all("Group revenue was stable" in page.text for page in stitched)
    assert text_conservation(loaded.pages, index, stitched).lost == []
    views = page_views(loaded.pages)
    for view in views:  # the real running header and the footer are still furniture
        furniture = {view.lines[n].strip() for n in view.furniture}
        assert HEADER in furniture
        assert any(line.startswith("Page ") for line in furniture)


@pytest.mark.slow
def test_a_note_repeated_with_other_digits_on_300_pages_is_defined_on_each(tmp_path: Path) -> None:
    pages = [
        (
            f"Segment results for page {n} are shown in the table of operating data [{n}].",
            f"[{n}] Note {n}: amounts in millions of dollars, figure 575 restated for page {n}.",
        )
        for n in range(1, 301)
    ]
    loaded, index, stitched = _ingest(_pdf(tmp_path / "long.pdf", pages))
    assert len(index.footnotes) == 300 and index.unresolved == []
    assert all(f.text.startswith(f"Note {f.marker[1:-1]}:") for f in index.footnotes)
    assert text_conservation(loaded.pages, index, stitched).lost == []


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252"])
def test_plain_text_notes_survive_on_every_page(tmp_path: Path, encoding: str) -> None:
    pages = [
        f"Zürich office, page {n}: rental income rose 4% [1].\n\n__________\n"
        "[1] Rental income excludes service charges recharged to tenants.\n"
        f"Page {n}/5"
        for n in range(1, 6)
    ]
    path = tmp_path / "notes.txt"
    path.write_bytes("\n".join(pages).encode(encoding))
    loaded, index, stitched = _ingest(path)
    assert len(loaded.pages) == 5
    cited = sorted(p for f in index.footnotes for p in f.cited_pages)
    assert cited == [0, 1, 2, 3, 4]
    assert index.unresolved == [] and index.orphans == []
    assert text_conservation(loaded.pages, index, stitched).lost == []


def test_a_browsers_print_header_and_footer_are_furniture_on_every_page() -> None:
    """Lockheed Martin's Q2 2023 release, printed from a browser: "7/16/23, 3:13 PM
    3919443-1-1_Proof.html" over "file:///C:/Users/.../3919443-1-1_Proof.html 1/14" on each of
    its 14 pages (the address without its counter on page 8)."""
    from rag_assets_tests.real_filings import real_filing

    doc = real_filing("financebench-bulk/pdfs/LOCKHEEDMARTIN_2023Q2_10Q.pdf")
    views = page_views(doc.pages)
    assert len(views) == 14
    for view in views:
        printed = [view.lines[i] for i in sorted(view.furniture)]
        assert printed[0].endswith("3919443-1-1_Proof.html")
        assert printed[1].startswith("file:///"), (view.page.page_index, printed)
        kept = [line for i, line in enumerate(view.lines) if i not in view.furniture]
        assert not [line for line in kept if "Proof.html" in line]
    assert any(line.strip().startswith("Lockheed Martin Reports Second Quarter 2023")
               for line in views[0].lines[2:5])


def test_a_bare_page_counter_and_a_kept_sentence_above_a_running_line() -> None:
    """A footer that is only "n/8" stays furniture; the last line of a disclaimer repeated at
    every page's foot stays content when the line above it is kept (it carries on)."""
    from rag_assets.core.ingest.layout import find_running_furniture, furniture_lines

    body = [f"Body line {k} of the page says something else each time." for k in range(6)]
    pages = [[*body, "Figures in this report remain subject to",
              "review by the audit committee of the", "board of directors.", f"{n}/8"]
             for n in range(1, 9)]
    running = find_running_furniture(pages)
    for lines in pages:
        found = furniture_lines(lines, running)
        assert 9 in found  # "n/8"
        assert 7 not in found and 8 not in found  # the sentence goes on to its end
