"""Crash safety of the runs the CLI executes in its own process (``demo``, ``ingest``,
``backfill``, ``report``).

Dagster's run monitoring fails a dead run and frees its pool slots only for runs the daemon
launched; a run executed in-process by a CLI that was killed stayed STARTED and kept the only
slot of pool ``duckdb_writer``, so every later writer waited for it forever. Here:

- **The instance is opened once at a time** (``open_instance``): ``fcntl.flock`` on
  ``$DAGSTER_HOME/.rag-assets-instance.lock`` around ``DagsterInstance.get()`` and the first use
  of each storage, where SQLite's schema is created (two commands on a new DAGSTER_HOME both
  created it: ``table secondary_indexes already exists``), the dead-run sweep and the partition
  registration.
- **A CLI run records its process** (``launch_tags``: pid, the pid's start time, host).
  ``fail_dead_runs`` marks a live run of this host whose process is gone as failed (a run event
  saying which process and why, one printed line) and frees its slots. Runs without these tags
  (the daemon's) are left to run monitoring.
- **A step waiting for a pool says who holds it** and heals a dead holder: the executor's
  concurrency context reports an engine event (``NOTICE`` in its metadata, printed by the CLI's
  progress) naming the holding run, and fails a holder whose process is gone.
- **SIGINT and SIGTERM cancel the run**: ``CancellableInProcessExecutor`` is Dagster's
  in-process executor with two fixes. (1) Dagster 1.13.27's
  ``InstanceConcurrencyContext.interval_to_next_pending_claim_check`` returns
  ``min([0, *intervals])``, never above 0, so ``ActiveExecution.sleep_til_ready`` never sleeps
  and the in-process loop polls the claim at 100% CPU. (2) During a run Dagster's
  ``capture_interrupts`` turns SIGINT and SIGTERM into a flag that only the multiprocess and
  step-delegating executors look at: the in-process loop waiting for a slot never did, so the
  signal was swallowed. Here the wait sleeps until the next claim check (at most
  ``MAX_CLAIM_SLEEP`` seconds), a claim looks at the flag first, and an interrupt (there or
  inside a step) marks the run CANCELING before Dagster ends it, so it ends CANCELED; its slots
  are freed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import dagster as dg
from dagster._core.definitions.job_base import InMemoryJob
from dagster._core.errors import DagsterExecutionInterruptedError
from dagster._core.events import DagsterEvent, EngineEventData, JobFailureData, RunFailureReason
from dagster._core.execution.api import ExecuteRunWithPlanIterable
from dagster._core.execution.context_creation_job import PlanExecutionContextManager
from dagster._core.execution.execute_in_process import core_execute_in_process, merge_run_tags
from dagster._core.execution.plan.execute_plan import inner_plan_execution_iterator
from dagster._core.execution.plan.instance_concurrency_context import InstanceConcurrencyContext
from dagster._core.execution.retries import RetryMode
from dagster._core.executor.in_process import InProcessExecutor
from dagster._utils.interrupts import check_captured_interrupt, pop_captured_interrupt

from rag_assets.runtime.processes import STOP, Stopped, process_alive, process_start

# the Dagster whose private modules this file was read against (pyproject's pin): a test fails
# when the installed or the pinned Dagster differs, until someone reads the patch again
PATCHED_DAGSTER_VERSION = "1.13.27"
PID_TAG = "rag-assets/cli-pid"
PID_START_TAG = "rag-assets/cli-pid-start"
HOST_TAG = "rag-assets/cli-host"
LAUNCHER_PID_TAG = "rag-assets/run-worker-pid"  # launcher.py's (daemon-launched runs)
LOCK_NAME = ".rag-assets-instance.lock"
NOTICE = "rag_assets_notice"  # metadata key of the engine events the CLI prints as lines
MAX_CLAIM_SLEEP = 1.0  # a waiting step looks for a signal at least this often (seconds)
MAX_CLAIM_INTERVAL = 1.0  # and tries its claim again at least this often (Dagster: up to 15 s)
HOLDER_CHECK_SECONDS = 5.0  # and at the pool's holders this often (a dead one is failed)
WAIT_NOTICE_SECONDS = 2.0  # a step blocked this long says what it waits for
S = dg.DagsterRunStatus
LIVE = (S.NOT_STARTED, S.STARTING, S.STARTED, S.CANCELING)

Say = Callable[[str], None]
_CURRENT: dict[str, Any] = {}  # the run this process executes: {"instance", "run_id"}


def _print(line: str) -> None:
    print(line, flush=True)


def launch_tags() -> dict[str, str]:
    """Tags naming this process, for a run it executes in-process."""
    tags = {PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname()}
    start = process_start(os.getpid())
    if start is not None:
        tags[PID_START_TAG] = start
    return tags


@contextlib.contextmanager
def instance_lock(home: Path, say: Say | None = _print) -> Iterator[None]:
    """The instance's lock (``fcntl.flock``, released when the process dies); one line when
    another command holds it."""
    path = Path(home) / LOCK_NAME
    with path.open("a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip()
            if say is not None:
                say(f"waiting for {path}: another rag-assets command"
                    f"{f' (pid {holder})' if holder.isdigit() else ''} is opening the instance")
            fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _locked(instance: dg.DagsterInstance) -> contextlib.AbstractContextManager[None]:
    """The lock of the instance in ``$DAGSTER_HOME`` (none for an ephemeral one)."""
    home = os.environ.get("DAGSTER_HOME")
    if instance.is_persistent and home:
        return instance_lock(Path(home), say=None)
    return contextlib.nullcontext()


def open_instance(say: Say = _print,
                  setup: Callable[[dg.DagsterInstance], None] | None = None) -> dg.DagsterInstance:
    """The instance in ``$DAGSTER_HOME`` (created by whoever comes first), its dead CLI runs
    failed and their slots freed, then ``setup`` (e.g. registering partitions), all under the
    instance's lock. Without DAGSTER_HOME, an ephemeral instance."""
    home = os.environ.get("DAGSTER_HOME")
    if not home:
        say("DAGSTER_HOME is not set: runs go to a temporary instance the UI will not show")
        instance = dg.DagsterInstance.ephemeral()
        if setup is not None:
            setup(instance)
        return instance
    Path(home).mkdir(parents=True, exist_ok=True)
    with instance_lock(Path(home), say):
        instance = dg.DagsterInstance.get()
        # SQLite creates each storage's tables on first use: all of them here, under the lock
        instance.get_runs(limit=1)
        instance.event_log_storage.get_concurrency_keys()
        instance.get_dynamic_partitions("report")
        if instance.schedule_storage is not None:
            instance.schedule_storage.all_instigator_state()
        fail_dead_runs(instance, say)
        if setup is not None:
            setup(instance)
    return instance


