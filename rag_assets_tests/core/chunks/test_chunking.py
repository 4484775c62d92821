"""Naive and enriched chunks: footnote co-location, whole footnote blocks, long tables split by
rows with their header and notes, section boundaries, sentence splitting."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from rag_assets.core.chunks.chunking import (
    Chunk,
    ChunkSettings,
    colocation,
    count_tokens,
    enriched_chunks,
    evidence_pages,
    naive_chunks,
    sentences_with_blocks,
    special_tokens,
)
from rag_assets.core.footnotes.stitching import FOOTNOTE_BLOCK_RE, FootnoteIndex, StitchedPage
from rag_assets.core.ingest.layout import detect_heading
from rag_assets.samples import earnings as ern

from ..conftest import Processed

SMALL = ChunkSettings(max_tokens=112, overlap_tokens=16)  # the longest block (75) still fits


def _naive(p: Processed, settings: ChunkSettings | None = None) -> list[Chunk]:
    return naive_chunks(p.pages, "doc", 2024, p.index, settings)


def _enriched(p: Processed, settings: ChunkSettings | None = None) -> list[Chunk]:
    return enriched_chunks(p.stitched, "doc", 2024, p.index, settings)


def _ratio(chunks: Sequence[Chunk]) -> float:
    pairs, colocated = colocation(chunks)
    return colocated / pairs


# --- co-location ----------------------------------------------------------------------------


def test_enriched_chunks_colocate_every_cited_footnote(earnings: Processed) -> None:
    chunks = _enriched(earnings)
    pairs, colocated = colocation(chunks)
    assert pairs >= ern.N_FOOTNOTES
    assert colocated == pairs
    cited = set().union(*(c.markers_cited for c in chunks))
    assert cited == {f"[{n}]" for n in range(1, ern.N_FOOTNOTES + 1)}


def test_naive_chunks_colocate_strictly_less(earnings: Processed) -> None:
    naive, enriched = _naive(earnings), _enriched(earnings)
    pairs, colocated = colocation(naive)
    assert pairs > 0
    assert _ratio(naive) < _ratio(enriched) == 1.0
    assert _ratio(naive) < 0.5  # 18 of 64 when this was written: notes sit at the page bottom


# --- chunk invariants -----------------------------------------------------------------------


@pytest.mark.parametrize("settings", [None, SMALL], ids=["default", "small"])
def test_enriched_chunks_never_split_a_footnote_block(
    earnings: Processed, settings: ChunkSettings | None
) -> None:
    chunks = _enriched(earnings, settings)
    n_blocks = 0
    for chunk in chunks:
        opens = [m.start() for m in re.finditer(r"\{FOOTNOTE", chunk.text)]
        whole = [m.start() for m in FOOTNOTE_BLOCK_RE.finditer(chunk.text)]
        assert opens == whole, chunk.chunk_id
        assert chunk.text.count("}") == len(whole), chunk.chunk_id  # no tail of a block either
        n_blocks += len(whole)
    stitched_blocks = {m.group(0) for p in earnings.stitched
                       for m in FOOTNOTE_BLOCK_RE.finditer(p.text)}
    in_chunks = {m.group(0) for c in chunks for m in FOOTNOTE_BLOCK_RE.finditer(c.text)}
    assert in_chunks == stitched_blocks  # every block made it into a chunk (once per chunk)
    assert n_blocks >= len(stitched_blocks)


@pytest.mark.parametrize("kind", ["naive", "enriched"])
def test_chunk_ids_and_pages(earnings: Processed, kind: str) -> None:
    chunks = _naive(earnings) if kind == "naive" else _enriched(earnings)
    ids = [c.chunk_id for c in chunks]
    assert len(set(ids)) == len(ids)
    assert [c.seq for c in chunks] == list(range(len(chunks)))
    assert ids[0] == f"doc:2024:{kind}:00000"
    for c in chunks:
        assert 0 <= c.page_start <= c.page_end < ern.N_PAGES
        assert c.n_chars == len(c.text) > 0
        assert c.n_tokens > 0
    assert chunks[0].page_start == 0 and chunks[-1].page_end == ern.N_PAGES - 1
    assert [c.page_start for c in chunks] == sorted(c.page_start for c in chunks)


def test_naive_window_size_and_overlap(earnings: Processed) -> None:
    """Windows fill the model's window (header included) and share about ``overlap_tokens``."""
    settings = ChunkSettings()
    chunks = _naive(earnings, settings)
    assert len(chunks) > 10
    assert max(c.n_tokens for c in chunks) <= settings.max_tokens
    # a cut moves back to the start of a word: a markdown rule ("|---|---|") is one long word
    short = [c.n_tokens for c in chunks[:-1] if c.n_tokens < settings.max_tokens - 12]
    assert len(short) <= len(chunks) // 10 and min(short, default=256) >= settings.max_tokens - 40
    assert count_tokens([c.search_text for c in chunks]) == [c.n_tokens for c in chunks]
    for a, b in zip(chunks, chunks[1:], strict=False):
        overlap = next(
            (a.text[i:] for i in range(len(a.text)) if b.text.startswith(a.text[i:])), ""
        )
        shared = count_tokens([overlap])[0] - special_tokens()
        assert settings.overlap_tokens <= shared <= settings.overlap_tokens + 16, (a.seq, shared)


