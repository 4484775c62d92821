"""``make scale-check``: the scale profile (deploy/scale/) running for real on loopback, a Celery
worker's process killed under a step, and every table exact after, beside the same backfills on
the embedded defaults.

1. **services**: PostgreSQL and Redis on 127.0.0.1 (``harness/servers.py``): one Postgres
   database for the instance, one for the warehouse; Redis as Celery's broker (db 0) and
   results backend (db 1).
2. **scale profile**: a fresh DAGSTER_HOME from ``deploy/scale/dagster.yaml`` (Postgres
   storage, three runs at once, run retries), ``RAG_ASSETS_EXECUTOR=celery``,
   ``RAG_ASSETS_WAREHOUSE=<the Postgres URL>``; two Celery workers (``dagster-celery worker
   start``, one pool process each), the webserver and the daemon, the sensors off. An **ingest
   backfill** (the ingest and index groups) over N partitions, then the **evaluation backfill**
   (``retrieval_runs``, ``retrieval_metrics``, ``audit_report``, as ``make backfill-check``'s)
   during which the process of a Celery worker executing a step is SIGKILLed: Celery reports
   the step's task lost (``WorkerLostError``), the run fails, and the daemon's run retry
   re-executes it from failure. Checked: every run succeeded or was retried to success, at least
   three ran at once, each step's run log names the Celery worker that ran it and both workers
   ran steps, and the tables are exact (``backfill_check.exactness_problems``: one
   ``retrieval_runs`` row per answerable question × combination, no duplicate key, every other
   table as the ingest left it).
3. **embedded defaults** (unless ``--no-compare``): the same two backfills on a fresh
   DAGSTER_HOME from ``deploy/dagster.yaml`` (SQLite, one run at a time, in-process steps, the
   DuckDB file), timed; its tables must hold the same rows as the Postgres warehouse, partition
   by partition and table by table.

Run ``python -m harness.scale_check [--keep DIR]``; the slow test runs the same code on
a few text notes. Without PostgreSQL or Redis installed (``make services`` installs them as
root), it says so in one line and exits 0 (skipped) without ``--require-services``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import dagster as dg
import yaml

from harness.backfill_check import (
    BACKFILLED,
    LAUNCH_BACKFILL,
    PREPARED,
    Dagster,
    PartitionRows,
    PhaseResult,
    backfill_done,
    backfill_runs,
    build_reports,
    exactness_problems,
    fleet_parser,
    flow_in_process,
    summarize_runs,
    table_rows,
    work_folder,
)
from harness.celery_workers import ActiveTask, CeleryWorker, active_tasks
from harness.local_dagster import REPO, LocalDagster
from rag_assets.core.evaluation.runs import CHUNK_KINDS, SETTINGS
from rag_assets.core.retrieval.retriever import STRATEGIES
from rag_assets.defs.partitions import register_partitions
from rag_assets.runtime.launcher import SETTING as PRELOADED_SETTING

SCALE_CONFIG = REPO / "deploy" / "scale" / "dagster.yaml"
WORKERS = ("scale-a", "scale-b")
CELERY_WORKER_KEY = "Celery worker"  # dagster-celery's metadata key on "Executing steps ..."
PARENT_RUN_TAG = "dagster/parent_run_id"
Profile = Literal["scale", "embedded"]
Ingest = Literal["backfill", "in-process"]


def say(message: str) -> None:
    print(f"[scale-check] {message}", flush=True)


@dataclass
class ProfileResult:
    """What one profile did: its phases, its tables, how many runs ran at once at most, the
    steps each Celery worker ran, the killed step and its run's retry."""

    profile: Profile
    phases: list[PhaseResult]
    rows: dict[str, PartitionRows]
    peak_runs: int
    steps_by_worker: dict[str, int] = field(default_factory=dict)
    killed: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return sum(p.seconds for p in self.phases)


