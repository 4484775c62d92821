"""Pipeline benchmark (issue 12): does the model wait on the pipeline, and what does a run cost
before and between its steps?

1. **Long document** (``--part long``): a generated 300-page report (``bench/long_report.py``,
   every page its own ``[N]`` note under a rule) through every step of ``ingest_job``
   (``execute_in_process`` on a persistent SQLite instance in a temporary ``DAGSTER_HOME``), then
   the bare model (``Embedder.encode``) in the same process on the texts that run embedded. The
   embedding floor is ``texts embedded / bare texts per second``; the figure is the run's wall
   time over that floor (issue 12's target <= 1.2x, issue 20's <= 1.1x). Peak memory is
   ``ru_maxrss`` of the process and of its children (the PDF workers), target < 2 GiB. Runs in a
   process of its own, so the peak is the run's. The run's time is also split into the parts
   the steps report in their metadata (``STEP_PARTS``), the warehouse's reads and writes, and
   the rest (``parts_s``).
2. **Per-run overhead** (``--part overhead``): 8 small partitions ingested, then an 8-partition
   backfill of ``evaluation_job`` (``retrieval_runs`` + ``retrieval_metrics``) measured three
   ways: in one process (``execute_in_process`` per partition, persistent instance), one fresh
   process per run (``--ways ...,fresh_process``), and the way a daemon backfill runs them
   (``dagster job backfill`` queued, ``dagster-daemon`` launching each run in a process of its
   own with the instance's run launcher, ``dagster.yaml``'s). Overhead per run = run wall time -
   the steps' own durations:
   process start, imports, instance and resources, model load, event writes.
3. **A report through ``rag-assets ingest``** (``--part ingest``): a 5-page generated report,
   then a real 10-K (``--report``, default 3M's 2018 10-K of ``../shared/corpora``), each
   ingested ``--runs`` times (default 5) by the command itself in one process, every run into a
   fresh data folder (no embedding cache) on the deployment's instance config in a temporary
   ``DAGSTER_HOME``; after each run the bare int8 model (the default backend) on the texts it
   embedded gives its floor. Figures: the 10-K's median wall time over its floor (target <=
   1.3x) and the small report's median fixed cost, wall time - floor (target <= 1.5 s).

Run: ``.venv/bin/python bench/pipeline_bench.py [--part ingest|long|overhead|all]
[--pages 300] [--runs 5] [--report PDF]``.
Prints tables and one ``BENCH_JSON {...}`` line; the figures also go to ``bench/out/pipeline.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OUT_DIR = REPO / "bench" / "out"
OUT_JSON = OUT_DIR / "pipeline.json"
QUIET_RUN = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
LONG_DOCUMENT, LONG_YEAR = "long-report", 2024
INGEST_YEAR = 2024
SMALL_YEAR = 2023
ENV = {"HF_HUB_OFFLINE": "1", "GX_ANALYTICS_ENABLED": "false", "DAGSTER_DISABLE_TELEMETRY": "1",
       "LANCEDB_LOG": "error"}
MIB = 1024 * 1024


def log(message: str) -> None:
    print(message, flush=True)


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def dagster_home(root: Path) -> Path:
    """A persistent instance (SQLite storage) with the repository's ``deploy/dagster.yaml``."""
    home = root / "dagster_home"
    home.mkdir(parents=True, exist_ok=True)
    shutil.copy2(REPO / "deploy" / "dagster.yaml", home / "dagster.yaml")
    return home


def step_timeline(instance: Any, run_id: str) -> dict[str, Any]:
    """Run and step timestamps from the event log: when the run started and ended, each step's
    start, end and duration."""
    from dagster import DagsterEventType

    run_events = {DagsterEventType.RUN_STARTING: "RUN_STARTING",
                  DagsterEventType.RUN_START: "RUN_START",
                  DagsterEventType.RUN_SUCCESS: "RUN_SUCCESS",
                  DagsterEventType.RUN_FAILURE: "RUN_FAILURE"}
    steps: dict[str, dict[str, float]] = {}
    run: dict[str, float] = {}
    for record in instance.all_logs(run_id):
        event = record.dagster_event
        if event is None:
            continue
        kind, at = event.event_type_value, record.timestamp
        if event.event_type in run_events:
            run.setdefault(run_events[event.event_type], at)
        elif kind == "STEP_START":
            steps.setdefault(event.step_key, {})["start"] = at
        elif kind in ("STEP_SUCCESS", "STEP_FAILURE"):
            entry = steps.setdefault(event.step_key, {})
            entry["end"] = at
            entry["ok"] = kind == "STEP_SUCCESS"
            duration = getattr(event.event_specific_data, "duration_ms", None)
            entry["seconds"] = duration / 1000 if duration is not None else at - entry["start"]
        elif kind == "STEP_SKIPPED":
            steps.setdefault(event.step_key, {})["skipped"] = True
    return {"run": run, "steps": steps}