@pytest.mark.parametrize("fixture", ["tei", "gdpr"])
def test_enriched_chunks_keep_all_text_in_order(
    request: pytest.FixtureRequest, fixture: str
) -> None:
    """Without tables to split, the chunks are the stitched text, cut only between units."""
    processed: Processed = request.getfixturevalue(fixture)
    chunks = _enriched(processed)
    words = " ".join(p.text for p in processed.stitched).split()
    assert " ".join(c.text for c in chunks).split() == words


# --- long tables ----------------------------------------------------------------------------


def _long_table_page() -> tuple[StitchedPage, list[str], dict[str, int]]:
    cited_at = {"[1]": 5, "[2]": 30, "[3]": 55}  # marker -> row number
    rows = []
    for n in range(1, 61):
        marker = next((m for m, row in cited_at.items() if row == n), "")
        rows.append(f"| Line item {n:02d}{' ' + marker if marker else ''} | {n * 10} | {n * 9} |")
    notes = [
        "{FOOTNOTE [1]: Row five includes an acquisition.}",
        "{FOOTNOTE [2]: Row thirty is restated.}",
        "{FOOTNOTE [3]: Row fifty-five excludes the one-time gain described in [4].}",
        "{FOOTNOTE [4]: The gain on the sale of the Kestrel Park campus.}",  # cited by [3] only
    ]
    text = "\n".join([
        "## Figures",
        "The table below lists every line item.",
        "Table 9: Figures by line item (in $ millions)",
        "| Line item | FY 2024 | FY 2023 |",
        "|---|---|---|",
        *rows,
        *notes,
        "Totals are unaudited.",
    ])
    page = StitchedPage(page_index=0, page_label="1", section=None, text=text)
    return page, rows, cited_at


def test_long_table_is_split_by_rows_with_header_and_notes() -> None:
    page, rows, cited_at = _long_table_page()
    settings = ChunkSettings(max_tokens=128)
    index = FootnoteIndex(footnotes=[], citations=[])
    chunks = enriched_chunks([page], "doc", 2024, index, settings)
    parts = [c for c in chunks if re.search(r"^\| Line item \d\d", c.text, re.MULTILINE)]
    assert len(parts) >= 5
    row_55 = next(c for c in parts if rows[54] in c.text)
    assert row_55 is not parts[-1]  # so [4] cannot land there as a left-over note
    blocks = {m.group("marker"): m.group(0) for m in FOOTNOTE_BLOCK_RE.finditer(page.text)}
    assert sorted(blocks) == ["[1]", "[2]", "[3]", "[4]"]
    seen: list[str] = []
    for chunk in parts:
        lines = chunk.text.split("\n")
        at = lines.index("Table 9: Figures by line item (in $ millions)")
        # the header names the units the title prints (the statement table reader's)
        assert lines[at + 1 : at + 3] == ["| Line item (USD millions) | FY 2024 | FY 2023 |",
                                          "|---|---|---|"]
        body = [ln for ln in lines if re.match(r"^\| Line item \d\d", ln)]
        assert body and lines[at + 3 : at + 3 + len(body)] == body  # rows follow the header
        seen += body
        for marker, row in [*cited_at.items(), ("[4]", 55)]:  # [4] goes where [3] is cited
            block = blocks[marker]
            assert (block in chunk.text) == (rows[row - 1] in body), (marker, chunk.seq)
        assert chunk.section == "Figures"
    assert seen == rows  # every row once, in order
    assert all(c.n_tokens <= settings.max_tokens for c in parts)


