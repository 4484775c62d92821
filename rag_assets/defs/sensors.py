"""The report sensor: new or edited files under ``data/reports/<document>/<year>/`` are ingested.

It registers the partition of each new report (``<document>|<year>``) and requests one run per
file whose content is not the one its partition holds. A file counts as changed when its content
hash changed (a ``touch`` is not an edit); the cursor remembers size, mtime and hash per file so
that unchanged files are not hashed again. A changed file is then compared with what the instance
says was ingested: the content hash the partition's last ``raw_pages`` materialization recorded
(``source_sha256``, with the tables' layout, ``schema_version``). A report already ingested at
that version, by whatever path (``make demo`` and the other CLI commands, a run launched in the
UI, a backfill, the nightly schedule), gets no run: a sensor starting on an instance the demo
filled requests nothing. What cannot be a partition (a badly named folder, an unsupported file,
a folder holding two reports) is logged as a warning on every tick and requests nothing; once
fixed, the file counts as new.
"""


import json
import logging
from collections.abc import Mapping
from typing import Any

import dagster as dg

from rag_assets.core.ingest.catalog import ReportFile, changed_reports, scan_reports
from rag_assets.core.warehouse.tables import RAW_PAGES_SCHEMA
from rag_assets.defs.ingest import FILE_TAG, SHA256_TAG, ingest_job
from rag_assets.defs.partitions import partition_key, report_partitions, run_tags
from rag_assets.defs.resources import RagSettings


def latest_materialization(instance: dg.DagsterInstance, asset: str,
                           key: str) -> dg.EventLogRecord | None:
    """The partition's last materialization of ``asset`` (None: never materialized)."""
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[key]), limit=1
    ).records
    return records[0] if records else None


def _recorded(metadata: Mapping[str, Any], name: str) -> object:
    value = metadata.get(name)
    return getattr(value, "value", value)


def recorded_sha256(record: dg.EventLogRecord | None) -> str | None:
    """The report version a ``raw_pages`` materialization recorded; None when there is none, or
    when it was written with an older layout of the tables (``schema_version``): such a
    partition is stale and ingested again."""
    materialization = record.asset_materialization if record else None
    if materialization is None:
        return None
    if _recorded(materialization.metadata, "schema_version") != RAW_PAGES_SCHEMA:
        return None
    text = _recorded(materialization.metadata, "source_sha256")
    return text if isinstance(text, str) else None


def ingested_sha256(instance: dg.DagsterInstance, report: ReportFile) -> str | None:
    """The report version the partition's last ``raw_pages`` materialization recorded (None:
    never ingested, or with an older layout of the tables)."""
    return recorded_sha256(latest_materialization(instance, "raw_pages", report.partition))


def scan_changes(
    log: logging.Logger | dg.DagsterLogManager, settings: RagSettings, seen: dict[str, list]
) -> tuple[list[ReportFile], list[tuple[ReportFile, str]], dict[str, list]]:
    """Every report of the tree; its new or edited files (by content hash) against ``seen``, and
    the new ``seen`` (``changed_reports``). What cannot be a partition is logged, one line each
    (what changed is logged by the caller, which knows whether it gets a run)."""
    reports, problems = scan_reports(settings.reports_dir)
    for problem in problems:  # e.g. a folder with two reports: one line, no run, until fixed
        log.warning(f"not ingested: {problem.path}: {problem.problem}")
    return (reports, *changed_reports(reports, seen))


def new_partitions(instance: dg.DagsterInstance, reports: list[ReportFile]) -> list[str]:
    """The partitions of ``reports`` the instance does not know yet: those of new files, and
    of files ingested before the instance kept one partition per report."""
    known = set(instance.get_dynamic_partitions(report_partitions.name))
    return sorted({report.partition for report in reports} - known)


def ingest_request(report: ReportFile, digest: str, replaces: int = 0) -> dg.RunRequest:
    """One ``ingest_job`` run for this version of the report. Its run key names the version and
    the ``raw_pages`` materialization it replaces (``replaces``, its storage id; 0: none), so a
    file reverted to a version ingested before is requested again, and no request twice."""
    return dg.RunRequest(
        run_key=f"{report.partition}:{digest[:16]}:{replaces}",
        partition_key=partition_key(report.document, report.year),
        tags={FILE_TAG: str(report.path), SHA256_TAG: digest,
              **run_tags(report.document, report.year)},
    )


def not_ingested(instance: dg.DagsterInstance, log: logging.Logger | dg.DagsterLogManager,
                 changed: list[tuple[ReportFile, str]]) -> list[tuple[ReportFile, str, int]]:
    """Those of ``changed`` whose partition does not hold that version yet, each with the
    storage id of the ``raw_pages`` materialization a run would replace (0: none); one line
    for each that is already ingested (by the CLI, the UI, a backfill or an earlier run)."""
    wanted = []
    for report, digest in changed:
        record = latest_materialization(instance, "raw_pages", report.partition)
        if record is not None and recorded_sha256(record) == digest:
            log.info(f"{report.partition}: {report.path.name} is ingested at this version "
                     f"(run {record.run_id[:8]}): no run")
            continue
        log.info(f"{report.partition}: new or changed report {report.path.name}")
        wanted.append((report, digest, record.storage_id if record else 0))
    return wanted


@dg.sensor(
    job=ingest_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Ingests new or changed reports under data/reports/<document>/<year>/.",
)
def report_sensor(context: dg.SensorEvaluationContext, settings: RagSettings) -> dg.SensorResult:
    seen = json.loads(context.cursor) if context.cursor else {}
    reports, changed, new_seen = scan_changes(context.log, settings, seen)
    requests = not_ingested(context.instance, context.log, changed)
    new = new_partitions(context.instance, reports)
    return dg.SensorResult(
        run_requests=[ingest_request(*request) for request in requests],
        dynamic_partitions_requests=[report_partitions.build_add_request(new)] if new else [],
        cursor=json.dumps(new_seen, sort_keys=True),
    )


# Every asset's automation condition is evaluated by this sensor, on by default (Dagster's own
# default sensor starts stopped): once the report sensor's ingest run has written a partition,
# index, evaluation and generation assets (AutomationCondition.eager) and the roll-ups follow
# without a click. The ingest assets have no condition: a file is their trigger (report_sensor).
automation_sensor = dg.AutomationConditionSensorDefinition(
    "automation_sensor",
    target=dg.AssetSelection.all(),
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=30,
    description="Materializes what an upstream update outdated: a new or edited report flows "
    "from ingest through index, evaluation and generation by itself.",
)