def overhead_of(timeline: dict[str, Any], wall: float | None = None) -> dict[str, float]:
    """Where a run's time went outside its steps' own work."""
    run, steps = timeline["run"], timeline["steps"]
    done = [s for s in steps.values() if "start" in s and "end" in s]
    step_s = sum(s["seconds"] for s in done)
    begin = run.get("RUN_STARTING", run.get("RUN_START"))
    end = run.get("RUN_SUCCESS", run.get("RUN_FAILURE"))
    first = min((s["start"] for s in done), default=end)
    last = max((s["end"] for s in done), default=end)
    total = wall if wall is not None else (end - begin if begin and end else 0.0)
    return {
        "wall_s": round(total, 3),
        "steps_s": round(step_s, 3),
        "overhead_s": round(total - step_s, 3),
        "before_first_step_s": round(first - begin, 3) if begin and first else None,
        "launch_to_run_start_s": round(run["RUN_START"] - run["RUN_STARTING"], 3)
        if "RUN_START" in run and "RUN_STARTING" in run else None,
        "between_steps_s": round((last - first) - step_s, 3) if done else 0.0,
        "after_last_step_s": round(end - last, 3) if end and last else None,
    }


def metadata_of(result: Any, asset: str) -> dict[str, Any]:
    for event in result.get_asset_materialization_events():
        mat = event.event_specific_data.materialization
        if mat.asset_key.to_user_string() == asset:
            return {k: getattr(v, "value", v) for k, v in mat.metadata.items()}
    return {}


# --- 1. the long document -----------------------------------------------------------------------


def long_report_pdf(pages: int) -> Path:
    """The generated report, cached in bench/out (generating 300 pages takes ~10 s)."""
    sys.path.insert(0, str(REPO / "bench"))
    from long_report import build_long_report

    path = OUT_DIR / f"long_report_{pages}.pdf"
    if not path.exists():
        build_long_report(path, pages=pages)
    return path


def preloaded_modules() -> list[str]:
    """The modules the deployment's run launcher imports once, before any run
    (``deploy/dagster.yaml``: ``PreloadedRunLauncher``'s ``preload_modules``)."""
    import yaml

    config = yaml.safe_load((REPO / "deploy" / "dagster.yaml").read_text())
    return list((config.get("run_launcher") or {}).get("config", {}).get("preload_modules", []))


# What the run's time is spent on besides Dagster's own work. The run's steps say what their own
# stages took in their metadata: (label, asset, metadata keys summed)
STEP_PARTS = (
    ("PDF read + context (raw_pages)", "raw_pages", ("seconds",)),
    ("footnote index", "footnote_dictionary", ("seconds",)),
    ("stitching", "stitched_text", ("seconds",)),
    ("chunking", "naive_chunks", ("seconds",)),
    ("chunking", "enriched_chunks", ("seconds",)),
    ("GX chunk checks", "naive_chunks", ("quality_seconds",)),
    ("GX chunk checks", "enriched_chunks", ("quality_seconds",)),
    ("statement facts", "financial_statements", ("seconds",)),
    ("model (encode)", "naive_vectors", ("encode_seconds",)),
    ("model (encode)", "enriched_vectors", ("encode_seconds",)),
)
# ... and the warehouse's reads and writes, timed in Dagster's IO manager: (label, attribute)
IO_PARTS = (("DuckDB reads", "load_input"), ("DuckDB writes", "handle_output"))


def step_parts(result: Any) -> dict[str, float]:
    """Seconds of each of ``STEP_PARTS``, read from the run's materializations."""
    seconds: dict[str, float] = {}
    for label, asset, keys in STEP_PARTS:
        meta = metadata_of(result, asset)
        seconds[label] = seconds.get(label, 0.0) + sum(float(meta.get(k) or 0.0) for k in keys)
    return seconds