def test_a_table_part_repeats_the_caption_its_rows_are_under() -> None:
    """A segment table printed twice over, under "Net sales:" and "Operating profit:", split
    into parts: a part that starts inside a block repeats its caption after the header (so its
    rows still say what they measure), no part ends on a caption, and every row is kept once,
    in order."""
    segments = [f"Segment {chr(65 + n)} {name}" for n, name in
                enumerate(["Retail", "Foodservice", "Pet", "Europe", "Asia", "Latin",
                           "Canada", "Snacks", "Cereal", "Yogurt", "Baking", "Meals"])]
    blocks = {"Net sales:": 10_000, "Operating profit:": 10}
    rows, body = [], []
    for caption, scale in blocks.items():
        rows.append(f"| {caption} |  |  |")
        for n, segment in enumerate(segments):
            rows.append(f"| {segment} | {scale * (n + 2)}.5 | {scale * (n + 1)}.5 |")
            body.append(rows[-1])
        rows.append(f"| Total | {scale * 90}.0 | {scale * 78}.0 |")
        body.append(rows[-1])
    text = "\n".join(["## Segments", "Our operating segment results were as follows:",
                      "| In Millions | FY 2024 | FY 2023 |", "|---|---|---|", *rows])
    page = StitchedPage(page_index=0, page_label="1", section=None, text=text)
    settings = ChunkSettings(max_tokens=128)
    chunks = enriched_chunks([page], "doc", 2024, FootnoteIndex(footnotes=[], citations=[]),
                             settings)
    parts = [c for c in chunks if "| Segment " in c.text]
    assert len(parts) >= 4
    seen: list[str] = []
    for chunk in parts:
        lines = [ln for ln in chunk.text.split("\n") if ln.startswith("|")]
        first_body = lines[2]
        captions = [ln for ln in lines if ln.startswith(("| Net sales:", "| Operating profit:"))]
        assert first_body in ("| Net sales: |  |  |", "| Operating profit: |  |  |"), chunk.text
        assert not lines[-1].startswith(("| Net sales:", "| Operating profit:"))
        profit_at = lines.index("| Operating profit: |  |  |") if captions[-1].startswith(
            "| Operating profit:") else None
        for n, line in enumerate(lines[3:], start=3):  # each row under the right caption
            if line.startswith("| Segment"):
                value = float(line.split("|")[2])
                assert (value < 10_000) == (profit_at is not None and n > profit_at), line
        seen += [ln for ln in lines if ln in body]
        assert chunk.n_tokens <= settings.max_tokens
    assert seen == body



def _statement_page(lead: Sequence[str], prose: str) -> StitchedPage:
    """A page of prose, then a statement's caption block, its dates line and 40 rows (the
    layout of American Water's 10-K of 2022, page 80)."""
    rows = [f"| Asset line {n:02d} | {n * 11} | {n * 7} |" for n in range(1, 41)]
    text = "\n".join([prose, "", *lead, "December 31, 2022 December 31, 2021",
                      "| ASSETS |  |  |", "|---|---|---|", *rows])
    return StitchedPage(page_index=0, page_label="80", section=None, text=text)


