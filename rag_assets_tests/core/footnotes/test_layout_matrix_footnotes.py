"""The footnote pipeline on the layout matrix: 15 layouts, each written by fpdf2 and by reportlab,
measured against the generators' ground truth (complete definitions, citing pages, footnote-to-
footnote references) and by text conservation (no word given to the stitcher is lost)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.footnotes.checks import (
    definition_completeness,
    stray_note_lines,
    text_conservation,
)
from rag_assets.core.footnotes.groundtruth import load_truth
from rag_assets.core.footnotes.stitching import (
    build_footnote_index,
    stitch_document,
    stitching_coverage,
)
from rag_assets.core.ingest.documents import load_document
from rag_assets.samples.layout_matrix import (
    CASES,
    WRITERS,
    LayoutFixture,
    build_layout_fixture,
    build_layout_matrix_reports,
)


@pytest.fixture(scope="module")
def matrix_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("layout-matrix")


def _ingest(fixture: LayoutFixture):  # noqa: ANN202 - a small tuple of core results
    loaded = load_document(fixture.path, pdf_workers=1)
    index = build_footnote_index(loaded.pages)
    stitched = stitch_document(loaded.pages, index)
    return loaded, index, stitched


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("case", CASES)
def test_every_layout_keeps_complete_definitions_and_every_word(
    case: str, writer: str, matrix_dir: Path
) -> None:
    fixture = build_layout_fixture(case, writer, matrix_dir)
    loaded, index, stitched = _ingest(fixture)
    completeness = definition_completeness(index, fixture.truth)
    assert completeness.incomplete == []
    assert completeness.ratio == 1.0
    assert completeness.citing_pages_found == completeness.citing_pages_expected
    assert completeness.cites_recorded == completeness.cites_expected
    conservation = text_conservation(loaded.pages, index, stitched)
    assert conservation.lost == [] and conservation.words_checked > 100
    assert index.orphans == [] and index.unresolved == []
    assert stray_note_lines(loaded.pages, index) == []
    assert stitching_coverage(index, stitched).missing == []


def test_a_wrapped_marker_line_stays_body_text(matrix_dir: Path) -> None:
    fixture = build_layout_fixture("wrapped-marker", "fpdf2", matrix_dir)
    loaded, index, stitched = _ingest(fixture)
    wrapped = [
        (p.page_index, line) for p in loaded.pages for line in p.lines
        if line.startswith(("[12].", "(4),"))
    ]
    assert wrapped, "the fixture must wrap a line at a marker"
    for page_index, line in wrapped:
        body = line.split(" ", 1)[1][:30]
        assert body in stitched[page_index].text  # the sentence is still in the stitched page
        marker = line.split(" ", 1)[0].rstrip(".,")
        number = loaded.pages[page_index].lines.index(line)
        calls = [c for c in index.citations if (c.page_index, c.line) == (page_index, number)]
        assert [c.marker for c in calls][:1] == [marker]  # the wrapped marker is a citation
        assert calls[0].footnote_id is not None  # resolved to its note in the zone
        assert not any(number in f.spans.get(page_index, []) for f in index.footnotes)


def test_nested_definitions_record_the_footnotes_they_cite(matrix_dir: Path) -> None:
    fixture = build_layout_fixture("nested", "reportlab", matrix_dir)
    _, index, _ = _ingest(fixture)
    marker_of = {f.footnote_id: f.marker for f in index.footnotes}
    cites = {f.marker: sorted(marker_of[c] for c in f.cites) for f in index.footnotes if f.cites}
    expected = {t.marker: sorted(t.cites) for t in fixture.truth.footnotes if t.cites}
    assert cites == expected and len(expected) >= 3


def test_a_rotated_page_is_read_in_writing_order_with_a_warning(matrix_dir: Path) -> None:
    fixture = build_layout_fixture("rotated", "fpdf2", matrix_dir)
    loaded = load_document(fixture.path, pdf_workers=1)
    assert any("page(s) 2 carry /Rotate" in w for w in loaded.warnings), loaded.warnings
    rotated = loaded.pages[1]
    notes = [n for n, line in enumerate(rotated.lines) if line.startswith("[")]
    body = [n for n, line in enumerate(rotated.lines) if line and not line.startswith("[")]
    assert notes and max(body) > 0 and min(notes) > min(body)  # body first, notes last


def test_a_note_continued_overleaf_spans_both_pages(matrix_dir: Path) -> None:
    for writer in WRITERS:
        fixture = build_layout_fixture("continued-note", writer, matrix_dir)
        _, index, _ = _ingest(fixture)
        spanning = [f for f in index.footnotes if len(f.spans) == 2]
        assert [f.marker for f in spanning] == ["[3]"], writer


def test_the_combined_demo_documents_are_complete_too(tmp_path: Path) -> None:
    """Every case on the pages of one 30-page document per writer (the demo's partitions):
    notes wrap around markers of other cases' numbering, pages meet other layouts."""
    files = build_layout_matrix_reports(tmp_path / "reports", tmp_path / "q", tmp_path / "truth")
    assert len(files) == len(WRITERS)
    for sample in files:
        truth = load_truth(tmp_path / "truth", sample.document, sample.year)
        assert truth is not None and len(truth.footnotes) > 150
        loaded = load_document(sample.path, pdf_workers=1)
        index = build_footnote_index(loaded.pages)
        stitched = stitch_document(loaded.pages, index)
        completeness = definition_completeness(index, truth)
        assert completeness.incomplete == [], sample.document
        assert completeness.cites_recorded == completeness.cites_expected
        assert text_conservation(loaded.pages, index, stitched).lost == []
