"""The ingest assets end to end on a real DuckDB file and an ephemeral Dagster instance."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import duckdb

from rag_assets.samples import earnings as ern
from rag_assets_tests.defs.conftest import materialize, row_counts


def test_partition_materializes_every_table_with_checks_passing(data_dir, instance):
    result = materialize(data_dir, instance, "exemplar-corp-earnings", 2024)
    assert result.success
    counts = row_counts(data_dir, "exemplar-corp-earnings", 2024)
    assert counts["raw_pages"] == ern.N_PAGES
    assert counts["footnote_dictionary"] == ern.N_FOOTNOTES
    assert counts["stitched_text"] == 8
    assert counts["naive_chunks"] > 0 and counts["enriched_chunks"] > 0
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert set(checks) == {
        "footnote_coverage", "naive_chunks_quality", "enriched_chunks_quality",
        "footnote_colocation", "text_conservation", "citation_counts", "statement_identities",
    }
    assert all(e.passed for e in checks.values())
    # each result is stored with its partition: the UI shows it on that partition
    assert {e.partition for e in checks.values()} == {"exemplar-corp-earnings|2024"}
    conservation = checks["text_conservation"].metadata
    assert conservation["words_lost"].value == 0
    assert conservation["words_checked"].value > 1500
    counts = checks["citation_counts"].metadata
    # 29 citations in the text, 22 in tables (the truth's 50 (footnote, citing page) pairs: one
    # note is cited in a page's text and in its table) and 9 inside other footnotes
    assert counts["citations"].value == 60
    assert (counts["footnotes"].value, counts["never_cited"].value) == (46, 0)
    most_cited = counts["most_cited"].value
    assert most_cited and max(most_cited.values()) >= 2
    colocation = checks["footnote_colocation"].metadata
    assert colocation["enriched_colocation"].value == 1.0
    assert colocation["naive_colocation"].value < 1.0


def test_rematerializing_replaces_rows_instead_of_duplicating(data_dir, instance):
    assert materialize(data_dir, instance, "exemplar-corp-earnings", 2024).success
    assert materialize(data_dir, instance, "northwind-note", 2023).success
    first = row_counts(data_dir, "exemplar-corp-earnings", 2024)
    other = row_counts(data_dir, "northwind-note", 2023)
    assert materialize(data_dir, instance, "exemplar-corp-earnings", 2024).success
    assert row_counts(data_dir, "exemplar-corp-earnings", 2024) == first
    assert row_counts(data_dir, "northwind-note", 2023) == other
    assert other["footnote_dictionary"] == 2


def test_missing_combination_is_skipped_cleanly(data_dir, instance):
    result = materialize(data_dir, instance, "northwind-note", 2024)  # no file filed for 2024
    assert result.success
    assert result.get_asset_materialization_events() == []
    assert row_counts(data_dir, "northwind-note", 2024)["raw_pages"] == 0


def test_bad_file_fails_its_partition_with_one_line_and_keeps_other_data(data_dir, instance):
    assert materialize(data_dir, instance, "northwind-note", 2023).success
    before = row_counts(data_dir, "northwind-note", 2023)
    bad = data_dir / "reports" / "broken" / "2024" / "report.pdf"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"%PDF-1.7\n this is not really a PDF \x00\x01\x02")
    result = materialize(data_dir, instance, "broken", 2024)
    assert not result.success
    failure = result.get_step_failure_events()[0].step_failure_data.user_failure_data
    assert failure.description.startswith("cannot ingest report.pdf: corrupt or not a PDF")
    assert "\n" not in failure.description
    observations = instance.fetch_observations(dg.AssetKey("raw_pages"), limit=10).records
    errors = [o.asset_observation.metadata["error"].value for o in observations]
    assert any("report.pdf" in e and "corrupt" in e for e in errors)
    assert row_counts(data_dir, "northwind-note", 2023) == before
    assert row_counts(data_dir, "broken", 2024)["raw_pages"] == 0


def test_a_repaired_file_replaces_a_failed_partition(data_dir, instance):
    bad = data_dir / "reports" / "broken" / "2024" / "report.txt"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"")
    assert not materialize(data_dir, instance, "broken", 2024).success
    bad.write_text("A short report.\nRevenue rose [1].\n__________\n[1] Organic.\n")
    assert materialize(data_dir, instance, "broken", 2024).success
    assert row_counts(data_dir, "broken", 2024)["footnote_dictionary"] == 1


def test_warehouse_rows_carry_stitched_footnotes(data_dir, instance):
    assert materialize(data_dir, instance, "northwind-note", 2023).success
    con = duckdb.connect(str(Path(data_dir) / "warehouse.duckdb"))
    try:
        stitched = con.execute(
            "select text from rag.stitched_text where document='northwind-note'"
        ).fetchone()[0]
        chunks = con.execute(
            "select markers_cited, markers_defined from rag.enriched_chunks "
            "where document='northwind-note'"
        ).fetchall()
    finally:
        con.close()
    assert "[1]. {FOOTNOTE [1]: Includes $6 million from the Harbor acquisition.}" in stitched
    assert "Page 1/1" not in stitched and "____" not in stitched
    cited = {m for row in chunks for m in json.loads(row[0])}
    defined = {m for row in chunks for m in json.loads(row[1])}
    assert cited == defined == {"[1]", "[2]"}


def test_a_damaged_pdf_is_ingested_from_its_repair_and_flagged_pages_reported(
    data_dir, instance, monkeypatch
):
    """The real Intel 8-K whose cross-reference table PDFium cannot read is ingested from qpdf's
    repair; with the aligned-table reader broken on every page, each page keeps its text and
    is flagged: counted and named in ``raw_pages``' metadata, one warning per page in the log."""
    import logging
    import shutil

    from rag_assets.core.ingest.pdf import reader
    from rag_assets.defs.ingest import ingest_report
    from rag_assets.defs.partitions import partition_key
    from rag_assets.defs.resources import default_resources
    from rag_assets_tests.real_filings import CORPORA

    damaged = CORPORA / "damaged" / "INTEL_2023_8K_dated-2023-08-16.pdf"
    if not damaged.is_file():
        import pytest

        pytest.skip(f"real filing not found at {damaged}")
    target = data_dir / "reports" / "broken" / "2023" / damaged.name
    target.parent.mkdir(parents=True)
    shutil.copyfile(damaged, target)

    def broken(lines, textpage, blocks, key):
        raise ValueError("max() arg is an empty sequence")

    monkeypatch.setattr(reader, "align_tables", broken)
    result = dg.materialize(  # raw_pages alone: what the reading reports
        [ingest_report], partition_key=partition_key("broken", 2023), instance=instance,
        resources=default_resources(str(data_dir)), raise_on_error=False,
    )
    assert result.success
    raw = next(e for e in result.get_asset_materialization_events()
               if e.asset_key == dg.AssetKey("raw_pages")).materialization.metadata
    assert raw["repaired"].value is True
    assert "PDFium: Data format error" in raw["repair_cause"].value
    assert raw["pages"].value == raw["pages_flagged"].value == 5
    assert raw["faults"].value == 5
    assert raw["page_faults"].value[0] == {
        "page": 1, "reader": "aligned_tables",
        "cause": "ValueError: max() arg is an empty sequence",
        "line": "page 1: aligned_tables failed (ValueError: max() arg is an empty sequence); the "
                "page keeps its text"}
    warnings = [e.user_message for e in instance.all_logs(result.run_id)
                if e.level == logging.WARNING]
    assert sum("aligned_tables failed" in w for w in warnings) == 5
    assert any(w.startswith(f"repaired {damaged.name}: ") for w in warnings)
    assert row_counts(data_dir, "broken", 2023)["raw_pages"] == 5