@contextlib.contextmanager
def timed_io() -> Iterator[dict[str, float]]:
    """Seconds spent in the warehouse IO manager's reads and writes while the block runs."""
    from dagster._core.storage.db_io_manager import DbIOManager

    seconds: dict[str, float] = {}
    restore = []
    for label, name in IO_PARTS:
        original = getattr(DbIOManager, name)

        def timed(*args: Any, _f: Any = original, _label: str = label, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return _f(*args, **kwargs)
            finally:
                seconds[_label] = seconds.get(_label, 0.0) + time.perf_counter() - started

        setattr(DbIOManager, name, functools.wraps(original)(timed))
        restore.append((name, original))
    try:
        yield seconds
    finally:
        for name, original in reversed(restore):
            setattr(DbIOManager, name, original)


def run_long(pages: int, floor_texts: int) -> dict[str, Any]:
    """The run as the deployment starts it: the launcher's preloaded modules are imported before
    the clock starts (their time is ``imports_s``), as its forkserver did once for every run."""
    started_process = time.perf_counter()
    import importlib

    import dagster as dg

    for module in preloaded_modules():
        importlib.import_module(module)

    from rag_assets.definitions import defs
    from rag_assets.defs.partitions import partition_key, register_partitions
    from rag_assets.defs.resources import default_resources

    imports_s = time.perf_counter() - started_process
    pdf = long_report_pdf(pages)
    load_before = load_average()
    with tempfile.TemporaryDirectory(prefix="pipeline_bench_long_") as tmp:
        root = Path(tmp)
        data = root / "data"
        folder = data / "reports" / LONG_DOCUMENT / str(LONG_YEAR)
        folder.mkdir(parents=True)
        shutil.copy2(pdf, folder / pdf.name)
        instance = dg.DagsterInstance.from_config(str(dagster_home(root)))
        register_partitions(instance, [partition_key(LONG_DOCUMENT, str(LONG_YEAR))])
        cpu_started, started = time.process_time(), time.perf_counter()
        with timed_io() as parts:
            result = defs.resolve_job_def("ingest_job").execute_in_process(
                partition_key=partition_key(LONG_DOCUMENT, LONG_YEAR), instance=instance,
                resources=default_resources(str(data)), run_config=QUIET_RUN,
                raise_on_error=False,
            )
        wall = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        timeline = step_timeline(instance, result.run_id)
        vectors = {kind: metadata_of(result, f"{kind}_vectors") for kind in ("naive", "enriched")}
        parts.update(step_parts(result))
        failures = [
            f"{e.step_key}: {e.message}" for e in result.all_events
            if e.event_type_value == "STEP_FAILURE"
        ]
        texts = bare_texts(data)
        floor = bare_floor(texts, floor_texts)
        instance.dispose()
    self_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    children_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    embedded = sum(int(v.get("embeddings_computed", 0)) for v in vectors.values())
    floor_s = embedded / floor["texts_per_second"] if floor["texts_per_second"] else 0.0
    import torch

    return {
        "pages": pages,
        "ok": result.success,
        "failures": failures,
        "imports_s": round(imports_s, 2),
        "preloaded": preloaded_modules(),
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "texts_embedded": embedded,
        "texts_distinct_in_store": len(texts),
        "vector_steps": {
            kind: {k: meta.get(k) for k in ("rows", "embeddings_computed", "embeddings_cached",
                                            "embed_seconds", "texts_per_second", "torch_threads",
                                            "torch_threads_used", "model_load_seconds",
                                            "write_seconds")}
            for kind, meta in vectors.items()
        },
        "steps_s": {k: round(v["seconds"], 2) for k, v in timeline["steps"].items()
                    if "seconds" in v},
        "overhead": overhead_of(timeline, wall),
        # where the run's time went: the parts timed, and the rest (Dagster's step machinery,
        # events, metadata, the steps' own small work)
        "parts_s": {**{k: round(v, 2) for k, v in parts.items()},
                    "rest": round(wall - sum(parts.values()), 2)},
        "bare": floor,
        "floor_s": round(floor_s, 2),
        "wall_over_floor": round(wall / floor_s, 3) if floor_s else None,
        "peak_rss_self_mib": round(self_peak / MIB, 1),
        "peak_rss_children_mib": round(children_peak / MIB, 1),
        "peak_rss_sum_mib": round((self_peak + children_peak) / MIB, 1),
        "torch_threads": torch.get_num_threads(),
        "cpus": cpus(),
        "load_average_before": load_before,
        "load_average_after": load_average(),
    }


def bare_texts(data: Path) -> list[str]:
    """The distinct chunk texts the run stored (what the vector steps embedded)."""
    import lancedb

    db = lancedb.connect(str(data / "lancedb"))
    texts: list[str] = []
    for name in db.list_tables(limit=1000).tables:
        if name.startswith(("naive_chunks_", "enriched_chunks_")):
            rows = db.open_table(name).to_arrow()
            # what the pipeline embedded: header and body (tables of the v1 layout: the body)
            column = "search_text" if "search_text" in rows.column_names else "text"
            texts += rows.column(column).to_pylist()
    return list(dict.fromkeys(texts))


def bare_floor(texts: list[str], limit: int) -> dict[str, Any]:
    """The bare model's texts/s on the run's texts (every ``k``-th text when ``limit`` is
    smaller than their number), same process, model already loaded, torch on every core this
    process may use (what the model does at its best here, whatever the run set)."""
    from rag_assets.core.retrieval.embeddings import Embedder, available_cores, set_torch_threads
    from rag_assets.core.settings import Settings

    sample = texts
    if 0 < limit < len(texts):
        step = len(texts) / limit
        sample = [texts[int(i * step)] for i in range(limit)]
    embedder = Embedder(backend=Settings().embeddings.backend)
    threads = set_torch_threads(available_cores(Settings().runtime.cores))
    embedder.encode(sample[:32])  # warm (first batches pay lazy inits)
    cpu_started, started = time.process_time(), time.perf_counter()
    embedder.encode(sample)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "texts": len(sample),
        "seconds": round(seconds, 2),
        "cpu_s": round(cpu, 2),
        "texts_per_second": round(len(sample) / seconds, 2) if seconds else 0.0,
        "texts_per_cpu_second": round(len(sample) / cpu, 2) if cpu else 0.0,
        "torch_threads": threads,
    }


