"""A run stopped half-way leaves new pages beside old footnotes: the checks refuse that mix."""

from __future__ import annotations

from pathlib import Path

import dagster as dg

from rag_assets.defs.ingest import ingest_assets
from rag_assets.defs.partitions import partition_key
from rag_assets.defs.resources import default_resources
from rag_assets_tests.defs.conftest import NOTE_TEXT, materialize


def _only(data_dir: Path, instance: dg.DagsterInstance, *assets: str) -> dg.ExecuteInJobResult:
    return dg.materialize(
        ingest_assets,
        selection=list(assets),
        partition_key=partition_key("northwind-note", 2023),
        instance=instance,
        resources=default_resources(str(data_dir)),
        raise_on_error=False,
    )


def _checks(result: dg.ExecuteInJobResult) -> dict[str, dg.AssetCheckEvaluation]:
    return {e.check_name: e for e in result.get_asset_check_evaluations()}


def test_stitching_refuses_pages_and_footnotes_of_two_report_versions(
    data_dir: Path, instance: dg.DagsterInstance
) -> None:
    assert materialize(data_dir, instance, "northwind-note", 2023).success
    report = data_dir / "reports" / "northwind-note" / "2023" / "note.txt"
    report.write_text(NOTE_TEXT.replace("12%", "14%"), encoding="utf-8")  # an edited report
    assert _only(data_dir, instance, "raw_pages").success  # ... and the run stopped here
    result = _only(data_dir, instance, "stitched_text")
    checks = _checks(result)
    for name in ("footnote_coverage", "text_conservation"):
        assert not checks[name].passed
        assert checks[name].description.startswith("mixed report versions (raw_pages ")
    stitched = next(
        m.metadata for m in result.asset_materializations_for_node("stitched_text")
    )
    assert stitched["stale"].value is True
    # re-materializing the whole partition makes it consistent again
    result = materialize(data_dir, instance, "northwind-note", 2023)
    assert result.success and all(e.passed for e in _checks(result).values())


def test_an_empty_footnote_table_still_names_its_version(
    data_dir: Path, instance: dg.DagsterInstance
) -> None:
    """The old version had no footnotes: its empty tables say their version in their metadata."""
    report = data_dir / "reports" / "northwind-note" / "2023" / "note.txt"
    report.write_text("Northwind quarterly note\nRevenue grew 12% to $40 million.\n", "utf-8")
    assert materialize(data_dir, instance, "northwind-note", 2023).success
    report.write_text(NOTE_TEXT, encoding="utf-8")  # the new version has footnotes
    assert _only(data_dir, instance, "raw_pages").success
    checks = _checks(_only(data_dir, instance, "stitched_text"))
    assert not checks["text_conservation"].passed
    assert checks["text_conservation"].description.startswith("mixed report versions")
