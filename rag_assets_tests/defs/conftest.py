"""A data folder with two small reports and an ephemeral Dagster instance that knows them."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import duckdb
import pytest

from rag_assets.defs.ingest import ingest_assets
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import default_resources
from rag_assets.samples.earnings import build_earnings_release

TABLES = (
    "raw_pages", "footnote_dictionary", "footnote_registry", "stitched_text", "naive_chunks",
    "enriched_chunks",
)
NOTE_TEXT = (
    "Northwind quarterly note\n"
    "Revenue grew 12% to $40 million [1]. Costs were flat [2].\n"
    "__________\n"
    "[1] Includes $6 million from the Harbor acquisition.\n"
    "[2] Excludes a $1 million restructuring charge.\n"
    "Page 1/1\n"
)


def write_data_dir(data: Path) -> Path:
    """The data folder's two reports (the earnings release, the note) and their questions."""
    build_earnings_release(data / "reports", data / "questions")
    note = data / "reports" / "northwind-note" / "2023" / "note.txt"
    note.parent.mkdir(parents=True)
    note.write_text(NOTE_TEXT, encoding="utf-8")
    return data


def register_test_partitions(instance: dg.DagsterInstance) -> None:
    """The reports' partitions, a gap (a partition whose file is gone: ``northwind-note|2024``)
    and ``broken|2023``."""
    register_partitions(instance, ["exemplar-corp-earnings|2024", "northwind-note|2023",
                                   "northwind-note|2024", "exemplar-corp-earnings|2023",
                                   "broken|2023", "broken|2024"])


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return write_data_dir(tmp_path / "data")


@pytest.fixture
def instance(data_dir: Path) -> dg.DagsterInstance:
    with dg.DagsterInstance.ephemeral() as inst:
        register_test_partitions(inst)
        yield inst


def materialize(data_dir: Path, instance: dg.DagsterInstance, document: str, year: int):
    return dg.materialize(
        ingest_assets,
        partition_key=partition_key(document, year),
        instance=instance,
        resources=default_resources(str(data_dir)),
        raise_on_error=False,
    )


def row_counts(data_dir: Path, document: str, year: int) -> dict[str, int]:
    """Rows per warehouse table for one partition (0 where the table does not exist yet)."""
    con = duckdb.connect(str(data_dir / "warehouse.duckdb"))
    try:
        existing = {r[0] for r in con.sql(
            "select table_name from information_schema.tables where table_schema = 'rag'"
        ).fetchall()}
        return {
            table: con.execute(
                f"select count(*) from rag.{table} where document = ? and year = ?",
                [document, year],
            ).fetchone()[0] if table in existing else 0
            for table in TABLES
        }
    finally:
        con.close()