@contextlib.contextmanager
def environment(values: dict[str, str]) -> Iterator[None]:
    """``values`` in this process's environment for the block (the instance this process
    opens reads its Postgres URL there), restored after."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def instance_url(url: str) -> str:
    """``url`` with the driver dagster-postgres is built on named: SQLAlchemy 2.1 gives a bare
    ``postgresql://`` to psycopg 3, with which the webserver's sensor query failed here ("the
    connection is closed", dagster-postgres 0.29.27)."""
    return url.replace("postgresql://", "postgresql+psycopg2://", 1)


def write_scale_config(home: Path, monitor_every: int | None = None,
                       free_slots_after: int | None = None) -> None:
    """deploy/scale/dagster.yaml into ``home``; run monitoring every ``monitor_every`` s and a
    failed run's slots freed ``free_slots_after`` s after it ended, when given (the slow test's
    quicker rounds)."""
    config = yaml.safe_load(SCALE_CONFIG.read_text(encoding="utf-8"))
    if monitor_every is not None:
        config["run_monitoring"]["poll_interval_seconds"] = monitor_every
    if free_slots_after is not None:
        config["run_monitoring"]["free_slots_after_run_end_seconds"] = free_slots_after
    home.mkdir(parents=True, exist_ok=True)
    (home / "dagster.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")


def ingest_assets() -> list[str]:
    """The assets of the ingest and index groups (what ``ingest_job`` materializes)."""
    from rag_assets.definitions import defs

    graph = defs.resolve_asset_graph()
    return sorted(k.to_user_string() for k in PREPARED.resolve(graph))


def launch(ui: LocalDagster, keys: list[str], assets: Sequence[str], title: str) -> str:
    """The backfill the UI's Materialize > partitions sends, of ``assets`` over ``keys``."""
    reply = ui.graphql(LAUNCH_BACKFILL, {"params": {
        "partitionNames": keys, "assetSelection": [{"path": [a]} for a in assets],
        "title": title}})["launchPartitionBackfill"]
    if reply["__typename"] != "LaunchBackfillSuccess":
        raise RuntimeError(f"backfill not launched: {reply}")
    return str(reply["backfillId"])


def peak_concurrency(instance: dg.DagsterInstance, backfill_ids: Sequence[str]) -> int:
    """The most runs of these backfills that were executing at the same moment (from the
    runs' recorded start and end)."""
    edges: list[tuple[float, int]] = []
    for backfill_id in backfill_ids:
        for record in instance.get_run_records(
                dg.RunsFilter(tags={"dagster/backfill": backfill_id})):
            if record.start_time is not None and record.end_time is not None:
                edges += [(record.start_time, 1), (record.end_time, -1)]
    peak = running = 0
    for _, step in sorted(edges, key=lambda e: (e[0], e[1])):  # an end before a start
        running += step
        peak = max(peak, running)
    return peak


def steps_by_worker(instance: dg.DagsterInstance,
                    runs: Sequence[dg.DagsterRun]) -> tuple[Counter[str], list[str]]:
    """The steps of ``runs`` per Celery worker as their run logs name it (``celery_steps``),
    and the steps that started with no worker named."""
    workers: Counter[str] = Counter()
    unnamed = []
    for run in runs:
        named = celery_steps(instance, run.run_id)
        workers.update(worker for _, worker in named)
        for entry in instance.all_logs(run.run_id, of_type=dg.DagsterEventType.STEP_START):
            if entry.step_key not in {step for step, _ in named}:
                unnamed.append(f"{run.run_id[:8]}:{entry.step_key}")
    return workers, unnamed


@dataclass
class Killed:
    """The SIGKILLed task's worker and process, the run it failed and the step it ran."""

    task: ActiveTask
    run: dg.DagsterRun
    step: str


