"""A failed run is retried even when the daemon reads its failure before the run's status.

Dagster's run retries (``run_retries`` in ``deploy/scale/dagster.yaml``) are launched by the
daemon's event log consumer: every 5 s it reads the new RUN_FAILURE events, fetches their runs
and retries those that should be, then moves its cursor past the events. The run worker stores
the RUN_FAILURE event first and sets the run's status (and its ``dagster/will_retry`` tag) in
later statements (``EventMethods.handle_new_event``). A consumer reading in between sees a run
still STARTED without the tag, ``should_retry`` says no, the cursor moves on and the run is never
retried, while the backfill waits forever for the retry its tag then promises ("retries have not
been launched"). Seen in the suite's Celery scale check on a loaded machine (2026-12-05).

The patch re-reads such runs until their status has caught up with their event (a few
milliseconds as a rule; ``CATCH_UP_SECONDS`` at most for a batch), then lets Dagster decide as
before. It is installed by importing :mod:`rag_assets.runtime.launcher`, the run launcher the
instance names. Dagster builds the launcher when the daemon first launches or monitors a run,
so a run the daemon launched is always covered; a daemon restarted while runs are in flight
is covered from its first monitoring pass (seconds), not before.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

from dagster import DagsterInstance, DagsterRun, RunsFilter
from dagster._core.storage.dagster_run import NOT_FINISHED_STATUSES
from dagster._core.storage.tags import WILL_RETRY_TAG
from dagster._daemon.auto_run_reexecution import auto_run_reexecution

# the Dagster whose private modules this file was read against (pyproject's pin): a test fails
# when the installed or the pinned Dagster differs, until someone reads the patch again
PATCHED_DAGSTER_VERSION = "1.13.27"
CATCH_UP_SECONDS = 10.0
_original_filter = auto_run_reexecution.filter_runs_to_should_retry


def caught_up(runs: Sequence[DagsterRun], instance: DagsterInstance,
              seconds: float = CATCH_UP_SECONDS) -> list[DagsterRun]:
    """``runs`` as stored once each status has left the unfinished ones (the consumer only
    hands over runs with a new RUN_FAILURE or RUN_SUCCESS event), re-read together, ``seconds``
    at most for the whole batch; a run deleted meanwhile is left as it was."""
    current = {run.run_id: run for run in runs}
    pending = [run.run_id for run in runs if _unrecorded(run)]
    deadline = time.monotonic() + seconds
    while pending and time.monotonic() < deadline:
        time.sleep(0.05)
        stored = {run.run_id: run for run in instance.get_runs(RunsFilter(run_ids=pending))}
        current.update(stored)
        pending = [run_id for run_id in pending if run_id in stored
                   and _unrecorded(stored[run_id])]
    return [current[run.run_id] for run in runs]


def _unrecorded(run: DagsterRun) -> bool:
    return run.status in NOT_FINISHED_STATUSES and WILL_RETRY_TAG not in run.tags


def filter_runs_to_should_retry(runs: Sequence[DagsterRun],
                                instance: DagsterInstance) -> Iterator[DagsterRun]:
    """Dagster's filter over the runs as stored once their status has caught up."""
    return _original_filter(caught_up(runs, instance), instance)


def install() -> None:
    """Put the filter in the consumer's module (it looks the name up there on every call)."""
    auto_run_reexecution.filter_runs_to_should_retry = filter_runs_to_should_retry  # type: ignore[assignment]
