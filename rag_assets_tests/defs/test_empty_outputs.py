"""Empty outputs are tables too: a fresh warehouse whose first partition has no footnotes.

dagster-duckdb-pandas skips the write of an empty frame, so the first partition's empty
``footnote_dictionary`` left no table and every step downstream failed with "Table with name
footnote_dictionary does not exist". ``WarehouseIOManager`` writes it anyway.
"""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import duckdb
import pandas as pd
import pytest
from dagster._core.storage.db_io_manager import TableSlice

from rag_assets.core.warehouse.tables import (
    CHUNK_COLUMNS,
    FOOTNOTE_COLUMNS,
    RAW_PAGE_COLUMNS,
    REGISTRY_COLUMNS,
    STITCHED_COLUMNS,
)
from rag_assets.definitions import all_assets
from rag_assets.defs.partitions import partition_key, register_partitions, report_partitions
from rag_assets.defs.resources import default_resources
from rag_assets.defs.warehouse import WarehouseIOManager
from rag_assets_tests.defs.conftest import NOTE_TEXT, TABLES, row_counts

COLUMNS = {
    "raw_pages": RAW_PAGE_COLUMNS,
    "footnote_dictionary": FOOTNOTE_COLUMNS,
    "footnote_registry": REGISTRY_COLUMNS,
    "stitched_text": STITCHED_COLUMNS,
    "naive_chunks": CHUNK_COLUMNS,
    "enriched_chunks": CHUNK_COLUMNS,
}
PLAIN_TEXT = (
    "Bluefin quarterly note\n"
    "Revenue was flat at $12 million. Costs fell 3% on lower freight rates.\n"
    "The board declared a dividend of $0.10 per share.\n"
)
LOADED: dict[str, pd.DataFrame] = {}


@dg.asset(partitions_def=report_partitions)
def footnote_probe(footnote_dictionary: pd.DataFrame, footnote_registry: pd.DataFrame) -> None:
    """Records the frames the IO manager loads for a partition (what a downstream step sees)."""
    LOADED["footnote_dictionary"] = footnote_dictionary
    LOADED["footnote_registry"] = footnote_registry


@pytest.fixture
def fresh_data_dir(tmp_path: Path) -> Path:
    """A data folder holding only two text reports: no warehouse, no sample corpus."""
    data = tmp_path / "data"
    for document, year, text in (("bluefin-note", 2022, PLAIN_TEXT),
                                 ("northwind-note", 2023, NOTE_TEXT)):
        report = data / "reports" / document / str(year) / "note.txt"
        report.parent.mkdir(parents=True)
        report.write_text(text, encoding="utf-8")
    assert not (data / "warehouse.duckdb").exists()
    return data


def materialize_ingest(data_dir: Path, instance: dg.DagsterInstance, document: str, year: int):
    LOADED.clear()
    return dg.materialize(
        [*all_assets, footnote_probe],
        selection=dg.AssetSelection.groups("ingest") | dg.AssetSelection.assets(footnote_probe),
        partition_key=partition_key(document, year),
        instance=instance,
        resources=default_resources(str(data_dir)),
        raise_on_error=False,
    )


def table_columns(data_dir: Path) -> dict[str, list[str]]:
    con = duckdb.connect(str(data_dir / "warehouse.duckdb"), read_only=True)
    try:
        rows = con.execute(
            "select table_name, column_name from information_schema.columns "
            "where table_schema = 'rag' order by table_name, ordinal_position"
        ).fetchall()
    finally:
        con.close()
    columns: dict[str, list[str]] = {}
    for table, column in rows:
        columns.setdefault(table, []).append(column)
    return columns


def test_first_partition_without_footnotes_creates_every_table(fresh_data_dir):
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, ["bluefin-note|2022", "northwind-note|2023"])

        first = materialize_ingest(fresh_data_dir, instance, "bluefin-note", 2022)
        assert first.success, [e.message for e in first.get_step_failure_events()]
        assert {k: table_columns(fresh_data_dir).get(k) for k in TABLES} == COLUMNS
        counts = row_counts(fresh_data_dir, "bluefin-note", 2022)
        assert counts["footnote_dictionary"] == counts["footnote_registry"] == 0
        assert counts["raw_pages"] == counts["stitched_text"] == 1
        assert counts["naive_chunks"] > 0 and counts["enriched_chunks"] > 0
        # a partition with no rows loads as an empty frame with the table's columns
        for name in ("footnote_dictionary", "footnote_registry"):
            assert LOADED[name].empty
            assert list(LOADED[name].columns) == COLUMNS[name]

        second = materialize_ingest(fresh_data_dir, instance, "northwind-note", 2023)
        assert second.success, [e.message for e in second.get_step_failure_events()]
        counts = row_counts(fresh_data_dir, "northwind-note", 2023)
        assert counts["footnote_dictionary"] == 2
        assert counts["footnote_registry"] == 2
        assert counts["raw_pages"] == counts["stitched_text"] == 1
        assert len(LOADED["footnote_dictionary"]) == 2
        assert set(LOADED["footnote_dictionary"].marker) == {"[1]", "[2]"}
        other = counts

        before = row_counts(fresh_data_dir, "bluefin-note", 2022)
        again = materialize_ingest(fresh_data_dir, instance, "bluefin-note", 2022)
        assert again.success
        assert row_counts(fresh_data_dir, "bluefin-note", 2022) == before
        assert row_counts(fresh_data_dir, "northwind-note", 2023) == other
        # the table now holds another partition's rows; this one's still loads empty
        assert LOADED["footnote_dictionary"].empty
        assert list(LOADED["footnote_dictionary"].columns) == FOOTNOTE_COLUMNS


def test_a_partition_that_loses_its_footnotes_loses_its_rows(fresh_data_dir):
    """Re-materializing with zero rows still deletes the partition's previous rows."""
    report = fresh_data_dir / "reports" / "northwind-note" / "2023" / "note.txt"
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, ["bluefin-note|2022", "northwind-note|2023"])
        assert materialize_ingest(fresh_data_dir, instance, "bluefin-note", 2022).success
        assert materialize_ingest(fresh_data_dir, instance, "northwind-note", 2023).success
        assert row_counts(fresh_data_dir, "northwind-note", 2023)["footnote_dictionary"] == 2
        report.write_text(PLAIN_TEXT, encoding="utf-8")
        assert materialize_ingest(fresh_data_dir, instance, "northwind-note", 2023).success
        counts = row_counts(fresh_data_dir, "northwind-note", 2023)
        assert counts["footnote_dictionary"] == counts["footnote_registry"] == 0
        assert counts["raw_pages"] == 1


def test_handler_types_an_empty_untyped_column_as_text_and_inserts_by_name():
    handler = WarehouseIOManager.type_handlers()[0]
    table = TableSlice(table="t", schema="rag", partition_dimensions=[])
    con = duckdb.connect()
    try:
        con.execute("create schema rag")
        empty = pd.DataFrame({"name": pd.Series([], dtype=object),
                              "n": pd.Series([], dtype="Int64")})
        handler.handle_output(dg.build_output_context(), table, empty, con)
        assert con.execute("select column_name, data_type from information_schema.columns "
                           "where table_name = 't'").fetchall() == [("name", "VARCHAR"),
                                                                   ("n", "BIGINT")]
        rows = pd.DataFrame({"n": pd.Series([3], dtype="Int64"), "name": ["a"]})
        handler.handle_output(dg.build_output_context(), table, rows, con)
        assert con.execute("select name, n from rag.t").fetchall() == [("a", 3)]
    finally:
        con.close()
