"""How an answer is searched for and written: the ``answer`` section of the settings."""

from __future__ import annotations

from pydantic import Field

from rag_assets.core.chunks.chunking import ChunkKind
from rag_assets.core.generation.citations import CitationSettings
from rag_assets.core.generation.extractive import ExtractiveConfig
from rag_assets.core.retrieval.retriever import Strategy
from rag_assets.core.text.question_input import MAX_QUESTION_CHARS


class AnswerConfig(CitationSettings):
    """Retrieval for an answer, its guardrails, and the extractive engine's weights."""

    strategy: Strategy = "routed"
    kind: ChunkKind = "enriched"
    k: int = Field(default=10, ge=1, description="chunks read, after MMR")
    candidates: int = Field(default=20, ge=1, description="chunks retrieved before MMR")
    mmr_lambda: float = Field(default=0.7, ge=0.0, le=1.0,
                              description="relevance against diversity in MMR")
    retry_extra_k: int = Field(default=4, ge=0, description="more chunks for a question that "
                               "needs two sources and found fewer")
    max_question_chars: int = Field(
        default=MAX_QUESTION_CHARS, ge=1,
        description="the longest question answered (core/text/question_input.py)")
    model_context_chars: int = Field(
        default=6000, ge=500, description="excerpt characters a model prompt holds")
    phrasings: int = Field(default=2, ge=0, description="alternative phrasings of a part")
    dense_units: int = Field(default=24, ge=1,
                             description="units the model embeds, the lexically best")
    extractive: ExtractiveConfig = Field(default_factory=ExtractiveConfig)
