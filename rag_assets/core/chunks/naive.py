"""The baseline: windows of model tokens over the raw text, with an overlap.

A window is cut wherever the budget falls (at white space), so a claim and its footnote end up
in different chunks: the enriched chunks are measured against this.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from rag_assets.core.chunks.markers import (
    cited_pages_by_marker,
    definitions_by_page,
    markers_in,
    naive_defined,
)
from rag_assets.core.chunks.records import Chunk, ChunkSettings, chunk_id
from rag_assets.core.chunks.tokens import (
    TokenBudget,
    token_spans,
    with_token_counts,
    word_start,
)
from rag_assets.core.footnotes.stitching import FootnoteIndex
from rag_assets.core.ingest.context import DocumentContext, document_context
from rag_assets.core.ingest.pages import Page, raw_page_text


def naive_chunks(
    pages: Sequence[Page], document: str, year: int, index: FootnoteIndex,
    settings: ChunkSettings | None = None, context: DocumentContext | None = None,
) -> list[Chunk]:
    """Windows of model tokens over the raw text, ``overlap_tokens`` shared between
    neighbours, each with the header of the page it starts on."""
    settings = settings or ChunkSettings()
    context = context or document_context(document, year, pages)
    budget = TokenBudget(settings)
    starts, text, pos = [], "", 0
    for page_text in (raw_page_text(p) for p in pages):
        starts.append(pos)
        text += page_text + "\n\n"
        pos = len(text)
    spans = token_spans(text)
    windows: list[tuple[int, int, int]] = []  # first token, end token, page
    first = 0
    while first < len(spans):
        page = _page_at(starts, spans[first][0])
        end = min(len(spans), first + budget.body(context.header(page)))
        if end < len(spans):
            end = word_start(spans, end, first)
        windows.append((first, end, page))
        if end >= len(spans):
            break
        first = word_start(spans, max(first + 1, end - settings.overlap_tokens), first)
    cited_on = cited_pages_by_marker(index)
    by_page = definitions_by_page(index)
    chunks = []
    for seq, (a, b, page) in enumerate(windows):
        begin, end = spans[a][0], spans[b - 1][1]
        piece = text[begin:end].strip()
        last = _page_at(starts, max(begin, end - 1))
        on_pages = range(page, last + 1)
        cited, _ = markers_in(piece, on_pages, cited_on)
        chunks.append(
            Chunk(
                chunk_id=chunk_id(document, year, "naive", seq), document=document, year=year,
                kind="naive", seq=seq, page_start=page, page_end=last, section=None,
                context=context.header(page), statement=context.page(page).statement,
                text=piece, n_chars=len(piece), n_tokens=0, markers_cited=cited,
                markers_defined=naive_defined(piece, on_pages, by_page),
            )
        )
    return with_token_counts(chunks)


def _page_at(starts: list[int], offset: int) -> int:
    return max(0, bisect_right(starts, offset) - 1)