def kill_a_step(dagster: Dagster, broker: str, backfill_id: str, keys: list[str],
                assets: Sequence[str], mid: float = 0.5) -> Killed | None:
    """SIGKILL the Celery pool process executing a step (every run is the backfill's: the
    sensors are off) once the step has begun (its "Executing steps" event is in the run log:
    a pool process may first spend seconds loading the code) and the task has run ``mid``
    seconds; the run that failed of it and the step its worker was running; None when the
    backfill ended first."""

    def running_step(node: str) -> str | None:
        for run in backfill_runs(dagster.instance, backfill_id):
            if run.status == dg.DagsterRunStatus.STARTED:
                step = open_step(dagster.instance, run.run_id, node)
                if step is not None:
                    return step
        return None

    def kill() -> tuple[ActiveTask, str] | bool:
        for task in active_tasks(broker):
            step = running_step(task.node) if task.seconds >= mid else None
            if step is not None:
                try:
                    os.kill(task.worker_pid, signal.SIGKILL)
                except ProcessLookupError:
                    continue
                return task, step
        return backfill_done(dagster.instance, backfill_id, keys, assets)  # nothing left

    killed = dagster.wait_for("a step to kill", kill, every=0.2)
    if not isinstance(killed, tuple):
        return None
    task, step = killed

    def failed() -> dg.DagsterRun | None:
        return next((r for r in backfill_runs(dagster.instance, backfill_id)
                     if r.status == dg.DagsterRunStatus.FAILURE), None)

    run: dg.DagsterRun = dagster.wait_for("the killed step's run to fail", failed)  # type: ignore[assignment]
    return Killed(task=task, run=run, step=step)


def open_step(instance: dg.DagsterInstance, run_id: str, node: str) -> str | None:
    """The step of the run that Celery worker ``node`` began and that has not ended, if any."""
    ended = {e.step_key for e in instance.all_logs(run_id)
             if e.dagster_event is not None and e.dagster_event.event_type in
             (dg.DagsterEventType.STEP_SUCCESS, dg.DagsterEventType.STEP_FAILURE)}
    begun = [step for step, worker in celery_steps(instance, run_id)
             if worker == node and step not in ended]
    return begun[-1] if begun else None


def celery_steps(instance: dg.DagsterInstance, run_id: str) -> list[tuple[str, str]]:
    """(step, Celery worker) of each "Executing steps ... in celery worker" event of the run
    (dagster-celery's, with the worker's name in its metadata), in order."""
    out = []
    for entry in instance.all_logs(run_id, of_type=dg.DagsterEventType.ENGINE_EVENT):
        event = entry.dagster_event
        metadata = getattr(event.event_specific_data, "metadata", None) if event else None
        worker = (metadata or {}).get(CELERY_WORKER_KEY)
        if worker is not None and entry.step_key is not None:
            out.append((entry.step_key, str(getattr(worker, "value", worker))))
    return out


def failure_reason(instance: dg.DagsterInstance, run_id: str) -> str:
    """The last line of the error that failed the run (Celery's, for a lost worker)."""
    for entry in instance.all_logs(run_id, of_type=dg.DagsterEventType.RUN_FAILURE):
        error = getattr(entry.dagster_event.event_specific_data, "error", None) \
            if entry.dagster_event else None
        if error is not None:
            text = error.to_string()
            lost = [line for line in text.splitlines() if "WorkerLostError" in line]
            return (lost or [text.strip().splitlines()[-1]])[0].strip()
    return "no failure event"


def wait_for_retry(dagster: Dagster, run_id: str) -> dg.DagsterRun:
    """The killed run failed, and the daemon's retry of it (a run whose parent it is) ended."""
    dagster.wait_for("the killed run to fail", lambda: dagster.instance.get_run_by_id(
        run_id).is_finished)

    def retry() -> dg.DagsterRun | None:
        children = [r.dagster_run for r in dagster.instance.get_run_records(
            dg.RunsFilter(tags={PARENT_RUN_TAG: run_id}))]
        return next((r for r in children if r.is_finished), None)

    try:
        return dagster.wait_for("the run's retry to end", retry)  # type: ignore[return-value]
    except TimeoutError as err:  # what the daemon made of the failure, for whoever reads it
        run = dagster.instance.get_run_by_id(run_id)
        tags = {k: v for k, v in (run.tags if run else {}).items()
                if k in ("dagster/will_retry", "dagster/auto_retry_run_id",
                         "dagster/failure_reason")}
        raise TimeoutError(f"{err}; the failed run's retry tags: {tags or 'none'}") from err


