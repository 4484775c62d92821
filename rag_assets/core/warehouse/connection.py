"""Connections to the warehouse, DuckDB or Postgres, that read and write the same way.

Every direct connection of the project (the answer audit, roll-ups, reports, CLI, the backfill
check) goes through :func:`connect_warehouse`. The database string chooses the engine:

- a DuckDB file (or ``md:name``): DuckDB lets one process write a file, and a second process (the
  CLI beside a running UI, a report beside a run) fails at once with an ``IOException``, so the
  connection is retried every 0.5 s until ``wait_seconds`` have passed. Only that error is
  retried (:func:`is_lock_conflict`): a file that is no DuckDB database (random bytes, another
  program's file) or one cut short raises at once, since no waiting makes it one;
- ``postgresql://...``: a psycopg connection (autocommit; ``read_only`` refuses writes), behind
  :class:`PostgresWarehouse`, which takes the same calls as DuckDB's connection: ``execute(sql,
  params)`` with DuckDB's ``?`` placeholders, then ``fetchall()``, ``fetchone()`` or ``df()``
  (the DataFrame DuckDB would give). A server that cannot be reached fails at once, in one line
  (``WarehouseUnreachable``): there is no lock to wait for.

SQL run through it must be portable (information_schema, plain selects; ``double precision``,
not ``double``); what is not (registering a frame, ``insert ... by name``) is a function here
with one implementation per engine: :func:`insert_frame`, :func:`create_table_once`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import duckdb
import pandas as pd
import psycopg

from rag_assets.core.warehouse import postgres
from rag_assets.core.warehouse.postgres import WarehouseUnreachable, is_postgres
from rag_assets.core.warehouse.writable import is_local_database

WAIT_FOR_WRITER_SECONDS = 60.0
WAREHOUSE_SCHEMA = "rag"
# what a read or write of either engine raises when the warehouse cannot serve it
WAREHOUSE_ERRORS: tuple[type[Exception], ...] = (duckdb.Error, psycopg.Error,
                                                 WarehouseUnreachable)

__all__ = ["WAREHOUSE_ERRORS", "WAREHOUSE_SCHEMA", "WarehouseUnreachable", "connect_warehouse",
           "create_table_once", "insert_frame", "is_lock_conflict", "is_postgres",
           "read_partition_rows", "read_partitions", "read_whole_table", "table_names"]


class Result(Protocol):
    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...

    def df(self) -> pd.DataFrame: ...


class WarehouseConnection(Protocol):
    """What callers may use of a warehouse connection: DuckDB's, or :class:`PostgresWarehouse`."""

    def execute(self, query: str, parameters: Sequence[object] | None = None) -> Any: ...

    def close(self) -> None: ...


class _PostgresResult:
    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cursor = cursor

    def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    def fetchone(self) -> Any:
        return self._cursor.fetchone()

    def df(self) -> pd.DataFrame:
        return postgres.read_frame(self._cursor)


