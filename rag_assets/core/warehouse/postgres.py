"""The Postgres warehouse: the same ``rag.<table>`` tables as the DuckDB file, in a database
several processes (and machines) write at once.

What DuckDB does for the IO manager by itself, done here with psycopg 3 and no Dagster:

- **types**: a frame's pandas dtypes become the column types DuckDB gives the same frame
  (``Int64``/``int64`` → ``bigint``, ``Float64``/``float64`` → ``double precision``,
  ``boolean`` → ``boolean``, ``string``/text objects → ``text``, datetimes → ``timestamp[tz]``),
  and a read gives back the dtypes DuckDB's ``.df()`` gives (``int64``, or ``Int64`` when a
  value is null; ``bool`` or ``boolean``; ``float64`` with NaN; ``object`` text with None), so
  a reader cannot tell the engines apart;
- **writes**: a partition's rows are deleted and the frame copied in (``COPY ... FROM STDIN``)
  inside the caller's transaction, which commits once: a reader sees the old rows or the new
  ones, never none or both. A table is created with the frame's columns and types on first
  write (an empty frame too), and columns added since are added (``_add_new_columns`` does the
  same for DuckDB);
- **many writers**: transaction-scoped advisory locks, one per partition of a table (two runs
  writing the same partition take turns, so neither deletes before the other's rows exist) and
  one per table and schema for DDL (two first writers do not both create it).

Identifiers are always quoted (``financial_statements`` has columns ``group``, ``column``,
``row``, reserved words in Postgres). A URL that cannot be reached raises
``WarehouseUnreachable`` in one line, the password left out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import pandas as pd
import psycopg
from psycopg import sql

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
CONNECT_TIMEOUT_SECONDS = 10
INTEGER_TYPES = {"smallint": "Int16", "integer": "Int32", "bigint": "Int64"}
# psycopg's type OIDs (pg_type) of the columns a read turns into numbers, flags or times
_INT_OIDS = {21: "Int16", 23: "Int32", 20: "Int64"}
_FLOAT_OIDS = {700, 701, 1700}
_BOOL_OID = 16
_TIMESTAMP_OID, _TIMESTAMPTZ_OID = 1114, 1184
Partition = Mapping[str, Sequence[str]]  # column -> the partition's values (as Dagster keys)


class WarehouseUnreachable(RuntimeError):
    """The Postgres warehouse cannot be connected to; ``str()`` is the one-line reason."""


def is_postgres(database: object) -> bool:
    """Whether ``database`` names a Postgres warehouse (``postgresql://`` or ``postgres://``)."""
    return str(database).startswith(POSTGRES_SCHEMES)


def redacted(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def connect(url: str, *, read_only: bool = False, autocommit: bool = False,
            timeout: float = CONNECT_TIMEOUT_SECONDS) -> psycopg.Connection[Any]:
    """A connection to the warehouse ``url``; ``read_only`` refuses every write in its session.
    ``WarehouseUnreachable`` (one line) when the server does not answer or refuses us."""
    options = "-c default_transaction_read_only=on" if read_only else None
    try:
        return psycopg.connect(url, autocommit=autocommit, connect_timeout=max(1, int(timeout)),
                               options=options, application_name="rag-assets")
    except psycopg.OperationalError as err:
        reason = " ".join(str(err).split()) or type(err).__name__
        raise WarehouseUnreachable(
            f"warehouse {redacted(url)} cannot be reached: {reason}") from None


def column_type(series: pd.Series) -> str:
    """The Postgres type DuckDB would give this column (an all-null object column: text)."""
    dtype = series.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return "boolean"
    if pd.api.types.is_integer_dtype(dtype):
        return {1: "smallint", 2: "smallint", 4: "integer"}.get(dtype.itemsize, "bigint")
    if pd.api.types.is_float_dtype(dtype):
        return "double precision"
    if isinstance(dtype, pd.DatetimeTZDtype):
        return "timestamptz"
    if pd.api.types.is_datetime64_dtype(dtype):
        return "timestamp"
    inferred = pd.api.types.infer_dtype(series, skipna=True)
    return {"integer": "bigint", "floating": "double precision",
            "mixed-integer-float": "double precision", "boolean": "boolean",
            "datetime": "timestamptz" if _has_timezone(series) else "timestamp",
            "date": "date", "bytes": "bytea"}.get(inferred, "text")


def _has_timezone(series: pd.Series) -> bool:
    first = series.dropna().iloc[0] if series.notna().any() else None
    return getattr(first, "tzinfo", None) is not None


def _table(schema: str, table: str) -> sql.Composed:
    return sql.SQL("{}.{}").format(sql.Identifier(schema), sql.Identifier(table))


def lock(con: psycopg.Connection[Any], *key: str) -> None:
    """Wait for, then hold until the transaction ends, the advisory lock named by ``key``."""
    digest = hashlib.blake2b("\x1f".join(key).encode(), digest_size=8).digest()
    con.execute("select pg_advisory_xact_lock(%s)", [int.from_bytes(digest, "big", signed=True)])


def table_columns(con: psycopg.Connection[Any], schema: str, table: str) -> dict[str, str]:
    """The table's columns and their types, in order; empty when there is no such table."""
    rows = con.execute(
        "select column_name, data_type from information_schema.columns "
        "where table_schema = %s and table_name = %s order by ordinal_position",
        [schema, table]).fetchall()
    return {str(name): str(kind) for name, kind in rows}


def ensure_schema(con: psycopg.Connection[Any], schema: str) -> None:
    """Create ``schema`` when absent (two first writers: the second waits, then finds it)."""
    if con.execute("select 1 from pg_namespace where nspname = %s", [schema]).fetchone():
        return
    lock(con, "schema", schema)
    con.execute(sql.SQL("create schema if not exists {}").format(sql.Identifier(schema)))


def _where(columns: Mapping[str, str], partition: Partition) -> tuple[sql.Composable, list[Any]]:
    """``where col = any(values) and ...`` with the values cast to the column's type."""
    clauses: list[sql.Composable] = []
    params: list[Any] = []
    for column, values in partition.items():
        kind = columns.get(column, "text")
        clauses.append(sql.SQL("{} = any({}::{}[])").format(
            sql.Identifier(column), sql.Placeholder(), sql.SQL(kind)))
        params.append([int(v) for v in values] if kind in INTEGER_TYPES else list(values))
    if not clauses:
        return sql.SQL(""), []
    return sql.SQL(" where ") + sql.SQL(" and ").join(clauses), params


def delete_rows(con: psycopg.Connection[Any], schema: str, table: str,
                partition: Partition | None) -> int:
    """Delete the partition's rows (every row when ``partition`` is None), holding the
    partition's lock until the transaction ends; 0 when there is no table yet."""
    lock(con, "rows", schema, table, repr(sorted((k, sorted(v))
                                                 for k, v in (partition or {}).items())))
    columns = table_columns(con, schema, table)
    if not columns:
        return 0
    where, params = _where(columns, partition or {})
    cursor = con.execute(sql.SQL("delete from {}").format(_table(schema, table)) + where, params)
    return max(cursor.rowcount, 0)


def create_table(con: psycopg.Connection[Any], schema: str, table: str, frame: pd.DataFrame,
                 index: Sequence[str] = ()) -> None:
    """A table with the frame's columns and types, and an index on ``index`` (the partition's
    columns: a partition's delete does not read the whole table)."""
    definition = sql.SQL(", ").join(
        sql.SQL("{} {}").format(sql.Identifier(str(name)), sql.SQL(column_type(frame[name])))
        for name in frame.columns)
    con.execute(sql.SQL("create table if not exists {} ({})").format(
        _table(schema, table), definition))
    if index:
        con.execute(sql.SQL("create index if not exists {} on {} ({})").format(
            sql.Identifier(f"{table}_partition"), _table(schema, table),
            sql.SQL(", ").join(sql.Identifier(c) for c in index)))


def add_new_columns(con: psycopg.Connection[Any], schema: str, table: str,
                    frame: pd.DataFrame, known: Mapping[str, str]) -> list[str]:
    """Add the frame's columns the table lacks (a table written by an earlier version; its
    other rows read them as null); returns their names."""
    missing = [str(c) for c in frame.columns if str(c) not in known]
    for name in missing:
        con.execute(sql.SQL("alter table {} add column if not exists {} {}").format(
            _table(schema, table), sql.Identifier(name), sql.SQL(column_type(frame[name]))))
    return missing


def _python_values(series: pd.Series) -> list[Any]:
    """The column as Python values psycopg can copy, null (NA, NaN, NaT) as None."""
    if pd.api.types.is_datetime64_any_dtype(series.dtype):
        return [None if pd.isna(v) else v.to_pydatetime() for v in series]
    values = series.astype(object).where(series.notna(), None).tolist()
    return [v.item() if isinstance(v, np.generic) else v for v in values]


def copy_frame(con: psycopg.Connection[Any], schema: str, table: str,
               frame: pd.DataFrame) -> int:
    """Append the frame's rows by column name with ``COPY ... FROM STDIN``; returns the count."""
    if not len(frame):
        return 0
    columns = [_python_values(frame[c]) for c in frame.columns]
    statement = sql.SQL("copy {} ({}) from stdin").format(
        _table(schema, table), sql.SQL(", ").join(sql.Identifier(str(c)) for c in frame.columns))
    with con.cursor() as cursor, cursor.copy(statement) as copy:
        for row in zip(*columns, strict=True):
            copy.write_row(row)
    return len(frame)


def write_partition(con: psycopg.Connection[Any], schema: str, table: str, frame: pd.DataFrame,
                    partition: Partition | None) -> int:
    """Write the frame as the partition's rows, after ``delete_rows`` ran in this transaction:
    create the table when it is missing (an empty frame too), add new columns, copy the rows.
    The caller commits (once, with the delete)."""
    columns = table_columns(con, schema, table)
    if not columns:
        lock(con, "table", schema, table)
        columns = table_columns(con, schema, table)
        if columns:  # another writer created it meanwhile: its rows of this partition go too
            delete_rows(con, schema, table, partition)
        else:
            create_table(con, schema, table, frame, index=list(partition or ()))
            columns = table_columns(con, schema, table)
    if add_new_columns(con, schema, table, frame, columns):
        columns = table_columns(con, schema, table)
    return copy_frame(con, schema, table, frame)


def read_frame(cursor: psycopg.Cursor[Any]) -> pd.DataFrame:
    """The executed query's rows as the DataFrame DuckDB's ``.df()`` gives for the same table."""
    description = cursor.description or []
    rows = cursor.fetchall()
    data: dict[str, Any] = {}
    for position, column in enumerate(description):
        values = [row[position] for row in rows]
        data[column.name] = _series(values, column.type_code)
    return pd.DataFrame(data, columns=[c.name for c in description])


def _series(values: list[Any], oid: int) -> Any:
    has_null = any(v is None for v in values)
    if oid in _INT_OIDS:
        nullable = _INT_OIDS[oid]
        return pd.array(values, dtype=nullable) if has_null else np.array(
            values, dtype=nullable.lower())
    if oid in _FLOAT_OIDS:
        return np.array([np.nan if v is None else float(v) for v in values], dtype="float64")
    if oid == _BOOL_OID:
        return pd.array(values, dtype="boolean") if has_null else np.array(values, dtype=bool)
    if oid in (_TIMESTAMP_OID, _TIMESTAMPTZ_OID):
        times = pd.to_datetime(pd.Series(values, dtype=object), utc=oid == _TIMESTAMPTZ_OID)
        return times.astype("datetime64[us, UTC]" if oid == _TIMESTAMPTZ_OID
                            else "datetime64[us]")
    return np.array(values, dtype=object)


def read_table(con: psycopg.Connection[Any], schema: str, table: str,
               partition: Partition | None = None,
               columns: Sequence[str] | None = None) -> pd.DataFrame:
    """The table's rows (the partition's alone when given; only ``columns`` when given)."""
    known = table_columns(con, schema, table)
    where, params = _where(known, partition or {})
    shown = (sql.SQL(", ").join(sql.Identifier(c) for c in columns) if columns
             else sql.SQL("*"))
    with con.cursor() as cursor:
        cursor.execute(sql.SQL("select {} from {}").format(shown, _table(schema, table)) + where,
                       params)
        return read_frame(cursor)
