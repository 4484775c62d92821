"""The warehouse's IO managers: one table per asset in schema ``rag``, a document × year
partition's rows replaced (never duplicated) when it is materialized again, an empty output
still creating its table. ``warehouse_io_manager`` picks the engine from the database string
alone (``RAG_ASSETS_WAREHOUSE``), so no asset names one:

- a DuckDB file or ``md:name``: ``WarehouseIOManager``, dagster-duckdb's pandas IO manager
  with the fixes below;
- ``postgresql://...``: ``PostgresWarehouseIOManager``, built on the same framework
  (``DbIOManager`` with a ``DbClient`` and a pandas ``DbTypeHandler``, as dagster-duckdb and
  dagster-snowflake are); the SQL is in ``core/warehouse/postgres.py``. One transaction per
  output: the partition's delete, any DDL and the ``COPY`` of its rows commit together.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import dagster as dg
import pandas as pd
import psycopg
from dagster._config.pythonic_config import ConfigurableIOManagerFactory
from dagster._core.definitions.metadata import TableMetadataSet
from dagster._core.definitions.partitions.utils import TimeWindow
from dagster._core.storage.db_io_manager import (
    DbClient,
    DbIOManager,
    DbTypeHandler,
    TableSlice,
    static_where_clause,
)
from dagster_duckdb_pandas import DuckDBPandasIOManager, DuckDBPandasTypeHandler
from pydantic import Field

from rag_assets.core.warehouse import postgres
from rag_assets.core.warehouse.postgres import WarehouseUnreachable, is_postgres
from rag_assets.core.warehouse.writable import (
    StoreNotWritable,
    check_database_file,
    is_local_database,
)
from rag_assets.defs.partitions import PARTITION_EXPR, split_partition_key


def _table_metadata(context: dg.OutputContext, frame: pd.DataFrame,
                    storage_kind: str) -> dict[str, Any]:
    """What dagster-duckdb records for a written frame: its row count and columns."""
    return {
        **(
            TableMetadataSet(partition_row_count=len(frame), storage_kind=storage_kind)
            if context.has_partition_key
            else TableMetadataSet(row_count=len(frame), storage_kind=storage_kind)
        ),
        "dataframe_columns": dg.MetadataValue.table_schema(
            dg.TableSchema(
                columns=[dg.TableColumn(name=str(name), type=str(dtype))
                         for name, dtype in frame.dtypes.items()]
            )
        ),
    }


# -- DuckDB ----------------------------------------------------------------------------------


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
        context.add_output_metadata(_table_metadata(context, frame, "duckdb"))


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
                check_database_file(self.database)  # "warehouse ... cannot be written"
            except StoreNotWritable as err:
                raise dg.Failure(
                    description=str(err), metadata={"path": str(err.path)}, allow_retries=False
                ) from None
        return super().create_io_manager(context)


# -- Postgres --------------------------------------------------------------------------------


def _partition(table_slice: TableSlice) -> dict[str, Sequence[str]] | None:
    """The slice's partition as column -> values (None: the whole table): a report's key
    (``PARTITION_EXPR``) as its ``document`` and ``year``, which the table's index covers."""
    if not table_slice.partition_dimensions:
        return None
    out: dict[str, Sequence[str]] = {}
    for dimension in table_slice.partition_dimensions:
        if isinstance(dimension.partitions, TimeWindow):
            raise ValueError("the Postgres warehouse takes static or dynamic partitions, not "
                             f"time windows ({table_slice.table})")
        keys = list(dimension.partitions)
        if dimension.partition_expr != PARTITION_EXPR:
            out[dimension.partition_expr] = keys
        elif len(keys) != 1:
            raise ValueError(f"the Postgres warehouse writes one report's partition at a time, "
                             f"not {len(keys)} ({table_slice.table})")
        else:
            document, year = split_partition_key(keys[0])
            out.update(document=[document], year=[str(year)])
    return out


