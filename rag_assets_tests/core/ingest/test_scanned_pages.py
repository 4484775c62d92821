"""Scanned pages: a page with no text layer but an image of text is read by OCR (tesseract),
marked ``ocr`` in ``raw_pages`` and the audit report, its footnotes stitched like any page's; where
OCR cannot run (``RAG_ASSETS_OCR=off``, tesseract missing) the page is flagged, never silently
empty; pages with a text layer never pay for it.

The PDF is made here: pages 1 and 3 written with fpdf2 (a text layer), page 2 an image only, the
rendering (pypdfium2, 150 dpi, grayscale: a clean scan) of a page of text with two footnotes set
in smaller type below a rule. OCR tests skip with the reason where tesseract is not installed
(``make ocr`` installs it as root).
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import dagster as dg
import duckdb
import pypdfium2 as pdfium
import pytest
from fpdf import FPDF

from rag_assets.core.evaluation.audit_report import build_audit_report
from rag_assets.core.footnotes.stitching import build_footnote_index, stitch_document
from rag_assets.core.ingest import ocr, pdf
from rag_assets.core.ingest.documents import DocumentError, load_document
from rag_assets.core.ingest.pages import Page
from rag_assets.core.ingest.pdf import reader
from rag_assets.core.warehouse.tables import frame_to_pages, pages_to_frame
from rag_assets.defs.audit import read_partition_tables
from rag_assets.defs.ingest import ingest_report
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import default_resources

SCANNED_BODY = [
    "Exemplar Corp quarterly results",
    "Revenue grew 34% to $2.4 billion [1], driven by the Harbor acquisition.",
    "Operating margin was 18.2%, up from 15.9% a year earlier [2].",
    "Net income attributable to shareholders rose to $412 million.",
    "Cash and equivalents ended the quarter at $1,875 million.",
    "The board declared a dividend of $0.42 per share, payable in June.",
]
SCANNED_NOTES = [
    "[1] Includes $555 million from the Harbor acquisition; organic growth 3.2%.",
    "[2] Excludes a $31 million restructuring charge recorded in March.",
]
SCANNED_WORDS = [w for line in SCANNED_BODY + SCANNED_NOTES for w in line.split()]
OCR_SKIP = ocr.unavailable()
needs_ocr = pytest.mark.skipif(OCR_SKIP is not None, reason=f"OCR test skipped: {OCR_SKIP}")


def _text_page(pdf_doc: FPDF, lines: list[str], notes: list[str] = ()) -> None:
    pdf_doc.add_page()
    pdf_doc.set_font("helvetica", size=11)
    for line in lines:
        pdf_doc.cell(text=line, new_x="LMARGIN", new_y="NEXT", h=7)
    if notes:
        pdf_doc.ln(4)
        pdf_doc.line(pdf_doc.l_margin, pdf_doc.get_y(), pdf_doc.l_margin + 50, pdf_doc.get_y())
        pdf_doc.ln(2)
        pdf_doc.set_font("helvetica", size=8)
        for note in notes:
            pdf_doc.cell(text=note, new_x="LMARGIN", new_y="NEXT", h=5)


def scan_of(lines: list[str], notes: list[str], dpi: int = 150):  # noqa: ANN201 - a PIL image
    """A page of text as a scanner would give it: its rendering, nothing of its text layer."""
    source = FPDF(format="letter")
    _text_page(source, lines, notes)
    document = pdfium.PdfDocument(bytes(source.output()))
    try:
        return document[0].render(scale=dpi / 72, grayscale=True).to_pil()
    finally:
        document.close()


def write_report(path: Path, middle: str = "scan") -> Path:
    """Three letter pages: text, then ``middle`` ("scan": the image of a page of text as its
    only content; "blank": nothing), then text."""
    out = FPDF(format="letter")
    _text_page(out, ["Page one: the overview of the quarter, with a text layer."])
    out.add_page()
    if middle == "scan":
        buffer = io.BytesIO()
        scan_of(SCANNED_BODY, SCANNED_NOTES).save(buffer, format="PNG")
        out.image(buffer, x=0, y=0, w=out.w, h=out.h)
    _text_page(out, ["Page three: the outlook for next year, with a text layer."])
    path.parent.mkdir(parents=True, exist_ok=True)
    out.output(str(path))
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_report(tmp_path_factory.mktemp("scanned") / "scanned.pdf")


@pytest.fixture(scope="module")
def read(report: Path):  # noqa: ANN201 - a LoadedDocument
    if OCR_SKIP is not None:
        pytest.skip(f"OCR test skipped: {OCR_SKIP}")
    return load_document(report)


def _found(text: str) -> float:
    """Share of the scanned page's words found in ``text`` (as many times as printed)."""
    have = Counter(text.split())
    hits = 0
    for word in SCANNED_WORDS:
        if have[word]:
            have[word] -= 1
            hits += 1
    return hits / len(SCANNED_WORDS)


