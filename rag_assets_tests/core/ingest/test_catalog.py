"""The report tree: partitions, problems, and a folder holding more than one report."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_assets.core.ingest.catalog import changed_reports, report_for, scan_reports


def put(reports: Path, relative: str, text: str = "Revenue rose.\n") -> Path:
    path = reports / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_one_report_per_folder_is_a_partition(tmp_path: Path):
    put(tmp_path, "acme/2023/report.txt")
    put(tmp_path, "acme/2024/report.pdf")
    put(tmp_path, "acme/2024/.report.pdf.swp")  # hidden: ignored
    reports, problems = scan_reports(tmp_path)
    assert [r.partition for r in reports] == ["acme|2023", "acme|2024"]
    assert problems == []
    assert report_for(tmp_path, "acme", 2024) == tmp_path / "acme" / "2024" / "report.pdf"
    assert report_for(tmp_path, "acme", 2025) is None


def test_a_folder_with_two_reports_is_one_problem_and_no_report(tmp_path: Path):
    put(tmp_path, "acme/2023/b.txt")
    put(tmp_path, "acme/2023/a.pdf")
    put(tmp_path, "acme/2023/notes.docx")  # not a report: its own problem, not counted
    put(tmp_path, "acme/2024/report.txt")
    reports, problems = scan_reports(tmp_path)
    assert [r.partition for r in reports] == ["acme|2024"]
    several = [p for p in problems if p.path == tmp_path / "acme" / "2023"]
    assert len(several) == 1
    assert several[0].problem == "2 report files for acme|2023: a.pdf, b.txt; keep one"
    assert [(p.path.name, p.problem) for p in problems if p not in several] == [
        ("notes.docx", "unsupported file type")
    ]
    with pytest.raises(ValueError) as err:
        report_for(tmp_path, "acme", 2023)
    # the failed partition and the scan say the same thing
    assert str(err.value) == f"{several[0].path}: {several[0].problem}"


def test_removing_the_extra_report_makes_the_partition_new_again(tmp_path: Path):
    first = put(tmp_path, "acme/2023/a.txt")
    reports, _ = scan_reports(tmp_path)
    changed, seen = changed_reports(reports, {})
    assert [r.path for r, _ in changed] == [first]
    second = put(tmp_path, "acme/2023/b.txt", "Another version.\n")
    reports, problems = scan_reports(tmp_path)
    assert reports == [] and len(problems) == 1
    changed, seen = changed_reports(reports, seen)
    assert changed == [] and seen == {}
    first.unlink()
    reports, problems = scan_reports(tmp_path)
    changed, seen = changed_reports(reports, seen)
    assert problems == [] and [r.path for r, _ in changed] == [second]


def test_badly_named_folders_are_problems_per_file(tmp_path: Path):
    put(tmp_path, "Acme Corp/2023/report.txt")
    put(tmp_path, "acme/FY23/report.txt")
    reports, problems = scan_reports(tmp_path)
    assert reports == []
    assert sorted(p.problem for p in problems) == [
        "document folder must be [a-z0-9-]+ (rename it to 'acme-corp')",
        "year folder must be a year",
    ]
