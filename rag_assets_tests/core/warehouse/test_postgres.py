"""The Postgres warehouse's SQL (``core/warehouse/postgres.py``) on a real server on 127.0.0.1:
types as DuckDB gives them, a partition replaced in one transaction, writers at once."""

from __future__ import annotations

import threading
import uuid

import duckdb
import pandas as pd
import pytest

from rag_assets.core.warehouse import postgres
from rag_assets.core.warehouse.connection import (
    WarehouseUnreachable,
    connect_warehouse,
    read_whole_table,
    table_names,
)

SCHEMA = "rag"
PARTITION = {"document": ["acme"], "year": ["2023"]}


@pytest.fixture
def url(postgres_server) -> str:
    """A fresh database of the session's server: no table of another test."""
    return postgres_server.create_database(f"t_{uuid.uuid4().hex[:12]}")


def frame(document: str = "acme", year: int = 2023, rows: int = 3) -> pd.DataFrame:
    """Every dtype the assets write, nulls included (the tables' ``_frame`` types, plain numpy
    ints, floats and flags of other assets' frames)."""
    return pd.DataFrame({
        "document": pd.Series([document] * rows, dtype="string"),
        "year": pd.Series([year] * rows, dtype="Int64"),
        "page_index": pd.Series([*range(rows - 1), None], dtype="Int64"),
        "value": pd.Series([1.5, None, *[2.0] * (rows - 2)], dtype="Float64"),
        "total": pd.Series([True, None, *[False] * (rows - 2)], dtype="boolean"),
        "text": pd.Series(["a %s ?", None, *["x"] * (rows - 2)], dtype="string"),
        "seq": list(range(rows)),
        "score": [0.25] * rows,
        "flag": [True] * rows,
        "group": ["g"] * rows,  # a reserved word in Postgres
        "unavailable": [None] * rows,
    })


def write(url: str, data: pd.DataFrame, partition=PARTITION, table: str = "pages") -> None:
    with postgres.connect(url) as con:  # one transaction, committed at the end of the block
        postgres.ensure_schema(con, SCHEMA)
        postgres.delete_rows(con, SCHEMA, table, partition)
        postgres.write_partition(con, SCHEMA, table, data, partition)


def test_types_and_reads_match_duckdb(url, tmp_path):
    data = frame()
    write(url, data)
    duck = tmp_path / "w.duckdb"
    with duckdb.connect(str(duck)) as con:
        con.execute("create schema rag")
        con.register("data", data.astype({"unavailable": "string"}))
        con.execute("create table rag.pages as select * from data")
        duck_types = dict(con.execute(
            "select column_name, data_type from information_schema.columns "
            "where table_name = 'pages'").fetchall())
    with postgres.connect(url) as con:
        types = postgres.table_columns(con, SCHEMA, "pages")
    names = {"BIGINT": "bigint", "DOUBLE": "double precision", "BOOLEAN": "boolean",
             "VARCHAR": "text"}
    assert types == {c: names[t] for c, t in duck_types.items()}
    ours, theirs = (read_whole_table(db, "pages", pd.DataFrame()) for db in (url, duck))
    pd.testing.assert_frame_equal(ours, theirs)  # dtypes, nulls and values
    assert ours["page_index"].dtype == "Int64" and ours["seq"].dtype == "int64"
    assert ours["total"].dtype == "boolean" and ours["flag"].dtype == bool
    assert ours.loc[0, "text"] == "a %s ?"


def test_a_partition_is_replaced_and_others_kept(url):
    write(url, frame(rows=5))
    write(url, frame("other", 2024, rows=2), {"document": ["other"], "year": ["2024"]})
    write(url, frame(rows=4))  # again, fewer rows
    con = connect_warehouse(url, read_only=True)
    try:
        counts = dict(con.execute("select document, count(*) from rag.pages group by document "
                                  "order by document").fetchall())
    finally:
        con.close()
    assert counts == {"acme": 4, "other": 2}


def test_a_failed_write_keeps_the_partitions_old_rows(url):
    write(url, frame(rows=5))
    bad = frame(rows=4).astype({"seq": object})
    bad.loc[2, "seq"] = "not a number"  # the bigint column refuses it, mid-COPY
    with pytest.raises(Exception, match="invalid input syntax"):
        write(url, bad)
    assert len(read_whole_table(url, "pages", pd.DataFrame())) == 5  # delete rolled back too


def test_an_empty_frame_creates_the_table_and_new_columns_are_added(url):
    write(url, frame(rows=3).head(0))
    empty = read_whole_table(url, "pages", pd.DataFrame())
    assert len(empty) == 0 and list(empty.columns) == list(frame().columns)
    write(url, frame(rows=3).assign(added=pd.Series([7, 8, 9], dtype="Int64")))
    with postgres.connect(url) as con:
        assert postgres.table_columns(con, SCHEMA, "pages")["added"] == "bigint"
    assert read_whole_table(url, "pages", pd.DataFrame())["added"].tolist() == [7, 8, 9]


def test_writers_at_once_create_one_table_and_duplicate_nothing(url):
    """Six writers on a table that does not exist yet: three partitions, each written twice at
    the same moment. The locks make the second writer of a partition wait for the first."""
    start, errors = threading.Barrier(6), []

    def writer(document: str) -> None:
        try:
            start.wait()
            write(url, frame(document, rows=50), {"document": [document], "year": ["2023"]})
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=writer, args=(f"doc-{i % 3}",)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    rows = read_whole_table(url, "pages", pd.DataFrame())
    assert rows.groupby("document").size().to_dict() == {"doc-0": 50, "doc-1": 50, "doc-2": 50}


def test_connection_takes_duckdb_calls(url):
    write(url, frame())
    con = connect_warehouse(url, read_only=True)
    try:
        assert table_names(con) == {"pages"}
        assert con.execute("select count(*) from rag.pages where document = ? and year = ?",
                           ["acme", 2023]).fetchone() == (3,)
        with pytest.raises(Exception, match="read-only"):
            con.execute("delete from rag.pages")
    finally:
        con.close()


def test_an_unreachable_server_fails_in_one_line_without_its_password(postgres_server):
    url = f"postgresql://rag:s3cret@127.0.0.1:{postgres_server.port + 1}/rag"
    with pytest.raises(WarehouseUnreachable) as raised:
        connect_warehouse(url)
    line = str(raised.value)
    assert line.startswith(f"warehouse postgresql://rag:***@127.0.0.1:{postgres_server.port + 1}"
                           "/rag cannot be reached: ")
    assert "\n" not in line and "s3cret" not in line


def test_column_types_of_every_dtype():
    cases = {
        "Int64": "bigint", "int64": "bigint", "int32": "integer", "Float64": "double precision",
        "float64": "double precision", "boolean": "boolean", "bool": "boolean",
        "string": "text", "datetime64[ns]": "timestamp", "datetime64[ns, UTC]": "timestamptz",
    }
    for dtype, expected in cases.items():
        assert postgres.column_type(pd.Series([], dtype=dtype)) == expected, dtype
    assert postgres.column_type(pd.Series([None, None])) == "text"  # all null: text, as DuckDB
    assert postgres.column_type(pd.Series([1, None], dtype=object)) == "bigint"
    assert postgres.column_type(pd.Series(["a", None], dtype=object)) == "text"
