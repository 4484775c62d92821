"""Bounded stitching (issue 12, item 2): the stitched text inlines a definition after every
citing sentence, an enriched chunk stores it once, after its first citing sentence there.

The documents are plain-text reports read by the project's own pipeline: load_document ->
build_footnote_index -> the dictionary and registry tables -> stitch_document -> the stitched
table -> naive_chunks / enriched_chunks, as the ingest assets run them."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

from rag_assets.core.chunks.chunking import (
    Chunk,
    ChunkSettings,
    colocation,
    count_tokens,
    drop_repeated_blocks,
    enriched_chunks,
    evidence_pages,
    naive_chunks,
    sentences_with_blocks,
)
from rag_assets.core.footnotes.checks import text_conservation
from rag_assets.core.footnotes.stitching import (
    FOOTNOTE_BLOCK_RE,
    FootnoteIndex,
    StitchedPage,
    build_footnote_index,
    stitch_document,
    stitching_coverage,
)
from rag_assets.core.ingest.documents import load_document
from rag_assets.core.warehouse.tables import (
    frame_to_stitched,
    frames_to_index,
    index_to_frames,
    stitched_to_frame,
)

N_SENTENCES = 500
DEFINITION = (
    "Segment amounts are stated in millions of U.S. dollars, exclude discontinued operations "
    "and foreign exchange effects, and are restated for the 2023 change in reportable segments "
    "described in Note 4 to the consolidated financial statements."
)
BLOCK_7 = f"{{FOOTNOTE [7]: {DEFINITION}}}"


@dataclass(frozen=True)
class Ingested:
    index: FootnoteIndex
    registry: pd.DataFrame
    stitched: list[StitchedPage]
    naive: list[Chunk]
    enriched: list[Chunk]


def ingest(path: Path, settings: ChunkSettings | None = None) -> Ingested:
    """What the ingest assets do with a report file, through their warehouse tables."""
    doc = load_document(path)
    dictionary, registry = index_to_frames(build_footnote_index(doc.pages), "doc", 2024)
    index = frames_to_index(dictionary, registry)
    stitched = frame_to_stitched(
        stitched_to_frame(stitch_document(doc.pages, index), "doc", 2024)
    )
    assert text_conservation(doc.pages, index, stitched).lost == []
    coverage = stitching_coverage(index, stitched)
    assert coverage.missing == [] and coverage.unresolved == []
    return Ingested(
        index=index,
        registry=registry,
        stitched=stitched,
        naive=naive_chunks(doc.pages, "doc", 2024, index, settings),
        enriched=enriched_chunks(stitched, "doc", 2024, index, settings),
    )


def sentence(n: int) -> str:
    return f"In region {n}, revenue grew by {n % 9}.{n % 7} percent [7]."


def write_report(path: Path, definition_on: str) -> Path:
    """Two pages (form feed between them), 250 sentences each citing [7], two to a line; [7]
    defined under a ``__________`` rule at the foot of each page, or of the last one only."""
    pages = []
    for page in range(2):
        sentences = [sentence(n) for n in range(page * 250 + 1, page * 250 + 251)]
        lines = [" ".join(sentences[i : i + 2]) for i in range(0, len(sentences), 2)]
        if definition_on == "each page" or page == 1:
            lines += ["__________", f"[7] {DEFINITION}"]
        pages.append("\n".join(lines))
    path.write_text("\f".join(pages) + "\n", encoding="utf-8")
    return path


def body_sentences(texts: list[str]) -> Counter[str]:
    """The sentences of ``texts`` with every footnote block taken out."""
    out: Counter[str] = Counter()
    for text in texts:
        out.update(sentences_with_blocks(" ".join(FOOTNOTE_BLOCK_RE.sub(" ", text).split())))
    return out


@pytest.fixture(scope="module", params=["each page", "last page"])
def cited_500(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Ingested:
    path = tmp_path_factory.mktemp("bounded") / "report.txt"
    return ingest(write_report(path, request.param))


def test_500_citations_stay_in_the_registry_and_the_stitched_text(cited_500: Ingested) -> None:
    """Only the chunks are bounded: the registry records every citation and the stitched text
    still inlines the definition after each citing sentence."""
    assert len(cited_500.registry) == N_SENTENCES
    assert set(cited_500.registry.marker) == {"[7]"}
    assert set(cited_500.registry.resolution) == {"stitched"}
    assert [f.marker for f in cited_500.index.footnotes] == ["[7]"]
    assert sum(p.text.count(BLOCK_7) for p in cited_500.stitched) == N_SENTENCES


def test_500_citations_give_about_as_many_enriched_chunks_as_naive(cited_500: Ingested) -> None:
    """The issue's acceptance: enriched chunk count close to naive (it was 167 vs 27). Measured
    within 10% when naive windows shared 25% of their text; since issue 9 they share 24 of 256
    tokens (fewer windows) while each enriched chunk still carries its definition once: 15%."""
    naive, enriched = len(cited_500.naive), len(cited_500.enriched)
    assert abs(enriched - naive) <= 0.15 * naive, (naive, enriched)


def test_each_chunk_holds_the_definition_once_after_its_first_citing_sentence(
    cited_500: Ingested,
) -> None:
    for chunk in cited_500.enriched:
        assert chunk.markers_cited == ["[7]"] == chunk.markers_defined, chunk.chunk_id
        assert chunk.text.count("{FOOTNOTE") == chunk.text.count(BLOCK_7) == 1, chunk.chunk_id
        first_citation = chunk.text.index("[7].") + len("[7].")
        assert chunk.text.index(BLOCK_7) == first_citation + 1, chunk.chunk_id
    assert colocation(cited_500.enriched) == (len(cited_500.enriched),) * 2
    page_of_definition = cited_500.index.footnotes[0].page_index
    for chunk in cited_500.enriched:
        assert page_of_definition in evidence_pages(chunk, cited_500.index.footnotes)


def test_no_body_sentence_is_lost(cited_500: Ingested) -> None:
    written = Counter(sentence(n) for n in range(1, N_SENTENCES + 1))
    assert body_sentences([p.text for p in cited_500.stitched]) == written
    assert body_sentences([c.text for c in cited_500.enriched]) == written
    # and in order: the chunks are the stitched text without the repeated blocks
    in_chunks = " ".join(FOOTNOTE_BLOCK_RE.sub(" ", c.text) for c in cited_500.enriched).split()
    in_stitched = " ".join(FOOTNOTE_BLOCK_RE.sub(" ", p.text) for p in cited_500.stitched).split()
    assert in_chunks == in_stitched


def test_chunks_are_sized_as_stored(cited_500: Ingested) -> None:
    """Repeated blocks do not count: a chunk closes only when the next sentence, as it would be
    stored (without the block), no longer fits the model's window."""
    window = ChunkSettings().max_tokens
    longest = max(count_tokens([sentence(n) for n in range(1, N_SENTENCES + 1)]))
    for chunk in cited_500.enriched:
        assert chunk.n_tokens <= window
    for chunk in cited_500.enriched[:-1]:
        assert chunk.n_tokens > window - longest - 1, chunk.chunk_id


