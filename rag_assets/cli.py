"""``rag-assets``: the sample corpus, the demo over every partition, and evaluation backfills.

    rag-assets sample   [--data-dir data] [--corpora ../shared/corpora]
    rag-assets demo     [--data-dir data] [--corpora ../shared/corpora] [--only ...] [--no-eval]
    rag-assets backfill [retrieval_runs] [retrieval_metrics] [--only ...] [--set w_bm25=0.8]

``demo`` materializes the ingest and index assets of every (document, year) partition in this
process against the Dagster instance in ``$DAGSTER_HOME`` (the UI then shows the same runs), then
the evaluation assets and their roll-up, and prints one line per partition and the metrics.
``backfill`` re-materializes evaluation assets over every partition (e.g. after changing a
retrieval weight) and refreshes the roll-up.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from tabulate import tabulate

DEFAULT_CORPORA = Path("../shared/corpora")
EVALUATION_ASSETS = ("retrieval_runs", "retrieval_metrics")


def _add_paths(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get(
        "RAG_ASSETS_DATA_DIR", "data")), help="data folder (reports/, questions/, stores)")
    parser.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA,
                        help="shared real documents (10-Ks, GDPR); skipped when absent")
    parser.add_argument("--only", nargs="*", default=[],
                        help="partitions (gdpr|2016), documents or years")


def cmd_sample(args: argparse.Namespace) -> int:
    from rag_assets.samples.corpus import build_sample_corpus

    if not args.corpora.exists():
        print(f"note: {args.corpora} not found: only the generated samples are written")
    files = build_sample_corpus(args.data_dir, args.corpora)
    rows = [(f.document, f.year, f.path.name, f.n_questions, f.origin) for f in files]
    print(tabulate(rows, headers=["document", "year", "file", "questions", "origin"]))
    return 0


def _metadata_value(value: object) -> object:
    return getattr(value, "value", value)


def _instance():  # noqa: ANN202 - a DagsterInstance; dagster is imported lazily
    """The instance in ``$DAGSTER_HOME`` (the UI shows the same runs), else an ephemeral one."""
    import dagster as dg

    if os.environ.get("DAGSTER_HOME"):
        Path(os.environ["DAGSTER_HOME"]).mkdir(parents=True, exist_ok=True)
        return dg.DagsterInstance.get()
    print("DAGSTER_HOME is not set: runs go to a temporary instance the UI will not show")
    return dg.DagsterInstance.ephemeral()


def materialize(selection: object, data_dir: Path, instance: object,
                partition: tuple[str, int] | None = None, source: str = "cli",
                retrieval: dict[str, object] | None = None) -> object:
    """Materialize a selection of the project's assets (one partition, or unpartitioned)."""
    import dagster as dg

    from rag_assets.definitions import all_assets
    from rag_assets.defs.partitions import partition_key
    from rag_assets.defs.resources import default_resources

    return dg.materialize(
        all_assets,
        selection=selection,
        partition_key=partition_key(*partition) if partition else None,
        instance=instance,
        resources=default_resources(str(data_dir), retrieval),
        raise_on_error=False,
        tags={"rag-assets/source": source,
              **({"rag-assets/retrieval": json.dumps(retrieval, sort_keys=True)}
                 if retrieval else {})},
        run_config={"loggers": {"console": {"config": {"log_level": "INFO"}}}},
    )


def _materialized_metadata(result: object) -> dict[str, dict]:
    meta: dict[str, dict] = {}
    for event in result.get_asset_materialization_events():
        mat = event.event_specific_data.materialization
        meta[mat.asset_key.to_user_string()] = {
            k: _metadata_value(v) for k, v in mat.metadata.items()
        }
    return meta


def first_error(result: object) -> str:
    """The first failed step and its one-line reason."""
    for event in result.get_step_failure_events():
        data = event.step_failure_data
        user = data.user_failure_data
        error = user.description if user and user.description else data.error.message
        return f"{event.step_key}: {error.strip().splitlines()[0]}"
    return ""


def _pct(value: object) -> str:
    return f"{float(value):.0%}" if isinstance(value, int | float) else "-"


