"""Celery workers of the scale profile, started and stopped by a script or test.

A worker is what deploy/scale/README.md starts by hand: ``dagster-celery worker start -A
dagster_celery.app -y deploy/scale/celery.yaml -n NAME -- --concurrency=1`` on a DAGSTER_HOME
(dagster-celery writes the broker and backend of ``celery.yaml`` into a config module under
``$DAGSTER_HOME/dagster_celery/config/`` and runs ``celery worker`` with it on PYTHONPATH). Each
task it takes is one step of a run, executed in the worker's pool process with the run's
instance, so the worker needs the environment of every other process: the instance's Postgres
URL, the warehouse, the data folder.

``CeleryWorker`` starts one in a process group of its own (logging to ``<home>/<name>.log``),
waits until Celery says it is ready, and stops the whole group on exit. ``active_tasks`` asks
the workers, through the broker, which tasks (steps) they are executing and in which process
(Celery's ``inspect().active()``): what ``make scale-check`` SIGKILLs.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from rag_assets.runtime.processes import (
    EXEC_WITH_DEFAULT_SIGNALS,
    exit_message,
    log_tail,
    stop_group,
)

REPO = Path(__file__).resolve().parents[1]
WORKER_CONFIG = REPO / "deploy" / "scale" / "celery.yaml"


class WorkerError(RuntimeError):
    """A Celery worker that did not start or died; ``str()`` says why in one line, then its
    log's tail."""


class CeleryWorker:
    """One ``dagster-celery`` worker of ``concurrency`` pool processes, named ``name@host``."""

    def __init__(self, name: str, home: Path, env: dict[str, str], concurrency: int = 1) -> None:
        self.name, self.home, self.concurrency = name, Path(home), concurrency
        self.node = f"{name}@{socket.gethostname()}"  # Celery's %h: what the run logs name
        self.log_path = self.home / f"celery-{name}.log"
        self.extra_env = env
        self.process: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        bin_dir = Path(sys.executable).parent
        return [str(bin_dir / "dagster-celery"), "worker", "start", "-A", "dagster_celery.app",
                "-y", str(WORKER_CONFIG), "-n", self.name, "--loglevel", "INFO", "--",
                f"--concurrency={self.concurrency}", "--without-gossip", "--without-mingle"]

    def environment(self) -> dict[str, str]:
        """This process's environment, the venv's ``bin`` first on PATH (dagster-celery runs
        ``celery`` from PATH), and the profile's settings."""
        bin_dir = str(Path(sys.executable).parent)
        return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
                "DAGSTER_HOME": str(self.home), **self.extra_env}

    def start(self) -> Self:
        """Start the worker; returns at once (``wait_until_ready`` waits)."""
        self.home.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own venv's dagster-celery
                [sys.executable, *EXEC_WITH_DEFAULT_SIGNALS, *self.command()], cwd=REPO,
                env=self.environment(), stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    def ready(self) -> bool:
        """Celery logged ``<node> ready.``; a ``WorkerError`` when the worker died."""
        self.raise_if_dead()
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return False
        return f"{self.node} ready." in text

    def wait_until_ready(self, timeout: float = 120.0) -> Self:
        deadline = time.monotonic() + timeout
        while not self.ready():
            if time.monotonic() > deadline:
                self.stop()
                raise WorkerError(f"Celery worker {self.node} not ready in {timeout:.0f} s "
                                  f"(log {self.log_path}):\n{log_tail(self.log_path)}")
            time.sleep(0.25)
        return self

    def raise_if_dead(self) -> None:
        if message := exit_message(self.process, f"Celery worker {self.node}", self.log_path):
            self.stop()
            raise WorkerError(message)

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM to the worker's group (Celery's warm shutdown: the running task ends
        first), SIGKILL to what is left after ``timeout``."""
        if self.process is not None:
            stop_group(self.process, timeout)

    def __enter__(self) -> Self:
        return self if self.process is not None else self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


@dataclass(frozen=True)
class ActiveTask:
    """A task (one step of a run) a worker is executing: the worker, its pool process, how
    long it has run. Celery's report holds the task's arguments only as a repr cut at 1,024
    characters, before the run's id: the run is told by the run log instead (its "Executing
    steps ... in celery worker" event names the worker)."""

    node: str
    worker_pid: int
    task_id: str
    seconds: float  # since the pool process started it


def active_tasks(broker: str, timeout: float = 1.0) -> list[ActiveTask]:
    """What every worker listening to ``broker`` is executing (Celery's remote control over
    the broker: ``inspect().active()``)."""
    from celery import Celery

    app = Celery("scale-check", broker=broker)
    try:
        replies: dict[str, list[dict[str, Any]]] = app.control.inspect(timeout=timeout).active() \
            or {}
    finally:
        app.close()
    now = time.time()
    return [ActiveTask(node=node, worker_pid=int(task["worker_pid"]), task_id=str(task["id"]),
                       seconds=now - float(task.get("time_start") or now))
            for node, tasks in replies.items() for task in tasks if task.get("worker_pid")]
