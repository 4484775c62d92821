"""The report sensor: new or edited files under ``data/reports/<document>/<year>/`` are ingested.

It registers new document and year partition values and requests one run per changed file. A
file counts as changed when its content hash changed (a ``touch`` is not an edit). The cursor
remembers size, mtime and hash per file so that unchanged files are not hashed again. What cannot
be a partition (a badly named folder, an unsupported file, a folder holding two reports) is logged
as a warning on every tick and requests nothing; once fixed, the file counts as new.
"""


import json

import dagster as dg

from rag_assets.core.ingest.catalog import changed_reports, scan_reports
from rag_assets.defs.ingest import ingest_job
from rag_assets.defs.partitions import document_partitions, partition_key, year_partitions
from rag_assets.defs.resources import RagSettings


@dg.sensor(
    job=ingest_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Ingests new or changed reports under data/reports/<document>/<year>/.",
)
def report_sensor(context: dg.SensorEvaluationContext, settings: RagSettings) -> dg.SensorResult:
    reports, problems = scan_reports(settings.reports_dir)
    for problem in problems:  # e.g. a folder with two reports: one line, no run, until fixed
        context.log.warning(f"not ingested: {problem.path}: {problem.problem}")
    seen = json.loads(context.cursor) if context.cursor else {}
    changed, new_seen = changed_reports(reports, seen)
    known_documents = set(context.instance.get_dynamic_partitions(document_partitions.name))
    known_years = set(context.instance.get_dynamic_partitions(year_partitions.name))
    new_documents = sorted({r.document for r, _ in changed} - known_documents)
    new_years = sorted({str(r.year) for r, _ in changed} - known_years)
    runs = [
        dg.RunRequest(
            run_key=f"{report.partition}:{digest[:16]}",
            partition_key=partition_key(report.document, report.year),
            tags={"rag-assets/file": str(report.path), "rag-assets/sha256": digest},
        )
        for report, digest in changed
    ]
    for report, _ in changed:
        context.log.info(f"{report.partition}: new or changed report {report.path.name}")
    return dg.SensorResult(
        run_requests=runs,
        dynamic_partitions_requests=[
            request
            for definition, values in ((document_partitions, new_documents),
                                       (year_partitions, new_years))
            if values
            for request in [definition.build_add_request(values)]
        ],
        cursor=json.dumps(new_seen, sort_keys=True),
    )
