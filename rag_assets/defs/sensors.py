"""The report sensor: new or edited files under ``data/reports/<document>/<year>/`` are ingested.

It registers new document and year partition values and requests one run per changed file. A
file counts as changed when its content hash changed (a ``touch`` is not an edit). The cursor
remembers size, mtime and hash per file so that unchanged files are not hashed again. What cannot
be a partition (a badly named folder, an unsupported file, a folder holding two reports) is logged
as a warning on every tick and requests nothing; once fixed, the file counts as new.
"""


import json
import logging

import dagster as dg

from rag_assets.core.ingest.catalog import ReportFile, changed_reports, scan_reports
from rag_assets.defs.ingest import FILE_TAG, SHA256_TAG, ingest_job
from rag_assets.defs.partitions import document_partitions, partition_key, year_partitions
from rag_assets.defs.resources import RagSettings


def scan_changes(
    log: logging.Logger | dg.DagsterLogManager, settings: RagSettings, seen: dict[str, list]
) -> tuple[list[tuple[ReportFile, str]], dict[str, list]]:
    """The report tree's new or edited files (by content hash) against ``seen``, and the new
    ``seen`` (``changed_reports``); what cannot be a partition is logged, one line each."""
    reports, problems = scan_reports(settings.reports_dir)
    for problem in problems:  # e.g. a folder with two reports: one line, no run, until fixed
        log.warning(f"not ingested: {problem.path}: {problem.problem}")
    changed, new_seen = changed_reports(reports, seen)
    for report, _ in changed:
        log.info(f"{report.partition}: new or changed report {report.path.name}")
    return changed, new_seen


def new_partition_values(
    instance: dg.DagsterInstance, changed: list[tuple[ReportFile, str]]
) -> tuple[list[str], list[str]]:
    """Document and year values of ``changed`` the instance does not know yet."""
    known_documents = set(instance.get_dynamic_partitions(document_partitions.name))
    known_years = set(instance.get_dynamic_partitions(year_partitions.name))
    return (sorted({r.document for r, _ in changed} - known_documents),
            sorted({str(r.year) for r, _ in changed} - known_years))


def ingest_request(report: ReportFile, digest: str) -> dg.RunRequest:
    """One ``ingest_job`` run for this version of the report (its run key names the version)."""
    return dg.RunRequest(
        run_key=f"{report.partition}:{digest[:16]}",
        partition_key=partition_key(report.document, report.year),
        tags={FILE_TAG: str(report.path), SHA256_TAG: digest},
    )


@dg.sensor(
    job=ingest_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Ingests new or changed reports under data/reports/<document>/<year>/.",
)
def report_sensor(context: dg.SensorEvaluationContext, settings: RagSettings) -> dg.SensorResult:
    seen = json.loads(context.cursor) if context.cursor else {}
    changed, new_seen = scan_changes(context.log, settings, seen)
    new_documents, new_years = new_partition_values(context.instance, changed)
    return dg.SensorResult(
        run_requests=[ingest_request(report, digest) for report, digest in changed],
        dynamic_partitions_requests=[
            request
            for definition, values in ((document_partitions, new_documents),
                                       (year_partitions, new_years))
            if values
            for request in [definition.build_add_request(values)]
        ],
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
