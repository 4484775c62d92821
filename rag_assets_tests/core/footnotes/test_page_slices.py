"""Stitching a slice of a document: pages 5..9 keep their page indexes, and the stitcher finds each
page's lines by index, not by position in the list (it used to raise IndexError there)."""

from __future__ import annotations

from pathlib import Path

from rag_assets.core.footnotes.stitching import (
    FOOTNOTE_BLOCK_RE,
    build_footnote_index,
    stitch_document,
    stitching_coverage,
)
from rag_assets.core.ingest.documents import load_document
from rag_assets.core.ingest.pages import Page

N_PAGES = 10
SLICE = slice(5, 10)


def _page_text(k: int) -> str:
    """Page ``k`` cites its own two notes, the first of which cites the second; page 8 also cites
    a note printed on page 6 (resolved across pages, within the slice)."""
    first, second = 2 * k + 1, 2 * k + 2
    lines = [
        f"Annual review, part {k + 1}.",
        "",
        f"Revenue in segment {k} grew by {k + 3}% in the year [{first}]. Margins held steady.",
        f"Costs were lower than planned [{second}].",
    ]
    if k == 8:
        lines.append("As reported for segment 6, its revenue [13] includes licences.")
    lines += [
        "_____",
        f"[{first}] Segment {k} revenue excludes discontinued operations, see note [{second}].",
        f"[{second}] Costs are stated before restructuring charges of {k} million.",
    ]
    return "\n".join(lines)


def _pages(tmp_path: Path) -> list[Page]:
    path = tmp_path / "ten-pages.txt"
    path.write_text("\f".join(_page_text(k) for k in range(N_PAGES)) + "\n", encoding="utf-8")
    pages = load_document(path).pages
    assert [p.page_index for p in pages] == list(range(N_PAGES))
    return pages


def test_stitching_pages_5_to_9_gives_the_pages_of_the_whole_document(tmp_path: Path) -> None:
    pages = _pages(tmp_path)
    whole = stitch_document(pages, build_footnote_index(pages))
    part = pages[SLICE]
    index = build_footnote_index(part)
    stitched = stitch_document(part, index)

    assert [p.page_index for p in stitched] == [5, 6, 7, 8, 9]
    assert {f.page_index for f in index.footnotes} == {5, 6, 7, 8, 9}
    assert index.unresolved == [] and index.orphans == []
    coverage = stitching_coverage(index, stitched)
    assert coverage.ratio == 1.0 and coverage.missing == []
    # the notes a slice cites all stand in it, so each page is stitched as in the whole document
    assert [p.text for p in stitched] == [p.text for p in whole[SLICE]]


def test_a_slice_stitches_each_note_after_its_sentence_with_the_note_it_cites(
    tmp_path: Path,
) -> None:
    part = _pages(tmp_path)[SLICE]
    stitched = {p.page_index: p.text for p in stitch_document(part, build_footnote_index(part))}
    page8 = stitched[8]
    assert ("in the year [17]. {FOOTNOTE [17]: Segment 8 revenue excludes discontinued "
            "operations, see note [18].} {FOOTNOTE [18]: Costs are stated before restructuring "
            "charges of 8 million.} Margins held steady.") in page8
    # the note of page 6 cited on page 8 is stitched there too, and no definition line is left
    assert "its revenue [13] includes licences. {FOOTNOTE [13]: Segment 6 revenue" in page8
    for text in stitched.values():
        body = FOOTNOTE_BLOCK_RE.sub("", text)
        assert "_____" not in body
        assert not any(line.startswith("[") for line in body.split("\n"))
