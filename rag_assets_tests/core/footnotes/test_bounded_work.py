"""Bounded work (issue 19, item 3: "a long line runs away").

A 5 MB ``.txt`` written as one line (170,000 sentences citing one note, the note at the end) sat
in the ``footnotes`` step for more than 5 minutes: every citation re-read its line from the
start. Here every stage runs at two sizes of the same input in one process, and its work must
grow about linearly: the ratio of the calls it makes at the two sizes, counted, never timed
(``rag_assets_tests/work_count.py``; the timings are ``bench/scaling_bench.py``'s). The
stitched text is bounded (a note in full at its first ``FULL_BLOCKS_PER_PAGE`` citing places of
a page, then a short reference), and nothing is lost for it: the note is found, every citation
resolved, every body word kept, and every enriched chunk that cites the note holds it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rag_assets.core.chunks.chunking import (
    ChunkSettings,
    colocation,
    enriched_chunks,
    naive_chunks,
    resolve_blocks,
)
from rag_assets.core.footnotes import checks
from rag_assets.core.footnotes.checks import text_conservation
from rag_assets.core.footnotes.stitching import (
    FOOTNOTE_BLOCK_RE,
    FULL_BLOCKS_PER_PAGE,
    REFERENCE_TEXT,
    Footnote,
    FootnoteIndex,
    StitchedPage,
    _PageBlocks,
    build_footnote_index,
    footnote_block,
    footnote_reference,
    stitch_document,
    stitching_coverage,
)
from rag_assets.core.ingest.documents import LONG_LINE_CHARS, break_long_line, load_document
from rag_assets.core.ingest.pages import Page
from rag_assets.core.warehouse.tables import (
    frame_to_stitched,
    frames_to_index,
    index_to_frames,
    stitched_to_frame,
)
from rag_assets_tests.work_count import growth

SENTENCE = "Revenue grew in the quarter [1]. "
NOTE = "[1] Includes acquisitions."
BLOCK = "{FOOTNOTE [1]: Includes acquisitions.}"
REFERENCE = footnote_reference("[1]")


def one_line_report(sentences: int, *, note_inline: bool = False) -> str:
    """The issue's report: one line of sentences citing [1], the note after them (on a line of
    its own, or at the end of the same line)."""
    return SENTENCE * sentences + ("" if note_inline else "\n") + NOTE + "\n"


def body_words(text: str) -> list[str]:
    return checks.words(FOOTNOTE_BLOCK_RE.sub(" ", text))


@pytest.fixture(scope="module", params=["note on its own line", "note at the end of the line"])
def report(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """2,000 sentences on one line (past the stitching bound) through the ingest path: loader,
    index, its warehouse tables, stitcher, checks, both chunkers."""
    sentences = 2_000
    path = tmp_path_factory.mktemp("one_line") / "report.txt"
    path.write_text(one_line_report(sentences, note_inline=request.param != "note on its own line"))
    doc = load_document(path)
    built = build_footnote_index(doc.pages)
    dictionary, registry = index_to_frames(built, "doc", 2024)
    index = frames_to_index(dictionary, registry)
    stitched = frame_to_stitched(stitched_to_frame(stitch_document(doc.pages, index), "doc", 2024))
    return {
        "sentences": sentences, "doc": doc, "index": index, "registry": registry,
        "stitched": stitched, "naive": naive_chunks(doc.pages, "doc", 2024, index),
        "enriched": enriched_chunks(stitched, "doc", 2024, index),
    }


def test_the_note_is_found_and_every_citation_resolved(report: dict) -> None:
    index: FootnoteIndex = report["index"]
    assert [(f.marker, f.text) for f in index.footnotes] == [("[1]", "Includes acquisitions.")]
    assert len(report["registry"]) == report["sentences"]
    assert set(report["registry"].resolution) == {"stitched"}
    # the dictionary keeps each distinct citing sentence once, not 2,000 copies
    assert index.footnotes[0].citing_sentences == [SENTENCE.strip()]
    assert any("one per sentence" in w for w in report["doc"].warnings)


def test_the_stitched_text_is_bounded_and_loses_nothing(report: dict) -> None:
    text = "\n".join(p.text for p in report["stitched"])
    references = report["sentences"] - FULL_BLOCKS_PER_PAGE
    assert text.count(BLOCK) == FULL_BLOCKS_PER_PAGE
    assert text.count(REFERENCE) == references
    assert text.count("{FOOTNOTE") == report["sentences"]  # one block or reference per citation
    # its size: the body, the note's text 256 times, a short reference for each of the rest
    body = len(SENTENCE) * report["sentences"]
    assert len(text) <= body + FULL_BLOCKS_PER_PAGE * (len(BLOCK) + 1) + references * (
        len(REFERENCE) + 1)
    # the first references come right after the 256th full block
    assert text.index(REFERENCE) > text.rindex(BLOCK)
    assert text_conservation(report["doc"].pages, report["index"], report["stitched"]).lost == []
    coverage = stitching_coverage(report["index"], report["stitched"])
    assert coverage.missing == [] and coverage.unresolved == []
    assert body_words(text) == checks.words(SENTENCE * report["sentences"])


def test_every_enriched_chunk_citing_the_note_holds_it(report: dict) -> None:
    enriched = report["enriched"]
    assert len(enriched) > 20
    assert colocation(enriched) == (len(enriched), len(enriched))
    for chunk in enriched:
        assert REFERENCE_TEXT not in chunk.text, chunk.chunk_id
        assert chunk.text.count(BLOCK) == 1, chunk.chunk_id
        assert chunk.n_tokens <= ChunkSettings().max_tokens
    in_chunks = " ".join(FOOTNOTE_BLOCK_RE.sub(" ", c.text) for c in enriched).split()
    assert in_chunks == (SENTENCE * report["sentences"]).split()
    naive = len(report["naive"])
    assert abs(len(enriched) - naive) <= 0.15 * naive, (naive, len(enriched))


def test_a_reference_put_back_that_does_not_fit_is_cut_with_its_definition(
    tmp_path: Path,
) -> None:
    """A definition too long to sit beside its sentence in a small window: past the bound the
    chunker puts it back from the reference and cuts, as it cuts a stitched sentence."""
    note = " ".join(["Includes the acquisitions of the quarter and their integration costs"] * 4)
    path = tmp_path / "long_note.txt"
    sentences = FULL_BLOCKS_PER_PAGE + 40
    path.write_text(SENTENCE * sentences + f"\n[1] {note}.\n")
    doc = load_document(path)
    index = build_footnote_index(doc.pages)
    stitched = stitch_document(doc.pages, index)
    assert "\n".join(p.text for p in stitched).count(REFERENCE) == 40
    settings = ChunkSettings(max_tokens=64, overlap_tokens=8)
    chunks = enriched_chunks(stitched, "doc", 2024, index, settings)
    assert all(c.n_tokens <= 64 for c in chunks)
    assert all(REFERENCE_TEXT not in c.text for c in chunks)
    in_chunks = " ".join(FOOTNOTE_BLOCK_RE.sub(" ", c.text) for c in chunks).split()
    assert in_chunks == (SENTENCE * sentences).split()
    # the sentences past the bound are chunked as the first ones, whose definition was
    # stitched in full: the same pieces, each definition whole
    texts = [c.text for c in chunks]
    per_sentence = len(texts) // sentences
    assert len(texts) == per_sentence * sentences
    assert texts[-40 * per_sentence:] == texts[: 40 * per_sentence]
    assert sum(f"[1] {note}." in FOOTNOTE_BLOCK_RE.sub(
        lambda m: f"{m.group('marker')} {m.group('text')}", t) for t in texts) == sentences


def test_a_reference_stands_for_the_nearest_full_block_of_its_marker() -> None:
    """Two ``(1)`` notes on one page (two tables): a reference is read as the last full block
    of its marker above it, which the stitcher writes only where that block is its own."""
    a, b = "{FOOTNOTE (1): Note of table A.}", "{FOOTNOTE (1): Note of table B.}"
    ref = footnote_reference("(1)")
    assert resolve_blocks(f"Up (1). {ref}", set(), {"(1)": a}) == f"Up (1). {a}"
    assert resolve_blocks(f"Up (1). {ref}", {a}, {"(1)": a}) == "Up (1)."
    assert resolve_blocks(f"Up (1). {b} Down (1). {ref}", set(), {"(1)": a}) == (
        f"Up (1). {b} Down (1).")
    assert resolve_blocks(f"Up (1). {ref}", set()) == f"Up (1). {ref}"  # nothing to stand for
    # sentences long enough that each opens a chunk of its own in a 48-token window
    rose, fell = "rose in every region of the group this year, led by the north", "fell"
    lines = [f"Sales {rose} (1). {a}", f"Sales {fell} {rose[5:]} (1). {ref}", "",
             f"Costs {rose} (1). {b}", f"Costs {fell} {rose[5:]} (1). {ref}"]
    page = StitchedPage(page_index=0, page_label="1", section=None, text="\n".join(lines))
    chunks = enriched_chunks([page], "doc", 2024, FootnoteIndex(footnotes=[], citations=[]),
                             ChunkSettings(max_tokens=48, overlap_tokens=0))
    assert [c.text for c in chunks] == [
        lines[0], lines[1].replace(ref, a), lines[3], lines[4].replace(ref, b)]


def test_the_stitcher_writes_a_reference_only_after_its_own_full_block() -> None:
    a = Footnote(footnote_id="(1)@0", marker="(1)", style="paren-number", text="A.",
                 page_index=0, line=5)
    b = a.model_copy(update={"footnote_id": "(1)@0.2", "text": "B.", "line": 9})
    blocks = _PageBlocks({a.footnote_id: a, b.footnote_id: b})
    ref = footnote_reference("(1)")
    written = [blocks.block(a.footnote_id) for _ in range(FULL_BLOCKS_PER_PAGE + 2)]
    assert written == [footnote_block(a)] * FULL_BLOCKS_PER_PAGE + [ref, ref]
    assert blocks.block(b.footnote_id) == footnote_block(b)  # its first: in full
    assert blocks.block(a.footnote_id) == footnote_block(a)  # the (1) above is B's: in full
    assert blocks.block(a.footnote_id) == ref


def test_a_long_line_is_read_one_sentence_per_line() -> None:
    short = SENTENCE * 10
    assert break_long_line(short) == [short]
    long = SENTENCE * (LONG_LINE_CHARS // len(SENTENCE) + 10) + NOTE
    lines = break_long_line(long)
    assert lines[-1] == NOTE
    assert set(lines[:-1]) == {SENTENCE.strip()}
    assert " ".join(lines).split() == long.split()


def test_conservation_windows_find_lost_words_in_a_long_middle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(checks, "DIFF_WORDS", 50)
    given = [f"w{n}" for n in range(1_000)]
    kept = [w for w in given if w not in {"w3", "w400", "w998"}]
    kept[500:500] = ["added"] * 30  # words the stitcher added in between
    assert checks._not_in_order(given, kept) == ["w3", "w400", "w998"]
    assert checks._not_in_order(given, given) == []


# --- work grows linearly ------------------------------------------------------------------------

# 4x the input: linear work makes about 4x the calls, n log n 4.6x, quadratic 16x
GROWTH, RATIO = 4, 5.0

STAGES: dict[str, Callable[[dict], Any]] = {
    "load": lambda run: load_document(run["path"]),
    "index": lambda run: build_footnote_index(run["pages"]),
    "stitch": lambda run: stitch_document(run["pages"], run["index"]),
    "coverage": lambda run: stitching_coverage(run["index"], run["stitched"]),
    "conservation": lambda run: text_conservation(run["pages"], run["index"], run["stitched"]),
    "naive": lambda run: naive_chunks(run["pages"], "doc", 2024, run["index"]),
    "enriched": lambda run: enriched_chunks(run["stitched"], "doc", 2024, run["index"]),
}


def grown(runs: list[dict], stages: list[str]) -> dict[str, float]:
    """calls(larger) / calls(smaller) of each of ``stages`` on the two ``runs`` (their pages, or
    file), counted (``work_count``): the same figure on every run, however busy the machine."""
    for run in runs:
        run["index"] = build_footnote_index(run["pages"])
        run["stitched"] = stitch_document(run["pages"], run["index"])
    return {stage: growth(STAGES[stage], *runs) for stage in stages}


def unbroken_page(text: str) -> list[Page]:
    """The text as one page whose first line is the whole body: the loader would break a line
    this long, the stages must not depend on it."""
    lines = text.rstrip("\n").split("\n")
    zone = [n for n, line in enumerate(lines) if re.match(r"^_{5,}$", line)]
    notes = list(range(zone[0] + 1, len(lines))) if zone else []
    return [Page(page_index=0, page_label="1", text="\n".join(lines), note_lines=notes)]


@pytest.mark.parametrize(
    ("shape", "make"),
    [
        ("[1] on one line", lambda n: one_line_report(n)),
        ("(1) on one line without a full stop, a rule above the note",
         lambda n: "sales rose by volume (1) " * n + "\n__________\n(1) Includes acquisitions.\n"),
    ],
)
@pytest.mark.slow
def test_footnote_stages_grow_linearly_on_one_long_line(shape: str, make) -> None:
    """The footnote stages given one unbroken line, as the issue's file reached them: 5,000
    and 20,000 citations (0.15 and 0.65 MB). Each stage's calls at four times the size are under
    5x its calls at the size (quadratic work: 16x)."""
    runs = [{"pages": unbroken_page(make(n))} for n in (5_000, 5_000 * GROWTH)]
    ratios = grown(runs, ["index", "stitch", "coverage", "conservation"])
    assert all(r < RATIO for r in ratios.values()), (shape, ratios)


@pytest.mark.slow
def test_loading_and_chunking_grow_linearly_from_the_file(tmp_path: Path) -> None:
    """The issue's file at 2,500 and 10,000 sentences: the loader (which reads the line one
    sentence per line) and both chunkers after the footnote stages. Each stage's calls at four
    times the size are under 5x its calls at the size."""
    runs = []
    for sentences in (2_500, 2_500 * GROWTH):
        path = tmp_path / f"one_line_{sentences}.txt"
        path.write_text(one_line_report(sentences))
        runs.append({"path": path, "pages": load_document(path).pages})
    ratios = grown(runs, ["load", "naive", "enriched"])
    assert all(r < RATIO for r in ratios.values()), ratios
