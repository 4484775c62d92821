"""The footnote ground truth written beside the generated samples: counts, and every definition
printed on its page (pdfplumber for the PDFs, the page text for TEI and the GDPR rendering)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from rag_assets.core.footnotes.groundtruth import FootnoteTruth, load_truth
from rag_assets.samples import annual_reports, earnings, gdpr, tei_paper
from rag_assets_tests.samples.test_fictitious_samples import tei_page_texts

CORPORA = Path(__file__).resolve().parents[2].parent / "shared" / "corpora"


def norm(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[str, int], Path]]:
    root = tmp_path_factory.mktemp("truth")
    reports, questions, truth = root / "reports", root / "questions", root / "truth"
    files = [
        *earnings.build_earnings_release(reports, questions, truth),
        *annual_reports.build_annual_reports(reports, questions, truth),
        *tei_paper.build_tei_paper(reports, questions, truth),
    ]
    return truth, {(f.document, f.year): f.path for f in files}


def _truth(truth_dir: Path, document: str, year: int) -> FootnoteTruth:
    truth = load_truth(truth_dir, document, year)
    assert truth is not None, (document, year)
    return truth


def _check_printed(truth: FootnoteTruth, pages: list[str]) -> None:
    for fn in truth.footnotes:
        assert fn.text and fn.text in norm(pages[fn.page]), (fn.marker, fn.page)
        for page in fn.cited_pages:
            assert fn.marker in pages[page], (fn.marker, page)


def _pdf_pages(path: Path) -> list[str]:
    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def test_earnings_truth(built) -> None:
    truth_dir, paths = built
    truth = _truth(truth_dir, earnings.DOCUMENT, earnings.YEAR)
    assert len(truth.footnotes) == earnings.N_FOOTNOTES == 46
    assert truth == earnings.earnings_truth()
    by_marker = {fn.marker: fn for fn in truth.footnotes}
    assert by_marker[earnings.CROSS_PAGE_MARKER].cited_pages == list(
        earnings.CROSS_PAGE_MARKER_PAGES)
    forward = by_marker[earnings.FORWARD_MARKER]
    assert forward.page == earnings.FORWARD_MARKER_DEFINED_PAGE
    assert earnings.FORWARD_MARKER_CITED_PAGE in forward.cited_pages
    for marker, cites in earnings.NESTED_MARKERS.items():
        assert by_marker[marker].cites == list(cites)
    _check_printed(truth, _pdf_pages(paths[(earnings.DOCUMENT, earnings.YEAR)]))


def test_annual_report_truth(built) -> None:
    truth_dir, paths = built
    for co in annual_reports.COMPANIES:
        for year in annual_reports.YEARS:
            truth = _truth(truth_dir, co.document, year)
            assert len(truth.footnotes) == 10
            markers = [fn.marker for fn in truth.footnotes]
            assert markers.count("*") == 1
            for (document, marker), pages in annual_reports.SAME_MARKER_CASES.items():
                if document == co.document:  # same marker, two definitions, own pages
                    same = [fn for fn in truth.footnotes if fn.marker == marker]
                    assert [(fn.page, fn.cited_pages) for fn in same] == [
                        (p, [p]) for p in pages]
            _check_printed(truth, _pdf_pages(paths[(co.document, year)]))


def test_tei_truth(built) -> None:
    truth_dir, paths = built
    truth = _truth(truth_dir, tei_paper.DOCUMENT, tei_paper.YEAR)
    assert len(truth.footnotes) == tei_paper.N_FOOTNOTES == 7
    pages = tei_page_texts(paths[(tei_paper.DOCUMENT, tei_paper.YEAR)])
    for fn in truth.footnotes:
        assert fn.text in norm(pages[fn.page]), fn.marker
    cross = next(fn for fn in truth.footnotes if fn.marker == f"[{tei_paper.CROSS_PAGE_NOTE}]")
    assert cross.page == 0 and cross.cited_pages == [0, 1]


def test_gdpr_truth(tmp_path: Path) -> None:
    if gdpr.load_gdpr(CORPORA) is None:
        pytest.skip(f"real GDPR corpus not found at {CORPORA}")
    files = gdpr.build_gdpr(tmp_path / "reports", tmp_path / "questions", CORPORA,
                            tmp_path / "truth")
    truth = _truth(tmp_path / "truth", gdpr.DOCUMENT, gdpr.YEAR)
    data = gdpr.load_gdpr(CORPORA)
    assert data is not None
    assert len(truth.footnotes) == len(data["citations"]) == 21
    pages = gdpr.split_pages(files[0].path.read_text(encoding="utf-8"))
    _check_printed(truth, pages)
    numbers = [int(fn.marker.strip("()")) for fn in truth.footnotes]
    firsts = [fn.cited_pages[0] for fn in truth.footnotes]
    assert numbers == sorted(numbers) and firsts == sorted(firsts)  # the OJ numbers in order