def backfill_phase(dagster: Dagster, keys: list[str], assets: Sequence[str], name: str,
                   broker: str | None = None) -> tuple[PhaseResult, list[str], str]:
    """One backfill of ``assets`` over ``keys``, waited for; with ``broker``, a Celery step of
    it killed and the killed run's retry waited for. Every run must succeed, but a killed run
    whose retry succeeded."""
    started = time.monotonic()
    backfill_id = launch(dagster.ui, keys, assets, f"scale-check: {name}")
    say(f"{name}: backfill {backfill_id} of {len(assets)} assets over {len(keys)} partitions "
        "launched")
    killed, retried, note = None, None, ""
    if broker is not None:
        killed = kill_a_step(dagster, broker, backfill_id, keys, assets)
        if killed is not None:
            note = (f"SIGKILL to Celery worker {killed.task.node}'s pool process "
                    f"{killed.task.worker_pid} {killed.task.seconds:.1f} s into step "
                    f"{killed.step} of run {killed.run.run_id[:8]} "
                    f"({killed.run.tags.get('dagster/partition')})")
            say(note)
            retried = wait_for_retry(dagster, killed.run.run_id)
    dagster.wait_for(f"backfill {backfill_id}",
                     lambda: backfill_done(dagster.instance, backfill_id, keys, assets))
    runs = backfill_runs(dagster.instance, backfill_id)
    total, ok, failed = summarize_runs(runs)
    problems = []
    for run in runs:
        if run.status == dg.DagsterRunStatus.SUCCESS:
            continue
        if killed is not None and run.run_id == killed.run.run_id and retried is not None \
                and retried.status == dg.DagsterRunStatus.SUCCESS:
            continue
        problems.append(f"{name}: run {run.run_id[:8]} ({run.tags.get('dagster/partition')}) "
                        f"ended {run.status.value}")
    if broker is not None:
        if killed is None:
            problems.append(f"{name}: every step ended before one could be killed")
        elif retried is None or retried.status != dg.DagsterRunStatus.SUCCESS:
            problems.append(f"{name}: the killed run's retry did not succeed")
        else:
            note += (f"; the run failed ({failure_reason(dagster.instance, killed.run.run_id)}), "
                     f"the daemon retried it as {retried.run_id[:8]}: success")
    covered = {r.tags.get("dagster/partition") for r in runs}
    if set(keys) - covered:
        problems.append(f"{name}: partitions without a run: {sorted(set(keys) - covered)}")
    result = PhaseResult(phase=name, partitions=len(covered), runs=total, succeeded=ok,
                         failed=failed, seconds=time.monotonic() - started, note=note)
    say(f"{name}: {total} runs, {ok} succeeded, {failed} failed over {len(covered)} partitions "
        f"in {result.seconds:.0f} s")
    return result, problems, backfill_id