CAPTION_BLOCK = ["Acme Water Company, Inc. and Subsidiary Companies",
                 "Consolidated Balance Sheets", "(In millions, except share and per share data)"]
PROSE = " ".join(f"Our regulated businesses served customer group {n} in the year." for n in
                 range(9))


@pytest.mark.parametrize("block", [
    CAPTION_BLOCK,
    # a caption ending in an abbreviation's period ends no sentence (the one grammar)
    ["Consolidated Balance Sheets", "Acme Water Company, Inc."],
])
def test_a_caption_block_opens_the_table_it_heads(block: list[str]) -> None:
    """A statement's caption block above its table goes into the table's first part: it no
    longer makes a chunk of its own when the rows do not fit in the chunk before it (American
    Water's balance sheet title was a 55-token chunk), and it is kept once, in order."""
    settings = ChunkSettings(max_tokens=128)
    page = _statement_page(block, PROSE)
    chunks = enriched_chunks([page], "acme-10k", 2022, FootnoteIndex(footnotes=[], citations=[]),
                             settings)
    caption = " ".join(block)
    holding = [c for c in chunks if caption in " ".join(c.text.split())]
    assert len(holding) == 1
    assert "| Asset line 01 |" in holding[0].text  # with the first rows it heads
    assert " ".join(holding[0].text.split()).startswith(caption)
    assert [c for c in chunks if PROSE in " ".join(c.text.split())] != holding  # prose apart
    assert all(c.n_tokens <= settings.max_tokens for c in chunks)


def test_a_lead_without_room_beside_the_table_stays_before_it() -> None:
    """A lead that cannot sit beside the table's head and first row, and a sentence that ends
    above the table, stay units of their own before it: nothing is dropped or moved."""
    settings = ChunkSettings(max_tokens=128)
    long_lead = ["Amounts by line " + " ".join(f"group{n} segment{n}" for n in range(45))]
    chunks = enriched_chunks([_statement_page(long_lead, PROSE)], "acme-10k", 2022,
                             FootnoteIndex(footnotes=[], citations=[]), settings)
    first_table = next(i for i, c in enumerate(chunks) if "| Asset line 01 |" in c.text)
    assert not chunks[first_table].text.startswith("Amounts by line")
    text = " ".join(" ".join(c.text for c in chunks[:first_table]).split())
    assert long_lead[0] in text  # whole, before the table
    ended = ["These are the balance sheets of the company."]
    chunks = enriched_chunks([_statement_page(ended, PROSE)], "acme-10k", 2022,
                             FootnoteIndex(footnotes=[], citations=[]), settings)
    first_table = next(c for c in chunks if "| Asset line 01 |" in c.text)
    assert ended[0] not in first_table.text
    assert sum(ended[0] in " ".join(c.text.split()) for c in chunks) == 1


# --- sections -------------------------------------------------------------------------------


def _assert_sections_respected(chunks: Sequence[Chunk]) -> None:
    previous: str | None = None
    for chunk in chunks:
        lines = chunk.text.split("\n")
        headings = [n for n, line in enumerate(lines) if detect_heading(line)]
        assert headings in ([], [0]), (chunk.chunk_id, [lines[n] for n in headings])
        if headings:
            assert chunk.section == detect_heading(lines[0])
        elif previous is not None:
            assert chunk.section == previous, chunk.chunk_id
        previous = chunk.section


def test_tei_chunks_follow_sections(tei: Processed) -> None:
    chunks = _enriched(tei)
    _assert_sections_respected(chunks)
    _assert_sections_respected(_enriched(tei, SMALL))
    sections = [c.section for c in chunks]
    assert sections == ["Introduction", "Related work", "Method", "Experiments", "Conclusion"]
    method = chunks[2]
    assert (method.page_start, method.page_end) == (1, 2)  # a section over a page break
    assert "Related work" not in method.text


