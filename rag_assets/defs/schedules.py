"""Nightly schedules: re-ingest what changed, re-evaluate what its inputs outdated.

The report sensor sees a new or edited file within a minute while the daemon runs; the nightly
tick catches what it did not (the daemon was down, the sensor turned off, a run failed) and the
golden questions, which no sensor watches. A Dagster schedule launches runs of one job only, so
there are two, ticking at the same time (the settings' ``runtime.reingest_cron``,
``RAG_ASSETS_REINGEST_CRON``, default ``0 2 * * *``, read when the code location loads;
``runtime.schedule_timezone``, ``RAG_ASSETS_SCHEDULE_TIMEZONE``, default UTC):

- ``reingest_schedule`` (``ingest_job``) re-scans the report tree with the sensor's change
  detection (``sensors.scan_changes``), against what the instance says was ingested: the content
  hash each partition's last ``raw_pages`` materialization recorded, with the layout of the
  tables it wrote (``schema_version``). A file whose hash differs, that was never ingested, or
  whose tables have an older layout than this version reads gets a run; the automation sensor
  then carries the partition through evaluation and generation.
- ``reevaluate_schedule`` (``evaluation_job``) re-runs the evaluation of partitions whose report
  is unchanged but whose evaluation inputs are newer than their last ``retrieval_runs``: the
  golden questions file was edited, or the vectors were rebuilt while automation was off.

Neither requests a partition that already has a run queued or in progress.
"""

from __future__ import annotations

from typing import Any

import dagster as dg

from rag_assets.core.evaluation.questions import questions_path
from rag_assets.core.ingest.catalog import ReportFile, scan_reports
from rag_assets.core.settings import Settings
from rag_assets.defs.evaluation import evaluation_job
from rag_assets.defs.ingest import ingest_job
from rag_assets.defs.partitions import partition_key, register_partitions
from rag_assets.defs.resources import RagSettings
from rag_assets.defs.sensors import (
    ingest_request,
    ingested_sha256,
    latest_materialization,
    scan_changes,
)

EVALUATION_INPUTS = ("naive_vectors", "enriched_vectors", "document_profile")
BUSY = [  # a run queued, starting, running or being cancelled: the partition is taken
    dg.DagsterRunStatus.QUEUED, dg.DagsterRunStatus.NOT_STARTED, dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.CANCELING,
]


def tick_label(context: dg.ScheduleEvaluationContext) -> str:
    return context.scheduled_execution_time.strftime("%Y-%m-%dT%H:%M")


def busy(instance: dg.DagsterInstance, key: str) -> bool:
    """Whether a run of this partition is queued or in progress."""
    return bool(instance.get_run_records(
        dg.RunsFilter(tags={"dagster/partition": key}, statuses=BUSY), limit=1
    ))


def ingested_state(instance: dg.DagsterInstance, settings: RagSettings,
                   log: dg.DagsterLogManager) -> tuple[list, list]:
    """Every report's ``(report, sha256)`` that differs from what was ingested, and every
    report that is ingested at its current version."""
    reports, _ = scan_reports(settings.reports_dir)
    # ``seen`` as the sensor keeps it, from the instance: no size or mtime, so every file is
    # hashed once and counts as changed when its hash is not the one ingested
    seen = {str(r.path): [None, None, ingested_sha256(instance, r)] for r in reports}
    _, changed, _ = scan_changes(log, settings, seen)
    changed_paths = {str(r.path) for r, _ in changed}
    return changed, [r for r in reports if str(r.path) not in changed_paths]


def nightly(job: dg.UnresolvedAssetJobDefinition, description: str) -> Any:
    """A schedule of ``job`` at the nightly cron (``runtime.reingest_cron``) in the
    configured timezone, running from the first start."""
    runtime = Settings().runtime
    return dg.schedule(cron_schedule=runtime.reingest_cron, job=job,
                       execution_timezone=runtime.schedule_timezone,
                       default_status=dg.DefaultScheduleStatus.RUNNING, description=description)


@nightly(ingest_job, "Nightly: re-scans data/reports/ and re-ingests every report whose content "
         "hash differs from the one its partition last ingested (cron: "
         "RAG_ASSETS_REINGEST_CRON).")
def reingest_schedule(context: dg.ScheduleEvaluationContext, settings: RagSettings):
    changed, ingested = ingested_state(context.instance, settings, context.log)
    # a schedule cannot return partition requests: register the reports' as the sensor would
    register_partitions(context.instance,
                        [report.partition for report in [*(r for r, _ in changed), *ingested]])
    # the tick in the run key: a file reverted to a version ingested before is ingested again
    tick = tick_label(context)
    for report, _ in changed:
        context.log.info(f"{report.partition}: new or changed report {report.path.name}")
    requests = [
        request.with_replaced_attrs(run_key=f"{request.run_key}:{tick}")
        for report, digest in changed if not busy(context.instance, report.partition)
        for request in [ingest_request(report, digest)]
    ]
    if not requests:
        return dg.SkipReason("every report is ingested at its current content")
    return requests


def evaluation_outdated(instance: dg.DagsterInstance, settings: RagSettings,
                        report: ReportFile) -> str | None:
    """Why the partition's evaluation is older than its inputs, or None."""
    questions = questions_path(settings.questions_dir, report.document, report.year)
    if not questions.exists():
        return None
    last = latest_materialization(instance, "retrieval_runs", report.partition)
    if last is None:
        return "never evaluated"
    if questions.stat().st_mtime > last.timestamp:
        return f"{questions.name} edited after the last evaluation"
    for asset in EVALUATION_INPUTS:
        record = latest_materialization(instance, asset, report.partition)
        if record is not None and record.timestamp > last.timestamp:
            return f"{asset} rebuilt after the last evaluation"
    return None


@nightly(evaluation_job, "Nightly: re-runs the evaluation of ingested partitions whose golden "
         "questions or vectors are newer than their last retrieval_runs (cron: "
         "RAG_ASSETS_REINGEST_CRON).")
def reevaluate_schedule(context: dg.ScheduleEvaluationContext, settings: RagSettings):
    _, current = ingested_state(context.instance, settings, context.log)
    requests = []
    for report in current:
        reason = evaluation_outdated(context.instance, settings, report)
        if reason is None or busy(context.instance, report.partition):
            continue
        context.log.info(f"{report.partition}: re-evaluating ({reason})")
        requests.append(dg.RunRequest(
            partition_key=partition_key(report.document, report.year),
            tags={"rag-assets/reason": reason},
        ))
    if not requests:
        return dg.SkipReason("every evaluation is newer than its inputs")
    return requests


schedules = [reingest_schedule, reevaluate_schedule]