def run_profile(profile: Profile, work: Path, fleet: tuple[str, int], env: dict[str, str], *,
                warehouse: str | Path, broker: str | None = None, timeout: float = 1800.0,
                monitor_every: int | None = None, free_slots_after: int | None = None,
                ingest: Ingest = "backfill") -> ProfileResult:
    """The ingest backfill, then the evaluation backfill (a Celery step killed in it when
    ``broker`` is given), on a fresh DAGSTER_HOME in ``work/<profile>`` over the data folder
    ``work/<profile>/data`` of ``fleet`` (``build_reports``' fleet and count); the tables
    checked after each. ``ingest="in-process"`` (the slow test) ingests and indexes every
    partition in this process instead, into the same stores, while the services start: only
    the evaluation backfill then runs on the workers."""
    home, data = work / profile / "home", work / profile / "data"
    keys = build_reports(data, *fleet)
    if profile == "scale":
        write_scale_config(home, monitor_every, free_slots_after)
    else:
        home.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / "deploy" / "dagster.yaml", home / "dagster.yaml")
    combos = len(CHUNK_KINDS) * len(SETTINGS) * len(STRATEGIES)
    workers = [CeleryWorker(name, home, {**env, "RAG_ASSETS_DATA_DIR": str(data)})
               for name in WORKERS] if profile == "scale" else []
    with environment(env), dg.DagsterInstance.from_config(str(home)) as instance, \
            contextlib.ExitStack() as stack:
        for worker in workers:
            stack.enter_context(worker.start())
        ui = stack.enter_context(LocalDagster(home, data, mode="webserver", env=env)
                                 .start(wait=False))
        ingested = (flow_in_process(instance, data, keys, report=say) if ingest == "in-process"
                    else None)
        for worker in workers:
            worker.wait_until_ready()
        ui.wait_until_up()
        ui.stop_sensors(["report_sensor", "automation_sensor"])  # the backfills do it all
        # what the report sensor would register: the reports' partitions
        register_partitions(instance, keys)
        daemon = stack.enter_context(LocalDagster(home, data, mode="daemon", env=env))
        say(f"{profile}: webserver {ui.url}, daemon, {len(workers)} Celery workers up; logs "
            f"under {home}")
        dagster = Dagster(ui, daemon, instance, timeout)

        def raise_if_a_worker_died() -> None:
            for worker in workers:
                worker.raise_if_dead()

        original = dagster.wait_for

        def wait_for(what: str, done: Callable[[], object], every: float = 0.5) -> object:
            return original(what, lambda: (raise_if_a_worker_died(), done())[1], every)

        dagster.wait_for = wait_for  # type: ignore[method-assign]
        if ingested is None:
            ingested, problems, first = backfill_phase(dagster, keys, ingest_assets(),
                                                       f"{profile} ingest")
            backfills = [first]
        else:
            problems = [f"{profile} ingest: {ingested.failed} partition(s) failed"
                        ] if ingested.failed else []
            backfills = []
        dagster.quiet()
        before = table_rows(warehouse, keys, data)
        evaluation, found, second = backfill_phase(dagster, keys, BACKFILLED,
                                                   f"{profile} evaluation", broker)
        dagster.quiet()
        rows = table_rows(warehouse, keys, data)
        problems += found + exactness_problems(rows, before, combos)
        backfills.append(second)
        peak = peak_concurrency(instance, backfills)
        result = ProfileResult(profile=profile, phases=[ingested, evaluation], rows=rows,
                               peak_runs=peak, killed=evaluation.note, problems=problems)
        if workers:
            runs = [run for backfill in backfills for run in backfill_runs(instance, backfill)]
            for failed in [r for r in runs if r.status != dg.DagsterRunStatus.SUCCESS]:
                runs += [c.dagster_run for c in instance.get_run_records(
                    dg.RunsFilter(tags={PARENT_RUN_TAG: failed.run_id}))]
            counts, unnamed = steps_by_worker(instance, runs)
            result.steps_by_worker = dict(counts)
            if unnamed:
                problems.append(f"{len(unnamed)} step(s) with no Celery worker in their run "
                                f"log: {unnamed[:5]}")
            if len(counts) < len(workers):
                problems.append(f"steps ran on {len(counts)} of {len(workers)} workers: "
                                f"{dict(counts)}")
            if peak < 3:
                problems.append(f"at most {peak} runs ran at once, not 3")
        ui.terminate()
        daemon.terminate()
    say(f"{profile}: tables: {sum(r.retrieval_runs for r in rows.values())} retrieval_runs "
        f"rows over {len(rows)} partitions, {sum(r.metrics for r in rows.values())} "
        f"retrieval_metrics rows; at most {peak} runs at once")
    return result


def same_rows(scale: dict[str, PartitionRows], embedded: dict[str, PartitionRows]) -> list[str]:
    """Partitions whose rows differ between the two warehouses (any table)."""
    problems = []
    for key, rows in scale.items():
        other = embedded.get(key)
        if other is None or rows.model_dump() != other.model_dump():
            problems.append(f"{key}: Postgres {rows.model_dump(exclude={'partition'})} != "
                            f"DuckDB {other.model_dump(exclude={'partition'}) if other else None}")
    return problems


