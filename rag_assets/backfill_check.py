"""``make backfill-check``: a real daemon, many partitions, a killed run, and exact tables after.

What a user does in the UI, on a fresh DAGSTER_HOME (``deploy/dagster.yaml`` with two runs at
once and run monitoring every 5 s) and a fresh data folder of N reports:

1. **flow**: ``dagster dev`` (webserver + daemon) starts; the report sensor and the automation
   sensor, both on by default, carry every report through ingest, index, evaluation, generation
   and its audit report with no click. Each partition ends with every asset that has something
   to write materialized.
2. **backfill**: what the UI's Materialize > partitions sends (GraphQL
   ``launchPartitionBackfill``): ``retrieval_runs``, ``retrieval_metrics`` and ``audit_report``
   over all N partitions. Every run of the backfill succeeds, and each partition's tables hold
   exactly the expected rows: one per answerable golden question × chunk kind × setting ×
   strategy, none lost, none duplicated, and every other table as it was.
3. **fault**: the same backfill again; a run worker is SIGKILLed mid-run; run monitoring marks
   the run failed, the backfill ends with those partitions failed; a backfill of the failed
   partitions is launched and the tables end exact again.

Run ``python -m rag_assets.backfill_check [--keep DIR]``; the slow test runs the same code.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import dagster as dg
import duckdb
import yaml
from pydantic import BaseModel

from rag_assets.core.evaluation.questions import (
    GoldenQuestion,
    answerable_questions,
    questions_path,
    read_questions,
)
from rag_assets.launcher import PID_TAG
from rag_assets.local_dagster import REPO, LocalDagster
from rag_assets.samples.base import publish, report_dir
from rag_assets.samples.corpus import build_sample_corpus

BACKFILLED = ("retrieval_runs", "retrieval_metrics", "audit_report")
# every partitioned asset: each writes a table (empty without golden questions) or a report
PARTITIONED = (
    "raw_pages", "footnote_dictionary", "footnote_registry", "stitched_text", "naive_chunks",
    "enriched_chunks", "document_profile", "naive_vectors", "enriched_vectors", "retrieval_runs",
    "retrieval_metrics", "summaries", "answers", "answer_metrics", "audit_report",
)
RUN_KEY = ("question_id", "kind", "setting", "strategy")
METRICS_KEY = ("kind", "setting", "strategy", "category")
FINISHED = {"COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED"}
COMPANIES = ("harbor", "alder", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron",
             "iris", "juniper", "kestrel")


def note_text(company: str, year: int, n: int) -> str:
    """A one-page plain-text quarterly note with two footnotes (another writer than the
    sample PDFs: a text file, its note zone under a rule)."""
    growth, acquired, fuel = 4 + n, 2 + n % 5, 1 + n % 3
    return (
        f"{company.title()} Logistics quarterly note {year}\n"
        f"Revenue grew {growth}% to ${40 + 3 * n} million [1]. Fuel costs fell {fuel}% [2].\n"
        "__________\n"
        f"[1] Includes ${acquired} million from the acquisition of {company.title()} Pier.\n"
        f"[2] Excludes a ${fuel} million hedging gain.\n"
        "Page 1/1\n"
    )


def note_questions(document: str, year: int) -> list[GoldenQuestion]:
    return [
        GoldenQuestion(id=f"{document}-{year}-q01", document=document, year=year,
                       question="How much did revenue grow, and what did the acquisition add?",
                       category="footnote-dependent", relevant_pages=[0],
                       relevant_markers=["[1]"], expected_facts=["acquisition"]),
        GoldenQuestion(id=f"{document}-{year}-q02", document=document, year=year,
                       question="How did fuel costs change?", category="factual",
                       relevant_pages=[0], expected_facts=["fuel"]),
    ]


def build_notes(data: Path, count: int) -> list[tuple[str, int]]:
    """``count`` small text reports with golden questions: the quick fleet of the slow test."""
    out = []
    for n in range(count):
        document, year = f"{COMPANIES[n % len(COMPANIES)]}-note", 2023 + n // len(COMPANIES)
        path = report_dir(data / "reports", document, year) / "note.txt"
        path.write_text(note_text(document.split("-")[0], year, n), encoding="utf-8")
        publish(path, document, year, note_questions(document, year), data / "questions")
        out.append((document, year))
    return out


def build_reports(data: Path, fleet: str, count: int) -> list[str]:
    """The partitions' reports and golden questions; returns their keys.

    ``samples``: the fictitious sample corpus (PDFs of two writers, a TEI paper: ten partitions,
    two without questions) and text notes up to ``count``. ``notes``: ``count`` text notes."""
    files = []
    if fleet == "samples":
        files = [(f.document, f.year) for f in build_sample_corpus(data, corpora_dir=None)]
    files += build_notes(data, max(count - len(files), 0))
    return [f"{document}|{year}" for document, year in files]


LAUNCH_BACKFILL = """
mutation($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename
    ... on LaunchBackfillSuccess { backfillId }
    ... on PythonError { message }
    ... on PartitionKeysNotFoundError { message }
  }
}"""


class PartitionRows(BaseModel):
    """One partition's rows as the check counts them."""

    partition: str
    questions: int  # answerable golden questions
    retrieval_runs: int
    distinct_runs: int
    metrics: int
    distinct_metrics: int
    others: dict[str, int]  # every other table's rows


