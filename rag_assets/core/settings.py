"""The one settings model of rag-assets: every tunable value, in sections, each default in one
place, each readable from the environment.

Each section is a pydantic model that lives with the stage it tunes (``ChunkSettings`` with the
chunker, ``EmbeddingSettings`` with the embedder, ``RetrievalConfig`` with the retriever,
``LLMConfig`` with the chat client, ``CitationSettings`` with the verifier, ``AnswerConfig`` and
``ExtractiveConfig`` with the answer engines); ``IngestSettings`` (where the data lives, how a
report is read), ``QuestionSettings`` (how long a question may be) and ``RuntimeSettings`` (what
one process or deployment runs with: executor, cores, OCR, folders) live here. The Dagster
resources of ``rag_assets/defs/resources.py`` *are* these sections (each resource class inherits
its section, so a field renamed here is renamed in the UI's config too), and
``default_resources`` builds them from one :class:`Settings`. Every model forbids unknown fields:
a misspelt setting fails loudly instead of being dropped.

:class:`Settings` reads the environment once, where it is built: ``RAG_ASSETS_<SECTION>__<FIELD>``
sets any field (``RAG_ASSETS_RETRIEVAL__K=5``), and the short names of :data:`SHORT_NAMES` set
the fields a deployment names most (``RAG_ASSETS_DATA_DIR``, ``RAG_ASSETS_EXECUTOR``...). This
is the only module of the core that reads ``os.environ``: the stages take what they need as
arguments.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from rag_assets.core.chunks.chunking import ChunkSettings
from rag_assets.core.generation.answers import AnswerConfig
from rag_assets.core.generation.citations import CitationSettings
from rag_assets.core.generation.extractive import ExtractiveConfig
from rag_assets.core.llm.client import LLMConfig
from rag_assets.core.retrieval.ann import ANN_INDEX_ROWS
from rag_assets.core.retrieval.embeddings import EmbeddingSettings
from rag_assets.core.retrieval.onnx_backend import onnx_dir
from rag_assets.core.retrieval.retriever import RetrievalConfig
from rag_assets.core.text.question_input import MAX_QUESTION_CHARS
from rag_assets.core.warehouse.writable import is_local_database

PREFIX = "RAG_ASSETS_"
NESTED = "__"
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
        description="citation_counts warns above this share of citations without a definition",
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


class ExtractiveSettings(ExtractiveConfig):
    """The offline engine's weights and thresholds (``core/generation/extractive.py``)."""

    model_config = ConfigDict(extra="forbid")


class AnswerSettings(AnswerConfig):
    """The ``answer`` section: how an answer is retrieved, read and (offline) extracted."""

    model_config = ConfigDict(extra="forbid")

    extractive: ExtractiveSettings = Field(default_factory=ExtractiveSettings)


class RuntimeSettings(BaseModel):
    """The ``runtime`` section: what a process or a deployment runs with. Each field is also read
    from its short variable, ``RAG_ASSETS_<FIELD>`` (``RAG_ASSETS_EXECUTOR``)."""

    model_config = ConfigDict(extra="forbid")

    executor: Literal["in_process", "multiprocess", "celery"] = Field(
        default="in_process",
        description="the executor of every job, read when the code location loads: in_process "
        "(the model loaded once per run), multiprocess (a process per step), celery (each step "
        "a task of a Celery worker; docs/DEPLOY.md)")
    celery_broker: str | None = Field(
        default=None, description="with the celery executor: the broker the runs send their "
        "steps to and the workers listen to (redis://host:6379/0), read where a run executes")
    celery_backend: str | None = Field(
        default=None, description="with the celery executor: where the workers put each step's "
        "events (redis://host:6379/1)")
    preloaded_launcher: bool = Field(
        default=True, description="runs forked from a server that preloaded the code location "
        "(rag_assets/launcher.py); false: Dagster's DefaultRunLauncher. Read where the launcher "
        "is built (the daemon, the webserver)")
    reingest_cron: str = Field(
        default="0 2 * * *", description="when the nightly re-ingest and re-evaluation "
        "schedules tick, read when the code location loads")
    schedule_timezone: str = Field(default="UTC", description="the time zone of reingest_cron")
    cores: int | None = Field(
        default=None, ge=1, description="cores the embedding steps may use (torch and ONNX "
        "Runtime threads); unset: the process's CPU affinity capped by its cgroup quota")
    ocr: bool = Field(
        default=True, description="read a page that is only an image with tesseract; false "
        "(off, 0, no): such a page is flagged instead")
    ann_index_rows: int = Field(
        default=ANN_INDEX_ROWS, ge=1,
        description="rows from which a chunk table gets its vector index")
    prompts_dir: str | None = Field(
        default=None, description="folder of the prompt templates; unset: the repository's "
        "prompts/")
    onnx_dir: str | None = Field(
        default=None, description="where exported ONNX models are kept; unset: "
        "$XDG_CACHE_HOME/rag-assets/onnx, else ~/.cache/rag-assets/onnx")
    ui_host: str = Field(default="127.0.0.1", description="where make ui serves the Dagster UI")
    ui_port: int = Field(default=3000, ge=1, le=65535, description="the Dagster UI's port")
    stop_grace_seconds: float = Field(
        default=6.0, gt=0, description="after Ctrl-C or SIGTERM, how long a CLI command's run "
        "may take to end itself before the command cancels it from outside and exits (a step "
        "in a long call that cannot be interrupted)")

    @property
    def onnx_folder(self) -> Path:
        """``onnx_dir``, else the user's cache folder (``XDG_CACHE_HOME``)."""
        return onnx_dir(self.onnx_dir, os.environ.get("XDG_CACHE_HOME"))

    @property
    def prompts_folder(self) -> Path | None:
        return Path(self.prompts_dir).expanduser() if self.prompts_dir else None


