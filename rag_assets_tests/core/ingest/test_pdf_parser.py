"""Another page parser plugs into the PDF reader (``pdf.PageParser``): the reader asks it for
runs of pages and still measures the body size, warns about rotated pages and checks text."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from fpdf import FPDF

from rag_assets.core.ingest.pages import Page
from rag_assets.core.ingest.pdf import PageParser, ParsedPage, load_pdf_pages


def _one_line_pages(path: str, indices: range, /) -> list[ParsedPage]:
    """A stand-in parser: one line of 10 pt type per page, the last page turned."""
    return [
        (
            Page(page_index=i, text=f"Page {i + 1} as another parser reads it", line_sizes=[10.0]),
            Counter({10.0: 40}),
            i == indices.stop - 1,
        )
        for i in indices
    ]


def test_the_reader_takes_its_pages_from_the_parser_it_is_given(tmp_path: Path) -> None:
    out = FPDF()
    for _ in range(3):
        out.add_page()
    path = tmp_path / "blank.pdf"  # no text layer: the default parser would refuse it
    out.output(str(path))
    parser: PageParser = _one_line_pages
    warnings: list[str] = []
    pages = load_pdf_pages(path, warnings, workers=1, parser=parser)
    assert [p.text for p in pages] == [f"Page {n} as another parser reads it" for n in (1, 2, 3)]
    assert {p.body_size for p in pages} == {10.0}
    assert warnings == ["blank.pdf: page(s) 3 carry /Rotate: read in the orientation their text "
                        "was written in"]
