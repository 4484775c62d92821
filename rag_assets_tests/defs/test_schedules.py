"""The nightly schedules: a tick requests ingest runs for new or edited reports only, and
evaluation runs for ingested partitions whose questions or vectors are newer than their runs."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg
import pytest

from rag_assets.core.ingest.documents import file_sha256
from rag_assets.core.settings import Settings
from rag_assets.core.warehouse.tables import RAW_PAGES_SCHEMA
from rag_assets.definitions import defs
from rag_assets.defs.ingest import ingest_report
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import RagSettings, default_resources
from rag_assets.defs.schedules import reevaluate_schedule, reingest_schedule

NOTE = "Northwind note\nRevenue grew 12% [1].\n__________\n[1] Includes an acquisition.\n"


def write(data_dir: Path, document: str, year: int, text: str) -> Path:
    path = data_dir / "reports" / document / str(year) / "report.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def tick(schedule: dg.ScheduleDefinition, instance: dg.DagsterInstance, data_dir: Path):
    # as a context manager: the instance it opens from the ref is closed (and stops being the
    # process's current definitions-state storage) when the tick ends
    with dg.build_schedule_context(
        instance=instance, resources={"settings": RagSettings(data_dir=str(data_dir))},
        scheduled_execution_time=datetime(2026, 11, 24, 2, 0, tzinfo=UTC),
    ) as context:
        result = schedule(context)
    return [] if isinstance(result, dg.SkipReason) else list(result)


def ingest_raw_pages(instance: dg.DagsterInstance, data_dir: Path, document: str, year: int):
    """A real ingest of the partition's pages: what the schedule reads the ingested hash from."""
    register_partitions(instance, [partition_key(document, str(year))])
    result = dg.materialize([ingest_report], partition_key=partition_key(document, year),
                            instance=instance, resources=default_resources(str(data_dir)))
    assert result.success


def test_schedules_are_registered_with_their_jobs_and_the_cron_setting():
    assert {s.name: s.job_name for s in defs.schedules}.items() >= {
        "reingest_schedule": "ingest_job", "reevaluate_schedule": "evaluation_job"}.items()
    assert reingest_schedule.cron_schedule == Settings().runtime.reingest_cron
    assert reingest_schedule.default_status == dg.DefaultScheduleStatus.RUNNING


def test_a_tick_requests_ingest_for_the_new_report_only(tmp_path: Path):
    data = tmp_path / "data"
    write(data, "northwind-note", 2023, NOTE)
    with dg.instance_for_test() as instance:
        ingest_raw_pages(instance, data, "northwind-note", 2023)
        new = write(data, "acme-annual", 2024, "Acme annual report\nSales rose.\n")

        requests = tick(reingest_schedule, instance, data)
        assert [r.partition_key for r in requests] == [partition_key("acme-annual", 2024)]
        assert requests[0].tags["rag-assets/sha256"] == file_sha256(new)
        assert reingest_schedule.job_name == "ingest_job"
        # the schedule registers the new partition values itself (it cannot return requests)
        assert "acme-annual|2024" in instance.get_dynamic_partitions("report")

        # an edit of the ingested report is a change; a touch is not
        unchanged = data / "reports" / "northwind-note" / "2023" / "report.txt"
        unchanged.touch()
        assert [r.partition_key for r in tick(reingest_schedule, instance, data)] == [
            partition_key("acme-annual", 2024)]
        unchanged.write_text(NOTE + "Costs fell.\n", encoding="utf-8")
        assert {str(r.partition_key) for r in tick(reingest_schedule, instance, data)} == {
            "acme-annual|2024", "northwind-note|2023"}


@pytest.mark.parametrize(("layout", "ingested_again"), [
    (RAW_PAGES_SCHEMA, False), (RAW_PAGES_SCHEMA - 1, True), (None, True)])
def test_a_partition_written_with_an_older_layout_is_ingested_again(
        tmp_path: Path, layout: int | None, ingested_again: bool):
    """Same file, same hash: only the layout its tables were written with (``schema_version``
    in the raw_pages materialization; none before there was one) makes it stale."""
    data = tmp_path / "data"
    report = write(data, "northwind-note", 2023, NOTE)
    with dg.instance_for_test() as instance:
        register_partitions(instance, [partition_key("northwind-note", "2023")])
        recorded = {"source_sha256": file_sha256(report)}
        if layout is not None:
            recorded["schema_version"] = layout
        instance.report_runless_asset_event(dg.AssetMaterialization(
            "raw_pages", partition="northwind-note|2023", metadata=recorded))
        requested = [str(r.partition_key) for r in tick(reingest_schedule, instance, data)]
        assert requested == (["northwind-note|2023"] if ingested_again else [])


def test_a_partition_with_a_run_in_progress_is_not_requested_again(tmp_path: Path):
    data = tmp_path / "data"
    write(data, "acme-annual", 2024, "Acme annual report\nSales rose.\n")
    with dg.instance_for_test() as instance:
        assert len(tick(reingest_schedule, instance, data)) == 1
        instance.add_run(dg.DagsterRun(
            job_name="ingest_job", run_id="running-run", status=dg.DagsterRunStatus.STARTED,
            tags={"dagster/partition": "acme-annual|2024"}))
        assert tick(reingest_schedule, instance, data) == []


@pytest.mark.parametrize("outdated_by", ["questions", "vectors", "never"])
def test_a_tick_requests_evaluation_where_inputs_are_newer(tmp_path: Path, outdated_by: str):
    data = tmp_path / "data"
    write(data, "northwind-note", 2023, NOTE)
    write(data, "acme-annual", 2024, "Acme annual report\nSales rose.\n")
    questions = {}
    for document, year in (("northwind-note", 2023), ("acme-annual", 2024)):
        path = data / "questions" / document / f"{year}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"id": "q1", "question": "?"}) + "\n", encoding="utf-8")
        questions[document] = path
    with dg.instance_for_test() as instance:
        ingest_raw_pages(instance, data, "northwind-note", 2023)
        # acme-annual is not ingested: its ingest run's automation evaluates it, not this schedule
        old = questions["northwind-note"].stat().st_mtime - 3600
        os.utime(questions["northwind-note"], (old, old))
        if outdated_by != "never":
            instance.report_runless_asset_event(dg.AssetMaterialization(
                "retrieval_runs", partition="northwind-note|2023"))
            assert tick(reevaluate_schedule, instance, data) == []
        if outdated_by == "questions":
            os.utime(questions["northwind-note"], None)  # edited now, after the evaluation
        elif outdated_by == "vectors":
            instance.report_runless_asset_event(dg.AssetMaterialization(
                "enriched_vectors", partition="northwind-note|2023"))

        requests = tick(reevaluate_schedule, instance, data)
        assert [r.partition_key for r in requests] == [partition_key("northwind-note", 2023)]
        assert reevaluate_schedule.job_name == "evaluation_job"
        assert requests[0].tags["rag-assets/reason"].startswith(
            {"questions": "2023.jsonl edited", "vectors": "enriched_vectors rebuilt",
             "never": "never evaluated"}[outdated_by])