# the short variables: a field's name without its section, for the fields a deployment names
# most (every runtime field, and these); RAG_ASSETS_<SECTION>__<FIELD> reads any field
SHORT_NAMES: dict[str, tuple[str, str]] = {
    f"{PREFIX}DATA_DIR": ("ingest", "data_dir"),
    f"{PREFIX}LANCEDB_URI": ("ingest", "lancedb_uri"),
    f"{PREFIX}WAREHOUSE": ("ingest", "warehouse_database"),
    f"{PREFIX}EMBED_BACKEND": ("embeddings", "backend"),
} | {f"{PREFIX}{name.upper()}": ("runtime", name) for name in RuntimeSettings.model_fields}


def short_name(section: str, field: str) -> str | None:
    """The short variable of ``section.field``, or None."""
    return next((name for name, path in SHORT_NAMES.items() if path == (section, field)), None)


class _ShortNames(PydanticBaseSettingsSource):
    """The short variables that are set (not empty), as the section values they stand for."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # read whole in __call__

    def __call__(self) -> dict[str, Any]:
        values: dict[str, dict[str, str]] = {}
        for variable, (section, field) in SHORT_NAMES.items():
            value = os.environ.get(variable, "").strip()
            if value:
                values.setdefault(section, {})[field] = value
        return values


class Settings(BaseSettings):
    """Every setting of the platform, by section (what ``default_resources`` turns into the
    Dagster resources). Built, it reads the environment: the arguments first, then
    ``RAG_ASSETS_<SECTION>__<FIELD>``, then the short variables, then the defaults; a section
    given whole as an argument is taken as given."""

    model_config = SettingsConfigDict(
        env_prefix=PREFIX, env_nested_delimiter=NESTED, env_ignore_empty=True, extra="forbid")

    ingest: IngestSettings = Field(
        default_factory=IngestSettings, description="where the data lives (data folder, "
        "warehouse, LanceDB) and how a report is read, stitched and chunked")
    embeddings: EmbeddingSettings = Field(
        default_factory=EmbeddingSettings, description="the embedding model, its backend (ONNX "
        "int8 by default) and batch")
    retrieval: RetrievalConfig = Field(
        default_factory=RetrievalConfig, description="how the strategies search, fuse and boost "
        "(weights, depths, the statement and section bonuses)")
    answer: AnswerSettings = Field(
        default_factory=AnswerSettings, description="how an answer is retrieved and read: the "
        "strategy, k, MMR, the retries, the extractive engine's weights")
    llm: LLMSettings = Field(
        default_factory=LLMSettings, description="the engine that writes (extractive, openai, "
        "azure), how closely a citation must match, the longest question")
    runtime: RuntimeSettings = Field(
        default_factory=RuntimeSettings, description="what a process runs with: executor, "
        "cores, OCR, the vector-index threshold, the prompt and ONNX folders, schedules, UI")

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, env_settings, _ShortNames(settings_cls)


def provider_environment(config: LLMConfig) -> dict[str, str]:
    """The variables a chat provider reads at call time (its key, endpoint, base URL), those
    that are set: handed to ``connect`` and never stored."""
    names = (config.api_key_env, "OPENAI_BASE_URL", config.azure_endpoint_env,
             config.azure_key_env, "AZURE_OPENAI_API_VERSION")
    return {name: os.environ[name] for name in names if os.environ.get(name)}


def section_of(values: BaseModel, section: type[Section]) -> Section:
    """``section`` built from the fields of ``values`` it declares (a resource that inherits
    a section and more, or a wider section)."""
    return section(**{name: getattr(values, name) for name in section.model_fields})