def test_gdpr_chunks_follow_sections(gdpr: Processed) -> None:
    chunks = _enriched(gdpr)
    _assert_sections_respected(chunks)
    articles = {c.section for c in chunks if c.section and c.section.startswith("Article ")}
    assert len(articles) == 99
    assert {c.section for c in chunks if c.text.startswith("Article 17\n")} == {"Article 17"}


# --- sentences ------------------------------------------------------------------------------


def test_split_sentences_keeps_trailing_footnote_blocks() -> None:
    text = (
        "Revenue rose 34% [1]. {FOOTNOTE [1]: Includes $555 million. Organic growth was 3.2%.} "
        "Costs fell [2]. {FOOTNOTE [2]: See Note 4.} {FOOTNOTE [4]: Restated. See Table 2.} "
        "Margins held at 12.0%. Outlook unchanged!"
    )
    assert sentences_with_blocks(text) == [
        "Revenue rose 34% [1]. {FOOTNOTE [1]: Includes $555 million. Organic growth was 3.2%.}",
        "Costs fell [2]. {FOOTNOTE [2]: See Note 4.} {FOOTNOTE [4]: Restated. See Table 2.}",
        "Margins held at 12.0%.",
        "Outlook unchanged!",
    ]
    assert sentences_with_blocks("") == []
    assert sentences_with_blocks("No full stop here [3]") == ["No full stop here [3]"]


def test_evidence_pages_add_the_pages_of_stitched_footnotes(earnings: Processed) -> None:
    """[8] is cited on pages 1, 4 and 6 of the release and printed once: every enriched chunk
    that carries its block also holds evidence from the page the definition is printed on."""
    footnote = next(f for f in earnings.index.footnotes if f.marker == "[8]")
    carrying = [c for c in _enriched(earnings)
                if any(m.group("marker") == "[8]" for m in FOOTNOTE_BLOCK_RE.finditer(c.text))]
    assert carrying
    for chunk in carrying:
        pages = evidence_pages(chunk, earnings.index.footnotes)
        assert set(range(chunk.page_start, chunk.page_end + 1)) <= set(pages)
        assert footnote.page_index in pages
    # the chunks on the citing pages far from the definition gain its page
    assert any(not c.page_start <= footnote.page_index <= c.page_end for c in carrying)
    plain = next(c for c in _naive(earnings) if "{FOOTNOTE" not in c.text)
    assert evidence_pages(plain, earnings.index.footnotes) == list(
        range(plain.page_start, plain.page_end + 1))


def test_a_chunk_never_runs_from_one_statement_into_another() -> None:
    """A chunk's header and ``statement`` are its first page's: the income statement that
    follows the auditor's report without a heading (Pfizer's 10-K of 2021, pages 55-56) opens
    its own chunk, labelled with its statement, and nothing is lost at the seam."""
    from rag_assets.core.ingest.context import DocumentContext, PageContext

    auditor = ("We have served as the Company's auditor since at least 1942. "
               "New York, New York February 24, 2022")
    income = ("Consolidated Statements of Income Acme Inc. and Subsidiary Companies Year Ended "
              "December 31, 2021 2020 Revenues $ 81,288 $ 41,651 Cost of sales 30,821 8,484")
    pages = [StitchedPage(page_index=0, page_label="55", section=None, text=auditor),
             StitchedPage(page_index=1, page_label="56", section=None, text=income)]
    context = DocumentContext(
        document="acme-10k", year=2021, company="Acme Inc", doc_type="10-K",
        pages=[PageContext(page_index=0, item="Item 8. Financial Statements"),
               PageContext(page_index=1, item="Item 8. Financial Statements",
                           statement="income_statement")])
    chunks = enriched_chunks(pages, "acme-10k", 2021, FootnoteIndex(footnotes=[], citations=[]),
                             context=context)
    assert [(c.page_start, c.page_end, c.statement) for c in chunks] == [
        (0, 0, None), (1, 1, "income_statement")]
    assert "Consolidated Statements of Income" in chunks[1].context
    assert [" ".join(c.text.split()) for c in chunks] == [auditor, income]
