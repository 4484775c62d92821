"""The layout matrix fixtures themselves, checked with pdfplumber and pypdfium2 only (never with
the project's parser): text and markers where the truth says, type sizes and geometry each case
promises, /Rotate, producers, determinism and the combined demo documents."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest

from rag_assets.core.footnotes.groundtruth import FootnoteTruth, load_truth
from rag_assets.core.text.markers import FROM_SUPERSCRIPT
from rag_assets.samples import layout_matrix as lm
from rag_assets.samples.layout_writers import Para, plain

BODY_PT = 10.0


@dataclass
class Read:
    """One fixture as pdfplumber sees it (rotated pages read with their rotation removed)."""

    path: Path
    texts: list[str]
    chars: list[list[dict]]
    rule_tops: list[float | None]  # top of the short horizontal rule over the notes, per page
    rotations: list[int]
    producer: str


def _unrotated(path: Path, tmp: Path) -> tuple[Path, list[int]]:
    doc = pdfium.PdfDocument(path)
    try:
        rotations = [page.get_rotation() for page in doc]
        if not any(rotations):
            return path, rotations
        for page in doc:
            page.set_rotation(0)
        out = tmp / f"{path.stem}.unrotated.pdf"
        doc.save(out)
        return out, rotations
    finally:
        doc.close()


def _read(path: Path, tmp: Path) -> Read:
    source, rotations = _unrotated(path, tmp)
    with pdfplumber.open(source) as pdf:
        texts = [page.extract_text() or "" for page in pdf.pages]
        chars = [list(page.chars) for page in pdf.pages]
        rules = []
        for page in pdf.pages:
            horizontal = [e for e in page.edges if e["orientation"] == "h"
                          and e["x1"] - e["x0"] < page.width / 2 and e["top"] > page.height / 3]
            rules.append(min((e["top"] for e in horizontal), default=None))
    with pdfplumber.open(path) as pdf:
        producer = str(pdf.metadata.get("Producer", ""))
    return Read(path, texts, chars, rules, rotations, producer)


def norm(text: str) -> str:
    return " ".join(text.split())


def words_in_order(words: list[str], text: str) -> str | None:
    """The first word not found after the previous one, or None if all are there in order."""
    hay, pos = norm(text), 0
    for word in words:
        found = hay.find(word, pos)
        if found < 0:
            return word
        pos = found + len(word)
    return None


def printed(marker: str) -> str:
    """A marker as its characters read in the PDF (a superscript is plain digits, raised)."""
    return marker.translate(FROM_SUPERSCRIPT)


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], lm.LayoutFixture]:
    out = tmp_path_factory.mktemp("layout")
    return {(f.case, f.writer): f for f in lm.build_layout_matrix(out)}


@pytest.fixture(scope="module")
def reads(matrix, tmp_path_factory) -> dict[tuple[str, str], Read]:
    tmp = tmp_path_factory.mktemp("unrotated")
    return {key: _read(f.path, tmp) for key, f in matrix.items()}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("demo")
    files = lm.build_layout_matrix_reports(root / "reports", root / "questions", root / "truth")
    return root, files


KEYS = [(case, writer) for case in lm.CASES for writer in lm.WRITERS]


def test_the_matrix_is_complete(matrix) -> None:
    assert lm.CASES == (
        "small-flush", "hanging-indent", "superscript", "continued-note", "two-column",
        "wrapped-marker", "table-markers", "nested", "eu-oj", "tenk-table-notes", "rotated",
        "dense", "four-digit", "euro-decimal", "plain",
    )
    assert set(matrix) == set(KEYS)
    for (case, writer), fixture in matrix.items():
        assert fixture.truth.document == f"layout-{case}-{writer}"
        assert fixture.truth.year == 2024
        assert fixture.truth.footnotes


@pytest.mark.parametrize("key", KEYS, ids=lambda k: f"{k[0]}-{k[1]}")
def test_definitions_and_citations_are_printed_where_the_truth_says(key, matrix, reads) -> None:
    fixture, read = matrix[key], reads[key]
    assert len(read.texts) == len(lm.case_spec(key[0]).pages)
    for fn in fixture.truth.footnotes:
        text = " ".join(read.texts[fn.page:fn.page + 2] if key[0] == "continued-note"
                        else read.texts[fn.page:fn.page + 1])
        missing = words_in_order(fn.text.split(), text)
        assert missing is None, f"{fn.marker} on page {fn.page}: {missing!r} not found"
        assert printed(fn.marker) in read.texts[fn.page]  # the definition's own marker
        assert fn.cited_pages, fn.marker
        for page in fn.cited_pages:
            body = read.texts[page]
            if fn.page == page:  # the marker must occur beyond its own definition
                assert norm(body).count(printed(fn.marker)) >= 2, (fn.marker, page)
            else:
                assert printed(fn.marker) in body, (fn.marker, page)


def test_continued_note_spans_two_pages(matrix, reads) -> None:
    for writer in lm.WRITERS:
        truth, read = matrix[("continued-note", writer)].truth, reads[("continued-note", writer)]
        note = next(fn for fn in truth.footnotes if fn.marker == "[3]")
        assert note.page == 0
        tail = "assumption derived from the Bank of England inflation curve"
        assert tail in norm(read.texts[1]) and tail not in norm(read.texts[0])
        assert "and an inflation" in norm(read.texts[0])
        assert norm(note.text).endswith("to about 96%.")


def test_nested_definitions_cite_definitions(matrix) -> None:
    cites = {fn.marker: fn.cites for fn in matrix[("nested", "fpdf2")].truth.footnotes}
    assert cites["[2]"] == ["[4]"] and cites["[6]"] == ["[3]"]
    assert cites["[8]"] == ["[6]", "[7]"] and cites["[9]"] == ["[2]"]


def test_wrapped_marker_lines_begin_with_a_citation(reads) -> None:
    for writer in lm.WRITERS:
        lines = [line.strip() for text in reads[("wrapped-marker", writer)].texts
                 for line in text.splitlines()]
        assert any(line.startswith("[12]. The board") for line in lines), writer
        assert any(line.startswith("(4), and") for line in lines), writer


def test_rotated_page_carries_rotate_90(reads) -> None:
    for writer in lm.WRITERS:
        assert reads[("rotated", writer)].rotations == [0, 90]
        for case in lm.CASES:
            if case != "rotated":
                assert not any(reads[(case, writer)].rotations), case


def _body_chars(read: Read, page: int) -> list[dict]:
    """Characters between the running header and the note rule."""
    floor = read.rule_tops[page] or 1e9
    return [c for c in read.chars[page] if 50 < c["top"] < floor and c["text"].strip()]


def test_superscript_citations_are_small_raised_digits(matrix, reads) -> None:
    for writer in lm.WRITERS:
        read = reads[("superscript", writer)]
        for fn in matrix[("superscript", writer)].truth.footnotes:
            digits = printed(fn.marker)
            small = [c for c in _body_chars(read, fn.page)
                     if c["text"].isdigit() and c["size"] < BODY_PT - 1]
            runs = _runs(small)
            assert digits in runs, (writer, fn.marker, runs)
        body = [c for c in _body_chars(read, 0) if c["text"].isalpha() and c["size"] < 11]
        assert Counter(round(c["size"]) for c in body).most_common(1)[0][0] == BODY_PT


def _runs(chars: list[dict]) -> set[str]:
    """Digit strings of characters that touch each other on one baseline."""
    runs: list[list[dict]] = []
    for c in sorted(chars, key=lambda c: (round(c["top"]), c["x0"])):
        last = runs[-1][-1] if runs else None
        if last and abs(last["top"] - c["top"]) < 1 and abs(c["x0"] - last["x1"]) < 0.5:
            runs[-1].append(c)
        else:
            runs.append([c])
    return {"".join(c["text"] for c in run) for run in runs}


def _note_lines(read: Read, page: int) -> list[list[dict]]:
    """Lines of characters under the note rule, above the page footer."""
    rule = read.rule_tops[page]
    assert rule is not None
    chars = [c for c in read.chars[page] if rule < c["top"] and not c["text"].isspace()]
    footer_top = max(c["top"] for c in chars)
    lines: dict[int, list[dict]] = {}
    for c in chars:
        if c["top"] < footer_top - 2:
            lines.setdefault(round(c["bottom"]), []).append(c)
    return [sorted(v, key=lambda c: c["x0"]) for _, v in sorted(lines.items())]


def test_small_flush_notes_are_small_and_flush_left(reads) -> None:
    for writer in lm.WRITERS:
        read = reads[("small-flush", writer)]
        for page in range(len(read.texts)):
            body = [c for c in _body_chars(read, page) if c["size"] < 11]
            lines = _note_lines(read, page)
            note_sizes = {round(c["size"], 1) for line in lines for c in line}
            assert max(note_sizes) < min(round(c["size"], 1) for c in body)
            starts = [line[0] for line in lines]
            assert sum(c["text"] == "[" for c in starts) == 4  # four notes a page
            assert len(starts) > 4  # and continuation lines
            assert max(c["x0"] for c in starts) - min(c["x0"] for c in starts) < 0.5, writer


def test_hanging_indent_continuations_are_indented(reads) -> None:
    for writer in lm.WRITERS:
        read = reads[("hanging-indent", writer)]
        lines = _note_lines(read, 0)
        marker_x = {round(line[0]["x0"]) for line in lines if line[0]["text"] == "["}
        other_x = {round(line[0]["x0"]) for line in lines if line[0]["text"] != "["}
        assert len(marker_x) == 1 and len(other_x) == 1
        assert other_x.pop() > marker_x.pop() + 10


def test_plain_case_has_one_type_size(reads) -> None:
    for writer in lm.WRITERS:
        read = reads[("plain", writer)]
        sizes = {round(c["size"], 2) for page in read.chars for c in page}
        assert sizes == {10.0}, (writer, sizes)
        assert read.rule_tops[0] is not None


def test_four_digit_and_euro_decimal_markers(matrix, reads) -> None:
    for writer in lm.WRITERS:
        markers = [fn.marker for fn in matrix[("four-digit", writer)].truth.footnotes]
        assert markers == [f"[{n}]" for n in range(1000, 1025)]
        text = norm(" ".join(reads[("euro-decimal", writer)].texts))
        assert "margin of 8,5 % (2)" in text and "rose 12,3% [5]" in text


def test_dense_notes_share_their_wording(matrix, reads) -> None:
    for writer in lm.WRITERS:
        truth = matrix[("dense", writer)].truth
        assert len(truth.footnotes) >= 18
        by_page = Counter(fn.page for fn in truth.footnotes)
        assert sorted(by_page) == [0, 1, 2] and min(by_page.values()) >= 6
        shapes = Counter(re.sub(r"\d+", "#", fn.text) for fn in truth.footnotes)
        assert shapes.most_common(1)[0][1] >= 9
        for fn in truth.footnotes:
            assert fn.cited_pages == [fn.page]
        first_body_line = reads[("dense", writer)].texts[0].splitlines()[1]
        assert "[1]" in first_body_line, first_body_line


def test_the_two_writers_differ(reads) -> None:
    for case in lm.CASES:
        a, b = reads[(case, "fpdf2")], reads[(case, "reportlab")]
        assert a.producer and b.producer and a.producer != b.producer, case
        fonts = [{c["fontname"].split("+")[-1] for page in r.chars for c in page} for r in (a, b)]
        assert not fonts[0] & fonts[1] - {"Helvetica"}, case  # body faces differ


def test_fixtures_are_deterministic(tmp_path: Path, matrix) -> None:
    for case in ("rotated", "superscript"):
        for writer in lm.WRITERS:
            again = lm.build_layout_fixture(case, writer, tmp_path)
            assert again.path.read_bytes() == matrix[(case, writer)].path.read_bytes()
            assert again.truth == matrix[(case, writer)].truth


def test_combined_demo_documents(demo) -> None:
    root, files = demo
    assert [f.document for f in files] == ["layout-matrix-fpdf2", "layout-matrix-reportlab"]
    starts, pages = lm.combined_pages()
    assert [case for case, _ in starts] == [c for c in lm.CASES if c != "plain"]
    truths: list[FootnoteTruth] = []
    for f in files:
        assert f.year == 2024 and f.n_questions == 0 and f.path.is_file()
        truth = load_truth(root / "truth", f.document, 2024)
        assert truth is not None
        truths.append(truth)
        brackets = [fn.marker for fn in truth.footnotes if fn.marker.startswith("[")]
        assert len(brackets) == len(set(brackets))
        doc = pdfium.PdfDocument(f.path)
        try:
            texts = [page.get_textpage().get_text_range() for page in doc]
            rotated = [i for i, page in enumerate(doc) if page.get_rotation()]
        finally:
            doc.close()
        assert len(texts) == len(pages)
        assert rotated == [i for i, p in enumerate(pages) if p.rotate]
        for case, first in starts[1:]:  # every case starts on its own page
            opening = lm.case_spec(case).pages[0].blocks[0]
            assert isinstance(opening, Para)
            assert words_in_order(plain(opening.text).split()[:2], texts[first]) is None, case
        for fn in truth.footnotes:  # renumbered definitions and citations still line up
            text = " ".join(texts[fn.page:fn.page + 2])
            assert words_in_order(fn.text.split(), text) is None, fn.marker
            for page in fn.cited_pages:
                assert printed(fn.marker) in texts[page], (fn.marker, page)
    strip = [t.model_dump(exclude={"document"}) for t in truths]
    assert strip[0] == strip[1]
    n = sum(len(lm.spec_truth("x", lm.case_spec(c).pages).footnotes)
            for c in lm.CASES if c != "plain")
    assert len(truths[0].footnotes) == n
