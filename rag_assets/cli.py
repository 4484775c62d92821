"""``rag-assets``: make the sample corpus, and run the ingest assets over every partition.

    rag-assets sample [--data-dir data] [--corpora ../shared/corpora]
    rag-assets demo   [--data-dir data] [--corpora ../shared/corpora] [--only DOC|YEAR ...]

``demo`` materializes every ingest asset for every (document, year) partition in this process,
against the Dagster instance in ``$DAGSTER_HOME`` (the UI then shows the same runs), and prints one
line per partition.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from tabulate import tabulate

DEFAULT_CORPORA = Path("../shared/corpora")


def _add_paths(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get(
        "RAG_ASSETS_DATA_DIR", "data")), help="data folder (reports/, questions/, stores)")
    parser.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA,
                        help="shared real documents (10-Ks, GDPR); skipped when absent")


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


def run_partition(document: str, year: int, data_dir: Path, instance: object) -> dict:
    """Materialize all ingest assets of one partition; a summary row for the demo table."""
    import dagster as dg

    from rag_assets.defs.ingest import ingest_assets
    from rag_assets.defs.partitions import partition_key
    from rag_assets.defs.resources import default_resources

    started = time.perf_counter()
    result = dg.materialize(
        ingest_assets,
        partition_key=partition_key(document, year),
        instance=instance,
        resources=default_resources(str(data_dir)),
        raise_on_error=False,
        tags={"rag-assets/source": "demo"},
        run_config={"loggers": {"console": {"config": {"log_level": "INFO"}}}},
    )
    meta: dict[str, dict] = {}
    for event in result.get_asset_materialization_events():
        mat = event.event_specific_data.materialization
        meta[mat.asset_key.to_user_string()] = {
            k: _metadata_value(v) for k, v in mat.metadata.items()
        }
    checks = {
        e.check_name: e for e in result.get_asset_check_evaluations()
    }
    colocation = checks.get("footnote_colocation")
    coloc_meta = (
        {k: _metadata_value(v) for k, v in colocation.metadata.items()} if colocation else {}
    )
    error = ""
    if not result.success:
        for event in result.get_step_failure_events():
            data = event.step_failure_data
            user = data.user_failure_data
            error = user.description if user and user.description else data.error.message
            error = error.strip().splitlines()[0]
            break
    dictionary = meta.get("footnote_dictionary", {})
    registry = meta.get("footnote_registry", {})
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
        "seconds": round(time.perf_counter() - started, 1),
        "error": error,
    }


def _pct(value: object) -> str:
    return f"{float(value):.0%}" if isinstance(value, int | float) else "-"


def cmd_demo(args: argparse.Namespace) -> int:
    import dagster as dg

    from rag_assets.core.catalog import scan_reports
    from rag_assets.defs.partitions import register_partitions

    cmd_sample(args)
    reports, problems = scan_reports(args.data_dir / "reports")
    for problem in problems:
        print(f"skipped {problem.path}: {problem.problem}")
    if args.only:
        reports = [r for r in reports if r.partition in set(args.only)]
    if os.environ.get("DAGSTER_HOME"):
        Path(os.environ["DAGSTER_HOME"]).mkdir(parents=True, exist_ok=True)
        instance = dg.DagsterInstance.get()
    else:
        print("DAGSTER_HOME is not set: runs go to a temporary instance the UI will not show")
        instance = dg.DagsterInstance.ephemeral()
    register_partitions(instance, {r.document for r in reports}, {str(r.year) for r in reports})
    rows = []
    for report in reports:
        print(f"materializing {report.partition} ({report.path.name}) ...", flush=True)
        rows.append(run_partition(report.document, report.year, args.data_dir, instance))
    headers = {
        "partition": "partition", "pages": "pages", "tables": "tables",
        "footnotes": "footnotes", "stitched": "stitched", "unresolved": "unresolved",
        "naive": "naive chunks", "enriched": "enriched chunks",
        "naive_coloc": "naive co-loc", "enriched_coloc": "enriched co-loc", "seconds": "s",
    }
    print()
    print(tabulate([[r[k] for k in headers] for r in rows], headers=list(headers.values())))
    failed = [r for r in rows if r["error"]]
    for row in failed:
        print(f"FAILED {row['partition']}: {row['error']}")
    print(
        "\nOpen the UI with `make ui` (http://127.0.0.1:3000): the ingest group, its partitions "
        "and these runs are there."
    )
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rag-assets", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sample = sub.add_parser("sample", help="write the sample corpus and golden questions")
    _add_paths(sample)
    sample.set_defaults(func=cmd_sample)
    demo = sub.add_parser("demo", help="sample corpus + every ingest asset, every partition")
    _add_paths(demo)
    demo.add_argument("--only", nargs="*", default=[], help="partitions like gdpr|2016")
    demo.set_defaults(func=cmd_demo)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
