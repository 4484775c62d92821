"""The instance settings of deploy/dagster.yaml and the preloaded run launcher (no timings: the run
overhead it cuts is measured by bench/pipeline_bench.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest

from rag_assets.launcher import PID_TAG, PreloadedRunLauncher, _source_files, _stamp

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def instance(tmp_path: Path):  # type: ignore[no-untyped-def]
    shutil.copy2(REPO / "deploy" / "dagster.yaml", tmp_path / "dagster.yaml")
    with dg.DagsterInstance.from_config(str(tmp_path)) as inst:
        yield inst


def test_dagster_yaml_runs_one_run_at_a_time_through_the_preloaded_launcher(instance) -> None:
    launcher = instance.run_launcher
    assert isinstance(launcher, PreloadedRunLauncher)
    assert launcher.preload_modules[0] == "rag_assets.definitions"
    assert "sentence_transformers" in launcher.preload_modules
    assert instance.get_concurrency_config().run_queue_config.max_concurrent_runs == 1
    assert instance.run_coordinator.dequeue_interval_seconds == 1
    assert launcher.supports_check_run_worker_health


def test_no_dagster_yaml_at_the_repo_root() -> None:
    """`dagster dev` starts in the repo root: a dagster.yaml there beside a different
    DAGSTER_HOME is warned about on every start, so the instance file lives under deploy/."""
    assert not (REPO / "dagster.yaml").exists()
    assert "cp deploy/dagster.yaml" in (REPO / "Makefile").read_text(encoding="utf-8")


def test_the_project_code_is_watched_for_edits() -> None:
    files = _source_files(["rag_assets.definitions", "sentence_transformers"])
    assert files and all(f.suffix == ".py" for f in files)
    assert all("-packages" not in str(f) for f in files)  # installed libraries are not watched
    assert any(f.name == "definitions.py" for f in files)
    assert _stamp(files) > 0


def test_worker_health_and_termination_follow_the_recorded_pid(instance) -> None:
    launcher = instance.run_launcher
    run = instance.create_run_for_job(dg.GraphDefinition("nothing").to_job(), run_id=None)
    assert launcher.check_run_worker_health(run).status.value == "UNKNOWN"
    assert launcher.terminate(run.run_id) is False  # no worker recorded
    # a process that is alive, then gone
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        instance.add_run_tags(run.run_id, {PID_TAG: str(child.pid)})
        run = instance.get_run_by_id(run.run_id)
        assert launcher.check_run_worker_health(run).status.value == "RUNNING"
    finally:
        child.kill()
        child.wait()
    assert launcher.check_run_worker_health(run).status.value == "FAILED"
