"""A warehouse written by an earlier version (fewer columns) takes the new partitions after an
upgrade, and its old partitions are known for what they are: stale, to be ingested again."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import duckdb
import pytest

from rag_assets.core.warehouse.tables import StaleTable, frame_to_pages
from rag_assets_tests.defs.conftest import materialize

OLD_RAW_PAGES = """
create table rag.raw_pages (
    document varchar, year bigint, page_index bigint, page_label varchar, section varchar,
    text varchar, note_lines varchar, tables_json varchar, tables_markdown varchar,
    n_tables bigint, n_chars bigint, n_table_chars bigint, source_file varchar, sha256 varchar
)
"""


def test_new_columns_are_added_to_an_old_table(data_dir: Path, instance: dg.DagsterInstance):
    con = duckdb.connect(str(data_dir / "warehouse.duckdb"))
    try:
        con.execute("create schema rag")
        con.execute(OLD_RAW_PAGES)
        con.execute(
            "insert into rag.raw_pages values ('old-report', 2020, 0, '1', null, "
            "'Sales rose [1].\n__________\n[1] Organic.', '[2]', '[]', '', 0, 40, 0, 'x', 'y')"
        )
    finally:
        con.close()
    assert materialize(data_dir, instance, "northwind-note", 2023).success
    con = duckdb.connect(str(data_dir / "warehouse.duckdb"))
    try:
        columns = [r[0] for r in con.execute("describe rag.raw_pages").fetchall()]
        old = con.execute("select * from rag.raw_pages where document = 'old-report'").df()
        new = con.execute("select * from rag.raw_pages where document = 'northwind-note'").df()
    finally:
        con.close()
    assert {"line_sizes", "body_size"} <= set(columns)
    assert len(old) == 1 and len(new) == 1
    with pytest.raises(StaleTable, match=r"raw_pages of old-report 2020 written with an older"):
        frame_to_pages(old)  # no reader guesses at an old layout: it says to ingest again
    assert frame_to_pages(new)[0].note_lines  # the new one has its zone
