"""A run launcher whose runs start warm: each run in a process of its own, forked from a server
process that imported the code location (and torch, sentence-transformers) once.

Dagster's ``DefaultRunLauncher`` asks the code server to *spawn* a fresh interpreter per run,
which imports Dagster, pandas, LanceDB, the project and, in a step that embeds, torch and
sentence-transformers again: 10-15 s before a small run does any work on a 2-core machine
(``bench/pipeline_bench.py`` measures it). This launcher starts the run worker from a
``multiprocessing`` forkserver whose preloaded modules are already imported, so a run starts in
milliseconds; each run is still its own process (a crash or an OOM kill ends that run only), and
the run itself executes exactly as under the default launcher (the same Dagster run worker code,
with the job's own executor).

The forkserver belongs to the process that launches runs (the daemon). When a preloaded module of
the working tree changes on disk, the next launch starts a new forkserver, so edited code is never
run stale. Termination sends the run worker SIGINT, which Dagster turns into a clean cancel.

The forked run worker calls Dagster's private ``dagster._grpc.impl._run_in_subprocess`` (what the
code server's run subprocess runs). ``RAG_ASSETS_PRELOADED_LAUNCHER=0`` (read where the launcher is
built: the daemon, the webserver) turns this launcher into Dagster's ``DefaultRunLauncher``, and so
does a Dagster whose private API moved: then one warning says why and every run is launched,
terminated and watched by the default launcher (a run spawned by the code server, no preloading).

Configured in ``deploy/dagster.yaml`` (copied to ``$DAGSTER_HOME`` by make)::

    run_launcher:
      module: rag_assets.runtime.launcher
      class: PreloadedRunLauncher
      config:
        preload_modules: [rag_assets.definitions, sentence_transformers, great_expectations,
                          lancedb]
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Self

from dagster import Array, DagsterInstance, Field
from dagster._core.launcher import (
    CheckRunHealthResult,
    DefaultRunLauncher,
    LaunchRunContext,
    RunLauncher,
    WorkerStatus,
)
from dagster._serdes import ConfigurableClass, ConfigurableClassData

from rag_assets.runtime import run_retries

# the Dagster whose private modules this file was read against (pyproject's pin): a test fails
# when the installed or the pinned Dagster differs, until someone reads the patch again
PATCHED_DAGSTER_VERSION = "1.13.27"
PID_TAG = "rag-assets/run-worker-pid"
DEFAULT_PRELOAD = ("rag_assets.definitions",)
SETTING = "RAG_ASSETS_PRELOADED_LAUNCHER"  # 0 / false / off: Dagster's DefaultRunLauncher
_LOCK = threading.Lock()
log = logging.getLogger(__name__)
# the process that builds this launcher (the daemon) retries a run whose failure its event log
# consumer read before the run's status (rag_assets/runtime/run_retries.py)
run_retries.install()


def private_api_problem() -> str | None:
    """Why the Dagster internals the forked run worker calls cannot be imported (a Dagster
    that moved them), or None when they all import."""
    try:
        from dagster._grpc.impl import _run_in_subprocess  # noqa: F401
        from dagster._grpc.types import ExecuteExternalJobArgs  # noqa: F401
        from dagster._utils.hosted_user_process import recon_job_from_origin  # noqa: F401
        from dagster._utils.interrupts import capture_interrupts  # noqa: F401
    except ImportError as err:
        return f"{type(err).__name__}: {err}"
    return None


def _source_files(modules: Sequence[str]) -> list[Path]:
    """The ``.py`` files of the preloaded modules' packages that live outside site-packages
    (the project's own code: what a developer edits)."""
    import importlib.util

    files: list[Path] = []
    for name in modules:
        try:
            spec = importlib.util.find_spec(name.split(".")[0])
        except (ImportError, ValueError):
            continue
        if spec is None or spec.origin is None or "-packages" in spec.origin:
            continue
        root = Path(spec.origin).parent if spec.submodule_search_locations else Path(spec.origin)
        files += sorted(root.rglob("*.py")) if root.is_dir() else [root]
    return files


def _stamp(files: Sequence[Path]) -> float:
    stamps = [f.stat().st_mtime for f in files if f.exists()]
    return max(stamps, default=0.0)


def _run_worker(serialized_args: str, serialized_origin: str) -> None:
    """The run worker: what the code server's run subprocess does, in a forked process. A
    failure before the run starts (its code cannot load) fails the run with the reason."""
    from dagster._grpc.impl import _run_in_subprocess
    from dagster._grpc.types import ExecuteExternalJobArgs
    from dagster._serdes import deserialize_value
    from dagster._utils.error import serializable_error_info_from_exc_info
    from dagster._utils.hosted_user_process import recon_job_from_origin
    from dagster._utils.interrupts import capture_interrupts

    problems: list[str] = []

    def status(message: object) -> None:
        info = getattr(message, "serializable_error_info", None)
        if info is not None:
            problems.append(info.to_string())

    try:
        recon_job = recon_job_from_origin(deserialize_value(serialized_origin))
    except Exception:  # noqa: BLE001 - reported on the run below
        problems.append(serializable_error_info_from_exc_info(sys.exc_info()).to_string())
    else:
        with capture_interrupts():
            _run_in_subprocess(
                serialized_args,
                recon_job,
                # termination comes as SIGINT (see terminate). The event never leaves this
                # process, so its semaphores are unnamed ("fork" context): in the forkserver's
                # context each would be named and registered with the resource tracker, which
                # reports it as "leaked" when `make ui` is stopped with Ctrl-C
                multiprocessing.get_context("fork").Event(),
                subprocess_status_handler=status,
                run_event_handler=lambda _: None,
            )
    if problems:
        args = deserialize_value(serialized_args, ExecuteExternalJobArgs)
        with DagsterInstance.from_ref(args.instance_ref) as instance:  # type: ignore[arg-type]
            run = instance.get_run_by_id(args.run_id)
            if run is not None and not run.is_finished:
                instance.report_run_failed(run, "run worker could not start: " + problems[0])


class PreloadedRunLauncher(RunLauncher, ConfigurableClass):
    """Launches each run in its own process, forked from a forkserver with the code preloaded;
    Dagster's ``DefaultRunLauncher`` does every launch instead when the setting
    (``RAG_ASSETS_PRELOADED_LAUNCHER``) turns it off or Dagster's private run API is gone
    (``default_reason`` says which)."""

    def __init__(
        self,
        inst_data: ConfigurableClassData | None = None,
        preload_modules: Sequence[str] = DEFAULT_PRELOAD,
    ) -> None:
        self._inst_data = inst_data
        self.preload_modules = list(dict.fromkeys([*preload_modules, __name__]))
        self._files: list[Path] | None = None
        self._stamp: float | None = None
        self._context: Any = None
        self.default_reason: str | None = None
        self._default: DefaultRunLauncher | None = None
        from rag_assets.core.settings import Settings

        if not Settings().runtime.preloaded_launcher:
            self.default_reason = f"{SETTING} is off"
            log.info("PreloadedRunLauncher off (%s): runs start through Dagster's "
                     "DefaultRunLauncher", self.default_reason)
        elif (problem := private_api_problem()) is not None:
            self.default_reason = problem
            log.warning("PreloadedRunLauncher cannot fork run workers (Dagster's private run API "
                        "moved: %s): runs start through Dagster's DefaultRunLauncher instead",
                        problem)
        if self.default_reason is not None:
            self._default = DefaultRunLauncher()
        super().__init__()

    def register_instance(self, instance: DagsterInstance) -> None:
        super().register_instance(instance)
        if self._default is not None:
            self._default.register_instance(instance)

    @property
    def inst_data(self) -> ConfigurableClassData | None:
        return self._inst_data

    @classmethod
    def config_type(cls) -> dict[str, Field]:
        return {
            "preload_modules": Field(
                Array(str), is_required=False, default_value=list(DEFAULT_PRELOAD),
                description="modules the forkserver imports once (the code location, torch...)",
            )
        }

    @classmethod
    def from_config_value(
        cls, inst_data: ConfigurableClassData, config_value: Mapping[str, Any]
    ) -> Self:
        return cls(inst_data=inst_data, **config_value)

    # -- the forkserver ---------------------------------------------------------------------
    def _mp_context(self) -> Any:
        """The forkserver context; a new forkserver when the project's code changed on disk."""
        with _LOCK:
            if self._files is None:
                self._files = _source_files(self.preload_modules)
            stamp = _stamp(self._files)
            if self._context is not None and stamp != self._stamp:
                from multiprocessing import forkserver

                server = getattr(forkserver, "_forkserver", None)
                if server is not None and hasattr(server, "_stop"):
                    server._stop()  # the next start imports the edited code
                self._context = None
            if self._context is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(self.preload_modules)
                self._context, self._stamp = context, stamp
            return self._context

    # -- RunLauncher ------------------------------------------------------------------------
    def launch_run(self, context: LaunchRunContext) -> None:
        if self._default is not None:
            return self._default.launch_run(context)
        from dagster._grpc.types import ExecuteExternalJobArgs
        from dagster._serdes import serialize_value

        run = context.dagster_run
        origin = context.job_code_origin
        if origin is None:
            raise ValueError(f"run {run.run_id} has no code origin to execute")
        args = serialize_value(
            ExecuteExternalJobArgs(
                job_origin=run.remote_job_origin,  # type: ignore[arg-type]
                run_id=run.run_id,
                instance_ref=self._instance.get_ref(),
            )
        )
        try:
            process = self._mp_context().Process(
                target=_run_worker, args=(args, serialize_value(origin)), daemon=False,
                name=f"dagster-run-{run.run_id[:8]}",
            )
            process.start()
        except Exception:  # noqa: BLE001 - a forkserver that cannot start: a spawned process
            process = multiprocessing.get_context("spawn").Process(
                target=_run_worker, args=(args, serialize_value(origin)), daemon=False,
            )
            process.start()
        self._instance.add_run_tags(run.run_id, {PID_TAG: str(process.pid)})

    def _pid(self, run_id: str) -> int | None:
        run = self._instance.get_run_by_id(run_id)
        value = run.tags.get(PID_TAG) if run else None
        return int(value) if value and value.isdigit() else None

    def terminate(self, run_id: str) -> bool:
        if self._default is not None:
            return bool(self._default.terminate(run_id))  # type: ignore[no-untyped-call]
        run = self._instance.get_run_by_id(run_id)
        pid = self._pid(run_id)
        if not run or run.is_finished or pid is None:
            return False
        self._instance.report_run_canceling(run)
        try:
            os.kill(pid, signal.SIGINT)  # Dagster's run worker cancels the run cleanly
        except ProcessLookupError:
            return False
        return True

    @property
    def supports_check_run_worker_health(self) -> bool:
        return self._default is None  # the default launcher cannot tell (Dagster's own answer)

    def check_run_worker_health(self, run: Any) -> CheckRunHealthResult:
        if self._default is not None:
            return self._default.check_run_worker_health(run)
        pid = self._pid(run.run_id)
        if pid is None:
            return CheckRunHealthResult(WorkerStatus.UNKNOWN, "no run worker pid recorded")
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return CheckRunHealthResult(
                WorkerStatus.FAILED, f"run worker process {pid} is gone", run_worker_id=str(pid)
            )
        except PermissionError:
            pass  # exists, owned by someone else
        return CheckRunHealthResult(WorkerStatus.RUNNING, run_worker_id=str(pid))

    def join(self, timeout: int = 30) -> None:
        if self._default is not None:
            self._default.join(timeout)  # type: ignore[no-untyped-call]

    def dispose(self) -> None:
        if self._default is not None:
            self._default.dispose()


if __name__ == "__main__":  # pragma: no cover
    sys.exit("rag_assets.runtime.launcher is configured in deploy/dagster.yaml, not run")
