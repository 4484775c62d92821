"""``make backfill-check``: a real daemon, many partitions, a killed run, and exact tables after.

What a user does in the UI, on a fresh DAGSTER_HOME (``deploy/dagster.yaml`` with two runs at
once and run monitoring every 5 s) and a fresh data folder of N reports:

1. **flow**: the webserver and the daemon start (``harness/local_dagster.py``); the report
   sensor and the automation sensor, both on by default, carry every report through ingest,
   index, evaluation, generation and its audit report with no click: each partition ends with
   every partitioned asset materialized.
2. **backfill**: what the UI's Materialize > partitions sends (GraphQL
   ``launchPartitionBackfill``): ``retrieval_runs``, ``retrieval_metrics`` and ``audit_report``
   over all N partitions. Every run of the backfill succeeds, and each partition's tables hold
   exactly the expected rows: one per answerable golden question × chunk kind × setting ×
   strategy (the kinds, settings and strategies the evaluation runs, not what the table holds),
   no duplicate key, and every other table with the row count it had.
3. **fault**: the same backfill again; a run worker is SIGKILLed mid-run; run monitoring marks
   the run failed (and frees the pool slot it held); the UI's "Re-execute from failure" on it,
   and the tables end exact again.

The slow test runs the same code with ``flow="in-process"``: six small text notes ingested and
indexed in its own process first (while the webserver starts), the sensors turned off, then
phases 2 and 3, with run monitoring every second freeing a killed run's slots 1 s after.

Run ``python -m harness.backfill_check [--keep DIR]``; the slow test runs the same code.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import dagster as dg
import yaml
from pydantic import BaseModel

from harness.local_dagster import REPO, LocalDagster
from rag_assets.core.evaluation.questions import (
    GoldenQuestion,
    answerable_questions,
    questions_path,
    read_questions,
)
from rag_assets.core.evaluation.runs import CHUNK_KINDS, SETTINGS
from rag_assets.core.retrieval.retriever import STRATEGIES
from rag_assets.core.warehouse.connection import connect_warehouse
from rag_assets.defs.schedules import BUSY
from rag_assets.runtime.launcher import PID_TAG
from rag_assets.samples.base import publish, report_dir
from rag_assets.samples.corpus import build_sample_corpus

BACKFILLED = ("retrieval_runs", "retrieval_metrics", "audit_report")
# every partitioned asset: each writes a table (empty without golden questions) or a report
PARTITIONED = (
    "raw_pages", "footnote_dictionary", "footnote_registry", "stitched_text", "naive_chunks",
    "enriched_chunks", "document_profile", "naive_vectors", "enriched_vectors", "retrieval_runs",
    "retrieval_metrics", "summaries", "answers", "answer_metrics", "audit_report",
)
# what the in-process flow materializes
PREPARED = dg.AssetSelection.groups("ingest", "index")
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


REEXECUTE = """
mutation($parent: String!) {
  launchRunReexecution(reexecutionParams: {parentRunId: $parent, strategy: FROM_FAILURE}) {
    __typename
    ... on LaunchRunSuccess { run { runId } }
    ... on PythonError { message }
  }
}"""
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
def write_instance_config(home: Path, concurrent_runs: int, monitor_every: int = 5,
                          free_slots_after: int | None = None) -> None:
    """The repo's instance settings, with ``concurrent_runs`` runs at once and run monitoring
    every ``monitor_every`` seconds (a killed run is seen failed quickly); ``free_slots_after``:
    the seconds after a run ended (a killed one: once run monitoring failed it) that its pool
    slots are freed, by run monitoring's next round (default: the repo's setting)."""
    config = yaml.safe_load((REPO / "deploy" / "dagster.yaml").read_text())
    config["concurrency"]["runs"]["max_concurrent_runs"] = concurrent_runs
    config["run_monitoring"]["poll_interval_seconds"] = monitor_every
    if free_slots_after is not None:
        config["run_monitoring"]["free_slots_after_run_end_seconds"] = free_slots_after
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
    return [r.dagster_run for r in instance.get_run_records(dg.RunsFilter(statuses=BUSY))]


def table_rows(warehouse: str | Path, keys: Iterable[str],
               data: Path) -> dict[str, PartitionRows]:
    """Every partition's rows, read from the warehouse (read-only, between runs)."""
    con = connect_warehouse(warehouse, read_only=True)  # waits while a run writes
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

            runs = distinct_runs = metrics = distinct_metrics = 0
            if "retrieval_runs" in partitioned:  # not before the first evaluation
                runs = count(f"select count(*) from rag.retrieval_runs {where}")
                distinct_runs = count(
                    f"select count(*) from (select distinct {', '.join(RUN_KEY)} "
                    f"from rag.retrieval_runs {where}) as k")
            if "retrieval_metrics" in partitioned:
                metrics = count(f"select count(*) from rag.retrieval_metrics {where}")
                distinct_metrics = count(
                    f"select count(*) from (select distinct {', '.join(METRICS_KEY)} "
                    f"from rag.retrieval_metrics {where}) as k")
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
        if key in before and before[key].metrics and r.metrics != before[key].metrics:
            problems.append(f"{key}: retrieval_metrics {before[key].metrics} -> {r.metrics}")
        if key in before and r.others != before[key].others:
            changed = {t: (before[key].others.get(t), n) for t, n in r.others.items()
                       if before[key].others.get(t) != n}
            problems.append(f"{key}: other tables changed {changed}")
    return problems