# --- closures, fresh chunks and tables ------------------------------------------------------

NOTE_3 = "Restated for the disposal described in [4]."
NOTE_4 = "The gain on the sale of the Kestrel Park campus."


def test_closure_is_stored_once_per_chunk_and_again_in_a_fresh_chunk(tmp_path: Path) -> None:
    """[3] cites [4]: its citing sentence carries both blocks. Within a chunk a later citation
    of [3] or of [4] keeps its marker only; the next chunk gets the blocks again."""
    sentences = []
    for n in range(1, 41):
        marker = "[3]" if n % 2 else "[4]"
        sentences.append(f"Line {n} of the review cites a note {marker}.")
    lines = [" ".join(sentences[i : i + 2]) for i in range(0, len(sentences), 2)]
    path = tmp_path / "closure.txt"
    path.write_text("\n".join([*lines, "__________", f"[3] {NOTE_3}", f"[4] {NOTE_4}"]) + "\n")
    settings = ChunkSettings(max_tokens=128, overlap_tokens=20)
    run = ingest(path, settings)
    block_3, block_4 = f"{{FOOTNOTE [3]: {NOTE_3}}}", f"{{FOOTNOTE [4]: {NOTE_4}}}"
    stitched = "\n".join(p.text for p in run.stitched)
    assert stitched.count(block_3) == 20 and stitched.count(block_4) == 40  # 20 by closure
    assert len(run.enriched) >= 3
    for chunk in run.enriched:
        first = re.search(r"\[[34]\]\.", chunk.text)
        assert first is not None
        assert chunk.text.count(block_4) == 1, chunk.chunk_id
        if "[3]." in chunk.text:
            assert chunk.text.count(block_3) == 1, chunk.chunk_id
            at_3 = chunk.text.index("[3].") + len("[3]. ")
            assert chunk.text.index(block_3) == at_3  # after its first citing sentence
        assert chunk.text.index("{FOOTNOTE") == first.end() + 1, chunk.chunk_id
        assert set(chunk.markers_cited) <= set(chunk.markers_defined)
    written = Counter(sentences)
    assert body_sentences([c.text for c in run.enriched]) == written
    assert len(run.registry) == 40 + 1  # 40 in the text, [4] once in [3]'s definition


def test_table_keeps_its_notes_in_a_chunk_that_already_holds_them() -> None:
    notes = ["{FOOTNOTE [1]: Includes an acquisition.}", "{FOOTNOTE [2]: Restated.}"]
    text = "\n".join([
        "Revenue rose [1]. {FOOTNOTE [1]: Includes an acquisition.}",
        "Table 1: Revenue",
        "| Segment | FY 2024 |",
        "|---|---|",
        "| East [1] | 10 |",
        "| West [2] | 12 |",
        *notes,
        "",
        "West was restated [2]. {FOOTNOTE [2]: Restated.} East grew [1]. "
        "{FOOTNOTE [1]: Includes an acquisition.}",
    ])
    page = StitchedPage(page_index=0, page_label="1", section=None, text=text)
    chunks = enriched_chunks([page], "doc", 2024, FootnoteIndex(footnotes=[], citations=[]))
    assert len(chunks) == 1
    lines = chunks[0].text.split("\n")
    at = lines.index("| West [2] | 12 |")
    assert lines[at + 1 : at + 3] == notes  # the table's notes stay under it
    assert lines[0] == "Revenue rose [1]. {FOOTNOTE [1]: Includes an acquisition.}"
    assert lines[-2:] == ["West was restated [2].", "East grew [1]."]  # the table holds both


def test_drop_repeated_blocks() -> None:
    a, b = "{FOOTNOTE [1]: One. Two.}", "{FOOTNOTE (a): Other.}"
    assert drop_repeated_blocks(f"Up [1]. {a} {b}", {a}) == f"Up [1]. {b}"
    twice = f"Up [1] {a} and down [1]. {a}"
    assert drop_repeated_blocks(twice, set()) == f"Up [1] {a} and down [1]."
    assert drop_repeated_blocks(f"{a} {b}", {a, b}) == ""
    assert drop_repeated_blocks("No blocks [1].", {a}) == "No blocks [1]."
