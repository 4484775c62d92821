"""Declarative automation: an ingested partition flows on to index, evaluation and generation.

The upstream updates are materialization events on an instance (what a finished run leaves),
and ``evaluate_automation_conditions`` is one tick of the automation sensor over the real
definitions."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg

from rag_assets.definitions import defs
from rag_assets.defs.ingest import ingest_report
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import default_resources
from rag_assets.defs.sensors import automation_sensor

PARTITION = "acme-annual|2024"
OTHER = "northwind-note|2023"
INGEST = ("raw_pages", "footnote_dictionary", "footnote_registry", "stitched_text",
          "naive_chunks", "enriched_chunks", "financial_statements")
INDEX = ("document_profile", "naive_vectors", "enriched_vectors")
EVALUATION_AND_GENERATION = ("retrieval_runs", "retrieval_metrics", "summaries", "answers",
                             "answer_metrics", "audit_report")
DOWNSTREAM = INDEX + EVALUATION_AND_GENERATION


def materialized(instance: dg.DagsterInstance, assets: tuple[str, ...], partition: str | None):
    for asset in assets:
        instance.report_runless_asset_event(dg.AssetMaterialization(asset, partition=partition))


def requested(result) -> dict[str, set[str]]:  # noqa: ANN001 - EvaluateAutomationConditionsResult
    """Asset -> the partitions this tick requested ("" for an unpartitioned asset)."""
    out = {}
    for key in defs.resolve_asset_graph().get_all_asset_keys():
        partitions = result.get_requested_partitions(key)
        if partitions:
            out[key.to_user_string()] = {str(p) if p else "" for p in partitions}
    return out


def test_the_automation_sensor_starts_running_and_covers_every_asset():
    sensor = defs.get_sensor_def("automation_sensor")
    assert sensor is automation_sensor
    assert sensor.default_status == dg.DefaultSensorStatus.RUNNING
    graph = defs.resolve_asset_graph()
    automated = {key.to_user_string() for key in graph.get_all_asset_keys()
                 if graph.get(key).automation_condition is not None}
    assert automated >= {*INDEX, "retrieval_runs", "retrieval_metrics", "evaluation_rollup",
                         "summaries", "answers", "answer_metrics", "answer_rollup",
                         "audit_report"}
    assert not automated & set(INGEST)  # the report sensor's job: a file is their trigger


def test_an_ingested_partition_flows_downstream_by_itself():
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, [PARTITION, OTHER])
        first = dg.evaluate_automation_conditions(defs=defs, instance=instance)
        assert first.total_requested == 0  # nothing exists yet: nothing to follow

        # an ingest run that stopped after the chunks: one tick requests the partition's whole
        # downstream chain (one run), and nothing of the other partitions
        materialized(instance, INGEST, PARTITION)
        result = dg.evaluate_automation_conditions(defs=defs, instance=instance,
                                                   cursor=first.cursor)
        assert requested(result) == {asset: {PARTITION} for asset in DOWNSTREAM}

        # nothing is asked twice while that run has not written anything
        again = dg.evaluate_automation_conditions(defs=defs, instance=instance,
                                                  cursor=result.cursor)
        assert again.total_requested == 0

        # that run done: the roll-ups follow, without waiting for the partitions that have
        # no report (gaps of the grid)
        materialized(instance, DOWNSTREAM, PARTITION)
        result = dg.evaluate_automation_conditions(defs=defs, instance=instance,
                                                   cursor=again.cursor)
        assert requested(result) == {"evaluation_rollup": {""}, "answer_rollup": {""}}

        materialized(instance, ("evaluation_rollup", "answer_rollup"), None)
        result = dg.evaluate_automation_conditions(defs=defs, instance=instance,
                                                   cursor=result.cursor)
        assert result.total_requested == 0


def test_a_whole_ingest_run_does_not_request_its_own_index_again():
    """ingest_job writes the ingest and index assets in one run: the index is not re-run."""
    with dg.DagsterInstance.ephemeral() as instance:
        register_partitions(instance, [PARTITION, OTHER])
        first = dg.evaluate_automation_conditions(defs=defs, instance=instance)
        materialized(instance, INGEST + INDEX, PARTITION)
        materialized(instance, INGEST + INDEX, OTHER)
        result = dg.evaluate_automation_conditions(defs=defs, instance=instance,
                                                   cursor=first.cursor)
        assert requested(result) == {
            asset: {PARTITION, OTHER} for asset in EVALUATION_AND_GENERATION}


def test_the_repo_instance_pools_warehouse_writers_and_shows_no_community_popup(
        tmp_path: Path):
    """The repo's deploy/dagster.yaml (make copies it to .dagster_home): one run at a time, one
    DuckDB-writing step at a time across runs, no NUX pop-up, no telemetry."""
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(Path(__file__).parents[2] / "deploy" / "dagster.yaml", home / "dagster.yaml")
    report = tmp_path / "data" / "reports" / "acme-annual" / "2024" / "report.txt"
    report.parent.mkdir(parents=True)
    report.write_text("Acme annual report\nSales rose.\n", encoding="utf-8")
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert instance.nux_enabled is False
        assert instance.telemetry_enabled is False
        config = instance.get_concurrency_config()
        assert config.run_queue_config.max_concurrent_runs == 1
        assert config.pool_config.default_pool_limit == 1
        # a killed run's slot is freed: the pool's only slot is not held forever
        assert instance.run_monitoring_settings["free_slots_after_run_end_seconds"] > 0
        register_partitions(instance, [partition_key("acme-annual", "2024")])
        result = dg.materialize([ingest_report], partition_key=partition_key("acme-annual", 2024),
                                instance=instance,
                                resources=default_resources(str(tmp_path / "data")))
        assert result.success
        # the writing step took its slot of the pool, which got the default limit of one
        assert instance.event_log_storage.get_concurrency_keys() == {"duckdb_writer"}
        info = instance.event_log_storage.get_concurrency_info("duckdb_writer")
        assert (info.slot_count, info.claimed_slots) == (1, [])