def _short(run_id: str) -> str:
    return run_id[:8]


def _what(run: dg.DagsterRun) -> str:
    source = run.tags.get("rag-assets/source", run.job_name)
    partition = run.tags.get("dagster/partition", "")
    return f"{source} {partition}".strip()


def _pools(instance: dg.DagsterInstance) -> Mapping[str, Any]:
    """Pool name -> Dagster's ``ConcurrencyKeyInfo`` (claimed slots, pending steps, limit)."""
    storage = instance.event_log_storage
    if not getattr(storage, "supports_global_concurrency_limits", False):
        return {}
    return storage.get_concurrency_infos(sorted(storage.get_concurrency_keys()))


def _slots_held(instance: dg.DagsterInstance, run_id: str) -> dict[str, int]:
    held: dict[str, int] = {}
    for pool, info in _pools(instance).items():
        count = sum(1 for slot in info.claimed_slots if slot.run_id == run_id)
        if count:
            held[pool] = count
    return held


def free_slots(instance: dg.DagsterInstance, run_id: str) -> None:
    """Free every slot the run claimed and drop its pending claims."""
    storage = instance.event_log_storage
    if getattr(storage, "supports_global_concurrency_limits", False):
        storage.free_concurrency_slots_for_run(run_id)


def _process_of(run: dg.DagsterRun) -> tuple[int, str, str | None] | None:
    """(pid, host, pid start) of a CLI run, None for a run without the CLI's tags."""
    try:
        pid = int(run.tags[PID_TAG])
    except (KeyError, ValueError):
        return None
    return pid, run.tags.get(HOST_TAG, ""), run.tags.get(PID_START_TAG)


