"""``rag-assets``: the sample corpus, the demo over every partition, and evaluation backfills.

    rag-assets sample   [--data-dir data] [--corpora ../shared/corpora]
    rag-assets demo     [--data-dir data] [--corpora ../shared/corpora] [--only ...] [--no-eval]
    rag-assets backfill [retrieval_runs] [retrieval_metrics] [--only ...] [--set w_bm25=0.8]
    rag-assets ingest   PATH --document NAME --year YYYY [--data-dir data]
    rag-assets ask      "QUESTION" [--document NAME] [--year YYYY] [--json] [--provider P]
    rag-assets report   --partition DOC|YEAR [--data-dir data]

``demo`` materializes the ingest and index assets of every (document, year) partition in this
process against the Dagster instance in ``$DAGSTER_HOME`` (the UI then shows the same runs), then
the evaluation assets and their roll-up, and prints one line per partition and the metrics.
``backfill`` re-materializes evaluation assets over every partition (e.g. after changing a
retrieval weight) and refreshes the roll-up. ``ingest`` files one report and ingests and indexes
its partition. ``ask`` answers a question from everything indexed, with numbered citations that
were checked against the stored pages, and appends it to ``answer_audit``.

The terminal gets one line per partition (and, on a terminal, a ticker of the running step);
Dagster's own log goes only to the run records (the instance's event log, shown by the UI).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import shutil
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from tabulate import tabulate

DEFAULT_CORPORA = Path("../shared/corpora")
EVALUATION_ASSETS = ("retrieval_runs", "retrieval_metrics")
GENERATION_ASSETS = ("summaries", "answers", "answer_metrics")
PARTITIONED_ASSETS = (*EVALUATION_ASSETS, *GENERATION_ASSETS)
# the roll-up of each partitioned asset, refreshed after a backfill of it
ROLLUP_OF = {"retrieval_runs": "evaluation_rollup", "retrieval_metrics": "evaluation_rollup",
             "summaries": None, "answers": "answer_rollup", "answer_metrics": "answer_rollup"}
SUMMARY_DOCUMENT = ("exemplar-corp-earnings", 2024)  # the demo prints its two summaries
# Dagster's console logger prints only what a user must act on at once; everything (DEBUG up)
# still goes to the instance's event log, so the UI shows the full log of every run.
CONSOLE_LOG_LEVEL = "CRITICAL"
RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": CONSOLE_LOG_LEVEL}}}}
JOB_NAME = "__ephemeral_asset_job__"  # the name dg.materialize gives its runs
STOP_GRACE_SECONDS = 6.0  # after SIGINT/SIGTERM, the run is canceled from outside at the latest


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


def _instance(documents: set[str] | None = None, years: set[str] | None = None):  # noqa: ANN202
    """The instance in ``$DAGSTER_HOME`` (the UI shows the same runs), else an ephemeral one;
    with the given document and year partitions registered.

    Opened under the instance's lock (whoever comes first creates it): runs of an earlier CLI
    command whose process is gone are marked failed first, one line each, and their pool slots
    freed (``rag_assets.run_safety``)."""
    from rag_assets.defs.partitions import register_partitions
    from rag_assets.run_safety import open_instance

    def setup(instance: object) -> None:
        if documents or years:
            register_partitions(instance, documents or set(), years or set())

    return open_instance(setup=setup)


class Progress:
    """What a run is doing, for a person watching the terminal.

    ``on_event`` receives every event the run writes to the instance (step starts, log messages);
    while the run goes on, a thread shows the running step, its elapsed time and its last log
    message: on one line rewritten with ``\\r`` every second when the stream is a terminal, else
    as a line every minute (so a long first embedding in a piped ``make demo`` is not silent).
    """

    def __init__(self, label: str, stream: TextIO | None = None,
                 interval: float | None = None) -> None:
        self.label = label
        self._lock = threading.Lock()  # the ticker thread and the run's events both write
        self.stream = stream if stream is not None else sys.stdout
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty and isatty())
        self.interval = interval if interval is not None else (1.0 if self.tty else 60.0)
        self.started = self.step_started = time.perf_counter()
        self.step = ""
        self.detail = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._width = 0  # of the ticker line last written (terminal only)

    def on_event(self, entry: object) -> None:
        """An instance event listener (``EventLogEntry``): remember the step and its news; print
        the run's notices (a step waiting for a pool slot and who holds it, a dead holder
        failed) as lines of their own."""
        from rag_assets.run_safety import NOTICE

        event = getattr(entry, "dagster_event", None)
        if event is not None:
            if event.event_type_value == "STEP_START":
                self.step, self.detail = event.step_key or "", ""
                self.step_started = time.perf_counter()
            metadata = getattr(getattr(event, "event_specific_data", None), "metadata", None) or {}
            if event.event_type_value == "ENGINE_EVENT" and NOTICE in metadata and event.message:
                self.detail = event.message
                self.note(event.message)
        elif getattr(entry, "level", 0) >= logging.INFO and getattr(entry, "user_message", ""):
            self.detail = entry.user_message.strip().splitlines()[0]

    def status(self) -> str:
        now = time.perf_counter()
        text = f"{self.label}  {now - self.started:.0f} s"
        if self.step:
            text += f"  {self.step} {now - self.step_started:.0f} s"
        return f"{text}: {self.detail}" if self.detail else text

    def show(self) -> None:
        columns = shutil.get_terminal_size((120, 24)).columns - 1
        with self._lock:
            if self.tty:
                line = self.status()[:columns]
                self.stream.write("\r" + line.ljust(self._width))
                self._width = len(line)
            else:
                self.stream.write(f"  ... {self.status()}"[:columns] + "\n")
            self.stream.flush()

    def note(self, text: str) -> None:
        """A line of its own (the ticker's line cleared first), whole however long."""
        with self._lock:
            if self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self._width = 0
            self.stream.write(f"  {self.label}  {text}\n")
            self.stream.flush()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self.show()

    def __enter__(self) -> Progress:
        self._thread = threading.Thread(target=self._tick, name="rag-assets-progress",
                                        daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self._width:  # leave the line empty for what is printed next
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
                self._width = 0


def materialize(selection: object, data_dir: Path, instance: object,
                partition: tuple[str, int] | None = None, source: str = "cli",
                retrieval: dict[str, object] | None = None,
                on_event: Callable[[object], None] | None = None) -> object:
    """Materialize a selection of the project's assets (one partition, or unpartitioned).

    What ``dg.materialize`` does, with a run id known beforehand so that ``on_event`` can follow
    the run's events as they are stored, and Dagster's console logger kept quiet: the full log is
    in the instance's event log (the UI's run page), not on the terminal.

    The run is tagged with this process (pid, host) so that a later command can fail it if this
    process dies, and runs on ``rag_assets.run_safety``'s executor: a step waiting for a pool
    slot sleeps, its notices say who holds the slot, and SIGINT/SIGTERM end the run CANCELED
    with its slots freed (then ``Stopped`` is raised: the command goes no further)."""
    import dagster as dg

    from rag_assets.definitions import all_assets
    from rag_assets.defs.partitions import partition_key
    from rag_assets.defs.resources import default_resources
    from rag_assets.run_safety import execute_in_process

    defs = dg.Definitions(
        jobs=[dg.define_asset_job(name=JOB_NAME, selection=selection)],
        assets=all_assets,
        resources=default_resources(str(data_dir), retrieval),
    )
    run_id = str(uuid.uuid4())
    if on_event is not None:
        instance.add_event_listener(run_id, on_event)
    return execute_in_process(
        defs.resolve_job_def(JOB_NAME),
        instance=instance,
        run_id=run_id,
        run_config=RUN_CONFIG,
        partition_key=partition_key(*partition) if partition else None,
        tags={"rag-assets/source": source,
              **({"rag-assets/retrieval": json.dumps(retrieval, sort_keys=True)}
                 if retrieval else {})},
    )


def _materialized_metadata(result: object) -> dict[str, dict]:
    meta: dict[str, dict] = {}
    for event in result.get_asset_materialization_events():
        mat = event.event_specific_data.materialization
        meta[mat.asset_key.to_user_string()] = {
            k: _metadata_value(v) for k, v in mat.metadata.items()
        }
    return meta


def _check_metadata(result: object) -> dict[str, dict]:
    """Asset check name -> its result's metadata, for the checks that ran."""
    return {
        e.check_name: {k: _metadata_value(v) for k, v in e.metadata.items()}
        for e in result.get_asset_check_evaluations()
    }


def error_line(error: object) -> str:
    """The root cause of a Dagster ``SerializableErrorInfo`` in one line: ``BinderException:
    Table "raw_pages" does not have ...``, not the wrapper's "Error occurred while handling
    output"."""
    while getattr(error, "cause", None) is not None:
        error = error.cause
    name = getattr(error, "cls_name", None) or "error"
    lines = [line.strip() for line in (getattr(error, "message", "") or "").splitlines()]
    line = next((line for line in lines if line), name)
    head, sep, rest = line.partition(": ")
    if sep and head.rsplit(".", 1)[-1] == name:  # "_duckdb.BinderException: ..." -> short name
        line = rest if name == "Failure" else f"{name}: {rest}"  # a dg.Failure: its description
    return line


def first_error(result: object) -> str:
    """The first failed step and its one-line reason (else the run's failure message)."""
    for event in result.get_step_failure_events():
        data = event.step_failure_data
        user = data.user_failure_data
        if user and user.description:
            return f"{event.step_key}: {user.description.strip().splitlines()[0]}"
        return f"{event.step_key}: {error_line(data.error)}"
    for event in result.all_events:
        if event.event_type_value in ("RUN_FAILURE", "PIPELINE_FAILURE"):
            error = getattr(event.event_specific_data, "error", None)
            if error is not None:  # no step ran: e.g. a store that cannot be written
                return error_line(error)
            if event.message:
                return event.message.strip().splitlines()[0]
    return ""


def _pct(value: object) -> str:
    """A share as a whole percentage, rounded down: 100% only when it is complete."""
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        return "-"
    return f"{math.floor(float(value) * 100 + 1e-9):d}%"


def _count(value: object) -> object:
    return value if isinstance(value, int) and not isinstance(value, bool) else "-"


# the demo table: row key -> column header (two lines, so that the table stays narrow)
DEMO_COLUMNS = {
    "partition": "partition", "pages": "pages", "tables": "tables",
    "footnotes": "foot-\nnotes", "stitched": "stitched", "unresolved": "un-\nresolved",
    "complete": "complete", "lost_words": "lost\nwords",
    "naive": "naive\nchunks", "enriched": "enriched\nchunks",
    "naive_coloc": "naive\nco-loc", "enriched_coloc": "enriched\nco-loc",
    "embedded": "embedded", "seconds": "s",
}


def partition_row(document: str, year: int, meta: dict[str, dict], checks: dict[str, dict],
                  seconds: float, error: str = "") -> dict:
    """A demo table row from a partition run's materialization metadata (asset -> metadata) and
    asset check metadata (check -> metadata). Anything absent prints as ``-``."""
    coloc = checks.get("footnote_colocation", {})
    dictionary = meta.get("footnote_dictionary", {})
    registry = meta.get("footnote_registry", {})
    pages = meta.get("raw_pages", {})
    vectors = [meta[f"{kind}_vectors"] for kind in ("naive", "enriched")
               if f"{kind}_vectors" in meta]
    return {
        "partition": f"{document}|{year}",
        "pages": pages.get("pages", "-"),
        "tables": pages.get("tables", "-"),
        "footnotes": dictionary.get("footnotes", "-"),
        "stitched": registry.get("stitched", "-"),
        "unresolved": registry.get("unresolved", "-"),
        # share of ground-truth definitions found complete (generated reports only)
        "complete": _pct(dictionary.get("definitions_complete")),
        # words of the report missing from the stitched text (the text_conservation check)
        "lost_words": _count(checks.get("text_conservation", {}).get("words_lost")),
        "naive": meta.get("naive_chunks", {}).get("chunks", "-"),
        "enriched": meta.get("enriched_chunks", {}).get("chunks", "-"),
        "naive_coloc": _pct(coloc.get("naive_colocation")),
        "enriched_coloc": _pct(coloc.get("enriched_colocation")),
        "embedded": sum(v.get("embeddings_computed", 0) for v in vectors) if vectors else "-",
        "ocr_pages": pages.get("ocr_pages", 0),
        "pages_without_text": pages.get("pages_without_text", 0),
        "seconds": round(seconds, 1),
        "error": error,
    }


def page_text_note(row: dict) -> str:
    """What the demo line says of pages that had no text layer: "2 pages read by OCR", "1 page
    without text (scanned?)"; empty when every page had its text."""
    notes = []
    for key, what in (("ocr_pages", "read by OCR"), ("pages_without_text",
                                                     "without text (scanned?)")):
        n = row.get(key) or 0
        if n:
            notes.append(f"{n} page{'s' if n != 1 else ''} {what}")
    return "  ".join(notes)


def demo_table(rows: list[dict]) -> str:
    """The rows under two-line headers, without tabulate's extra header padding (about 135
    columns wide with the longest sample partition name)."""
    import tabulate as tabulate_module

    padding, tabulate_module.MIN_PADDING = tabulate_module.MIN_PADDING, 0
    try:
        return tabulate([[r[k] for k in DEMO_COLUMNS] for r in rows],
                        headers=list(DEMO_COLUMNS.values()), floatfmt=".1f",
                        colalign=("left",) + ("right",) * (len(DEMO_COLUMNS) - 1))
    finally:
        tabulate_module.MIN_PADDING = padding


def progress_head(partition: str, position: int, total: int, width: int = 0) -> str:
    """``[ 3/14] 3m-10k|2018``, aligned: positions to the width of the total, names to ``width``."""
    return f"[{position:>{len(str(total))}}/{total}] {partition.ljust(width)}"


def partition_line(row: dict, position: int, total: int, width: int = 0) -> str:
    """``[3/14] 3m-10k|2018  160 pages  7 footnotes ...  12.3 s``: what a run did, in a line."""
    head = progress_head(row["partition"], position, total, width)
    if row["error"]:
        return f"{head}  FAILED {row['error']}  {row['seconds']} s"
    if row["pages"] == "-":
        return f"{head}  no report: nothing ingested  {row['seconds']} s"
    parts = [f"{row['pages']} pages", f"{row['tables']} tables", f"{row['footnotes']} footnotes",
             f"{row['stitched']} stitched", f"{row['unresolved']} unresolved"]
    if note := page_text_note(row):
        parts.insert(1, note)
    if row["complete"] != "-":
        parts.append(f"{row['complete']} complete")
    if row["lost_words"] != "-":
        parts.append(f"{row['lost_words']} words lost")
    parts.append(f"{row['naive']}/{row['enriched']} naive/enriched chunks")
    if row["embedded"] != "-":
        parts.append(f"{row['embedded']} embedded")
    return f"{head}  {'  '.join(parts)}  {row['seconds']} s"


def run_partition(document: str, year: int, data_dir: Path, instance: object,
                  label: str | None = None, source: str = "demo") -> dict:
    """Materialize the ingest and index assets of one partition; a row for the demo table.
    ``label`` heads the progress ticker shown while the run goes on."""
    import dagster as dg

    started = time.perf_counter()
    with Progress(label or f"{document}|{year}") as progress:
        result = materialize(dg.AssetSelection.groups("ingest", "index"), data_dir, instance,
                             (document, year), source=source, on_event=progress.on_event)
    error = "" if result.success else f"{first_error(result)} (run {result.run_id[:8]})"
    return partition_row(document, year, _materialized_metadata(result), _check_metadata(result),
                         time.perf_counter() - started, error)


def _reports(args: argparse.Namespace) -> list:
    from rag_assets.core.ingest.catalog import scan_reports

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
            meta = _materialized_metadata(result)
            questions = next((m["questions"] for m in meta.values() if "questions" in m), None)
            what = (f"{questions} questions" if questions is not None
                    else "no golden questions: skipped")
            print(f"{head}  {what}  {seconds:.1f} s", flush=True)
        else:
            error = f"{first_error(result)} (run {result.run_id[:8]})"
            print(f"{head}  FAILED {error}  {seconds:.1f} s", flush=True)
            failures.append(f"{report.partition}: {error}")
    for rollup in dict.fromkeys(r for a in assets if (r := ROLLUP_OF.get(a))):
        started = time.perf_counter()
        with Progress(rollup) as progress:
            result = materialize(dg.AssetSelection.assets(rollup), data_dir, instance,
                                 source="evaluation", on_event=progress.on_event)
        if not result.success:
            failures.append(f"{rollup}: {first_error(result)} (run {result.run_id[:8]})")
        print(f"{rollup}  {'done' if result.success else 'FAILED'}  "
              f"{time.perf_counter() - started:.1f} s", flush=True)
    return failures


def warehouse_of(data_dir: Path) -> Path:
    """The warehouse the resources choose for this data folder (``RAG_ASSETS_WAREHOUSE`` or
    ``<data_dir>/warehouse.duckdb``)."""
    from rag_assets.defs.resources import default_resources

    return default_resources(str(data_dir))["settings"].warehouse_path


def has_warehouse(data_dir: Path) -> bool:
    from rag_assets.core.warehouse.writable import is_local_database

    warehouse = warehouse_of(data_dir)
    return not is_local_database(str(warehouse)) or warehouse.is_file()


def warehouse_table(data_dir: Path, table: str):  # noqa: ANN201 - a DataFrame
    """Every row of ``rag.<table>``, read-only (waiting while a run holds the writer lock);
    ``duckdb.Error`` when the table does not exist."""
    from rag_assets.core.warehouse.connection import connect_warehouse
    from rag_assets.defs.resources import WAREHOUSE_SCHEMA

    with connect_warehouse(warehouse_of(data_dir), read_only=True) as con:
        return con.execute(f"select * from {WAREHOUSE_SCHEMA}.{table}").df()


def _warehouse_frame(data_dir: Path, table: str):  # noqa: ANN202 - a DataFrame or None
    import duckdb

    try:
        return warehouse_table(data_dir, table)
    except duckdb.Error as err:
        print(f"\nno {table} to show ({str(err).splitlines()[0]})")
        return None


def print_summaries(data_dir: Path, document: str, year: int, width: int = 64) -> None:
    """The baseline and enriched summaries of one report side by side, each sentence cited."""
    import textwrap

    frame = _warehouse_frame(data_dir, "summaries")
    if frame is None:
        return
    frame = frame[(frame.document == document) & (frame.year == year)]
    if frame.empty:
        print(f"\nno summaries of {document}|{year}")
        return
    columns = {}
    for variant in ("baseline", "enriched"):
        rows = frame[frame.variant == variant].sort_values("position")
        lines: list[str] = []
        for row in rows.itertuples():
            pages = sorted({c["page"] + 1 for c in json.loads(row.citations)})
            cited = f"{row.text} [p.{', p.'.join(map(str, pages))}]"
            lines += textwrap.wrap(f"{row.position}. {cited}", width) + [""]
        columns[variant] = lines
    height = max(len(v) for v in columns.values())
    print(f"\nSummaries of {document}|{year}: baseline (naive chunks) | enriched (stitched "
          "footnotes)")
    print(f"{'-' * width}-+-{'-' * width}")
    base, rich = (columns[v] + [""] * (height - len(columns[v])) for v in columns)
    for left, right in zip(base, rich, strict=True):
        print(f"{left:<{width}} | {right}")


def print_answer_metrics(data_dir: Path) -> None:
    """Fact recall, citation precision and recall, abstention and seconds per answer, over all
    golden questions and per document."""
    frame = _warehouse_frame(data_dir, "answer_rollup")
    if frame is None or frame.empty:
        return
    rows = frame[frame.category == "all"]
    shown = {"document": "document", "questions": "n", "fact_recall": "fact recall",
             "citation_precision": "cit. precision", "citation_recall": "cit. recall",
             "abstention_accuracy": "abstention acc.", "invalid_citations": "invalid",
             "seconds_p50": "s p50", "seconds_p95": "s p95"}
    print("\nAnswers to the golden questions (extractive engine, each citation verified):")
    print(tabulate(rows[list(shown)].rename(columns=shown), headers="keys", showindex=False,
                   floatfmt=".3f"))


def print_metrics(data_dir: Path) -> None:
    """The roll-up: strategy x (MRR, nDCG@10, recall@5), naive vs enriched chunks, per setting,
    and the footnote-dependent questions alone."""
    import duckdb

    from rag_assets.core.evaluation.reports import by_document_table, comparison_table

    try:
        rollup = warehouse_table(data_dir, "evaluation_rollup")
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
    cmd_sample(args)
    reports = _reports(args)
    instance = _instance({r.document for r in reports}, {str(r.year) for r in reports})
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
    failed = [f"{r['partition']}: {r['error']}" for r in rows if r["error"]]
    if not args.no_eval:
        broken = {row["partition"] for row in rows if row["error"]}
        ingested = [r for r in reports if r.partition not in broken]
        failed += evaluate(ingested, args.data_dir, instance, list(PARTITIONED_ASSETS))
        print_metrics(args.data_dir)
        print_summaries(args.data_dir, *SUMMARY_DOCUMENT)
        print_answer_metrics(args.data_dir)
    _report_failures(failed)
    print(
        "\nOpen the UI with `make ui` (http://127.0.0.1:3000): the ingest, index, evaluation and "
        "generation groups, their partitions and these runs are there."
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
    reports = _reports(args)
    if not reports:
        print(f"no reports under {args.data_dir / 'reports'}")
        return 1
    instance = _instance({r.document for r in reports}, {str(r.year) for r in reports})
    overrides = _overrides(args.set)
    if overrides:
        print(f"retrieval settings for this backfill: {overrides}")
    failed = evaluate(reports, args.data_dir, instance, list(dict.fromkeys(args.assets)),
                      overrides)
    print_metrics(args.data_dir)
    _report_failures(failed)
    return 1 if failed else 0


class IngestError(ValueError):
    """A report that cannot be filed as given (one line, for stderr)."""


def check_ingest(path: Path, document: str, year: str, reports_dir: Path) -> Path:
    """Where ``path`` is filed for (document, year): ``<reports_dir>/<document>/<year>/<name>``.
    Raises ``IngestError`` for a bad name or year, a missing or unsupported file, or a folder that
    already holds another report (a file of the same name is replaced)."""
    from rag_assets.core.ingest.catalog import DOCUMENT_NAME_RE, YEAR_RE, sanitize_document_name
    from rag_assets.core.ingest.documents import SUPPORTED_SUFFIXES, document_kind

    if not DOCUMENT_NAME_RE.match(document):
        suggestion = sanitize_document_name(document)
        hint = f": try --document {suggestion}" if DOCUMENT_NAME_RE.match(suggestion) else ""
        raise IngestError(f"document name {document!r} must be lowercase letters, digits and "
                          f"dashes, starting with a letter or digit{hint}")
    if not YEAR_RE.match(year):
        raise IngestError(f"year {year!r} must be a four-digit year (1900-2099)")
    if not path.exists():
        raise IngestError(f"{path}: no such file")
    if not path.is_file():
        raise IngestError(f"{path}: not a file")
    if document_kind(path) is None:
        raise IngestError(f"{path.name}: unsupported file type (expected one of "
                          f"{', '.join(SUPPORTED_SUFFIXES)})")
    if path.name.startswith("."):
        raise IngestError(f"{path.name}: a name starting with '.' is ignored in the report "
                          "tree; rename the file")
    folder = reports_dir / document / year
    others = sorted(
        p.name for p in (folder.iterdir() if folder.is_dir() else [])
        if p.is_file() and document_kind(p) and not p.name.startswith(".") and p.name != path.name
    )
    if others:
        raise IngestError(f"{folder} already holds {', '.join(others)} (one report per document "
                          f"and year): remove it to file {path.name} instead")
    return folder / path.name


def cmd_ingest(args: argparse.Namespace) -> int:
    """File one report under data/reports/<document>/<year>/, then ingest and index it."""
    try:
        target = check_ingest(args.path, args.document, args.year, args.data_dir / "reports")
    except IngestError as err:
        print(f"rag-assets ingest: error: {err}", file=sys.stderr)
        return 2
    if target.exists() and target.resolve() == args.path.resolve():
        print(f"{target} is already in place")
    else:
        replacing = target.exists()
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.partial")  # hidden: no catalog sees it
        shutil.copyfile(args.path, partial)
        os.replace(partial, target)  # appears whole, never half-copied, to a watching sensor
        print(f"{'replaced' if replacing else 'filed'} {target} ({target.stat().st_size:,} bytes)")
    instance = _instance({args.document}, {args.year})
    row = run_partition(args.document, int(args.year), args.data_dir, instance,
                        label=f"{args.document}|{args.year}", source="cli-ingest")
    print(demo_table([row]))
    if row["error"]:
        _report_failures([f"{row['partition']}: {row['error']}"])
        return 1
    return 0


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer one question; the answer, its sources and their verification marks."""
    import duckdb

    from rag_assets.core.generation.answers import audit_record
    from rag_assets.core.generation.storage import append_audit
    from rag_assets.core.llm.client import LLMConfigError
    from rag_assets.defs.generation import build_answerer
    from rag_assets.defs.resources import WAREHOUSE_SCHEMA, LLMResource, default_resources

    if not has_warehouse(args.data_dir):
        print(f"nothing indexed under {args.data_dir}: run `make demo` or `rag-assets ingest` "
              "first", file=sys.stderr)
        return 2
    resources = default_resources(str(args.data_dir))
    llm = resources["llm"]
    if args.provider:
        llm = LLMResource(**{**llm.model_dump(), "provider": args.provider})
    try:
        pages = warehouse_table(args.data_dir, "raw_pages")
        answerer = build_answerer(resources["settings"], resources["embeddings"],
                                  resources["retrieval"], llm, pages)
        result = answerer.ask(args.question, args.document, args.year)
    except (LLMConfigError, RuntimeError, duckdb.Error) as err:
        print(f"cannot answer: {str(err).splitlines()[0]}", file=sys.stderr)
        return 2
    append_audit(resources["settings"].warehouse_path, WAREHOUSE_SCHEMA,
                 [audit_record(result, document=args.document, year=args.year)])
    if args.json:
        print(result.model_dump_json(indent=2))
        return 0
    print(result.answer)
    if result.sources_used:
        print("\nSources:")
        for source in result.sources_used:
            print(f"  {source.label}  {source.mark}")
    for event in result.guardrail_events:
        print(f"  guardrail {event.name}: {event.detail}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Rebuild one partition's audit report from stored tables (no model call, no embedding)."""
    from rag_assets.defs.reports import REPORTS_DIR

    document, sep, year = args.partition.partition("|")
    if not sep or not document or not year.isdigit():
        print(f"rag-assets report: error: --partition {args.partition!r} is not DOCUMENT|YEAR "
              "(e.g. exemplar-corp-earnings|2024)", file=sys.stderr)
        return 2
    if not has_warehouse(args.data_dir):
        print(f"nothing stored under {args.data_dir}: run `make demo` or `rag-assets ingest` "
              "first", file=sys.stderr)
        return 2
    import dagster as dg

    instance = _instance({document}, {year})
    result = materialize(dg.AssetSelection.assets("audit_report"), args.data_dir, instance,
                         partition=(document, int(year)), source="cli-report")
    if not result.success:
        _report_failures([f"{args.partition}: {first_error(result)}"])
        return 1
    meta = _materialized_metadata(result).get("audit_report", {})
    folder = args.data_dir / REPORTS_DIR / document / year
    print(f"audit report of {document}|{year} (stored tables only: no model call, no embedding)")
    for name in ("report.md", "heatmap.png", "audit.html"):
        path = folder / name
        print(f"  {path}" if path.is_file() else f"  {path} (not written: no chunks stored)")
    missing = meta.get("missing_tables") or []
    if missing:
        print(f"  not stored yet: {', '.join(missing)}")
    return 0


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
                          help="partitioned assets: retrieval_runs retrieval_metrics (the "
                          "default), summaries answers answer_metrics")
    backfill.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                          help="a retrieval setting for these runs, e.g. --set w_bm25=0.8")
    backfill.set_defaults(func=cmd_backfill)
    ingest = sub.add_parser(
        "ingest", help="file one report under data/reports/<document>/<year>/, ingest and index it"
    )
    ingest.add_argument("path", type=Path, help="the report (.pdf, .txt, .tei.xml or .xml)")
    ingest.add_argument("--document", required=True,
                        help="document name, [a-z0-9-]+ (e.g. acme-10k)")
    ingest.add_argument("--year", required=True, help="the report's year, e.g. 2023")
    ingest.add_argument("--data-dir", type=Path, default=Path(os.environ.get(
        "RAG_ASSETS_DATA_DIR", "data")), help="data folder (reports/, questions/, stores)")
    ingest.set_defaults(func=cmd_ingest)
    ask = sub.add_parser("ask", help="answer a question with verified page citations")
    ask.add_argument("question")
    ask.add_argument("--document", help="only this document (e.g. 3m-10k)")
    ask.add_argument("--year", type=int, help="only this year")
    ask.add_argument("--json", action="store_true", help="the QAResult as JSON")
    ask.add_argument("--provider", choices=["extractive", "openai", "azure"],
                     help="override the llm resource's provider")
    ask.add_argument("--data-dir", type=Path, default=Path(os.environ.get(
        "RAG_ASSETS_DATA_DIR", "data")), help="data folder (reports/, questions/, stores)")
    ask.set_defaults(func=cmd_ask)
    report = sub.add_parser(
        "report", help="rebuild a partition's audit report (Markdown, heatmap, HTML) from stored "
        "tables: no model call, no embedding")
    report.add_argument("--partition", required=True, metavar="DOC|YEAR",
                        help="e.g. exemplar-corp-earnings|2024")
    report.add_argument("--data-dir", type=Path, default=Path(os.environ.get(
        "RAG_ASSETS_DATA_DIR", "data")), help="data folder (reports/, questions/, stores)")
    report.set_defaults(func=cmd_report)
    args = parser.parse_args(argv)
    unknown = set(getattr(args, "assets", [])) - set(PARTITIONED_ASSETS)
    if unknown:
        parser.error(f"not an evaluation asset: {', '.join(sorted(unknown))}")
    return int(args.func(args))


def _stopped(signum: int, why: str = "") -> int:
    """One line for a command stopped by a signal (its run canceled, slots freed); the exit
    code, 128 + the signal's number."""
    name = signal.Signals(signum).name
    what = ""
    if "rag_assets.run_safety" in sys.modules:  # a run may be in progress
        from rag_assets.run_safety import stop_current

        what = stop_current(f"rag-assets: stopped by {name}{why}")
    print(f"\nstopped by {name}{why}" + (f": {what}" if what else ""), flush=True)
    return 128 + signum


def run() -> None:
    """The console entry point. DuckDB 2.0's bindings report "leaked" type objects at interpreter
    teardown after a Dagster run (pages of harmless noise under the tables), so once all output
    is flushed the process exits without the teardown. Model loading's progress bars are off:
    the terminal shows the CLI's own progress lines.

    SIGINT and SIGTERM stop the command (``rag_assets.ops.processes.STOP``): the run in progress
    ends CANCELED with its pool slots freed, one line says so, the exit code is 128 + the
    signal's number; a command still running ``STOP_GRACE_SECONDS`` after the signal (a step in a
    long call that cannot be interrupted) cancels its run from the watchdog thread and exits."""
    from rag_assets.ops.processes import STOP

    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    STOP.install(grace=STOP_GRACE_SECONDS, on_deadline=lambda signum: _stopped(
        signum, f" (still running {STOP_GRACE_SECONDS:.0f} s later)"))
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `rag-assets demo | head`: the reader left, nothing to report
        os._exit(141)
    except KeyboardInterrupt as stop:  # SIGINT or SIGTERM (Stopped: the run was canceled)
        code = _stopped(getattr(stop, "signum", None) or STOP.received(1.0) or signal.SIGINT)
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