# --- 2. per-run overhead ------------------------------------------------------------------------

SMALL_TEXT = """{title}

{name} reported revenue of ${revenue} million for {year}, up {growth}% [1]. Operating margin was
{margin}% [2]. The board proposed a dividend of ${dividend} per share.

Outlook: management expects {name} to grow {outlook}% next year, driven by its {segment}
segment.
__________
[1] Includes ${acquired} million from the acquisition of {target}.
[2] Excludes a ${charge} million restructuring charge.
"""


def small_corpus(data: Path, n: int) -> list[str]:
    """``n`` one-page text reports with two golden questions each; returns the documents."""
    from rag_assets.core.evaluation.questions import GoldenQuestion, questions_path, write_questions

    segments = ("industrial", "consumer", "health", "energy", "software", "logistics")
    documents = []
    for i in range(n):
        document = f"small-{i}"
        name = f"Company {chr(65 + i)}"
        folder = data / "reports" / document / str(SMALL_YEAR)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "report.txt").write_text(
            SMALL_TEXT.format(
                title=f"{name} annual summary {SMALL_YEAR}", name=name, year=SMALL_YEAR,
                revenue=100 + 17 * i, growth=3 + i, margin=10 + i, dividend=f"0.{10 + i}",
                outlook=2 + i, segment=segments[i % len(segments)], acquired=5 + i,
                target=f"Target {i}", charge=1 + i,
            ),
            encoding="utf-8",
        )
        write_questions(
            questions_path(data / "questions", document, SMALL_YEAR),
            [
                GoldenQuestion(
                    id=f"{document}-q1", document=document, year=SMALL_YEAR,
                    question=f"How much of {name}'s {SMALL_YEAR} revenue came from an "
                    "acquisition?",
                    category="footnote-dependent", relevant_pages=[0], relevant_markers=["[1]"],
                ),
                GoldenQuestion(
                    id=f"{document}-q2", document=document, year=SMALL_YEAR,
                    question=f"What growth does {name} expect next year?",
                    category="factual", relevant_pages=[0],
                ),
            ],
        )
        documents.append(document)
    return documents


def run_overhead(n: int, ways: Sequence[str], daemon_timeout: float) -> dict[str, Any]:
    import dagster as dg

    from rag_assets.definitions import defs
    from rag_assets.defs.partitions import partition_key, register_partitions
    from rag_assets.defs.resources import default_resources

    load_before = load_average()
    out: dict[str, Any] = {"partitions": n}
    with tempfile.TemporaryDirectory(prefix="pipeline_bench_runs_") as tmp:
        root = Path(tmp)
        data = root / "data"
        documents = small_corpus(data, n)
        home = dagster_home(root)
        instance = dg.DagsterInstance.from_config(str(home))
        register_partitions(instance, [partition_key(d, SMALL_YEAR) for d in documents])
        ingest = defs.resolve_job_def("ingest_job")
        evaluation = defs.resolve_job_def("evaluation_job")
        log(f"  ingesting {n} small partitions ...")
        started = time.perf_counter()
        for document in documents:
            result = ingest.execute_in_process(
                partition_key=partition_key(document, SMALL_YEAR), instance=instance,
                resources=default_resources(str(data)), run_config=QUIET_RUN,
                raise_on_error=False,
            )
            if not result.success:
                raise RuntimeError(f"ingest of {document} failed")
        out["setup_ingest_s"] = round(time.perf_counter() - started, 1)
        # the evaluation never reads the files again; moved away, the daemon's report sensor
        # (on by default) does not queue ingest runs of them beside the backfill
        (data / "reports").rename(data / "reports.ingested")

        # the first evaluation of each partition embeds its questions (into the cache)
        log(f"  first evaluation of the {n} partitions ...")
        started = time.perf_counter()
        first = [_timed_run(evaluation, instance, partition_key(d, SMALL_YEAR), data)
                 for d in documents]
        out["setup_evaluation_s"] = round(time.perf_counter() - started, 1)
        out["setup_evaluation_ok"] = sum(r["ok"] for r in first)
        # A: one process, persistent instance (what `rag-assets backfill` does)
        if "in_process" in ways:
            log("  A: execute_in_process per partition, one process ...")
            out["in_process"] = [
                _timed_run(evaluation, instance, partition_key(d, SMALL_YEAR), data)
                for d in documents
            ]
        # B: one fresh process per run (process start + imports + run), no daemon
        if "fresh_process" in ways:
            log("  B: one fresh process per run ...")
            out["fresh_process"] = [
                _fresh_process_run(root, data, home, d) for d in documents
            ]
        instance.dispose()
        # C: the daemon (queued backfill, each run launched by the instance's run launcher)
        if "daemon" in ways:
            log("  C: dagster job backfill + dagster-daemon ...")
            out["daemon"] = _daemon_backfill(root, data, home, documents, daemon_timeout)
    out["load_average_before"] = load_before
    out["load_average_after"] = load_average()
    for way in ("in_process", "fresh_process"):
        if out.get(way):
            out[f"{way}_summary"] = _summary(out[way])
    if out.get("daemon", {}).get("runs"):
        out["daemon_summary"] = _summary(out["daemon"]["runs"])
    return out