def _is_dead(run: dg.DagsterRun) -> bool:
    """A CLI run of this host whose process is gone (a run of another host cannot be told)."""
    process = _process_of(run)
    if process is None or process[1] != socket.gethostname():
        return False
    return not process_alive(process[0], process[2])


def fail_dead_runs(instance: dg.DagsterInstance, say: Say | None = _print,
                   run_ids: list[str] | None = None) -> list[str]:
    """Mark each live CLI run of this host whose process is gone as failed (CANCELING ones as
    canceled) with a run event saying why, free its pool slots, and free the slots still held
    by finished CLI runs whose process is gone. One line per run (also returned)."""
    host = socket.gethostname()
    filters = dg.RunsFilter(run_ids=run_ids, statuses=list(LIVE), tags={HOST_TAG: host})
    lines = []
    for run in ([] if run_ids == [] else instance.get_runs(filters=filters)):
        if not _is_dead(run):
            continue
        pid = _process_of(run)[0]  # type: ignore[index]
        held = _slots_held(instance, run.run_id)
        reason = f"its process {pid} on {host} is gone"
        if run.status == S.CANCELING:
            instance.report_run_canceled(run, message=f"rag-assets: {reason} (it was canceling)")
            verb = "canceled"
        else:
            instance.report_run_failed(
                run, message=f"rag-assets: {reason}: marked failed by rag-assets pid "
                f"{os.getpid()}",
                job_failure_data=JobFailureData(
                    error=None, failure_reason=RunFailureReason.UNEXPECTED_TERMINATION))
            verb = "failed"
        free_slots(instance, run.run_id)
        slots = ", ".join(f"{n} slot{'s' * (n > 1)} of pool {p}" for p, n in held.items())
        lines.append(f"{verb} run {_short(run.run_id)} ({_what(run)}, {run.status.value.lower()}"
                     f"): {reason}" + (f"; freed its {slots}" if slots else ""))
    # finished CLI runs that still hold a slot (the process died between its end and the free)
    holders = {slot.run_id for info in _pools(instance).values() for slot in info.claimed_slots}
    if run_ids is not None:
        holders &= set(run_ids)
    for run_id in sorted(holders):
        run = instance.get_run_by_id(run_id)
        if run is not None and run.is_finished and _is_dead(run):
            held = _slots_held(instance, run_id)
            free_slots(instance, run_id)
            pools = ", ".join(held)
            lines.append(f"freed the slot of pool {pools} still held by run {_short(run_id)} "
                         f"({_what(run)}, {run.status.value.lower()}): its process is gone")
    for line in lines:
        if say is not None:
            say(line)
    return lines


def describe_holder(instance: dg.DagsterInstance, run_id: str, step_key: str | None) -> str:
    """``run 1a2b3c4d (step raw_pages of cli-ingest acme|2023, started, pid 4242 running)``."""
    run = instance.get_run_by_id(run_id)
    step = f"step {step_key} of " if step_key else ""
    if run is None:
        return f"run {_short(run_id)} ({step}a run no longer recorded)"
    process = _process_of(run)
    if process is not None:
        pid, host, start = process
        if host != socket.gethostname():
            where = f"pid {pid} on {host}"
        else:
            where = f"pid {pid} {'running' if process_alive(pid, start) else 'gone'}"
    elif LAUNCHER_PID_TAG in run.tags:
        where = "launched by the daemon"
    else:
        where = "launched outside rag-assets"
    return f"run {_short(run_id)} ({step}{_what(run)}, {run.status.value.lower()}, {where})"


def _notice(instance: dg.DagsterInstance, run: dg.DagsterRun, message: str, kind: str,
            step_key: str | None = None) -> None:
    """An engine event of ``run`` that the CLI prints as a line (and the UI shows in its log)."""
    instance.report_engine_event(
        message, run, EngineEventData(metadata={NOTICE: dg.MetadataValue.text(kind)}),
        step_key=step_key)


