"""The instance settings of deploy/dagster.yaml and the preloaded run launcher (no timings: the run
overhead it cuts is measured by bench/pipeline_bench.py), and its way back to Dagster's default
launcher (turned off by its setting, or Dagster's private run API gone)."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest
import yaml
from dagster._core.storage.tags import GRPC_INFO_TAG
from dagster._core.test_utils import create_run_for_test
from dagster._core.workspace.context import WorkspaceProcessContext
from dagster._core.workspace.load_target import PythonFileTarget

from rag_assets.runtime.launcher import (
    PID_TAG,
    SETTING,
    PreloadedRunLauncher,
    _source_files,
    _stamp,
)

REPO = Path(__file__).resolve().parents[2]


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
    assert "lancedb" in launcher.preload_modules  # the definitions no longer import it
    assert instance.get_concurrency_config().run_queue_config.max_concurrent_runs == 1
    assert instance.run_coordinator.dequeue_interval_seconds == 1
    assert launcher.supports_check_run_worker_health


def test_dagster_yaml_prints_a_run_at_info_and_stores_every_event(instance, capfd) -> None:
    """A run without loggers in its config (every run the sensors and the UI launch) prints its
    INFO messages on the terminal, not Dagster's DEBUG events; its event log keeps them all."""

    @dg.asset
    def noted(context) -> int:  # unannotated: Dagster reads the annotation as a string here
        context.log.info("noted on the terminal")
        return 1

    result = dg.materialize([noted], instance=instance)
    err = capfd.readouterr().err
    assert "noted on the terminal" in err
    assert " - DEBUG - " not in err
    stored = {e.dagster_event.event_type_value for e in instance.all_logs(result.run_id)
              if e.dagster_event is not None}
    assert {"STEP_START", "STEP_OUTPUT", "ASSET_MATERIALIZATION", "STEP_SUCCESS"} <= stored


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


TINY_JOB = """
import dagster as dg

@dg.op
def hello() -> int:
    return 1

@dg.job
def tiny():
    hello()
"""


def launch_tiny_run(instance: dg.DagsterInstance, folder: Path) -> dg.DagsterRun:
    """A one-op job's run launched as the daemon launches one (through the instance's run
    launcher, with a code server), waited for."""
    (folder / "tiny.py").write_text(TINY_JOB, encoding="utf-8")
    target = PythonFileTarget(str(folder / "tiny.py"), None, str(folder), "tiny")
    with WorkspaceProcessContext(instance, target) as context:
        workspace = context.create_request_context()
        location = workspace.get_code_location("tiny")
        (repository,) = location.get_repositories().values()
        job = repository.get_full_job("tiny")
        run = create_run_for_test(instance, job_name="tiny",
                                  remote_job_origin=job.get_remote_origin(),
                                  job_code_origin=job.get_python_origin())
        instance.launch_run(run.run_id, workspace)
        deadline = time.monotonic() + 60
        while not (current := instance.get_run_by_id(run.run_id)) or not current.is_finished:
            assert time.monotonic() < deadline, f"run still {current and current.status}"
            time.sleep(0.2)
    return current


@pytest.mark.parametrize("cause", ["setting", "private api gone"])
def test_runs_go_through_dagsters_default_launcher_when_preloading_is_off_or_impossible(
        cause: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    if cause == "setting":
        monkeypatch.setenv(SETTING, "0")
    else:  # a Dagster that moved it: the import fails by name, as it would
        import dagster._grpc.impl

        monkeypatch.delenv(SETTING, raising=False)
        monkeypatch.delattr(dagster._grpc.impl, "_run_in_subprocess")
    shutil.copy2(REPO / "deploy" / "dagster.yaml", tmp_path / "dagster.yaml")
    with caplog.at_level(logging.INFO, logger="rag_assets.runtime.launcher"), \
            dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        launcher = instance.run_launcher
        assert isinstance(launcher, PreloadedRunLauncher)
        lines = [r for r in caplog.records if r.name == "rag_assets.runtime.launcher"]
        assert len(lines) == 1, [r.getMessage() for r in lines]
        if cause == "setting":
            assert lines[0].levelno == logging.INFO
            assert f"{SETTING} is off" in lines[0].getMessage()
        else:
            assert lines[0].levelno == logging.WARNING
            assert "_run_in_subprocess" in lines[0].getMessage()
        assert "DefaultRunLauncher" in lines[0].getMessage()
        assert not launcher.supports_check_run_worker_health
        run = launch_tiny_run(instance, tmp_path)
        assert run.status == dg.DagsterRunStatus.SUCCESS
        assert GRPC_INFO_TAG in run.tags  # started by the code server: the default launcher
        assert PID_TAG not in run.tags  # not forked by the preloaded launcher
        assert len([r for r in caplog.records if r.name == "rag_assets.runtime.launcher"]) == 1


def test_the_preloaded_launcher_is_on_without_the_setting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """deploy/dagster.yaml's launcher, preloading only Dagster (the repo's modules take ~10 s
    to import, and the launch path is the same)."""
    monkeypatch.delenv(SETTING, raising=False)
    config = yaml.safe_load((REPO / "deploy" / "dagster.yaml").read_text(encoding="utf-8"))
    config["run_launcher"]["config"]["preload_modules"] = ["dagster"]
    (tmp_path / "dagster.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        launcher = instance.run_launcher
        assert isinstance(launcher, PreloadedRunLauncher)
        assert launcher.default_reason is None and launcher.supports_check_run_worker_health
        run = launch_tiny_run(instance, tmp_path)
        assert run.status == dg.DagsterRunStatus.SUCCESS
        assert PID_TAG in run.tags and GRPC_INFO_TAG not in run.tags