class PhaseResult(BaseModel):
    phase: str
    partitions: int
    runs: int
    succeeded: int
    failed: int
    seconds: float
    note: str = ""


def say(message: str) -> None:
    print(f"[backfill-check] {message}", flush=True)


# -- the data ---------------------------------------------------------------------------------
def write_instance_config(home: Path, concurrent_runs: int) -> None:
    """The repo's instance settings, with ``concurrent_runs`` runs at once and run monitoring
    every 5 s (a killed run is seen failed quickly)."""
    config = yaml.safe_load((REPO / "deploy" / "dagster.yaml").read_text())
    config["concurrency"]["runs"]["max_concurrent_runs"] = concurrent_runs
    config["run_monitoring"]["poll_interval_seconds"] = 5
    home.mkdir(parents=True, exist_ok=True)
    (home / "dagster.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")


# -- what the instance and the warehouse say --------------------------------------------------
def materialized(instance: dg.DagsterInstance, asset: str) -> set[str]:
    return {str(k) for k in instance.get_materialized_partitions(dg.AssetKey(asset))}


def missing_assets(instance: dg.DagsterInstance, keys: list[str]) -> dict[str, set[str]]:
    """Partition -> its assets not materialized yet (only partitions missing some)."""
    done = {asset: materialized(instance, asset) for asset in PARTITIONED}
    missing = {key: {a for a in PARTITIONED if key not in done[a]} for key in keys}
    return {key: assets for key, assets in missing.items() if assets}


def busy_runs(instance: dg.DagsterInstance) -> list[dg.DagsterRun]:
    return [r.dagster_run for r in instance.get_run_records(dg.RunsFilter(statuses=[
        dg.DagsterRunStatus.QUEUED, dg.DagsterRunStatus.NOT_STARTED,
        dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED,
        dg.DagsterRunStatus.CANCELING]))]


