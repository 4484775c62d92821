"""The same assets write and read a DuckDB file or a Postgres database (a real server on
127.0.0.1), chosen by the warehouse setting alone: the ingest chain (``dg.materialize``) on the
sample reports, the same rows in every table and partition, a partition materialized again
replaced (no duplicate), a partition with no footnotes creating its empty tables, the audit
report, the roll-ups' reader and the answer audit reading them back."""

from __future__ import annotations

import re
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from rag_assets.cli.runs import first_error
from rag_assets.core.generation.records import AuditRecord
from rag_assets.core.generation.storage import append_audit, read_audit
from rag_assets.core.warehouse.connection import connect_warehouse, read_whole_table, table_names
from rag_assets.core.warehouse.tables import FOOTNOTE_COLUMNS, REGISTRY_COLUMNS
from rag_assets.definitions import all_assets
from rag_assets.defs.audit import reports_dir
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import RagSettings, default_resources
from rag_assets.defs.warehouse import PostgresWarehouseIOManager, WarehouseIOManager
from rag_assets_tests.defs.conftest import TABLES, write_data_dir
from rag_assets_tests.defs.test_empty_outputs import PLAIN_TEXT

ENGINES = ("duckdb", "postgres")
EARNINGS, NOTE, PLAIN = ("exemplar-corp-earnings", 2024), ("northwind-note", 2023), \
    ("bluefin-note", 2022)
# rows per table and partition of the sample reports: what either engine must hold
EXPECTED = {
    EARNINGS: {"raw_pages": 8, "footnote_dictionary": 46, "footnote_registry": 60,
               "stitched_text": 8, "naive_chunks": 17, "enriched_chunks": 25},
    NOTE: {"raw_pages": 1, "footnote_dictionary": 2, "footnote_registry": 2,
           "stitched_text": 1, "naive_chunks": 1, "enriched_chunks": 1},
    PLAIN: {"raw_pages": 1, "footnote_dictionary": 0, "footnote_registry": 0,
            "stitched_text": 1, "naive_chunks": 1, "enriched_chunks": 1},
}
RESULTS: dict[str, dict[str, object]] = {}  # engine -> what its run found, for the comparison


def counts(database: str, partition: tuple[str, int]) -> dict[str, int]:
    """Rows per ingest table for one partition, read through ``connect_warehouse``."""
    con = connect_warehouse(database, read_only=True)
    try:
        existing = table_names(con)
        return {table: int(con.execute(
            f"select count(*) from rag.{table} where document = ? and year = ?",
            [*partition]).fetchone()[0]) if table in existing else -1 for table in TABLES}
    finally:
        con.close()


def columns(database: str, table: str) -> list[str]:
    con = connect_warehouse(database, read_only=True)
    try:
        return [r[0] for r in con.execute(
            "select column_name from information_schema.columns where table_schema = 'rag' "
            "and table_name = ? order by ordinal_position", [table]).fetchall()]
    finally:
        con.close()


def materialize(data: Path, database: str | None, instance: dg.DagsterInstance,
                partition: tuple[str, int], selection: dg.AssetSelection):
    result = dg.materialize(
        all_assets, selection=selection, partition_key=partition_key(*partition),
        instance=instance, resources=default_resources(str(data), warehouse=database),
        raise_on_error=False,
    )
    assert result.success, first_error(result)
    return result


@pytest.fixture(scope="module", params=ENGINES)
def engine(request) -> dict[str, object]:
    return run_engine(request, request.param)


def run_engine(request, name: str) -> dict[str, object]:
    """A warehouse of engine ``name`` (once per session), written by the same runs on the same
    data folder: the plain note first (its footnote tables are created empty), then the two
    sample reports, then the earnings release again; the audit report of the earnings release
    last."""
    if name in RESULTS:
        return RESULTS[name]
    base = request.getfixturevalue("tmp_path_factory").getbasetemp()
    data = base / "warehouse_engines" / "data"
    if not data.exists():
        write_data_dir(data)
        plain = data / "reports" / PLAIN[0] / str(PLAIN[1]) / "note.txt"
        plain.parent.mkdir(parents=True)
        plain.write_text(PLAIN_TEXT, encoding="utf-8")
    if name == "postgres":
        server = request.getfixturevalue("postgres_server")
        database = server.create_database("engines")
    else:
        database = str(data / "warehouse.duckdb")
    ingest = dg.AssetSelection.groups("ingest")
    found: dict[str, object] = {"database": database}
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, [partition_key(*p) for p in (EARNINGS, NOTE, PLAIN)])
        run = materialize(data, database, instance, PLAIN, ingest)
        found["io_manager"] = type(default_resources(str(data), warehouse=database)
                                   ["io_manager"]).__name__
        found["empty_columns"] = {t: columns(database, t)
                                  for t in ("footnote_dictionary", "footnote_registry")}
        found["empty_counts"] = counts(database, PLAIN)
        found["metadata_rows"] = {
            e.asset_key.path[-1]: e.event_specific_data.materialization.metadata[
                "dagster/partition_row_count"].value
            for e in run.get_asset_materialization_events()}
        for partition in (EARNINGS, NOTE):
            materialize(data, database, instance, partition, ingest)
        found["first"] = {p: counts(database, p) for p in (EARNINGS, NOTE, PLAIN)}
        materialize(data, database, instance, EARNINGS, ingest)
        found["again"] = {p: counts(database, p) for p in (EARNINGS, NOTE, PLAIN)}
        materialize(data, database, instance, EARNINGS, dg.AssetSelection.assets("audit_report"))
        report = reports_dir(RagSettings(data_dir=str(data)), *EARNINGS) / "report.md"
        found["report"] = report.read_text(encoding="utf-8")
    found["whole"] = {t: read_whole_table(database, t, pd.DataFrame()) for t in TABLES}
    records = [AuditRecord(question=f"q{i}", document=EARNINGS[0], year=EARNINGS[1],
                           provider="extractive", k=5, sources=2, final_sources=2,
                           answer_chars=40 + i, abstained=i == 1, seconds=0.5,
                           answer_id=f"answer-{i}")
               for i in range(2)]
    found["appended"] = append_audit(database, "rag", records)
    found["audit"] = read_audit(database, "rag")
    RESULTS[name] = found
    return found


