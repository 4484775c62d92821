"""What a chunk is: its record, its kind, its id and the settings that size it.

Kept apart from the chunkers so the stages downstream (the store, retrieval, generation, the
warehouse) can name a chunk without loading the tokenizer or the chunking rules.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ChunkKind = Literal["naive", "enriched"]


class ChunkSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_tokens: int = Field(
        default=256, ge=48,
        description="the embedding model's window: header, body and special tokens fit in it",
    )
    overlap_tokens: int = Field(default=24, ge=0, description="naive window overlap in tokens")


class Chunk(BaseModel):
    chunk_id: str
    document: str
    year: int
    kind: ChunkKind
    seq: int
    page_start: int
    page_end: int
    section: str | None
    context: str = Field(default="", description="the contextual header, apart from the body")
    statement: str | None = Field(default=None, description="the statement of its first page")
    text: str
    n_chars: int
    n_tokens: int = Field(description="model tokens of header and body, special tokens included")
    markers_cited: list[str]
    markers_defined: list[str]

    @property
    def search_text(self) -> str:
        """What BM25 and the embedding read: the header, then the body."""
        return join_context(self.context, self.text)


def join_context(context: str, text: str) -> str:
    return f"{context}\n{text}" if context else text


def chunk_id(document: str, year: int, kind: ChunkKind, seq: int) -> str:
    return f"{document}:{year}:{kind}:{seq:05d}"
