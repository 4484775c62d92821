"""``financial_statements`` through Dagster on a real 10-K: rows per statement, the identity
check, a re-run that replaces its rows, and an empty table for a report with no statement."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from rag_assets.defs.ingest import ingest_report
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import default_resources

TEN_K = Path(__file__).resolve().parents[2].parent / "shared/corpora/sec-10k/3M_2018_10K.pdf"


def _run(data_dir: Path, instance: dg.DagsterInstance, document: str, year: int):
    return dg.materialize([ingest_report],
                          partition_key=partition_key(document, year), instance=instance,
                          resources=default_resources(str(data_dir)), raise_on_error=False)


def _identities(result: dg.ExecuteInProcessResult) -> dg.AssetCheckEvaluation:
    return next(e for e in result.get_asset_check_evaluations()
                if e.check_name == "statement_identities")


def _facts(data_dir: Path, document: str) -> list[tuple]:
    con = duckdb.connect(str(data_dir / "warehouse.duckdb"), read_only=True)
    try:
        return con.execute(
            "select statement, concept, fiscal_year, value, page from rag.financial_statements "
            "where document = ? order by page, \"row\", \"column\"", [document]).fetchall()
    finally:
        con.close()


@pytest.mark.skipif(not TEN_K.is_file(), reason=f"{TEN_K} is not here")
def test_financial_statements_of_a_real_10k(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "reports" / "3m-10k" / "2018").mkdir(parents=True)
    shutil.copy(TEN_K, data / "reports" / "3m-10k" / "2018" / "3m.pdf")
    note = data / "reports" / "northwind-note" / "2018" / "note.txt"
    note.parent.mkdir(parents=True)
    note.write_text("Northwind note\nRevenue grew 12% to $40 million.\n", encoding="utf-8")
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, ["3m-10k|2018", "northwind-note|2018"])
        result = _run(data, instance, "3m-10k", 2018)
        assert result.success
        [materialization] = [m for m in result.get_asset_materialization_events()
                             if m.asset_key == dg.AssetKey("financial_statements")]
        meta = materialization.materialization.metadata
        assert meta["rows_income_statement"].value > 30 and meta["rows_cash_flow"].value > 60
        assert meta["missing_key_concepts"].value == "none"
        check = _identities(result)
        assert check.metadata["checked"].value >= 3
        assert check.metadata["holding"].value == check.metadata["checked"].value
        facts = _facts(data, "3m-10k")
        assert ("income_statement", "revenue", 2018, 32_765e6, 55) in facts
        assert ("balance_sheet", "total_assets", 2018, 36_500e6, 57) in facts
        assert _run(data, instance, "3m-10k", 2018).success  # replaced, not duplicated
        assert _facts(data, "3m-10k") == facts
        # a report without statements: an empty table with its schema, the check says so
        result = _run(data, instance, "northwind-note", 2018)
        assert result.success
        assert _facts(data, "northwind-note") == []
        check = _identities(result)
        assert check.passed and "no statement identity" in (check.description or "")