def test_the_setting_alone_chooses_the_io_manager(engine):
    expected = (PostgresWarehouseIOManager if str(engine["database"]).startswith("postgresql:")
                else WarehouseIOManager)
    assert engine["io_manager"] == expected.__name__


def test_an_empty_partition_creates_its_tables_with_their_schema(engine):
    assert engine["empty_columns"] == {"footnote_dictionary": FOOTNOTE_COLUMNS,
                                       "footnote_registry": REGISTRY_COLUMNS}
    assert engine["empty_counts"] == EXPECTED[PLAIN]
    assert engine["metadata_rows"]["footnote_dictionary"] == 0
    assert engine["metadata_rows"]["raw_pages"] == 1


def test_rows_per_table_and_partition(engine):
    assert engine["first"] == EXPECTED


def test_materializing_a_partition_again_replaces_its_rows(engine):
    assert engine["again"] == EXPECTED
    pages = engine["whole"]["raw_pages"]
    assert not pages.duplicated(["document", "year", "page_index"]).any()
    chunks = engine["whole"]["enriched_chunks"]
    assert chunks.chunk_id.is_unique


def test_the_readers_see_every_row(engine):
    """The roll-ups' reader (whole tables), the audit report (one partition), the answer
    audit (appended rows)."""
    whole = engine["whole"]
    for table in TABLES:
        assert len(whole[table]) == sum(EXPECTED[p][table] for p in EXPECTED), table
    assert re.search(r"\b46\b", engine["report"])  # the earnings release's 46 footnotes
    assert engine["appended"] == 2
    audit = engine["audit"]
    assert audit.question.tolist() == ["q0", "q1"] and audit.answer_chars.tolist() == [40, 41]
    assert audit.abstained.tolist() == [False, True]


def test_both_engines_hold_the_same_frames(request):
    """Read back, Postgres's frames equal DuckDB's: columns, dtypes, values."""
    duckdb_run, postgres_run = (run_engine(request, name) for name in ENGINES)
    for table in TABLES:
        key = [c for c in ("document", "year", "page_index", "chunk_id", "footnote_id", "marker",
                           "line", "end_offset") if c in duckdb_run["whole"][table].columns]
        ours, theirs = (run["whole"][table].sort_values(key).reset_index(drop=True)
                        for run in (postgres_run, duckdb_run))
        pd.testing.assert_frame_equal(ours, theirs, obj=table)
    audit = postgres_run["audit"].drop(columns="answered_at")
    pd.testing.assert_frame_equal(audit, duckdb_run["audit"].drop(columns="answered_at"))
    assert postgres_run["report"] == duckdb_run["report"]


def test_the_deployed_setting_picks_postgres(monkeypatch, postgres_server):
    monkeypatch.setenv("RAG_ASSETS_WAREHOUSE", postgres_server.url)
    resources = default_resources()
    assert isinstance(resources["io_manager"], PostgresWarehouseIOManager)
    assert resources["io_manager"].database == postgres_server.url
    assert RagSettings(warehouse_database=postgres_server.url).warehouse_path == \
        postgres_server.url  # a string: a Path would fold the URL's //


def test_an_unreachable_postgres_fails_the_run_in_one_line(tmp_path, postgres_server):
    url = f"postgresql://rag@127.0.0.1:{postgres_server.port + 1}/rag"
    data = write_data_dir(tmp_path / "data")
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, [partition_key(NOTE[0], str(NOTE[1]))])
        result = dg.materialize(
            all_assets, selection=dg.AssetSelection.assets("raw_pages"),
            partition_key=partition_key(*NOTE), instance=instance,
            resources=default_resources(str(data), warehouse=url), raise_on_error=False)
    assert not result.success
    assert result.get_step_failure_events() == []  # failed at the IO manager, before any step
    line = first_error(result)
    assert line.startswith(f"warehouse {url} cannot be reached: ") and "\n" not in line


def test_the_cli_reads_the_warehouse_the_variable_names(engine, monkeypatch, tmp_path):
    """With a data folder of its own, the CLI still follows ``RAG_ASSETS_WAREHOUSE`` (its run
    config must name the IO manager the definitions built from the same variable)."""
    from rag_assets.cli.output import has_warehouse, warehouse_table

    monkeypatch.setenv("RAG_ASSETS_WAREHOUSE", str(engine["database"]))
    elsewhere = tmp_path / "elsewhere"
    assert has_warehouse(elsewhere)
    pages = warehouse_table(elsewhere, "raw_pages")
    assert pages is not None and len(pages) == sum(EXPECTED[p]["raw_pages"] for p in EXPECTED)
    io_manager = default_resources(str(elsewhere))["io_manager"]
    assert io_manager.database == str(engine["database"])