def _summary(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    def med(key: str) -> float | None:
        values = [r[key] for r in runs if r.get(key) is not None]
        return round(statistics.median(values), 3) if values else None

    return {
        "runs": len(runs),
        "ok": sum(bool(r.get("ok")) for r in runs),
        **{f"median_{k}": med(k) for k in ("wall_s", "steps_s", "overhead_s",
                                          "before_first_step_s", "between_steps_s",
                                          "launch_to_run_start_s", "process_s")},
        "max_overhead_s": max((r["overhead_s"] for r in runs), default=None),
        "first_overhead_s": runs[0]["overhead_s"] if runs else None,
    }


def _timed_run(job: Any, instance: Any, key: Any, data: Path) -> dict[str, Any]:
    from rag_assets.defs.resources import default_resources

    started = time.perf_counter()
    result = job.execute_in_process(
        partition_key=key, instance=instance, resources=default_resources(str(data)),
        run_config=QUIET_RUN, raise_on_error=False,
    )
    wall = time.perf_counter() - started
    timeline = step_timeline(instance, result.run_id)
    return {"ok": result.success, **overhead_of(timeline, wall),
            "steps": {k: round(v["seconds"], 2) for k, v in timeline["steps"].items()
                      if "seconds" in v}}


FRESH_RUN = """
import sys, time
started = time.perf_counter()
import dagster as dg
from rag_assets.definitions import defs
from rag_assets.defs.partitions import partition_key
from rag_assets.defs.resources import default_resources
imported = time.perf_counter()
instance = dg.DagsterInstance.get()
result = defs.resolve_job_def("evaluation_job").execute_in_process(
    partition_key=partition_key(sys.argv[1], int(sys.argv[2])), instance=instance,
    resources=default_resources(sys.argv[3]), raise_on_error=False,
    run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}})
print("RUN", result.run_id, result.success, round(imported - started, 3), flush=True)
"""


def _fresh_process_run(root: Path, data: Path, home: Path, document: str) -> dict[str, Any]:
    """One run in a new Python process: what every run launched by a daemon pays first."""
    import dagster as dg

    env = {**os.environ, **ENV, "DAGSTER_HOME": str(home)}
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", FRESH_RUN, document, str(SMALL_YEAR), str(data)],
        cwd=REPO, env=env, capture_output=True, text=True, check=False,
    )
    wall = time.perf_counter() - started
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RUN ")), None)
    if line is None:
        return {"ok": False, "wall_s": round(wall, 3), "overhead_s": None,
                "error": proc.stderr.strip().splitlines()[-1:] or "no output"}
    _, run_id, ok, imports = line.split()
    instance = dg.DagsterInstance.from_config(str(home))
    try:
        timeline = step_timeline(instance, run_id)
    finally:
        instance.dispose()
    return {"ok": ok == "True", "imports_s": float(imports), "process_s": round(wall, 3),
            **overhead_of(timeline, wall),
            "steps": {k: round(v["seconds"], 2) for k, v in timeline["steps"].items()
                      if "seconds" in v}}


WORKSPACE = """load_from:
  - python_module:
      module_name: rag_assets.definitions
      attribute: defs
      location_name: rag_assets
      working_directory: {repo}
"""