# --- OCR reads the page -----------------------------------------------------------------------


@needs_ocr
def test_the_image_only_page_is_read_by_ocr_and_marked(read) -> None:  # noqa: ANN001
    first, scanned, last = read.pages
    assert [p.text_source for p in read.pages] == ["text", "ocr", "text"]
    assert first.text_note is None and last.text_note is None
    assert "overview of the quarter" in first.text and "outlook" in last.text
    assert _found(scanned.text) >= 0.95, scanned.text
    for figure in ("$2.4", "$555", "$1,875", "18.2%", "[1]", "[2]"):
        assert figure in scanned.text
    assert scanned.text_note.startswith("OCR (tesseract ")
    assert f"{ocr.OCR_DPI} dpi" in scanned.text_note and "mean confidence" in scanned.text_note
    # one warning names the page, so the run log says it
    ocr_lines = [w for w in read.warnings if "read by OCR" in w]
    assert len(ocr_lines) == 1 and "page(s) 2 have no text layer" in ocr_lines[0]
    # in raw_pages
    frame = pages_to_frame(read.pages, "d", 2024, "scanned.pdf", "sha")
    assert list(frame.text_source) == ["text", "ocr", "text"]
    assert frame.n_chars[1] > 400
    assert [p.text_source for p in frame_to_pages(frame)] == ["text", "ocr", "text"]


@needs_ocr
def test_ocr_text_keeps_type_sizes_and_its_footnotes_are_stitched(read) -> None:  # noqa: ANN001
    scanned = read.pages[1]
    sizes = [s for s in scanned.line_sizes if s]
    assert len(sizes) == len(SCANNED_BODY) + len(SCANNED_NOTES)
    # the notes are set smaller than the body, and OCR says so on the page's own scale
    assert scanned.body_size == max(sizes)
    assert all(s < scanned.body_size * 0.88 for s in sizes[-len(SCANNED_NOTES):])
    index = build_footnote_index(read.pages)
    defined = {f.marker: f for f in index.footnotes}
    assert set(defined) == {"[1]", "[2]"}
    assert all(f.page_index == 1 and f.status == "cited" for f in defined.values())
    assert "$555 million" in defined["[1]"].text
    assert sorted(c.marker for c in index.citations if c.footnote_id) == ["[1]", "[2]"]
    stitched = stitch_document(read.pages, index)[1].text
    assert "{FOOTNOTE [1]: Includes $555 million" in stitched


