"""Report assets (group ``reports``): the audit report of one document × year partition.

``audit_report`` reads the partition's stored tables straight from the warehouse
(read-only, filtered to the partition) and the figures its ingest run recorded (the
``text_conservation`` and ``footnote_coverage`` checks, the dictionary's completeness) from the
instance. It loads no model and embeds nothing, so re-materializing it (``rag-assets report``,
the UI) is cheap; a table not stored yet (no golden questions, no summaries) leaves its section
saying so instead of failing the report. Files go to ``<data_dir>/reports_out/<document>/<year>/``.
"""

from pathlib import Path

import dagster as dg
import pandas as pd
from pydantic import Field

from rag_assets.core.evaluation.audit_data import TABLES
from rag_assets.core.evaluation.audit_report import build_audit_report
from rag_assets.core.evaluation.summary_diff import SIMILARITY_THRESHOLD
from rag_assets.core.warehouse.connection import WAREHOUSE_SCHEMA, connect_warehouse, table_names
from rag_assets.core.warehouse.writable import is_local_database
from rag_assets.defs.partitions import partition_of, report_partitions
from rag_assets.defs.resources import RagSettings

GROUP = "reports"
REPORTS_DIR = "reports_out"
# figures recorded by the ingest run: (asset, check or None for the materialization, keys)
RECORDED = (
    ("stitched_text", "text_conservation", ("words_checked", "words_lost")),
    ("stitched_text", "footnote_coverage", ("coverage", "stitched", "cited_with_definition")),
    ("footnote_dictionary", None, ("definitions_complete", "footnote_references_recorded",
                                   "citing_pages_found")),
)


# Rebuilt whenever a table it shows is updated, without waiting for the tables a partition never
# gets (no golden questions: no retrieval_metrics) but only once the report is ingested (a
# partition whose file is gone gets no report).
REPORT_AUTOMATION = (
    dg.AutomationCondition.eager().without(~dg.AutomationCondition.any_deps_missing())
    & dg.AutomationCondition.any_deps_match(
        ~dg.AutomationCondition.missing() | dg.AutomationCondition.will_be_requested())
).with_label("eager, once ingested, gaps allowed")


class AuditReportConfig(dg.Config):
    similarity_threshold: float = Field(
        default=SIMILARITY_THRESHOLD, ge=0.0, le=1.0,
        description="summary diff: two sentences are the same point when the cosine of their "
        "token sets reaches this (lexical: an embedding cosine would cost a model)",
    )


def reports_dir(settings: RagSettings, document: str, year: int) -> Path:
    return Path(settings.data_dir) / REPORTS_DIR / document / str(year)


def read_partition_tables(warehouse: Path | str, document: str,
                          year: int) -> dict[str, pd.DataFrame | None]:
    """Each of ``TABLES``'s rows for the partition; ``None`` for a table not in the warehouse."""
    tables: dict[str, pd.DataFrame | None] = dict.fromkeys(TABLES)
    if is_local_database(str(warehouse)) and not Path(warehouse).is_file():  # md:, postgresql:
        return tables
    con = connect_warehouse(warehouse, read_only=True)
    try:
        existing = table_names(con, WAREHOUSE_SCHEMA)
        for table in TABLES:
            if table in existing:
                tables[table] = con.execute(
                    f"select * from {WAREHOUSE_SCHEMA}.{table} where document = ? and year = ?",
                    [document, year]).df()
    finally:
        con.close()
    return tables


def _value(value: object) -> object:
    return getattr(value, "value", value)


def recorded_figures(instance: dg.DagsterInstance, partition: str) -> dict[str, object]:
    """The figures the partition's last ingest recorded: check results of the run that last
    materialized ``stitched_text``, the dictionary's completeness metadata (absent: not shown)."""
    figures: dict[str, object] = {}
    for asset, check, keys in RECORDED:
        records = instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[partition]),
            limit=1,
        ).records
        if not records or records[0].asset_materialization is None:
            continue
        if check is None:
            metadata = records[0].asset_materialization.metadata
        else:
            evaluations = [
                e.dagster_event.event_specific_data
                for e in instance.all_logs(records[0].run_id,
                                           of_type=dg.DagsterEventType.ASSET_CHECK_EVALUATION)
                if e.dagster_event is not None
            ]
            found = [e for e in evaluations if e.check_name == check
                     and e.asset_key == dg.AssetKey(asset)]
            if not found:
                continue
            metadata = found[-1].metadata
            figures[f"{check} passed"] = found[-1].passed
        for key in keys:
            if key in metadata:
                figures[key] = _value(metadata[key])
    return figures


@dg.asset(
    group_name=GROUP,
    partitions_def=report_partitions,
    deps=[dg.AssetKey(table) for table in TABLES],
    kinds={"duckdb", "matplotlib", "html"},
    # reads DuckDB read-only: no slot of the duckdb_writer pool
    automation_condition=REPORT_AUTOMATION,
    description=__doc__.split("\n\n")[0] + " Markdown (with the coverage heatmap), a heatmap "
    "PNG and a self-contained HTML audit page, from stored tables only: no model call, no "
    "embedding.",
)
def audit_report(
    context: dg.AssetExecutionContext, config: AuditReportConfig, settings: RagSettings
) -> dg.MaterializeResult:
    """Markdown report, coverage heatmap and HTML audit page of the partition, rebuilt from the
    warehouse and the recorded check figures (sections of tables not stored say so)."""
    document, year = partition_of(context)
    tables = read_partition_tables(settings.warehouse_path, document, year)
    figures = recorded_figures(context.instance, str(context.partition_key))
    out = reports_dir(settings, document, year)
    report = build_audit_report(document, year, tables, out, figures=figures,
                                threshold=config.similarity_threshold)
    if report.missing:
        context.log.info(f"not stored for {document}|{year}: {', '.join(report.missing)}")
    context.log.info(f"audit report written to {out}")
    return dg.MaterializeResult(
        metadata={
            "report": dg.MetadataValue.md(report.markdown),
            "html": dg.MetadataValue.path(str(report.html_path)),
            "markdown_file": dg.MetadataValue.path(str(report.markdown_path)),
            "heatmap": dg.MetadataValue.path(str(report.heatmap_path))
            if report.heatmap_path else "no chunks stored",
            "missing_tables": dg.MetadataValue.json(report.missing),
            "similarity_threshold": config.similarity_threshold,
        }
    )


reports_assets = [audit_report]
report_job = dg.define_asset_job(
    "report_job",
    selection=dg.AssetSelection.groups(GROUP),
    description="The audit report (Markdown, heatmap, HTML) of one document x year partition, "
    "from stored tables: no model call, no embedding.",
)
