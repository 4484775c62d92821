"""``make backfill-check`` as a test: a real daemon over many partitions, a SIGKILLed run, and
tables that end exact. The slow test uses the quick fleet (three one-page text notes with
golden questions: more runs than the two run slots and the one warehouse-writer slot, so runs
queue) materialized in process first, then one backfill in which a run is SIGKILLed and
re-executed from failure; its run monitoring looks every second instead of every 5 s and frees
a killed run's pool slot 1 s after failing it instead of 10 s. ``make backfill-check`` runs the
full check with the same code: twelve partitions of the sample corpus' PDFs carried through
every asset by the sensors, a backfill, then a second one over the rows it wrote with the kill,
on the repo's instance settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.backfill_check import (
    PartitionRows,
    build_reports,
    check,
    exactness_problems,
    fleet_parser,
    work_folder,
)


def rows(key: str, questions: int, runs: int, distinct: int, metrics: int = 6,
         others: dict[str, int] | None = None) -> PartitionRows:
    return PartitionRows(partition=key, questions=questions, retrieval_runs=runs,
                         distinct_runs=distinct, metrics=metrics, distinct_metrics=metrics,
                         others=others or {"raw_pages": 1})


def test_exactness_finds_lost_duplicated_and_changed_rows():
    before = {"a|2023": rows("a|2023", 2, 8, 8), "b|2023": rows("b|2023", 0, 0, 0, metrics=0)}
    assert exactness_problems(before, before, combos=4) == []
    after = {
        "a|2023": rows("a|2023", 2, 12, 8),  # a run written twice over
        "b|2023": rows("b|2023", 0, 0, 0, metrics=0, others={"raw_pages": 2}),
    }
    problems = exactness_problems(after, before, combos=4)
    assert any("retrieval_runs 12 rows, expected 8" in p for p in problems)
    assert any("4 duplicated runs" in p for p in problems)
    assert any("b|2023: other tables changed" in p for p in problems)
    lost = {"a|2023": rows("a|2023", 2, 4, 4)}
    assert exactness_problems(lost, before, combos=4) == ["a|2023: retrieval_runs 4 rows, "
                                                          "expected 8"]
    doubled = rows("a|2023", 2, 8, 8, metrics=12)
    doubled.distinct_metrics = 6
    assert exactness_problems({"a|2023": doubled}, before, combos=4) == [
        "a|2023: 6 duplicated metrics rows", "a|2023: retrieval_metrics 6 -> 12"]
    unmeasured = rows("a|2023", 2, 8, 8, metrics=0)
    assert exactness_problems({"a|2023": unmeasured}, {}, combos=4) == [
        "a|2023: no retrieval_metrics rows"]


def test_the_fleets_have_twelve_partitions(tmp_path: Path):
    notes = build_reports(tmp_path / "notes", "notes", 12)
    assert len(notes) == len(set(notes)) == 12
    samples = build_reports(tmp_path / "samples", "samples", 12)
    assert len(samples) == len(set(samples)) == 12
    assert {k.split("|")[0] for k in samples} >= {"northwind-annual", "footnote-rag-paper",
                                                  "layout-matrix-reportlab"}


def test_a_kept_work_folder_must_be_empty(tmp_path: Path):
    parser = fleet_parser("check", "a harness")
    args = parser.parse_args(["--keep", str(tmp_path / "new"), "--fleet", "notes"])
    assert (args.fleet, args.partitions) == ("notes", 12)
    assert work_folder(parser, args.keep, "check-") == tmp_path / "new"
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "left-over").touch()
    with pytest.raises(SystemExit):
        work_folder(parser, tmp_path / "used", "check-")
    fresh = work_folder(parser, None, "check-")
    assert fresh.name.startswith("check-") and not any(fresh.iterdir())
    fresh.rmdir()


@pytest.mark.slow
def test_daemon_backfill_over_three_partitions_survives_a_killed_run(tmp_path: Path):
    flow, fault = check(tmp_path, fleet="notes", partitions=3, flow="in-process",
                        monitor_every=1, free_slots_after=1, kill_in_first_backfill=True)
    assert flow.partitions == 3 and flow.failed == 0
    assert fault.partitions == 3 and fault.runs == 4  # a run per partition, and the re-execution
    assert fault.failed == 1 and fault.succeeded == 3  # the killed run failed, its re-execution not
    assert "killed run" in fault.note and fault.note.endswith("1/1 succeeded")
