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


def _read_in_a_daemon(path: str, queue: object) -> None:
    """What a Celery worker's pool process (daemonic) does with a long PDF."""
    try:
        pages = load_pdf_pages(Path(path), [], workers=2, parser=_one_line_pages)
        queue.put(len(pages))  # type: ignore[attr-defined]
    except BaseException as err:  # noqa: BLE001 - the parent test reports it
        queue.put(repr(err))  # type: ignore[attr-defined]


def test_a_daemonic_process_reads_a_long_pdf_without_worker_processes(tmp_path: Path) -> None:
    """A daemonic process may not start processes (the scale profile's Celery steps run in
    one): the reader parses the pages itself instead of failing."""
    import multiprocessing

    out = FPDF()
    for _ in range(30):  # past MIN_PAGES_FOR_WORKERS: a process pool elsewhere
        out.add_page()
    path = tmp_path / "long.pdf"
    out.output(str(path))
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_read_in_a_daemon, args=(str(path), queue), daemon=True)
    process.start()
    result = queue.get(timeout=60)
    process.join(10)
    assert result == 30