# -- the phases -------------------------------------------------------------------------------
@dataclass
class Dagster:
    """The webserver, the daemon and the instance they share, as the phases drive them."""

    ui: LocalDagster
    daemon: LocalDagster
    instance: dg.DagsterInstance
    timeout: float

    def wait_for(self, what: str, done: Callable[[], object], every: float = 0.5) -> object:
        """``done()``'s first true value; fails at once when a server died, or at the
        timeout."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            self.ui.raise_if_dead()
            self.daemon.raise_if_dead()
            value = done()
            if value:
                return value
            time.sleep(every)
        raise TimeoutError(f"{what}: not done in {self.timeout:.0f} s")

    def quiet(self) -> None:
        """No run queued or in progress (the automation sensor may add roll-ups)."""
        self.wait_for("the runs to end", lambda: not busy_runs(self.instance))


def launch_backfill(ui: LocalDagster, keys: list[str], title: str) -> str:
    reply = ui.graphql(LAUNCH_BACKFILL, {"params": {
        "partitionNames": keys,
        "assetSelection": [{"path": [asset]} for asset in BACKFILLED],
        "title": title,
    }})["launchPartitionBackfill"]
    if reply["__typename"] != "LaunchBackfillSuccess":
        raise RuntimeError(f"backfill not launched: {reply}")
    say(f"{title}: backfill {reply['backfillId']} of {', '.join(BACKFILLED)} over {len(keys)} "
        "partitions launched")
    return reply["backfillId"]


def backfill_runs(instance: dg.DagsterInstance, backfill_id: str) -> list[dg.DagsterRun]:
    return [r.dagster_run for r in instance.get_run_records(
        dg.RunsFilter(tags={"dagster/backfill": backfill_id}))]


def backfill_done(instance: dg.DagsterInstance, backfill_id: str, keys: list[str],
                  assets: Iterable[str] = BACKFILLED) -> bool:
    """Every run of the backfill ended, and the daemon marked it finished or every requested
    asset partition was in a run of it that ended (then without waiting up to 30 s for the
    backfill daemon's next iteration to say so)."""
    runs = backfill_runs(instance, backfill_id)
    if any(not r.is_finished for r in runs):
        return False
    backfill = instance.get_backfill(backfill_id)
    if backfill is not None and backfill.status.value in FINISHED:
        return True
    ended = {(asset.to_user_string(), r.tags.get("dagster/partition")) for r in runs
             for asset in r.asset_selection or ()}
    return all((asset, key) in ended for asset in assets for key in keys)


def kill_a_run(dagster: Dagster, backfill_id: str, keys: list[str]) -> dg.DagsterRun | None:
    """SIGKILL the worker of a run of the backfill half a second into it (a run that ended
    meanwhile is passed over for the next one); None when every run ended first."""
    passed: set[str] = set()

    def kill() -> dg.DagsterRun | bool:
        started = [r for r in backfill_runs(dagster.instance, backfill_id)
                   if r.status == dg.DagsterRunStatus.STARTED and r.tags.get(PID_TAG)
                   and r.run_id not in passed]
        if not started:
            return backfill_done(dagster.instance, backfill_id, keys)  # nothing left: give up
        run = started[-1]  # the oldest started: its steps are under way
        time.sleep(0.5)
        passed.add(run.run_id)
        current = dagster.instance.get_run_by_id(run.run_id)
        if current is None or current.status != dg.DagsterRunStatus.STARTED:
            return False
        try:
            os.kill(int(run.tags[PID_TAG]), signal.SIGKILL)
        except ProcessLookupError:
            return False
        return run

    killed = dagster.wait_for("a started run to kill", kill, every=0.2)
    if not isinstance(killed, dg.DagsterRun):
        return None
    say(f"SIGKILL sent to run {killed.run_id[:8]} (worker pid {killed.tags[PID_TAG]}, "
        f"partition {killed.tags.get('dagster/partition', '?')})")
    return killed


def summarize_runs(runs: list[dg.DagsterRun]) -> tuple[int, int, int]:
    ok = sum(r.status == dg.DagsterRunStatus.SUCCESS for r in runs)
    failed = sum(r.status == dg.DagsterRunStatus.FAILURE for r in runs)
    return len(runs), ok, failed


def flow_by_sensors(dagster: Dagster, keys: list[str]) -> tuple[PhaseResult, list[str]]:
    """Phase 1 as a user sees it: the daemon's sensors alone carry every report to its audit
    report (every partitioned asset materialized, no run left)."""
    started = time.monotonic()
    dagster.wait_for("every partition materialized by the sensors",
                     lambda: not missing_assets(dagster.instance, keys)
                     and not busy_runs(dagster.instance), every=3.0)
    total, ok, failed = summarize_runs(
        [r.dagster_run for r in dagster.instance.get_run_records()])
    result = PhaseResult(phase="flow (sensors, no click)", partitions=len(keys), runs=total,
                         succeeded=ok, failed=failed, seconds=time.monotonic() - started)
    say(f"flow: every partition materialized by {total} runs in {result.seconds:.0f} s")
    return result, [f"flow: {failed} run(s) failed"] if failed else []


def flow_in_process(instance: dg.DagsterInstance, data: Path, keys: list[str],
                    report: Callable[[str], None] = say) -> PhaseResult:
    """Phase 1 for the slow test: every partition's ingest and index groups materialized in
    this process (the model loaded once, an ephemeral instance: a SQLite one spends more time
    on fsync than on the notes) before any daemon runs; ``instance`` learns the partitions. The
    backfill then writes the evaluation and reports for the first time, the fault phase again.
    ``report`` prints its line with the calling tool's prefix (``make scale-check`` passes its
    own)."""
    from rag_assets.definitions import all_assets
    from rag_assets.defs.partitions import register_partitions
    from rag_assets.defs.resources import default_resources

    started = time.monotonic()
    register_partitions(instance, keys)
    succeeded = 0
    with dg.DagsterInstance.ephemeral() as scratch:
        register_partitions(scratch, keys)
        for key in keys:
            result = dg.materialize(all_assets, selection=PREPARED, partition_key=key,
                                    instance=scratch, resources=default_resources(str(data)),
                                    raise_on_error=False)
            succeeded += result.success
    seconds = time.monotonic() - started
    report(f"flow: {succeeded}/{len(keys)} partitions ingested and indexed in process in "
           f"{seconds:.0f} s")
    return PhaseResult(phase="flow (in process)", partitions=len(keys), runs=len(keys),
                       succeeded=succeeded, failed=len(keys) - succeeded, seconds=seconds)


def backfill_phase(dagster: Dagster, keys: list[str],
                   launched: str | None = None) -> tuple[PhaseResult, list[str]]:
    """Phase 2: one backfill over every partition (``launched`` already, or now); every run
    must succeed and every partition have one."""
    started = time.monotonic()
    backfill_id = launched or launch_backfill(dagster.ui, keys, "backfill-check")
    dagster.wait_for(f"backfill {backfill_id}",
                     lambda: backfill_done(dagster.instance, backfill_id, keys))
    runs = backfill_runs(dagster.instance, backfill_id)
    total, ok, failed = summarize_runs(runs)
    covered = {r.tags.get("dagster/partition") for r in runs}
    problems = [f"backfill: {total - ok} run(s) did not succeed"] if ok != total else []
    if set(keys) - covered:
        problems.append(f"backfill: partitions without a run: {sorted(set(keys) - covered)}")
    result = PhaseResult(phase="backfill", partitions=len(covered), runs=total, succeeded=ok,
                         failed=failed, seconds=time.monotonic() - started)
    say(f"backfill: {total} runs, {ok} succeeded over {len(covered)} partitions in "
        f"{result.seconds:.0f} s")
    return result, problems


def reexecute_from_failure(dagster: Dagster, run: dg.DagsterRun) -> dg.DagsterRun:
    """The UI's "Re-execute from failure" on ``run``, waited for."""
    reply = dagster.ui.graphql(REEXECUTE, {"parent": run.run_id})["launchRunReexecution"]
    if reply["__typename"] != "LaunchRunSuccess":
        raise RuntimeError(f"re-execution of {run.run_id[:8]} not launched: {reply}")
    run_id = reply["run"]["runId"]
    say(f"re-executing {run.run_id[:8]} from failure: run {run_id[:8]}")
    dagster.wait_for("the re-execution", lambda: dagster.instance.get_run_by_id(
        run_id).is_finished)
    return dagster.instance.get_run_by_id(run_id)


def fault_phase(dagster: Dagster, keys: list[str],
                launched: str | None = None) -> tuple[PhaseResult, list[str]]:
    """Phase 3: a backfill (``launched`` already, or now) with a run SIGKILLed mid-way, which
    is then re-executed from failure; any other run that failed is a problem."""
    started = time.monotonic()
    backfill_id = launched or launch_backfill(dagster.ui, keys, "backfill-check: kill")
    killed = kill_a_run(dagster, backfill_id, keys)
    dagster.wait_for(f"backfill {backfill_id}",
                     lambda: backfill_done(dagster.instance, backfill_id, keys))
    runs = backfill_runs(dagster.instance, backfill_id)
    total, ok, failed = summarize_runs(runs)
    say(f"after the kill: {total} runs, {ok} succeeded, {failed} failed")
    problems = [f"kill: run {r.run_id[:8]} ({r.tags.get('dagster/partition')}) failed too"
                for r in runs if r.status != dg.DagsterRunStatus.SUCCESS
                and (killed is None or r.run_id != killed.run_id)]
    again = None
    if killed is None:
        problems.append("kill: every run ended before one could be killed")
    else:
        killed = dagster.instance.get_run_by_id(killed.run_id)
        if killed.status != dg.DagsterRunStatus.FAILURE:
            problems.append(f"kill: the killed run ended {killed.status.value}, not failed")
        again = reexecute_from_failure(dagster, killed)
        if again.status != dg.DagsterRunStatus.SUCCESS:
            problems.append(f"re-execution {again.run_id[:8]} ended {again.status.value}")
    again_ok = int(again is not None and again.status == dg.DagsterRunStatus.SUCCESS)
    result = PhaseResult(
        phase="kill + re-execute", partitions=len(keys), runs=total + (again is not None),
        succeeded=ok + again_ok, failed=failed + (again is not None and not again_ok),
        seconds=time.monotonic() - started,
        note=f"killed run {killed.run_id[:8]} of {killed.tags.get('dagster/partition')}, "
        f"re-executed from failure: {again_ok}/1 succeeded" if killed else "nothing killed")
    return result, problems


def check(work: Path, *, fleet: str = "samples", partitions: int = 12,
          flow: Literal["sensors", "in-process"] = "sensors", kill_partitions: int | None = None,
          concurrent_runs: int = 2, monitor_every: int = 5, free_slots_after: int | None = None,
          timeout: float = 1200.0, kill_in_first_backfill: bool = False) -> list[PhaseResult]:
    """The three phases in ``work`` (the fault phase over the first ``kill_partitions``
    partitions, default all; ``monitor_every`` and ``free_slots_after``: see
    ``write_instance_config``); raises ``AssertionError`` with every problem found.
    ``kill_in_first_backfill`` (the slow test) makes phases 2 and 3 one: a run of the first
    backfill is killed and re-executed, the tables checked once after (a second backfill over
    rows already written is ``make backfill-check``'s, and waits up to 30 s for the backfill
    daemon's next iteration)."""
    data, home = work / "data", work / "home"
    keys = build_reports(data, fleet, partitions)
    write_instance_config(home, concurrent_runs, monitor_every, free_slots_after)
    warehouse = data / "warehouse.duckdb"
    combos = len(CHUNK_KINDS) * len(SETTINGS) * len(STRATEGIES)
    say(f"{len(keys)} partitions under {data / 'reports'}; DAGSTER_HOME={home}")
    with dg.DagsterInstance.from_config(str(home)) as instance, \
            LocalDagster(home, data, mode="webserver").start(wait=False) as ui:
        prepared, launched = None, None
        if flow == "in-process":
            # the webserver starts meanwhile (no daemon runs yet: no sensor ticks)
            prepared = flow_in_process(instance, data, keys)
        ui.wait_until_up()
        if flow == "in-process":
            # no sensor may request what this process ingested; the backfill is queued before
            # the daemon starts, so that its first iteration takes it (they come every 30 s)
            ui.stop_sensors(["report_sensor", "automation_sensor"])
            launched = launch_backfill(ui, keys, "backfill-check")
        with LocalDagster(home, data, mode="daemon") as daemon:
            say(f"webserver on {ui.url}, daemon running; logs {ui.log_path}, {daemon.log_path}")
            dagster = Dagster(ui, daemon, instance, timeout)
            if prepared:
                results = [prepared]
                problems = [f"flow: {prepared.failed} partition(s) failed"] \
                    if prepared.failed else []
                before = table_rows(warehouse, keys, data)
            else:
                result, problems = flow_by_sensors(dagster, keys)
                results = [result]
                before = table_rows(warehouse, keys, data)
                problems += exactness_problems(before, {}, combos)
            phases = [lambda: fault_phase(dagster, keys, launched)] if kill_in_first_backfill \
                else [lambda: backfill_phase(dagster, keys, launched),
                      lambda: fault_phase(dagster, keys[:kill_partitions])]
            for phase in phases:
                result, found = phase()
                results.append(result)
                dagster.quiet()  # the roll-ups automation requests after the phase write too
                rows = table_rows(warehouse, keys, data)
                problems += found + exactness_problems(rows, before, combos)
                before = rows  # what the next phase must leave as it is (or rewrite exactly)
            ui.terminate()  # both shut down at once; the with blocks wait for them
    say(f"tables: {sum(r.retrieval_runs for r in rows.values())} retrieval_runs rows over "
        f"{len(rows)} partitions ({sum(r.questions for r in rows.values())} questions × "
        f"{combos} combinations), {sum(r.metrics for r in rows.values())} retrieval_metrics "
        "rows")
    if problems:
        raise AssertionError("backfill check failed:\n" + "\n".join(problems))
    return results


def fleet_parser(prog: str, description: str) -> argparse.ArgumentParser:
    """The options of every harness over a fleet of reports (:func:`build_reports`): the fleet,
    its size and a work folder to keep."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    parser.add_argument("--fleet", choices=("samples", "notes"), default="samples",
                        help="samples: the sample corpus' PDFs, TEI paper and text notes; "
                        "notes: small text notes only (the slow test's quick fleet)")
    parser.add_argument("--partitions", type=int, default=12,
                        help="at least this many partitions (default 12)")
    return parser


def work_folder(parser: argparse.ArgumentParser, keep: Path | None, prefix: str) -> Path:
    """``--keep``'s folder, which must be empty (a harness starts from nothing), or a new
    temporary one."""
    work = keep or Path(tempfile.mkdtemp(prefix=prefix))
    if keep and any(work.iterdir() if work.exists() else []):
        parser.error(f"{work} is not empty")
    return work


def main(argv: list[str] | None = None) -> int:
    parser = fleet_parser("python -m harness.backfill_check", __doc__.split("\n\n")[0])
    parser.add_argument("--flow", choices=("sensors", "in-process"), default="sensors",
                        help="how the partitions are first materialized: by the daemon's "
                        "sensors (default) or in this process, sensors then turned off")
    parser.add_argument("--kill-partitions", type=int,
                        help="the fault phase's backfill over only the first N partitions")
    parser.add_argument("--concurrent-runs", type=int, default=2)
    args = parser.parse_args(argv)
    work = work_folder(parser, args.keep, "backfill-check-")
    try:
        results = check(work, fleet=args.fleet, partitions=args.partitions, flow=args.flow,
                        kill_partitions=args.kill_partitions,
                        concurrent_runs=args.concurrent_runs)
    except Exception as err:  # noqa: BLE001 - every failure says where its work folder is
        say(f"FAILED: {err}")
        say(f"work folder kept: {work}")
        return 1
    for r in results:
        say(f"{r.phase}: {r.partitions} partitions, {r.runs} runs, {r.succeeded} succeeded, "
            f"{r.failed} failed, {r.seconds:.0f} s{'; ' + r.note if r.note else ''}")
    say("OK: every run succeeded or was re-executed from failure, tables exact")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