def run_partition(document: str, year: int, data_dir: Path, instance: object) -> dict:
    """Materialize the ingest and index assets of one partition; a row for the demo table."""
    import dagster as dg

    started = time.perf_counter()
    result = materialize(dg.AssetSelection.groups("ingest", "index"), data_dir, instance,
                         (document, year), source="demo")
    meta = _materialized_metadata(result)
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    colocation = checks.get("footnote_colocation")
    coloc_meta = (
        {k: _metadata_value(v) for k, v in colocation.metadata.items()} if colocation else {}
    )
    dictionary = meta.get("footnote_dictionary", {})
    registry = meta.get("footnote_registry", {})
    vectors = [meta[f"{kind}_vectors"] for kind in ("naive", "enriched")
               if f"{kind}_vectors" in meta]
    return {
        "partition": f"{document}|{year}",
        "pages": meta.get("raw_pages", {}).get("pages", "-"),
        "tables": meta.get("raw_pages", {}).get("tables", "-"),
        "footnotes": dictionary.get("footnotes", "-"),
        "stitched": registry.get("stitched", "-"),
        "unresolved": registry.get("unresolved", "-"),
        "naive": meta.get("naive_chunks", {}).get("chunks", "-"),
        "enriched": meta.get("enriched_chunks", {}).get("chunks", "-"),
        "naive_coloc": _pct(coloc_meta.get("naive_colocation")),
        "enriched_coloc": _pct(coloc_meta.get("enriched_colocation")),
        "embedded": sum(v.get("embeddings_computed", 0) for v in vectors) if vectors else "-",
        "seconds": round(time.perf_counter() - started, 1),
        "error": "" if result.success else first_error(result),
    }


def _reports(args: argparse.Namespace) -> list:
    from rag_assets.core.catalog import scan_reports

    reports, problems = scan_reports(args.data_dir / "reports")
    for problem in problems:
        print(f"skipped {problem.path}: {problem.problem}")
    if args.only:
        wanted = set(args.only)
        reports = [r for r in reports
                   if r.partition in wanted or r.document in wanted or str(r.year) in wanted]
    return reports


def evaluate(reports: list, data_dir: Path, instance: object, assets: list[str],
             retrieval: dict[str, object] | None = None) -> list[str]:
    """Materialize evaluation assets for every report's partition, then the roll-up; returns the
    failures, one line each. ``retrieval`` overrides retrieval settings for these runs."""
    import dagster as dg

    failures = []
    for report in reports:
        print(f"evaluating {report.partition} ...", flush=True)
        result = materialize(dg.AssetSelection.assets(*assets), data_dir, instance,
                             (report.document, report.year), source="evaluation",
                             retrieval=retrieval)
        if not result.success:
            failures.append(f"{report.partition}: {first_error(result)}")
    result = materialize(dg.AssetSelection.assets("evaluation_rollup"), data_dir, instance,
                         source="evaluation")
    if not result.success:
        failures.append(f"evaluation_rollup: {first_error(result)}")
    return failures


def print_metrics(data_dir: Path) -> None:
    """The roll-up: strategy x (MRR, nDCG@10, recall@5), naive vs enriched chunks, per setting,
    and the footnote-dependent questions alone."""
    import duckdb

    from rag_assets.core.reports import by_document_table, comparison_table
    from rag_assets.defs.resources import WAREHOUSE_SCHEMA

    try:
        con = duckdb.connect(str(data_dir / "warehouse.duckdb"), read_only=True)
        try:
            rollup = con.execute(f"select * from {WAREHOUSE_SCHEMA}.evaluation_rollup").df()
        finally:
            con.close()
    except duckdb.Error as err:
        print(f"\nno evaluation roll-up to show ({str(err).splitlines()[0]})")
        return
    for setting, title in (("corpus", "whole corpus, one shared store (the setting that counts)"),
                           ("partition", "each question within its own partition")):
        print(f"\nAll golden questions, {title}:")
        print(comparison_table(rollup, setting, "all"))
        print(f"\nFootnote-dependent questions, {title}:")
        print(comparison_table(rollup, setting, "footnote-dependent"))
    print("\nMRR per document, enriched chunks, whole corpus:")
    print(by_document_table(rollup, "corpus", "enriched"))