def check(work: Path, *, fleet: str = "samples", partitions: int = 12, compare: bool = True,
          launcher: Literal["default", "preloaded"] = "default", timeout: float = 1800.0,
          monitor_every: int | None = None, free_slots_after: int | None = None,
          ingest: Ingest = "backfill") -> list[ProfileResult]:
    """The scale profile's check in ``work`` (then the embedded defaults' with ``compare``);
    raises ``AssertionError`` with every problem found, ``ServerMissing`` without PostgreSQL
    or Redis."""
    from harness.servers import start_postgres, start_redis

    with start_postgres(work / "services") as postgres, start_redis(work / "services") as redis:
        say(f"Postgres {postgres.url}, Redis {redis.url}")
        warehouse = postgres.create_database("warehouse")
        backend = redis.url.rsplit("/", 1)[0] + "/1"
        env = {
            "DAGSTER_POSTGRES_URL": instance_url(postgres.create_database("dagster")),
            "RAG_ASSETS_WAREHOUSE": warehouse,
            "RAG_ASSETS_EXECUTOR": "celery",
            "RAG_ASSETS_CELERY_BROKER": redis.url,
            "RAG_ASSETS_CELERY_BACKEND": backend,
            PRELOADED_SETTING: "0" if launcher == "default" else "1",
        }
        results = [run_profile("scale", work, (fleet, partitions), env, warehouse=warehouse,
                               broker=redis.url, timeout=timeout, monitor_every=monitor_every,
                               free_slots_after=free_slots_after, ingest=ingest)]
    if compare:
        embedded = run_profile("embedded", work, (fleet, partitions), {}, timeout=timeout,
                               warehouse=work / "embedded" / "data" / "warehouse.duckdb")
        embedded.problems += same_rows(results[0].rows, embedded.rows)
        results.append(embedded)
    problems = [p for r in results for p in r.problems]
    if problems:
        raise AssertionError("scale check failed:\n" + "\n".join(problems))
    return results


def main(argv: list[str] | None = None) -> int:
    from harness.servers import ServerMissing

    parser = fleet_parser("python -m harness.scale_check", __doc__.split("\n\n")[0])
    parser.add_argument("--no-compare", action="store_true",
                        help="skip the same backfills on the embedded defaults")
    parser.add_argument("--launcher", choices=("default", "preloaded"), default="default",
                        help="the scale profile's run launcher: Dagster's DefaultRunLauncher "
                        f"({PRELOADED_SETTING}=0, the default) or the preloaded one")
    parser.add_argument("--require-services", action="store_true",
                        help="fail instead of skipping without PostgreSQL or Redis")
    args = parser.parse_args(argv)
    work = work_folder(parser, args.keep, "scale-check-")
    started = time.monotonic()
    try:
        results = check(work, fleet=args.fleet, partitions=args.partitions,
                        compare=not args.no_compare, launcher=args.launcher)
    except ServerMissing as err:
        say(f"SKIPPED: {err}")
        shutil.rmtree(work, ignore_errors=True)
        return 1 if args.require_services else 0
    except Exception as err:  # noqa: BLE001 - every failure says where its work folder is
        say(f"FAILED: {err}")
        say(f"work folder kept: {work}")
        return 1
    for result in results:
        for p in result.phases:
            say(f"{p.phase}: {p.partitions} partitions, {p.runs} runs, {p.succeeded} succeeded, "
                f"{p.failed} failed, {p.seconds:.0f} s{'; ' + p.note if p.note else ''}")
        if result.steps_by_worker:
            say(f"{result.profile}: steps per Celery worker (run logs): "
                + ", ".join(f"{w} {n}" for w, n in sorted(result.steps_by_worker.items())))
    scale = results[0]
    line = (f"wall time: scale profile {scale.seconds:.0f} s (Postgres, Celery, 2 workers, "
            f"{scale.peak_runs} runs at once)")
    if len(results) > 1:
        line += (f"; embedded defaults {results[1].seconds:.0f} s (SQLite, in-process, DuckDB, "
                 f"{results[1].peak_runs} run at once); tables identical")
    say(line)
    say(f"OK in {time.monotonic() - started:.0f} s: every run succeeded or was retried to "
        "success, tables exact")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
