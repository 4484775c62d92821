"""Chunks: the naive sliding window (the baseline) and footnote-aware enriched chunks.

The public face of the chunking stage: the assets, stages downstream and the benches import
from here, whichever module a name lives in (the benches run the same imports on older
checkouts too). The modules, each importing only those above it:

- :mod:`~rag_assets.core.chunks.records`: the ``Chunk`` record, its kind, id and settings;
- :mod:`~rag_assets.core.chunks.tokens`: the model's token counts and the budget beside a header;
- :mod:`~rag_assets.core.chunks.markers`: markers cited and defined, co-location, evidence pages;
- :mod:`~rag_assets.core.chunks.naive`: the raw text in overlapping windows of tokens;
- :mod:`~rag_assets.core.chunks.units`: the stitched text read as headings, sentences, tables;
- :mod:`~rag_assets.core.chunks.fitting`: units cut to the window, a claim with its footnote;
- :mod:`~rag_assets.core.chunks.enriched`: units packed into chunks, a definition once each.

Both kinds are sized in the embedding model's own tokens (MiniLM's WordPiece), header
included, and never pass its window (``max_tokens``, 256): text past the window is never
embedded. Each chunk carries a contextual header (:mod:`rag_assets.core.ingest.context`:
company, form and fiscal year, the 10-K Item, the statement, the section, a table's title)
stored apart from its body: BM25 and the embedding read both (:attr:`Chunk.search_text`), an
answer quotes the body.
"""

from __future__ import annotations

from rag_assets.core.chunks.enriched import drop_repeated_blocks, enriched_chunks, resolve_blocks
from rag_assets.core.chunks.markers import colocation, evidence_pages
from rag_assets.core.chunks.naive import naive_chunks
from rag_assets.core.chunks.records import Chunk, ChunkKind, ChunkSettings, chunk_id, join_context
from rag_assets.core.chunks.tokens import count_tokens, special_tokens
from rag_assets.core.footnotes.blocks import sentences_with_blocks

__all__ = [
    "Chunk",
    "ChunkKind",
    "ChunkSettings",
    "chunk_id",
    "colocation",
    "count_tokens",
    "drop_repeated_blocks",
    "enriched_chunks",
    "evidence_pages",
    "join_context",
    "naive_chunks",
    "resolve_blocks",
    "special_tokens",
    "sentences_with_blocks",
]