class PostgresClient(DbClient):
    """One connection per output or input, one transaction: committed once when the write
    (delete, DDL, ``COPY``) is done, rolled back when any part of it fails."""

    @staticmethod
    @contextmanager
    def connect(context: dg.OutputContext | dg.InputContext,
                table_slice: TableSlice) -> Iterator[psycopg.Connection[Any]]:
        con = postgres.connect(str(table_slice.database))
        try:
            yield con
            con.commit()
        except BaseException:
            con.rollback()
            raise
        finally:
            con.close()

    @staticmethod
    def ensure_schema_exists(context: dg.OutputContext, table_slice: TableSlice,
                             connection: psycopg.Connection[Any]) -> None:
        postgres.ensure_schema(connection, table_slice.schema)

    @staticmethod
    def delete_table_slice(context: dg.OutputContext, table_slice: TableSlice,
                           connection: psycopg.Connection[Any]) -> None:
        postgres.delete_rows(connection, table_slice.schema, table_slice.table,
                             _partition(table_slice))

    @staticmethod
    def get_select_statement(table_slice: TableSlice) -> str:
        """The query shown in the UI (reads go through ``postgres.read_table``)."""
        columns = ", ".join(f'"{c}"' for c in table_slice.columns) if table_slice.columns else "*"
        query = f'SELECT {columns} FROM "{table_slice.schema}"."{table_slice.table}"'
        if table_slice.partition_dimensions:
            query += " WHERE " + " AND ".join(
                static_where_clause(d) for d in table_slice.partition_dimensions)
        return query


class PostgresPandasTypeHandler(DbTypeHandler[pd.DataFrame]):
    """pandas frames in and out of Postgres, an empty frame written too (it creates the table)."""

    def handle_output(self, context: dg.OutputContext, table_slice: TableSlice,
                      obj: pd.DataFrame, connection: psycopg.Connection[Any]) -> None:
        postgres.write_partition(connection, table_slice.schema, table_slice.table, obj,
                                 _partition(table_slice))
        context.add_output_metadata(_table_metadata(context, obj, "postgres"))

    def load_input(self, context: dg.InputContext, table_slice: TableSlice,
                   connection: psycopg.Connection[Any]) -> pd.DataFrame:
        if table_slice.partition_dimensions and len(context.asset_partition_keys) == 0:
            return pd.DataFrame()
        return postgres.read_table(connection, table_slice.schema, table_slice.table,
                                   _partition(table_slice), table_slice.columns)

    @property
    def supported_types(self) -> Sequence[type[object]]:
        return [pd.DataFrame]


class PostgresWarehouseIOManager(ConfigurableIOManagerFactory):
    """Postgres tables, one per asset; what ``WarehouseIOManager`` does for DuckDB, for a
    warehouse several processes write at once.

    Created once per run, before any step: a server that cannot be reached (down, wrong port,
    refused login) fails the run there, in one line, instead of at every step's write.
    """

    database: str = Field(description="postgresql://user[:password]@host:port/database")
    schema_: str | None = Field(default=None, alias="schema",
                                description="Name of the schema to use.")

    @staticmethod
    def type_handlers() -> Sequence[DbTypeHandler]:
        return [PostgresPandasTypeHandler()]

    @staticmethod
    def default_load_type() -> type | None:
        return pd.DataFrame

    def create_io_manager(self, context: dg.InitResourceContext) -> dg.IOManager:
        try:
            postgres.connect(self.database, read_only=True, autocommit=True).close()
        except WarehouseUnreachable as err:
            raise dg.Failure(description=str(err), allow_retries=False) from None
        return DbIOManager(
            db_client=PostgresClient(), database=self.database, schema=self.schema_,
            type_handlers=self.type_handlers(), default_load_type=self.default_load_type(),
            io_manager_name="PostgresWarehouseIOManager",
        )


def warehouse_io_manager(database: str, schema: str) -> dg.ConfigurableIOManagerFactory:
    """The IO manager of ``database``: Postgres for a ``postgresql://`` URL, else DuckDB."""
    if is_postgres(database):
        return PostgresWarehouseIOManager(database=database, schema=schema)
    return WarehouseIOManager(database=database, schema=schema)


__all__ = ["PostgresWarehouseIOManager", "WarehouseIOManager", "warehouse_io_manager"]