class PatientConcurrencyContext(InstanceConcurrencyContext):
    """Dagster's instance concurrency context for the in-process executor, waiting without
    spinning, looking for SIGINT/SIGTERM at every claim, and naming (and healing) the holders of
    the pool a step waits for."""

    def __init__(self, instance: dg.DagsterInstance, dagster_run: dg.DagsterRun) -> None:
        super().__init__(instance, dagster_run)
        self._run = dagster_run
        self._said = ""  # the last wait notice's pool and holders (said once, not per step)
        self._blocked_since: dict[str, float] = {}
        self._next_look: dict[str, float] = {}

    def claim(self, concurrency_key: str, step_key: str, step_priority: int = 0) -> bool:
        if check_captured_interrupt():
            pop_captured_interrupt()
            raise DagsterExecutionInterruptedError(
                f"interrupted while {step_key} waited for a slot of pool {concurrency_key}")
        claimed = super().claim(concurrency_key, step_key, step_priority)
        if claimed:
            self._blocked_since.pop(step_key, None)
            self._next_look.pop(step_key, None)
        elif step_key in self._pending_claims:
            retry_at = time.time() + MAX_CLAIM_INTERVAL
            if self._pending_timeouts.get(step_key, retry_at) > retry_at:
                self._pending_timeouts[step_key] = retry_at
            self._blocked(concurrency_key, step_key)
        return claimed

    def interval_to_next_pending_claim_check(self) -> float:
        # Dagster returns min([0, *intervals]) (never above 0): the loop never slept
        if not self._pending_claims:
            return 0.0
        now = time.time()
        due = min((at - now for at in self._pending_timeouts.values()), default=0.0)
        return min(max(due, 0.0), MAX_CLAIM_SLEEP)

    def _blocked(self, pool: str, step_key: str) -> None:
        """At the first failed claim and every HOLDER_CHECK_SECONDS: fail the holders whose
        process is gone; once blocked WAIT_NOTICE_SECONDS, say who holds the pool (again when
        that changes)."""
        now = time.monotonic()
        since = self._blocked_since.setdefault(step_key, now)
        if now < self._next_look.get(step_key, now):
            return
        info = _pools(self._instance).get(pool)
        if info is None:
            return
        own = self._run.run_id
        holders = [s for s in info.claimed_slots if s.run_id != own]
        runs = {s.run_id: self._instance.get_run_by_id(s.run_id) for s in holders}
        dead = [run_id for run_id, run in runs.items() if run is not None and _is_dead(run)]
        if dead:
            with _locked(self._instance):  # another waiter may be failing it too
                lines = fail_dead_runs(self._instance, say=None, run_ids=dead)
            for line in lines:
                _notice(self._instance, self._run, line, "dead_holder", step_key)
            self._next_look.pop(step_key, None)  # look again at the next failed claim
            return
        if now - since < WAIT_NOTICE_SECONDS:
            self._next_look[step_key] = since + WAIT_NOTICE_SECONDS
            return
        self._next_look[step_key] = now + HOLDER_CHECK_SECONDS
        if holders:
            whom = "held by " + "; ".join(
                describe_holder(self._instance, s.run_id, s.step_key) for s in holders)
        else:  # the slot is free but another run's step came first
            ahead = sorted((p for p in info.pending_steps
                            if p.run_id != own and p.assigned_timestamp is None),
                           key=lambda p: (-(p.priority or 0), p.enqueued_timestamp))
            whom = ("queued behind " + describe_holder(self._instance, ahead[0].run_id,
                                                        ahead[0].step_key)
                    if ahead else "free again: claiming it")
        if f"{pool}: {whom}" != self._said:
            self._said = f"{pool}: {whom}"
            _notice(self._instance, self._run,
                    f"{step_key} waits for a slot of pool {pool} (limit {info.limit}): {whom}",
                    "pool_wait", step_key)


def _patient_iterator(job_context: Any, execution_plan: Any) -> Iterator[DagsterEvent]:
    with PatientConcurrencyContext(job_context.instance, job_context.dagster_run) as context:
        yield from inner_plan_execution_iterator(job_context, execution_plan, context)


def _signal_name() -> str:
    signum = STOP.received(0.5)
    return signal.Signals(signum).name if signum else "an interrupt"


