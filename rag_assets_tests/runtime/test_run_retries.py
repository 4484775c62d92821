"""A run whose failure the daemon's event log consumer reads before the run's status is still
retried (``rag_assets.runtime.run_retries``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import dagster as dg
import pytest
from dagster._core.test_utils import create_run_for_test, instance_for_test
from dagster._daemon.auto_run_reexecution import auto_run_reexecution

from rag_assets.runtime import run_retries


@pytest.fixture
def instance() -> Iterator[dg.DagsterInstance]:
    with instance_for_test(overrides={"run_retries": {"enabled": True, "max_retries": 1}}) as inst:
        yield inst


def _failing_later(instance: dg.DagsterInstance, run: dg.DagsterRun,
                   seconds: float) -> threading.Timer:
    """The run worker's side: the run's failure reported ``seconds`` from now (its event, then
    its status and its will-retry tag, as Dagster stores them)."""
    timer = threading.Timer(seconds, instance.report_run_failed, args=(run,))
    timer.start()
    return timer


def test_a_run_read_before_its_failure_was_recorded_is_not_retried_by_dagster_alone(
        instance: dg.DagsterInstance) -> None:
    run = create_run_for_test(instance, job_name="job", status=dg.DagsterRunStatus.STARTED)
    stale = instance.get_run_by_id(run.run_id)
    assert stale is not None
    _failing_later(instance, run, 0.3).join()
    assert list(run_retries._original_filter([stale], instance)) == []


def test_the_patched_filter_waits_for_the_status_and_retries(
        instance: dg.DagsterInstance) -> None:
    run = create_run_for_test(instance, job_name="job", status=dg.DagsterRunStatus.STARTED)
    stale = instance.get_run_by_id(run.run_id)
    assert stale is not None and stale.status == dg.DagsterRunStatus.STARTED
    timer = _failing_later(instance, run, 0.3)
    retried = list(run_retries.filter_runs_to_should_retry([stale], instance))
    timer.join()
    assert [r.run_id for r in retried] == [run.run_id]
    assert retried[0].status == dg.DagsterRunStatus.FAILURE
    stored = instance.get_run_by_id(run.run_id)
    assert stored is not None and stored.tags.get("dagster/will_retry") == "true"


def test_a_finished_run_is_not_waited_for(instance: dg.DagsterInstance,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    naps: list[float] = []
    monkeypatch.setattr(run_retries.time, "sleep", naps.append)
    run = create_run_for_test(instance, job_name="job", status=dg.DagsterRunStatus.SUCCESS)
    assert run_retries.caught_up([run], instance, seconds=30.0) == [run]
    assert naps == []  # never re-read


def test_a_run_deleted_while_waited_for_ends_the_wait(instance: dg.DagsterInstance,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """One look finds it gone: no more re-reading of a run that will never finish."""
    naps: list[float] = []
    monkeypatch.setattr(run_retries.time, "sleep", naps.append)
    run = create_run_for_test(instance, job_name="job", status=dg.DagsterRunStatus.STARTED)
    instance.delete_run(run.run_id)
    assert run_retries.caught_up([run], instance, seconds=30.0) == [run]
    assert len(naps) == 1


def test_importing_the_launcher_installs_the_patch() -> None:
    import rag_assets.runtime.launcher  # noqa: F401 - the instance's run launcher module

    assert auto_run_reexecution.filter_runs_to_should_retry is \
        run_retries.filter_runs_to_should_retry
