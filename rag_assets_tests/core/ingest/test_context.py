"""Contextual chunks: every chunk carries a header (company, form, fiscal year, 10-K Item,
statement, section, table title) apart from its body, and no chunk passes the embedding model's
window; a statement table split by rows keeps its title and header rows in every part."""

from __future__ import annotations

import re

import pytest

from rag_assets.core.chunks.chunking import (
    Chunk,
    ChunkSettings,
    count_tokens,
    enriched_chunks,
)
from rag_assets.core.footnotes.stitching import FootnoteIndex, StitchedPage
from rag_assets.core.ingest.context import (
    DocumentContext,
    PageContext,
    letters_and_digits,
)

from ..conftest import Processed

WINDOW = ChunkSettings().max_tokens  # MiniLM's 256


def _both(p: Processed) -> tuple[list[Chunk], list[Chunk]]:
    return p.naive_chunks, p.enriched_chunks


@pytest.mark.parametrize("fixture", ["three_m", "pfizer", "gdpr", "earnings", "tei"])
def test_no_chunk_exceeds_the_model_window(request: pytest.FixtureRequest, fixture: str) -> None:
    """Header and body together, as the model counts them (its special tokens included)."""
    processed: Processed = request.getfixturevalue(fixture)
    for chunks in _both(processed):
        assert chunks
        counted = count_tokens([c.search_text for c in chunks])
        assert counted == [c.n_tokens for c in chunks]
        assert max(counted) <= WINDOW
        assert all(c.context and not c.text.startswith(c.context) for c in chunks)


def test_3m_statement_chunks_name_company_form_year_item_and_statement(
    three_m: Processed,
) -> None:
    naive, enriched = _both(three_m)
    for chunks in (naive, enriched):
        cash = [c for c in chunks if c.statement == "cash_flow"]
        assert cash, "no chunk of the cash-flow statement"
        for chunk in cash:
            assert chunk.context.startswith("3M Company | 10-K fiscal 2018 | Item 8. ")
            assert "Consolidated Statements of Cash Flows" in chunk.context
        assert {c.page_start for c in cash} == {59}  # the statement's one page in this filing
    mdna = [c for c in enriched if c.statement == "mdna"]
    assert mdna and all("Item 7. " in c.context for c in mdna)


def test_cover_names_the_company_and_the_form(pfizer: Processed) -> None:
    context = pfizer.context
    assert (context.company, context.doc_type) == ("Pfizer Inc", "10-K")
    # the cover page is the cover section: its table names the registered securities
    assert context.header(0) == "Pfizer Inc | 10-K fiscal 2021 | Topic: Cover"


def test_header_says_each_part_once() -> None:
    context = DocumentContext(
        document="acme-10k", year=2022, company="Acme Corp", doc_type="10-K",
        pages=[PageContext(page_index=0, item="Item 8. Financial Statements",
                           statement="cash_flow")],
    )
    header = context.header(0, section="Consolidated Statements of Cash Flows",
                            table_title="Consolidated Statements of Cash Flows (continued)")
    # the section repeats the statement's title; the table's title says it at more length
    assert header == ("Acme Corp | 10-K fiscal 2022 | Item 8. Financial Statements | "
                      "Consolidated Statements of Cash Flows (continued)")
    item_heading = context.header(0, section="Item 8. Financial Statements and Supplementary "
                                             "Data")
    assert item_heading.count("Item 8") == 1 and item_heading.endswith("Supplementary Data | "
                                                                        "Consolidated Statements "
                                                                        "of Cash Flows")
    assert context.header(7) == "Acme Corp | 10-K fiscal 2022"  # a page it knows nothing of


def _statement_page() -> tuple[StitchedPage, list[str]]:
    """A cash-flow statement as the loader renders a ruled table: a title line, the markdown
    header, a second header row of years, then 90 rows of figures."""
    rows = [f"| Line item {n:02d} | ({n * 7:,}) | $ {n * 1_000 + 419:,} |" for n in range(1, 91)]
    text = "\n".join([
        "CONSOLIDATED STATEMENTS OF CASH FLOWS",
        "| $ in millions | Fiscal Years Ended | |",
        "|---|---|---|",
        "| | 2022 | 2021 |",
        *rows,
    ])
    return StitchedPage(page_index=0, page_label="52", section=None, text=text), rows


def test_split_statement_table_keeps_title_and_header_rows_in_every_part() -> None:
    page, rows = _statement_page()
    context = DocumentContext(document="acme-10k", year=2022, company="Acme Corp",
                              doc_type="10-K",
                              pages=[PageContext(page_index=0, statement="cash_flow")])
    chunks = enriched_chunks([page], "acme-10k", 2022, FootnoteIndex(footnotes=[], citations=[]),
                             context=context)
    assert len(chunks) >= 3
    seen: list[str] = []
    for chunk in chunks:
        lines = chunk.text.split("\n")
        assert lines[:4] == ["CONSOLIDATED STATEMENTS OF CASH FLOWS",
                             "| $ in millions | Fiscal Years Ended | |", "|---|---|---|",
                             "| | 2022 | 2021 |"], chunk.chunk_id
        seen += lines[4:]
        assert chunk.n_tokens <= WINDOW
        assert chunk.statement == "cash_flow"
        assert "Acme Corp | 10-K fiscal 2022" in chunk.context
        # the statement's title, said once (the table's own title says the same)
        assert chunk.context.lower().count("consolidated statements of cash flows") == 1
        # a figure and its parenthesis or dollar sign are never cut apart
        assert not re.search(r"\|\s*[)$]\s*\|", chunk.text)
    assert seen == rows  # every row once, in order


@pytest.mark.parametrize("text", [
    "Revenue of $2.4 billion,\nup 34% [1] (see Note_7).",
    "Café résumé: naïve ﬁnance, €2.4bn, Ⅻ and ²",
    "中文 日本語 テキスト 123",
    "",
])
def test_letters_and_digits_keep_exactly_what_isalnum_keeps(text: str) -> None:
    """The fast paths (bytes.translate for ASCII, a regex otherwise) agree with the definition."""
    assert letters_and_digits(text) == "".join(ch for ch in text.lower() if ch.isalnum())