class CancellableInProcessExecutor(InProcessExecutor):
    """The in-process executor, waiting for pool slots without spinning, and ending a run that
    SIGINT or SIGTERM interrupted (in a step or waiting for a slot) as CANCELED."""

    def execute(self, plan_context: Any, execution_plan: Any) -> Iterator[DagsterEvent]:
        steps = execution_plan.step_keys_to_execute
        yield DagsterEvent.engine_event(
            plan_context, f"Executing steps in process (pid: {os.getpid()})",
            event_specific_data=EngineEventData.in_process(os.getpid(), steps))
        started = time.perf_counter()
        try:
            yield from iter(ExecuteRunWithPlanIterable(
                execution_plan=plan_context.execution_plan,
                iterator=_patient_iterator,
                execution_context_manager=PlanExecutionContextManager(
                    job=plan_context.job,
                    retry_mode=plan_context.retry_mode,
                    execution_plan=plan_context.execution_plan,
                    run_config=plan_context.run_config,
                    dagster_run=plan_context.dagster_run,
                    instance=plan_context.instance,
                    raise_on_error=plan_context.raise_on_error,
                    output_capture=plan_context.output_capture,
                    step_dependency_config=self.step_dependency_config,
                ),
            ))
        except (KeyboardInterrupt, DagsterExecutionInterruptedError):
            # a stop asked for: Dagster ends a CANCELING run as CANCELED (else as failed)
            instance, run_id = plan_context.instance, plan_context.run_id
            run = instance.get_run_by_id(run_id)
            if run is not None and run.status in LIVE and run.status != S.CANCELING:
                instance.report_run_canceling(
                    run, message=f"rag-assets: stopping on {_signal_name()}")
            free_slots(instance, run_id)
            raise
        yield DagsterEvent.engine_event(
            plan_context, f"Finished steps in process (pid: {os.getpid()}) in "
            f"{time.perf_counter() - started:.2f} s",
            event_specific_data=EngineEventData.in_process(os.getpid(), steps))


@dg.executor(name="in_process")
def cancellable_in_process_executor(_init_context: Any) -> CancellableInProcessExecutor:
    """The executor of the CLI's runs (``CancellableInProcessExecutor``). Named as Dagster's
    in-process executor is: ``rag_assets/defs/index.py`` gives torch every core under it."""
    return CancellableInProcessExecutor(retries=RetryMode.ENABLED)


def execute_in_process(job_def: dg.JobDefinition, instance: dg.DagsterInstance, run_id: str,
                       run_config: Mapping[str, Any], tags: Mapping[str, str],
                       partition_key: str | None = None) -> Any:
    """``job_def.execute_in_process(..., raise_on_error=False)`` on
    ``cancellable_in_process_executor`` (``JobDefinition.execute_in_process`` is the same
    ephemeral job on Dagster's in-process executor), tagged with this process, the run
    registered as this process's current one. Raises ``Stopped`` when a stop signal came (the
    run then ended CANCELED, its slots freed)."""
    tags = {**tags, **launch_tags()}
    job = job_def.as_ephemeral_job(resource_defs={}, input_values={}).with_executor_def(
        cancellable_in_process_executor)
    _CURRENT.update(instance=instance, run_id=run_id)
    result = core_execute_in_process(
        job=InMemoryJob(job),
        run_config=run_config,
        instance=instance,
        output_capturing_enabled=True,
        raise_on_error=False,
        run_tags=merge_run_tags(job_def=job_def, partition_key=partition_key, tags=tags,
                                asset_selection=None, instance=instance,
                                run_config=run_config),
        run_id=run_id,
        asset_selection=frozenset(),
    )
    if not result.success:
        free_slots(instance, run_id)
    signum = STOP.received(1.0 if result.dagster_run.status == S.CANCELED else 0.0)
    if signum is None and result.dagster_run.status == S.CANCELED:
        signum = signal.SIGINT  # canceled from outside (the UI) or by an interrupt in a test
    if signum is not None:
        raise Stopped(signum, run_id)
    _CURRENT.clear()
    return result


def stop_current(reason: str) -> str:
    """Cancel the run this process executes, when it is still live, and free its slots; what
    became of it in a few words ('' when there is none)."""
    instance, run_id = _CURRENT.get("instance"), _CURRENT.get("run_id")
    if instance is None or run_id is None:
        return ""
    run = instance.get_run_by_id(run_id)
    if run is None:
        return ""
    if run.status in LIVE:
        instance.report_run_canceled(run, message=reason)
        status = "canceled"
    else:
        status = run.status.value.lower()
    free_slots(instance, run_id)
    _CURRENT.clear()
    return f"run {_short(run_id)} ({_what(run)}) {status}, its pool slots freed"
