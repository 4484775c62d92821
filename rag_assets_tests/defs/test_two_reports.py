"""A partition folder holding two reports fails that partition once, with the catalog's words."""

from __future__ import annotations

from pathlib import Path

from rag_assets.core.ingest.catalog import scan_reports
from rag_assets_tests.defs.conftest import materialize, row_counts


def test_two_reports_fail_the_partition_with_the_scan_problem(data_dir: Path, instance):
    folder = data_dir / "reports" / "northwind-note" / "2023"
    (folder / "note-v2.txt").write_text("Revenue grew 13%.\n", encoding="utf-8")
    _, problems = scan_reports(data_dir / "reports")
    [problem] = [p for p in problems if p.path == folder]
    assert problem.problem == (
        "2 report files for northwind-note|2023: note-v2.txt, note.txt; keep one"
    )

    result = materialize(data_dir, instance, "northwind-note", 2023)
    assert not result.success
    [failure] = result.get_step_failure_events()
    description = failure.step_failure_data.user_failure_data.description
    assert description == f"{problem.path}: {problem.problem}"
    assert row_counts(data_dir, "northwind-note", 2023)["raw_pages"] == 0