def table_rows(warehouse: Path, keys: Iterable[str], data: Path) -> dict[str, PartitionRows]:
    """Every partition's rows, read from the warehouse (read-only, between runs)."""
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        columns = con.execute("select table_name, column_name from information_schema.columns "
                              "where table_schema = 'rag'").fetchall()
        partitioned = sorted({t for t, _ in columns
                              if {(t, "document"), (t, "year")} <= set(columns)})
        out = {}
        for key in keys:
            document, year = key.split("|")
            where = f"where document = '{document}' and year = {int(year)}"

            def count(sql: str) -> int:
                return int(con.execute(sql).fetchone()[0])  # noqa: B023 - used at once

            runs = count(f"select count(*) from rag.retrieval_runs {where}")
            distinct_runs = count(f"select count(*) from (select distinct {', '.join(RUN_KEY)} "
                                  f"from rag.retrieval_runs {where})")
            metrics = count(f"select count(*) from rag.retrieval_metrics {where}")
            distinct_metrics = count(
                f"select count(*) from (select distinct {', '.join(METRICS_KEY)} "
                f"from rag.retrieval_metrics {where})")
            others = {t: count(f"select count(*) from rag.{t} {where}")
                      for t in partitioned if t not in ("retrieval_runs", "retrieval_metrics")}
            questions = len(answerable_questions(read_questions(
                questions_path(data / "questions", document, year))))
            out[key] = PartitionRows(partition=key, questions=questions, retrieval_runs=runs,
                                     distinct_runs=distinct_runs, metrics=metrics,
                                     distinct_metrics=distinct_metrics, others=others)
        return out
    finally:
        con.close()


def combinations(warehouse: Path) -> int:
    """Chunk kind × setting × strategy combinations each question is run under."""
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        return int(con.execute("select count(*) from (select distinct kind, setting, strategy "
                               "from rag.retrieval_runs)").fetchone()[0])
    finally:
        con.close()


def exactness_problems(rows: dict[str, PartitionRows], before: dict[str, PartitionRows],
                       combos: int) -> list[str]:
    """What is lost or duplicated: runs not one per question × combination, duplicate keys,
    metrics rows repeated, any other table's rows changed by the backfill."""
    problems = []
    for key, r in rows.items():
        expected = r.questions * combos
        if r.retrieval_runs != expected:
            problems.append(f"{key}: retrieval_runs {r.retrieval_runs} rows, expected {expected}")
        if r.distinct_runs != r.retrieval_runs:
            problems.append(f"{key}: {r.retrieval_runs - r.distinct_runs} duplicated runs")
        if r.distinct_metrics != r.metrics:
            problems.append(f"{key}: {r.metrics - r.distinct_metrics} duplicated metrics rows")
        if r.questions and not r.metrics:
            problems.append(f"{key}: no retrieval_metrics rows")
        if key in before and r.metrics != before[key].metrics:
            problems.append(f"{key}: retrieval_metrics {before[key].metrics} -> {r.metrics}")
        if key in before and r.others != before[key].others:
            changed = {t: (before[key].others.get(t), n) for t, n in r.others.items()
                       if before[key].others.get(t) != n}
            problems.append(f"{key}: other tables changed {changed}")
    return problems


