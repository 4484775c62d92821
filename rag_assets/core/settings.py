"""The one settings model of rag-assets: every tunable value, in sections, each default in one
place.

Each section is a pydantic model that lives with the stage it tunes (``ChunkSettings`` with the
chunker, ``EmbeddingSettings`` with the embedder, ``RetrievalConfig`` with the retriever,
``LLMConfig`` with the chat client, ``CitationSettings`` with the verifier); ``IngestSettings``
(where the data lives, how a report is read) and ``QuestionSettings`` (how long a question may
be) live here. The Dagster resources of
``rag_assets/defs/resources.py`` *are* these sections (each resource class inherits its section,
so a field renamed here is renamed in the UI's config too), and ``default_resources`` builds them
from one :class:`Settings`. Every model forbids unknown fields: a misspelt setting fails loudly
instead of being dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from rag_assets.core.chunks.chunking import ChunkSettings
from rag_assets.core.generation.citations import CitationSettings
from rag_assets.core.llm.client import LLMConfig
from rag_assets.core.retrieval.embeddings import EmbeddingSettings
from rag_assets.core.retrieval.retriever import RetrievalConfig
from rag_assets.core.text.question_input import MAX_QUESTION_CHARS
from rag_assets.core.warehouse.writable import is_local_database

_CHUNKS = ChunkSettings()
Section = TypeVar("Section", bound=BaseModel)


class IngestSettings(BaseModel):
    """Where the data lives and how a report is read, stitched and chunked."""

    model_config = ConfigDict(extra="forbid")

    data_dir: str = Field(default="data", description="root of reports/, questions/, stores")
    lancedb_uri: str | None = Field(
        default=None,
        description="the LanceDB store: a local folder or an object-store URI (s3://bucket/"
        "prefix, gs://, az://; credentials from the environment); default <data_dir>/lancedb",
    )
    warehouse_database: str | None = Field(
        default=None,
        description="the warehouse: a DuckDB file, a MotherDuck database (md:name, token in "
        "MOTHERDUCK_TOKEN) or a Postgres database (postgresql://user:password@host:port/db); "
        "default <data_dir>/warehouse.duckdb. The IO manager writes it, the roll-ups, reports "
        "and answer audit read it",
    )
    pdf_workers: int = Field(default=2, ge=1, description="processes that read a long PDF")
    chunk_max_tokens: int = Field(
        default=_CHUNKS.max_tokens, ge=48,
        description="tokens per chunk, header included: the embedding model's window (MiniLM: "
        "256); a model with a smaller window needs a smaller value",
    )
    chunk_overlap_tokens: int = Field(default=_CHUNKS.overlap_tokens, ge=0,
                                      description="naive window overlap")
    max_unresolved_share: float = Field(
        default=0.05, ge=0.0, le=1.0,
        description="citation_counts fails above this share of citations without a definition",
    )
    stitch_mode: Literal["deterministic", "llm"] = Field(
        default="deterministic",
        description="stitched_text: 'llm' has the librarian model (the llm resource) inline the "
        "footnotes, validated against the deterministic stitcher and backfilled from it",
    )

    @property
    def reports_dir(self) -> Path:
        return Path(self.data_dir) / "reports"

    @property
    def questions_dir(self) -> Path:
        return Path(self.data_dir) / "questions"

    @property
    def truth_dir(self) -> Path:
        """Footnote ground truth of the reports generated here (``<document>/<year>.json``)."""
        return Path(self.data_dir) / "truth"

    @property
    def warehouse_path(self) -> Path | str:
        """The warehouse: a DuckDB file (``Path``), or the database string as written
        (``md:name``, ``postgresql://...``: a ``Path`` would fold its ``//``)."""
        if not self.warehouse_database:
            return Path(self.data_dir) / "warehouse.duckdb"
        database = self.warehouse_database
        return Path(database) if is_local_database(database) else database

    @property
    def lancedb_dir(self) -> Path | str:
        """The LanceDB store: a local folder (``Path``) or an object-store URI (``str``)."""
        if not self.lancedb_uri:
            return Path(self.data_dir) / "lancedb"
        return Path(self.lancedb_uri) if is_local_database(self.lancedb_uri) else self.lancedb_uri

    @property
    def evaluation_dir(self) -> Path:
        """Charts and exports of the evaluation assets."""
        return Path(self.data_dir) / "evaluation"

    @property
    def chunk_settings(self) -> ChunkSettings:
        return ChunkSettings(max_tokens=self.chunk_max_tokens,
                             overlap_tokens=self.chunk_overlap_tokens)


class QuestionSettings(BaseModel):
    """What a question asked from outside may be (``core/text/question_input.py`` checks it)."""

    model_config = ConfigDict(extra="forbid")

    max_question_chars: int = Field(
        default=MAX_QUESTION_CHARS, ge=1,
        description="the longest question answered, in characters after control characters "
        "and runs of white space are collapsed; longer ones are refused in one line. The "
        "longest question of bench/questions and the shared corpora's question sets is 592 "
        "characters; the bound keeps every stage's work (tokenizer, full-text index, answer "
        "engine) bounded whatever is pasted",
    )


class LLMSettings(LLMConfig, CitationSettings, QuestionSettings):
    """The ``llm`` section: the chat engine, how closely its citations must match and how long
    a question it takes may be (the client's part alone: ``section_of(settings, LLMConfig)``)."""


class Settings(BaseModel):
    """Every setting of the platform, by section (what ``default_resources`` turns into the
    Dagster resources ``settings``, ``embeddings``, ``retrieval`` and ``llm``)."""

    model_config = ConfigDict(extra="forbid")

    ingest: IngestSettings = Field(default_factory=IngestSettings)
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    retrieval: RetrievalConfig = Field(default_factory=RetrievalConfig)
    llm: LLMSettings = Field(default_factory=LLMSettings)


def section_of(values: BaseModel, section: type[Section]) -> Section:
    """``section`` built from the fields of ``values`` it declares (a resource that inherits
    a section and more, or a wider section)."""
    return section(**{name: getattr(values, name) for name in section.model_fields})