def _report_failures(failed: list[str]) -> None:
    """After the tables, so they are the last thing on screen."""
    for line in failed:
        print(f"FAILED {line}")


def cmd_demo(args: argparse.Namespace) -> int:
    from rag_assets.defs.partitions import register_partitions

    cmd_sample(args)
    reports = _reports(args)
    instance = _instance()
    register_partitions(instance, {r.document for r in reports}, {str(r.year) for r in reports})
    rows = []
    for report in reports:
        print(f"materializing {report.partition} ({report.path.name}) ...", flush=True)
        rows.append(run_partition(report.document, report.year, args.data_dir, instance))
    headers = {
        "partition": "partition", "pages": "pages", "tables": "tables",
        "footnotes": "footnotes", "stitched": "stitched", "unresolved": "unresolved",
        "naive": "naive chunks", "enriched": "enriched chunks",
        "naive_coloc": "naive co-loc", "enriched_coloc": "enriched co-loc",
        "embedded": "embedded", "seconds": "s",
    }
    print()
    print(tabulate([[r[k] for k in headers] for r in rows], headers=list(headers.values())))
    failed = [f"{r['partition']}: {r['error']}" for r in rows if r["error"]]
    if not args.no_eval:
        broken = {row["partition"] for row in rows if row["error"]}
        ingested = [r for r in reports if r.partition not in broken]
        failed += evaluate(ingested, args.data_dir, instance, list(EVALUATION_ASSETS))
        print_metrics(args.data_dir)
    _report_failures(failed)
    print(
        "\nOpen the UI with `make ui` (http://127.0.0.1:3000): the ingest, index and evaluation "
        "groups, their partitions and these runs are there."
    )
    return 1 if failed else 0


def _overrides(pairs: list[str]) -> dict[str, object]:
    """``["w_bm25=0.8", "k=20"]`` -> typed retrieval settings (validated by the resource)."""
    from rag_assets.defs.resources import RetrievalSettings

    fields = RetrievalSettings.model_fields
    out: dict[str, object] = {}
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
    """Re-materialize evaluation assets over every partition, then the roll-up."""
    from rag_assets.defs.partitions import register_partitions

    reports = _reports(args)
    if not reports:
        print(f"no reports under {args.data_dir / 'reports'}")
        return 1
    instance = _instance()
    register_partitions(instance, {r.document for r in reports}, {str(r.year) for r in reports})
    overrides = _overrides(args.set)
    if overrides:
        print(f"retrieval settings for this backfill: {overrides}")
    failed = evaluate(reports, args.data_dir, instance, list(dict.fromkeys(args.assets)),
                      overrides)
    print_metrics(args.data_dir)
    _report_failures(failed)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rag-assets", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sample = sub.add_parser("sample", help="write the sample corpus and golden questions")
    _add_paths(sample)
    sample.set_defaults(func=cmd_sample)
    demo = sub.add_parser("demo", help="sample corpus, then every asset of every partition")
    _add_paths(demo)
    demo.add_argument("--no-eval", action="store_true", help="ingest and index only")
    demo.set_defaults(func=cmd_demo)
    backfill = sub.add_parser(
        "backfill", help="re-run evaluation assets over every partition, then the roll-up"
    )
    _add_paths(backfill)
    backfill.add_argument("assets", nargs="*", default=list(EVALUATION_ASSETS),
                          help="partitioned evaluation assets (default: retrieval_runs "
                          "retrieval_metrics)")
    backfill.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                          help="a retrieval setting for these runs, e.g. --set w_bm25=0.8")
    backfill.set_defaults(func=cmd_backfill)
    args = parser.parse_args(argv)
    unknown = set(getattr(args, "assets", [])) - set(EVALUATION_ASSETS)
    if unknown:
        parser.error(f"not an evaluation asset: {', '.join(sorted(unknown))}")
    return int(args.func(args))


def run() -> None:
    """The console entry point. DuckDB 2.0's bindings report "leaked" type objects at interpreter
    teardown after a Dagster run (pages of harmless noise under the tables), so once all output
    is flushed the process exits without the teardown."""
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
