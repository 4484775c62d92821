"""The commands that run assets: ``sample``, ``demo``, ``backfill`` and ``report`` (``ask`` is
``ask.py``, ``ingest`` is ``ingest.py``).

Each takes the parsed arguments and returns the exit code; runs go through
``rag_assets.cli.runs`` (the project's ``defs``), lines and tables through
``rag_assets.cli.output``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from rag_assets.cli.output import (
    DEMO_LEGEND,
    command_name,
    demo_table,
    has_warehouse,
    legend,
    next_steps,
    partition_line,
    partition_row,
    print_answer_metrics,
    print_metrics,
    print_summaries,
    progress_head,
    report_failures,
)
from rag_assets.cli.progress import Progress
from rag_assets.cli.runs import (
    check_metadata,
    demo_assets,
    first_error,
    materialize,
    materialized_metadata,
    open_instance_for,
    rollups_of,
)

if TYPE_CHECKING:
    import dagster as dg

    from rag_assets.core.ingest.catalog import ReportFile

SUMMARY_DOCUMENT = ("exemplar-corp-earnings", 2024)  # the demo prints its two summaries


def cmd_sample(args: argparse.Namespace) -> int:
    from rag_assets.samples.corpus import build_sample_corpus

    if not args.corpora.exists():
        print(f"note: {args.corpora} not found: only the generated samples are written")
    files = build_sample_corpus(args.data_dir, args.corpora)
    rows = [(f.document, f.year, f.path.name, f.n_questions, f.origin) for f in files]
    print(tabulate(rows, headers=["document", "year", "file", "questions", "origin"]))
    return 0


def run_partition(document: str, year: int, data_dir: Path, instance: dg.DagsterInstance,
                  label: str | None = None, source: str = "demo") -> dict:
    """Materialize what ``ingest_job`` selects (the ingest and index assets) for one partition;
    a row for the demo table. ``label`` heads the progress ticker shown while the run goes
    on."""
    from rag_assets.defs.ingest import ingest_job

    started = time.perf_counter()
    with Progress(label or f"{document}|{year}") as progress:
        result = materialize(ingest_job.selection, data_dir, instance, (document, year),
                             source=source, on_event=progress.on_event)
    error = "" if result.success else f"{first_error(result)} (run {result.run_id[:8]})"
    return partition_row(document, year, materialized_metadata(result), check_metadata(result),
                         time.perf_counter() - started, error)


def reports_of(args: argparse.Namespace) -> list[ReportFile]:
    """The reports under ``<data_dir>/reports`` (one line per file skipped), those of
    ``--only`` when given."""
    from rag_assets.core.ingest.catalog import scan_reports

    reports, problems = scan_reports(args.data_dir / "reports")
    for problem in problems:
        print(f"skipped {problem.path}: {problem.problem}")
    if args.only:
        wanted = set(args.only)
        reports = [r for r in reports
                   if r.partition in wanted or r.document in wanted or str(r.year) in wanted]
    return reports


def evaluate(reports: list[ReportFile], data_dir: Path, instance: dg.DagsterInstance,
             assets: list[str], retrieval: dict[str, object] | None = None) -> list[str]:
    """Materialize evaluation assets for every report's partition, then their roll-ups; returns
    the failures, one line each. ``retrieval`` overrides retrieval settings for these runs."""
    import dagster as dg

    failures = []
    width = max((len(r.partition) for r in reports), default=0)
    print(f"\nEvaluating {len(reports)} partition(s): {', '.join(assets)}", flush=True)
    for position, report in enumerate(reports, 1):
        head = progress_head(report.partition, position, len(reports), width)
        started = time.perf_counter()
        with Progress(head) as progress:
            result = materialize(dg.AssetSelection.assets(*assets), data_dir, instance,
                                 (report.document, report.year), source="evaluation",
                                 retrieval=retrieval, on_event=progress.on_event)
        seconds = time.perf_counter() - started
        if result.success:
            meta = materialized_metadata(result)
            questions = next((m["questions"] for m in meta.values() if "questions" in m), None)
            what = (f"{questions} questions" if questions is not None
                    else "no golden questions: skipped")
            print(f"{head}  {what}  {seconds:.1f} s", flush=True)
        else:
            error = f"{first_error(result)} (run {result.run_id[:8]})"
            print(f"{head}  FAILED {error}  {seconds:.1f} s", flush=True)
            failures.append(f"{report.partition}: {error}")
    for rollup in rollups_of(assets):
        started = time.perf_counter()
        with Progress(rollup) as progress:
            result = materialize(dg.AssetSelection.assets(rollup), data_dir, instance,
                                 source="evaluation", on_event=progress.on_event)
        if not result.success:
            failures.append(f"{rollup}: {first_error(result)} (run {result.run_id[:8]})")
        print(f"{rollup}  {'done' if result.success else 'FAILED'}  "
              f"{time.perf_counter() - started:.1f} s", flush=True)
    return failures


def cmd_demo(args: argparse.Namespace) -> int:
    cmd_sample(args)
    reports = reports_of(args)
    instance = open_instance_for(r.partition for r in reports)
    width = max((len(r.partition) for r in reports), default=0)
    print(f"\nIngesting and indexing {len(reports)} partition(s)", flush=True)
    rows = []
    for position, report in enumerate(reports, 1):
        head = progress_head(report.partition, position, len(reports), width)
        row = run_partition(report.document, report.year, args.data_dir, instance, label=head)
        print(partition_line(row, position, len(reports), width), flush=True)
        rows.append(row)
    print()
    print(demo_table(rows))
    legend(DEMO_LEGEND)
    failed = [f"{r['partition']}: {r['error']}" for r in rows if r["error"]]
    if not args.no_eval:
        broken = {row["partition"] for row in rows if row["error"]}
        ingested = [r for r in reports if r.partition not in broken]
        failed += evaluate(ingested, args.data_dir, instance, list(demo_assets()))
        print_metrics(args.data_dir)
        print_summaries(args.data_dir, *SUMMARY_DOCUMENT)
        print_answer_metrics(args.data_dir)
    report_failures(failed)
    print(next_steps())
    return 1 if failed else 0


def overrides(pairs: list[str]) -> dict[str, object]:
    """``["w_bm25=0.8", "k=20"]`` -> typed retrieval settings (validated by the resource)."""
    from rag_assets.defs.resources import RetrievalSettings

    fields = RetrievalSettings.model_fields
    out: dict[str, Any] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name not in fields or not value:
            raise SystemExit(f"--set {pair}: expected NAME=VALUE with NAME one of "
                             f"{', '.join(sorted(fields))}")
        out[name] = value
    try:  # fail here, not in the middle of a backfill; pydantic converts "0.8" and "20"
        checked = RetrievalSettings(**out)
    except ValueError as err:
        lines = [line.strip() for line in str(err).splitlines()[1:3]]
        raise SystemExit(f"--set: {' '.join(lines)}") from err
    return {name: getattr(checked, name) for name in out}


def cmd_backfill(args: argparse.Namespace) -> int:
    """Re-materialize evaluation assets over every partition, then their roll-ups."""
    reports = reports_of(args)
    if not reports:
        print(f"no reports under {args.data_dir / 'reports'}")
        return 1
    instance = open_instance_for(r.partition for r in reports)
    settings = overrides(args.set)
    if settings:
        print(f"retrieval settings for this backfill: {settings}")
    failed = evaluate(reports, args.data_dir, instance, list(dict.fromkeys(args.assets)),
                      settings)
    print_metrics(args.data_dir)
    report_failures(failed)
    return 1 if failed else 0


def cmd_settings(args: argparse.Namespace) -> int:
    """The settings tables (``core/settings_table.py``): every setting printed, or the sections'
    table written into ``--readme`` and every setting's into ``--reference``, between their
    marker lines (``make settings-table``)."""
    from rag_assets.core.settings_table import sections_table, settings_table, with_table

    if args.readme is None and args.reference is None:
        print(settings_table())
        return 0
    for path, table, what in ((args.readme, sections_table(), "sections"),
                              (args.reference, settings_table(), "settings")):
        if path is None:
            continue
        try:
            text = with_table(path.read_text(encoding="utf-8"), table)
        except (OSError, ValueError) as err:
            print(f"rag-assets settings: error: {path}: {err}", file=sys.stderr)
            return 2
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {what} table written ({table.count(chr(10)) - 1} {what})")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Rebuild one partition's audit report from stored tables (no model call, no embedding):
    what ``report_job`` selects, for one partition."""
    from rag_assets.core.ingest.catalog import split_partition_key
    from rag_assets.defs.audit import REPORTS_DIR, report_job

    try:
        document, year = split_partition_key(args.partition)
    except ValueError:
        print(f"rag-assets report: error: --partition {args.partition!r} is not DOCUMENT|YEAR "
              "(e.g. exemplar-corp-earnings|2024)", file=sys.stderr)
        return 2
    if not has_warehouse(args.data_dir):
        print(f"nothing stored under {args.data_dir}: run `make demo` or `{command_name()} "
              "ingest` first", file=sys.stderr)
        return 2
    instance = open_instance_for([args.partition])
    result = materialize(report_job.selection, args.data_dir, instance,
                         partition=(document, year), source="cli-report")
    if not result.success:
        report_failures([f"{args.partition}: {first_error(result)}"])
        return 1
    meta = materialized_metadata(result).get("audit_report", {})
    folder = args.data_dir / REPORTS_DIR / document / str(year)
    print(f"audit report of {document}|{year} (stored tables only: no model call, no embedding)")
    for name in ("report.md", "heatmap.png", "audit.html"):
        path = folder / name
        print(f"  {path}" if path.is_file() else f"  {path} (not written: no chunks stored)")
    missing = meta.get("missing_tables") or []
    if missing:
        print(f"  not stored yet: {', '.join(missing)}")
    return 0