@needs_ocr
def test_pages_with_a_text_layer_never_pay_for_ocr(
    report: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The image test and OCR run for the page with next to no text layer only."""
    looked: list[bool] = []
    read_calls: list[int] = []
    has_image, read_image = reader._has_image, ocr.read_image

    def counting_has_image(page: pdfium.PdfPage) -> bool:
        looked.append(has_image(page))
        return looked[-1]

    def counting_read(image, dpi=ocr.OCR_DPI):  # noqa: ANN001, ANN202
        read_calls.append(image.height)
        return read_image(image, dpi)

    monkeypatch.setattr(reader, "_has_image", counting_has_image)
    monkeypatch.setattr(ocr, "read_image", counting_read)
    loaded = load_document(report)
    assert [p.text_source for p in loaded.pages] == ["text", "ocr", "text"]
    assert looked == [True] and len(read_calls) == 1
    assert abs(read_calls[0] - 11 * ocr.OCR_DPI) <= 1  # letter height, rendered at OCR_DPI


@needs_ocr
def test_a_scan_turned_by_rotate_is_read_as_displayed(tmp_path: Path) -> None:
    """A landscape scan holding the page on its side, set upright by ``/Rotate 90``."""
    out = FPDF(orientation="L", format="letter")
    out.add_page()
    buffer = io.BytesIO()
    scan_of(SCANNED_BODY, SCANNED_NOTES).rotate(90, expand=True).save(buffer, format="PNG")
    out.image(buffer, x=0, y=0, w=out.w, h=out.h)
    document = pdfium.PdfDocument(bytes(out.output()))
    document[0].set_rotation(90)
    path = tmp_path / "turned.pdf"
    document.save(str(path))
    document.close()
    page = load_document(path).pages[0]
    assert page.text_source == "ocr"
    assert page.text.splitlines()[0] == SCANNED_BODY[0]
    assert _found(page.text) >= 0.95


# --- where OCR cannot run, the page is flagged ----------------------------------------------


def test_ocr_off_flags_the_page_in_pages_warnings_and_raw_pages(report: Path) -> None:
    loaded = load_document(report, use_ocr=False)
    scanned = loaded.pages[1]
    assert [p.text_source for p in loaded.pages] == ["text", "none", "text"]
    assert scanned.text.strip() == ""
    assert scanned.text_note == ("an image and no text layer, not read: OCR is turned off "
                                 "(runtime.ocr, RAG_ASSETS_OCR)")
    assert loaded.warnings == [
        "scanned.pdf: page(s) 2 without text: an image and no text layer, not read: OCR is "
        "turned off (runtime.ocr, RAG_ASSETS_OCR)"
    ]
    frame = pages_to_frame(loaded.pages, "d", 2024, "scanned.pdf", "sha")
    assert list(frame.text_source) == ["text", "none", "text"]
    assert frame.text_note[1].startswith("an image and no text layer") and frame.n_chars[1] == 0
    assert ocr.summary(loaded.pages) == (
        "1 page(s) with an image and no text layer, not read: OCR is turned off "
        "(runtime.ocr, RAG_ASSETS_OCR)")


def test_missing_tesseract_is_named_with_how_to_install(
    report: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ocr.shutil, "which", lambda name: None)
    reason = ocr.unavailable()
    assert reason is not None and "tesseract is not installed" in reason and "make ocr" in reason
    loaded = load_document(report)
    assert loaded.pages[1].text_source == "none"
    assert "tesseract is not installed" in loaded.pages[1].text_note


def test_a_blank_page_is_flagged_without_ocr(tmp_path: Path) -> None:
    loaded = load_document(write_report(tmp_path / "blank.pdf", middle="blank"))
    assert [p.text_source for p in loaded.pages] == ["text", "none", "text"]
    assert loaded.pages[1].text_note == "no text layer and no image: a blank page"
    assert loaded.warnings == [
        "blank.pdf: page(s) 2 without text: no text layer and no image: a blank page"]
    assert ocr.summary(loaded.pages).startswith("not needed")


def test_a_scanned_document_without_ocr_fails_in_one_line_naming_why(tmp_path: Path) -> None:
    out = FPDF(format="letter")
    for _ in range(2):
        out.add_page()
        buffer = io.BytesIO()
        scan_of(SCANNED_BODY, []).save(buffer, format="PNG")
        out.image(buffer, x=0, y=0, w=out.w, h=out.h)
    path = tmp_path / "all-scanned.pdf"
    out.output(str(path))
    with pytest.raises(DocumentError) as info:
        load_document(path, use_ocr=False)
    assert str(info.value) == (
        "all-scanned.pdf: no text layer (0 characters on 2 pages): a scanned PDF, not read: "
        "OCR is turned off (runtime.ocr, RAG_ASSETS_OCR)")


# --- the pieces -------------------------------------------------------------------------------

HOCR = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><body>
<div class='ocr_page' title='bbox 0 0 600 900'>
 <p class='ocr_par'>
  <span class='ocr_line' title="bbox 100 100 500 130; baseline 0 -5; x_size 40; x_descenders 8">
   <span class='ocrx_word' title='bbox 100 100 200 130; x_wconf 90'>Revenue</span>
   <span class='ocrx_word' title='bbox 210 100 300 130; x_wconf 80'>rose [1].</span>
  </span>
  <span class='ocr_line' title="bbox 100 140 500 170; x_size 42">
   <span class='ocrx_word' title='bbox 100 140 500 170; x_wconf 70'>Costs &amp; fees</span>
  </span>
  <span class='ocr_line' title="bbox 130 800 400 820; x_size 30">
   <span class='ocrx_word' title='bbox 130 800 400 820; x_wconf 60'>[1] Organic.</span>
   <span class='ocrx_word' title='bbox 401 800 410 820; x_wconf 0'> </span>
  </span>
 </p>
</div></body></html>"""


def test_hocr_lines_carry_points_and_one_size_per_type() -> None:
    result = ocr.parse_hocr(HOCR, dpi=300, image_height=900, engine_name="tesseract 9")
    assert [ln.text for ln in result.lines] == ["Revenue rose [1].", "Costs & fees",
                                                 "[1] Organic."]
    assert result.words == 4 and result.confidence == pytest.approx(75.0)
    first, second, note = result.lines
    assert first.size == second.size == pytest.approx(42 * 72 / 300)  # 40 and 42: one type
    assert note.size == pytest.approx(30 * 72 / 300)
    assert (first.left, first.top, first.bottom) == pytest.approx((24.0, 192.0, 184.8))
    assert result.note(300) == "OCR (tesseract 9, 300 dpi): 4 words, mean confidence 75%"
    assert ocr.same_sizes([10.0, 0.0, 10.5, 8.0, 10.2]) == [10.2, 0.0, 10.2, 8.0, 10.2]


def test_warnings_name_pages_in_runs() -> None:
    assert pdf.page_ranges([1, 2, 3, 6, 9, 8]) == "2-4, 7, 9-10"


def test_audit_report_lists_ocr_and_textless_pages(tmp_path: Path) -> None:
    pages = [
        Page(page_index=0, text="Revenue rose 5% to $12 million in the year under review."),
        Page(page_index=1, page_label="2", text="Scanned words read back by OCR here.",
             text_source="ocr",
             text_note="OCR (tesseract 5.3.0, 300 dpi): 7 words, mean confidence 91%"),
        Page(page_index=2, text="", text_source="none",
             text_note="an image and no text layer, not read: OCR is turned off "
                       "(runtime.ocr, RAG_ASSETS_OCR)"),
    ]
    tables = {"raw_pages": pages_to_frame(pages, "d", 2024, "x.pdf", "sha")}
    report = build_audit_report("d", 2024, tables, tmp_path)
    card = dict(report.data.scorecard)
    assert (card["pages"], card["pages read by OCR"], card["pages without text"]) == ("3", "1",
                                                                                         "1")
    assert [(r["page"], r["source"]) for r in report.data.text_sources] == [(2, "ocr"),
                                                                            (3, "none")]
    markdown = report.markdown_path.read_text(encoding="utf-8")
    assert "| 2 | 2 | ocr | 36 | OCR (tesseract 5.3.0, 300 dpi): 7 words" in markdown
    assert "| 3 | - | none | 0 | an image and no text layer, not read: OCR is turned off" \
        in markdown
    html = report.html_path.read_text(encoding="utf-8")
    assert html.count('<tr class="text-source-ocr">') == 1
    assert html.count('<tr class="text-source-none">') == 1
    # a report whose pages all have a text layer says so
    plain = build_audit_report("d", 2024, {"raw_pages": pages_to_frame(pages[:1], "d", 2024,
                                                                       "x.pdf", "sha")},
                               tmp_path / "plain")
    assert "Every page's text comes from its text layer" in plain.markdown
    assert dict(plain.data.scorecard)["pages without text"] == "0"


# --- the raw_pages asset --------------------------------------------------------------------


def _materialize_raw_pages(data_dir: Path) -> tuple[dg.ExecuteInProcessResult, list[str]]:
    write_report(data_dir / "reports" / "scanned-corp" / "2024" / "scanned.pdf")
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, [partition_key("scanned-corp", "2024")])
        result = dg.materialize([ingest_report], partition_key=partition_key("scanned-corp", 2024),
                                instance=instance, resources=default_resources(str(data_dir)))
        warnings = [
            e.user_message for e in instance.all_logs(result.run_id)
            if e.level == 30 and not e.is_dagster_event  # logging.WARNING
        ]
    return result, warnings