# -- the phases -------------------------------------------------------------------------------
def wait_for(what: str, done: Callable[[], object], timeout: float, every: float = 2.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = done()
        if value:
            return value
        time.sleep(every)
    raise TimeoutError(f"{what}: not done in {timeout:.0f} s")


def launch_backfill(ui: LocalDagster, keys: list[str], title: str) -> str:
    reply = ui.graphql(LAUNCH_BACKFILL, {"params": {
        "partitionNames": keys,
        "assetSelection": [{"path": [asset]} for asset in BACKFILLED],
        "title": title,
    }})["launchPartitionBackfill"]
    if reply["__typename"] != "LaunchBackfillSuccess":
        raise RuntimeError(f"backfill not launched: {reply}")
    return reply["backfillId"]


def backfill_runs(instance: dg.DagsterInstance, backfill_id: str) -> list[dg.DagsterRun]:
    return [r.dagster_run for r in instance.get_run_records(
        dg.RunsFilter(tags={"dagster/backfill": backfill_id}))]


def backfill_done(instance: dg.DagsterInstance, backfill_id: str) -> bool:
    backfill = instance.get_backfill(backfill_id)
    return backfill is not None and backfill.status.value in FINISHED and not any(
        not r.is_finished for r in backfill_runs(instance, backfill_id))


def run_backfill(ui: LocalDagster, instance: dg.DagsterInstance, keys: list[str], title: str,
                 timeout: float, during: Callable[[str], str] | None = None) -> tuple[str, str]:
    """Launch, optionally act on it while it runs (``during`` returns a note), wait."""
    backfill_id = launch_backfill(ui, keys, title)
    say(f"{title}: backfill {backfill_id} of {', '.join(BACKFILLED)} over {len(keys)} "
        "partitions launched")
    note = during(backfill_id) if during else ""
    wait_for(f"backfill {backfill_id}", lambda: backfill_done(instance, backfill_id), timeout)
    return backfill_id, note


def kill_a_run(instance: dg.DagsterInstance, backfill_id: str, timeout: float) -> str:
    """SIGKILL the worker of a run of the backfill half a second into it (a run that ended
    meanwhile is passed over for the next one)."""
    deadline = time.monotonic() + timeout
    passed: set[str] = set()
    while time.monotonic() < deadline:
        started = [r for r in backfill_runs(instance, backfill_id)
                   if r.status == dg.DagsterRunStatus.STARTED and r.tags.get(PID_TAG)
                   and r.run_id not in passed]
        if not started:
            time.sleep(0.2)
            continue
        run = started[-1]  # the oldest started: its steps are under way
        time.sleep(0.5)
        current = instance.get_run_by_id(run.run_id)
        passed.add(run.run_id)
        if current is None or current.status != dg.DagsterRunStatus.STARTED:
            continue
        pid = int(run.tags[PID_TAG])
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
        partition = run.tags.get("dagster/partition", "?")
        say(f"SIGKILL sent to run {run.run_id[:8]} (worker pid {pid}, partition {partition})")
        return f"killed run {run.run_id[:8]} of {partition}"
    raise TimeoutError(f"no run of backfill {backfill_id} to kill in {timeout:.0f} s")


def summarize_runs(instance: dg.DagsterInstance, backfill_id: str) -> tuple[int, int, int]:
    runs = backfill_runs(instance, backfill_id)
    ok = sum(r.status == dg.DagsterRunStatus.SUCCESS for r in runs)
    failed = sum(r.status == dg.DagsterRunStatus.FAILURE for r in runs)
    return len(runs), ok, failed


def failed_partitions(instance: dg.DagsterInstance, backfill_id: str) -> list[str]:
    return sorted({r.tags["dagster/partition"] for r in backfill_runs(instance, backfill_id)
                   if r.status != dg.DagsterRunStatus.SUCCESS and "dagster/partition" in r.tags})


def check(work: Path, *, fleet: str = "samples", partitions: int = 12,
          kill_partitions: int | None = None, concurrent_runs: int = 2,
          timeout: float = 1200.0) -> list[PhaseResult]:
    """The three phases in ``work`` (the fault phase over the first ``kill_partitions``
    partitions, default all); raises ``AssertionError`` with every problem found."""
    data, home = work / "data", work / "home"
    keys = build_reports(data, fleet, partitions)
    write_instance_config(home, concurrent_runs)
    warehouse = data / "warehouse.duckdb"
    say(f"{len(keys)} partitions under {data / 'reports'}; DAGSTER_HOME={home}")
    results: list[PhaseResult] = []
    with LocalDagster(home, data, mode="dev") as ui, \
            dg.DagsterInstance.from_config(str(home)) as instance:
        say(f"dagster dev (webserver + daemon) on {ui.url}; log {ui.log_path}")

        # 1. the sensors alone carry every report to its audit report
        started = time.monotonic()
        wait_for("every partition materialized by the sensors",
                 lambda: not missing_assets(instance, keys) and not busy_runs(instance),
                 timeout, every=3.0)
        runs = [r.dagster_run for r in instance.get_run_records()]
        results.append(PhaseResult(
            phase="flow (sensors, no click)", partitions=len(keys), runs=len(runs),
            succeeded=sum(r.status == dg.DagsterRunStatus.SUCCESS for r in runs),
            failed=sum(r.status == dg.DagsterRunStatus.FAILURE for r in runs),
            seconds=time.monotonic() - started))
        say(f"flow: every partition materialized by {len(runs)} runs in "
            f"{results[-1].seconds:.0f} s")
        before = table_rows(warehouse, keys, data)
        combos = combinations(warehouse)
        problems = exactness_problems(before, {}, combos)

        # 2. a backfill of the evaluation and reports over every partition
        started = time.monotonic()
        backfill_id, _ = run_backfill(ui, instance, keys, "backfill-check", timeout)
        total, ok, failed = summarize_runs(instance, backfill_id)
        covered = {r.tags.get("dagster/partition") for r in backfill_runs(instance, backfill_id)}
        rows = table_rows(warehouse, keys, data)
        problems += exactness_problems(rows, before, combos)
        problems += [f"backfill: {failed} failed run(s)"] if failed or ok != total else []
        problems += [f"backfill: partitions without a run: {sorted(set(keys) - covered)}"] \
            if set(keys) - covered else []
        results.append(PhaseResult(phase="backfill", partitions=len(covered), runs=total,
                                   succeeded=ok, failed=failed,
                                   seconds=time.monotonic() - started))
        say(f"backfill: {total} runs, {ok} succeeded over {len(covered)} partitions in "
            f"{results[-1].seconds:.0f} s")

        # 3. a run killed mid-way, its partitions re-launched
        started = time.monotonic()
        killed_id, note = run_backfill(ui, instance, keys[:kill_partitions],
                                       "backfill-check: kill", timeout,
                                       during=lambda b: kill_a_run(instance, b, timeout))
        total, ok, failed = summarize_runs(instance, killed_id)
        failures = failed_partitions(instance, killed_id)
        say(f"after the kill: {total} runs, {ok} succeeded, {failed} failed {failures}")
        if not failures:
            problems.append("kill: no run failed (the kill came too late?)")
        relaunch_id, _ = run_backfill(ui, instance, failures, "backfill-check: relaunch",
                                      timeout) if failures else ("", "")
        r_total, r_ok, r_failed = summarize_runs(instance, relaunch_id) if failures else (0, 0, 0)
        rows = table_rows(warehouse, keys, data)
        problems += exactness_problems(rows, before, combos)
        problems += [f"relaunch: {r_failed} failed run(s)"] if r_failed or r_ok != r_total else []
        results.append(PhaseResult(
            phase="kill + relaunch", partitions=len(keys[:kill_partitions]),
            runs=total + r_total,
            succeeded=ok + r_ok, failed=failed + r_failed, seconds=time.monotonic() - started,
            note=f"{note}; {len(failures)} partition(s) re-launched, {r_ok}/{r_total} "
            "runs succeeded"))
    rows_total = sum(r.retrieval_runs for r in rows.values())
    say(f"tables: {rows_total} retrieval_runs rows over {len(rows)} partitions "
        f"({sum(r.questions for r in rows.values())} questions × {combos} combinations), "
        f"{sum(r.metrics for r in rows.values())} retrieval_metrics rows, no duplicate")
    if problems:
        raise AssertionError("backfill check failed:\n" + "\n".join(problems))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rag_assets.backfill_check",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    parser.add_argument("--fleet", choices=("samples", "notes"), default="samples",
                        help="samples: the sample corpus' PDFs, TEI paper and text notes; "
                        "notes: small text notes only (the slow test's quick fleet)")
    parser.add_argument("--partitions", type=int, default=12,
                        help="at least this many partitions (default 12)")
    parser.add_argument("--concurrent-runs", type=int, default=2)
    args = parser.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="backfill-check-"))
    if args.keep and any(work.iterdir() if work.exists() else []):
        parser.error(f"{work} is not empty")
    try:
        results = check(work, fleet=args.fleet, partitions=args.partitions,
                        concurrent_runs=args.concurrent_runs)
    except (AssertionError, TimeoutError, RuntimeError) as err:
        say(f"FAILED: {err}")
        say(f"work folder kept: {work}")
        return 1
    for r in results:
        say(f"{r.phase}: {r.partitions} partitions, {r.runs} runs, {r.succeeded} succeeded, "
            f"{r.failed} failed, {r.seconds:.0f} s{'; ' + r.note if r.note else ''}")
    say("OK: every run succeeded or was re-launched, tables exact")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