class PostgresWarehouse:
    """A Postgres connection that takes DuckDB's calls (``?`` placeholders, ``.df()``)."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self.connection = connection

    def execute(self, query: str, parameters: Sequence[object] | None = None) -> _PostgresResult:
        if parameters is not None:  # psycopg's placeholder is %s, and a literal % is %%
            query = query.replace("%", "%%").replace("?", "%s")
        return _PostgresResult(self.connection.execute(query, parameters))

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> PostgresWarehouse:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# what DuckDB says when another process holds the file's lock: "Could not set lock on file
# "...": Conflicting lock is held in /usr/bin/python3 (PID 123)" (DuckDB 1.x and 2.x)
LOCK_CONFLICT_WORDS = ("could not set lock", "conflicting lock")


def is_lock_conflict(error: duckdb.Error) -> bool:
    """Whether ``error`` is another process holding the database file's lock (worth waiting
    for), not a file DuckDB cannot read."""
    text = str(error).lower()
    return isinstance(error, duckdb.IOException) and any(w in text for w in LOCK_CONFLICT_WORDS)


def connect_warehouse(database: str | Path, read_only: bool = False,
                      wait_seconds: float = WAIT_FOR_WRITER_SECONDS) -> WarehouseConnection:
    """A connection to ``database``: DuckDB's, retried every 0.5 s while another process
    holds the file's lock (any other error at once), or a :class:`PostgresWarehouse` for a
    ``postgresql://`` URL (both take the calls of :class:`WarehouseConnection`)."""
    if is_postgres(database):
        return PostgresWarehouse(postgres.connect(str(database), read_only=read_only,
                                                  autocommit=True))
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            return duckdb.connect(str(database), read_only=read_only)
        except duckdb.IOException as error:
            if not is_lock_conflict(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def table_names(con: WarehouseConnection, schema: str = WAREHOUSE_SCHEMA) -> set[str]:
    """The tables of ``schema`` (either engine)."""
    return {str(r[0]) for r in con.execute(
        "select table_name from information_schema.tables where table_schema = ?",
        [schema]).fetchall()}


def create_table_once(con: WarehouseConnection, schema: str, table: str, ddl: str) -> None:
    """Run ``ddl`` (a ``create table if not exists``) after creating ``schema``; on Postgres
    under a lock, so two first writers do not both create them (the second finds them)."""
    if isinstance(con, PostgresWarehouse):
        with con.connection.transaction():
            postgres.ensure_schema(con.connection, schema)
            postgres.lock(con.connection, "table", schema, table)
            con.connection.execute(ddl)
        return
    con.execute(f"create schema if not exists {schema}")
    con.execute(ddl)


def insert_frame(con: WarehouseConnection, schema: str, table: str, frame: pd.DataFrame) -> int:
    """Append the frame's rows to ``schema.table`` by column name; returns the count."""
    if not len(frame):
        return 0
    if isinstance(con, PostgresWarehouse):
        with con.connection.transaction():
            return postgres.copy_frame(con.connection, schema, table, frame)
    con_duckdb: Any = con
    con_duckdb.register("_rag_assets_rows", frame)
    try:
        con.execute(f"insert into {schema}.{table} by name select * from _rag_assets_rows")
    finally:
        con_duckdb.unregister("_rag_assets_rows")
    return len(frame)


def read_whole_table(database: str | Path, table: str, empty: pd.DataFrame,
                     schema: str = WAREHOUSE_SCHEMA) -> pd.DataFrame:
    """Every row of ``schema.<table>``, every partition, read-only (waiting while another
    process holds DuckDB's writer lock); ``empty`` (a frame with the table's columns) when the
    database or the table does not exist yet.

    The roll-ups read their input this way instead of through the IO manager, which would hand
    them only the upstream partitions the launching instance knows or the run selected.
    """
    with _table_reader(database, table, schema) as con:
        if con is None:
            return empty
        frame: pd.DataFrame = con.execute(f"select * from {schema}.{table}").df()
        return frame


def _read_only(database: str | Path) -> WarehouseConnection | None:
    """A read-only connection, or None when the database file does not exist yet (a reader
    creates no warehouse)."""
    if is_local_database(str(database)) and not Path(database).is_file():
        return None
    return connect_warehouse(database, read_only=True)


@contextmanager
def _table_reader(database: str | Path, table: str,
                  schema: str) -> Iterator[WarehouseConnection | None]:
    """A read-only connection while ``schema.<table>`` exists, closed afterwards; None when the
    database or the table does not (every reader below answers that with nothing)."""
    con = _read_only(database)
    if con is None:
        yield None
        return
    try:
        yield con if table in table_names(con, schema) else None
    finally:
        con.close()


def read_partition_rows(database: str | Path, table: str, document: str, year: int,
                        columns: Sequence[str] | None = None,
                        schema: str = WAREHOUSE_SCHEMA) -> pd.DataFrame:
    """The rows of one partition of ``schema.<table>`` (``columns``, or all), read-only with a
    ``WHERE``: what one question needs, whatever else the warehouse holds. An empty frame when
    the database, the table or the partition does not exist."""
    with _table_reader(database, table, schema) as con:
        if con is None:
            return pd.DataFrame(columns=list(columns or []))
        selected = ", ".join(f'"{c}"' for c in columns) if columns else "*"
        frame: pd.DataFrame = con.execute(
            f"select {selected} from {schema}.{table} where document = ? and year = ?",
            [document, int(year)]).df()
        return frame


def read_rows(database: str | Path, table: str, *, where: Mapping[str, object] | None = None,
              newest_by: str | None = None, limit: int | None = None,
              schema: str = WAREHOUSE_SCHEMA) -> pd.DataFrame | None:
    """The rows of ``schema.<table>`` whose columns equal ``where``'s values, newest first by
    ``newest_by``, at most ``limit``: one query, so a page showing the last answers, or one
    answer, costs what it shows, not the whole audit log. None when the database or the table
    does not exist; no row when a column of ``where`` does not (a table from before it)."""
    with _table_reader(database, table, schema) as con:
        if con is None:
            return None
        wanted = dict(where or {})
        columns = [str(r[0]) for r in con.execute(
            "select column_name from information_schema.columns where table_schema = ? and "
            "table_name = ? order by ordinal_position", [schema, table]).fetchall()]
        if not set(wanted) <= set(columns):
            return pd.DataFrame(columns=columns)
        query = f"select * from {schema}.{table}"
        if wanted:
            query += " where " + " and ".join(f'"{c}" = ?' for c in wanted)
        if newest_by:
            query += f' order by "{newest_by}" desc'
        if limit is not None:
            query += f" limit {int(limit)}"
        frame: pd.DataFrame = con.execute(query, list(wanted.values())).df()
        return frame


def read_partitions(database: str | Path, table: str,
                    schema: str = WAREHOUSE_SCHEMA) -> list[tuple[str, int]] | None:
    """The (document, year) partitions ``schema.<table>`` holds, sorted (one ``DISTINCT``, not
    the rows); None when the database or the table does not exist."""
    with _table_reader(database, table, schema) as con:
        if con is None:
            return None
        rows = con.execute(f"select distinct document, year from {schema}.{table}").fetchall()
        return sorted((str(d), int(y)) for d, y in rows)