def _stored_sources(data_dir: Path) -> list[str]:
    con = duckdb.connect(str(data_dir / "warehouse.duckdb"), read_only=True)
    try:
        return [r[0] for r in con.execute(
            "select text_source from rag.raw_pages order by page_index").fetchall()]
    finally:
        con.close()


def test_raw_pages_asset_flags_the_page_when_ocr_is_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAG_ASSETS_OCR", "off")  # the settings' runtime.ocr
    data_dir = tmp_path / "data"
    result, warnings = _materialize_raw_pages(data_dir)
    metadata = result.get_asset_materialization_events()[0].materialization.metadata
    assert metadata["pages"].value == 3
    assert metadata["ocr_pages"].value == 0
    assert metadata["pages_without_text"].value == 1
    assert metadata["text_source_pages"].value == {"ocr": [], "none": [1]}
    assert "OCR is turned off" in metadata["ocr"].value
    assert any("page(s) 2 without text: an image and no text layer, not read" in w
               for w in warnings)
    assert _stored_sources(data_dir) == ["text", "none", "text"]
    # the audit report built from the stored table names the page
    tables = read_partition_tables(data_dir / "warehouse.duckdb", "scanned-corp", 2024)
    report = build_audit_report("scanned-corp", 2024, tables, tmp_path / "audit")
    assert dict(report.data.scorecard)["pages without text"] == "1"
    assert "| 2 | - | none | 0 | an image and no text layer, not read: OCR is turned off" \
        in report.markdown


@needs_ocr
def test_raw_pages_asset_counts_the_page_read_by_ocr(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    result, warnings = _materialize_raw_pages(data_dir)
    metadata = result.get_asset_materialization_events()[0].materialization.metadata
    assert metadata["ocr_pages"].value == 1
    assert metadata["pages_without_text"].value == 0
    assert metadata["text_source_pages"].value == {"ocr": [1], "none": []}
    assert metadata["ocr"].value.startswith("1 page(s) read by tesseract")
    assert any("page(s) 2 have no text layer: read by OCR" in w for w in warnings)
    assert _stored_sources(data_dir) == ["text", "ocr", "text"]