def _daemon_backfill(
    root: Path, data: Path, home: Path, documents: list[str], timeout: float
) -> dict[str, Any]:
    """``dagster job backfill`` of ``evaluation_job`` executed by a ``dagster-daemon``."""
    import dagster as dg

    workspace = root / "workspace.yaml"
    workspace.write_text(WORKSPACE.format(repo=REPO))
    env = {**os.environ, **ENV, "DAGSTER_HOME": str(home), "RAG_ASSETS_DATA_DIR": str(data)}
    bin_dir = Path(sys.executable).parent
    instance = dg.DagsterInstance.from_config(str(home))
    before = {r.run_id for r in instance.get_runs()}
    daemon_log = (root / "daemon.log").open("w")
    daemon = subprocess.Popen(
        [str(bin_dir / "dagster-daemon"), "run", "-w", str(workspace)],
        cwd=REPO, env=env, stdout=daemon_log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    started = time.perf_counter()
    try:
        keys = ",".join(f"{d}|{SMALL_YEAR}" for d in documents)
        submitted = subprocess.run(
            [str(bin_dir / "dagster"), "job", "backfill", "-w", str(workspace),
             "-j", "evaluation_job", "--partitions", keys, "--noprompt"],
            cwd=REPO, env=env, capture_output=True, text=True, check=False,
        )
        if submitted.returncode != 0:
            return {"error": submitted.stderr.strip().splitlines()[-1:]}
        finished: list[Any] = []
        while time.perf_counter() - started < timeout:
            runs = [r for r in instance.get_runs()
                    if r.run_id not in before and r.job_name == "evaluation_job"]
            finished = [r for r in runs if r.is_finished]
            if len(finished) >= len(documents):
                break
            time.sleep(1.0)
        backfill_s = time.perf_counter() - started
    finally:
        os.killpg(daemon.pid, signal.SIGTERM)
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(daemon.pid, signal.SIGKILL)
        daemon_log.close()
    rows = []
    records = sorted((instance.get_run_record_by_id(r.run_id) for r in finished),
                     key=lambda r: r.create_timestamp)
    previous_end = None
    for record in records:
        run = record.dagster_run
        timeline = step_timeline(instance, run.run_id)
        row = {"ok": run.status == dg.DagsterRunStatus.SUCCESS, **overhead_of(timeline),
               "steps": {k: round(v["seconds"], 2) for k, v in timeline["steps"].items()
                         if "seconds" in v}}
        launched = timeline["run"].get("RUN_STARTING")
        if previous_end is not None and launched is not None:
            row["queue_gap_s"] = round(launched - previous_end, 3)  # last end to this launch
        previous_end = timeline["run"].get("RUN_SUCCESS", timeline["run"].get("RUN_FAILURE"))
        rows.append(row)
    instance.dispose()
    return {"runs": rows, "finished": len(finished), "backfill_wall_s": round(backfill_s, 1),
            "per_run_wall_s": round(backfill_s / max(len(finished), 1), 2)}


# --- 3. a report through `rag-assets ingest` ---------------------------------------------------

REAL_REPORT = REPO.parent / "shared" / "corpora" / "sec-10k" / "3M_2018_10K.pdf"
SMALL_PAGES = 5  # the small report whose run is all fixed cost but its few texts' embedding
SMALL_FLOOR_TEXTS = 256  # its texts repeated up to this many for a steady bare-model rate


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children waited for (the PDF workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def cli_ingest(pdf: Path, document: str, data: Path) -> tuple[float, float]:
    """``rag-assets ingest PDF --document D --year Y --data-dir DATA`` in this process (its
    terminal output dropped); the command's wall and CPU seconds."""
    from rag_assets.cli.app import main as rag_assets

    cpu_started, started = cpu_seconds(), time.perf_counter()
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink), \
            contextlib.redirect_stderr(sink):
        code = rag_assets(["ingest", str(pdf), "--document", document, "--year",
                           str(INGEST_YEAR), "--data-dir", str(data)])
    wall, cpu = time.perf_counter() - started, cpu_seconds() - cpu_started
    if code:
        raise RuntimeError(f"rag-assets ingest {pdf.name} exited {code}")
    return wall, cpu


def texts_embedded(document: str) -> int:
    """The texts the partition's last vector steps computed (the rest came from the cache)."""
    import dagster as dg

    instance = dg.DagsterInstance.get()
    total = 0
    for asset in ("naive_vectors", "enriched_vectors"):
        [record] = instance.fetch_materializations(dg.AssetRecordsFilter(
            asset_key=dg.AssetKey(asset), asset_partitions=[f"{document}|{INGEST_YEAR}"]),
            limit=1).records
        value = record.asset_materialization.metadata["embeddings_computed"]
        total += int(getattr(value, "value", value))
    return total


def ingest_runs(pdf: Path, document: str, runs: int, floor_texts: int) -> list[dict[str, Any]]:
    """``runs`` ingests of ``pdf``, each into a fresh data folder (nothing cached), each followed
    by the bare model on the texts it embedded: its floor (texts embedded / bare texts per
    second), against which the run's wall time is put."""
    rows = []
    for number in range(1, runs + 1):
        with tempfile.TemporaryDirectory(prefix="pipeline_bench_ingest_") as tmp:
            data = Path(tmp) / "data"
            wall, cpu = cli_ingest(pdf, document, data)
            embedded = texts_embedded(document)
            texts = bare_texts(data)
        if len(texts) < SMALL_FLOOR_TEXTS:  # a few texts: repeated, for a steady rate
            texts = (texts * (SMALL_FLOOR_TEXTS // max(len(texts), 1) + 1))[:SMALL_FLOOR_TEXTS]
        bare = bare_floor(texts, floor_texts)
        floor = embedded / bare["texts_per_second"] if bare["texts_per_second"] else 0.0
        # the same in CPU seconds: steadier than wall time on a machine others share
        cpu_floor = embedded / bare["texts_per_cpu_second"] if bare["texts_per_cpu_second"] \
            else 0.0
        rows.append({"wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
                     "texts_embedded": embedded,
                     "bare_texts_per_second": bare["texts_per_second"],
                     "floor_s": round(floor, 2), "fixed_s": round(wall - floor, 2),
                     "wall_over_floor": round(wall / floor, 3) if floor else None,
                     "cpu_floor_s": round(cpu_floor, 2), "fixed_cpu_s": round(cpu - cpu_floor, 2),
                     "cpu_over_floor": round(cpu / cpu_floor, 3) if cpu_floor else None})
        log(f"  {pdf.name} run {number}: wall {wall:.1f} s (cpu {cpu:.1f}), {embedded} texts "
            f"embedded, floor {floor:.1f} s (cpu {cpu_floor:.1f}; {bare['texts_per_second']} "
            f"texts/s)")
    return rows


def run_ingest(report: Path, runs: int, floor_texts: int) -> dict[str, Any]:
    """A small generated report, then ``report``, each ingested ``runs`` times by
    ``rag-assets ingest`` in this one process (the deployment's instance config in a temporary
    ``DAGSTER_HOME``); the medians are the figures."""
    load_before = load_average()
    with tempfile.TemporaryDirectory(prefix="pipeline_bench_home_") as tmp:
        os.environ["DAGSTER_HOME"] = str(dagster_home(Path(tmp)))
        small = ingest_runs(long_report_pdf(SMALL_PAGES), "small-report", runs, floor_texts)
        full = ingest_runs(report, "real-report", runs, floor_texts)

    def median(rows: list[dict[str, Any]], key: str) -> float:
        return round(statistics.median(r[key] for r in rows if r[key] is not None), 3)

    return {
        "report": report.name, "runs": runs,
        "small": {"pages": SMALL_PAGES, "runs": small,
                  "median_wall_s": median(small, "wall_s"),
                  "median_fixed_s": median(small, "fixed_s"),
                  "median_fixed_cpu_s": median(small, "fixed_cpu_s")},
        "full": {"runs": full, "median_wall_s": median(full, "wall_s"),
                 "median_floor_s": median(full, "floor_s"),
                 "median_wall_over_floor": median(full, "wall_over_floor"),
                 "median_cpu_over_floor": median(full, "cpu_over_floor")},
        "load_average_before": load_before, "load_average_after": load_average(),
    }


# --- output -------------------------------------------------------------------------------------


def print_long(long: dict[str, Any]) -> None:
    from tabulate import tabulate

    bare = long["bare"]
    rows = [
        ["succeeded", long["ok"]],
        ["texts embedded", long["texts_embedded"]],
        ["run wall s (cpu s)", f"{long['wall_s']} ({long['cpu_s']})"],
        ["bare model texts/s", f"{bare['texts_per_second']} ({bare['texts']} texts)"],
        ["embedding floor s", long["floor_s"]],
        ["wall / floor", long["wall_over_floor"]],
        ["peak RSS MiB self / children", f"{long['peak_rss_self_mib']} / "
                                          f"{long['peak_rss_children_mib']}"],
        ["steps s", ", ".join(f"{k} {v}" for k, v in long["steps_s"].items())],
        ["where the time went s",
         ", ".join(f"{k} {v}" for k, v in long.get("parts_s", {}).items())],
        ["load average before / after", f"{long['load_average_before']} / "
                                         f"{long['load_average_after']}"],
    ]
    for kind, meta in long["vector_steps"].items():
        rows.append([f"{kind}_vectors", json.dumps(meta)])
    if long["failures"]:
        rows.append(["failures", "; ".join(long["failures"])[:500]])
    print(tabulate(rows, headers=[f"{long['pages']}-page report, ingest_job", "value"]))


def print_overhead(over: dict[str, Any]) -> None:
    from tabulate import tabulate

    rows = []
    for way in ("in_process", "fresh_process", "daemon"):
        summary = over.get(f"{way}_summary")
        if not summary:
            continue
        rows.append([way, f"{summary['ok']}/{summary['runs']}", summary["median_wall_s"],
                     summary["median_steps_s"], summary["median_overhead_s"],
                     summary["max_overhead_s"], summary["median_before_first_step_s"],
                     summary["median_between_steps_s"]])
    print(tabulate(rows, headers=["evaluation_job x8", "ok", "wall", "steps", "overhead",
                                  "max overhead", "before 1st step", "between steps"]))


def bench_lines(figures: dict[str, Any]) -> list[str]:
    lines = []
    long = figures.get("long")
    if long:
        lines.append(
            f"BENCH long-document: {long['pages']} pages, {long['texts_embedded']} texts embedded,"
            f" wall {long['wall_s']:.1f} s / floor {long['floor_s']:.1f} s "
            f"(bare model {long['bare']['texts_per_second']} texts/s) = "
            f"{long['wall_over_floor']}x (targets: issue 12 <= 1.2x, issue 20 <= 1.1x); peak RSS "
            f"{long['peak_rss_self_mib']:.0f} MiB + children {long['peak_rss_children_mib']:.0f}"
            f" MiB (target < 2048)"
        )
    ingest = figures.get("ingest")
    if ingest:
        full, small = ingest["full"], ingest["small"]
        lines.append(
            f"BENCH rag-assets ingest of {ingest['report']} (median of {ingest['runs']}, one "
            f"process): wall {full['median_wall_s']} s / int8 floor {full['median_floor_s']} s "
            f"= {full['median_wall_over_floor']}x (target <= 1.3x; in CPU seconds "
            f"{full['median_cpu_over_floor']}x); a {small['pages']}-page report's fixed cost "
            f"(wall - floor) {small['median_fixed_s']} s (target <= 1.5 s; in CPU seconds "
            f"{small['median_fixed_cpu_s']} s); load average {ingest['load_average_before']} "
            f"before, {ingest['load_average_after']} after"
        )
    over = figures.get("overhead")
    if over:
        for way in ("in_process", "fresh_process", "daemon"):
            summary = over.get(f"{way}_summary")
            if summary:
                lines.append(
                    f"BENCH per-run overhead ({way}, evaluation_job x{summary['runs']}): median "
                    f"{summary['median_overhead_s']} s, max {summary['max_overhead_s']} s "
                    f"(wall {summary['median_wall_s']} s, steps {summary['median_steps_s']} s;"
                    f" target < 3 s)"
                )
    return lines


def run_part(part: str, args: argparse.Namespace) -> dict[str, Any]:
    """A part in a process of its own (its peak memory is its own)."""
    out = Path(tempfile.mkstemp(prefix=f"pipeline_{part}_", suffix=".json")[1])
    command = [sys.executable, __file__, "--part", part, "--json-out", str(out),
               "--pages", str(args.pages), "--floor-texts", str(args.floor_texts),
               "--partitions", str(args.partitions), "--daemon-timeout", str(args.daemon_timeout),
               "--ways", args.ways, "--runs", str(args.runs), "--report", str(args.report)]
    subprocess.run(command, check=False, env={**os.environ, **ENV})
    try:
        return json.loads(out.read_text() or "{}")
    finally:
        out.unlink(missing_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("all", "ingest", "long", "overhead"), default="all")
    parser.add_argument("--report", type=Path, default=REAL_REPORT,
                        help="the real report of the ingest part")
    parser.add_argument("--runs", type=int, default=5, help="ingests of each report (ingest)")
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--floor-texts", type=int, default=512,
                        help="texts of the bare-model measure (0: all the run embedded)")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--ways", default="in_process,daemon",
                        help="how the backfill's runs are executed, comma-separated, of "
                        "in_process, fresh_process (a new interpreter per run, ~2 min), daemon")
    parser.add_argument("--daemon-timeout", type=float, default=300.0)
    parser.add_argument("--json-out", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    os.environ.update({k: v for k, v in ENV.items() if k not in os.environ})

    if args.json_out is not None:  # a child: one part, figures to the file
        if args.part == "long":
            figures = run_long(args.pages, args.floor_texts)
        elif args.part == "ingest":
            figures = run_ingest(args.report, args.runs, args.floor_texts)
        else:
            figures = run_overhead(args.partitions, args.ways.split(","), args.daemon_timeout)
        args.json_out.write_text(json.dumps(figures))
        return 0

    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
        "machine": {"python": platform.python_version(), "cpus": cpus()},
    }
    if args.part in ("all", "overhead"):
        log(f"per-run overhead: {args.partitions}-partition backfill of evaluation_job ...")
        figures["overhead"] = run_part("overhead", args)
        if figures["overhead"]:
            print_overhead(figures["overhead"])
    if args.part in ("all", "ingest"):
        log(f"rag-assets ingest: a {SMALL_PAGES}-page report and {args.report.name}, "
            f"{args.runs} runs each ...")
        figures["ingest"] = run_part("ingest", args)
    if args.part in ("all", "long"):
        log(f"long document: {args.pages}-page report through ingest_job ...")
        figures["long"] = run_part("long", args)
        if figures["long"]:
            print_long(figures["long"])
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps(figures, indent=2) + "\n")
    print()
    for line in bench_lines(figures):
        print(line)
    print("BENCH_JSON " + json.dumps(figures, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
