"""A real Dagster webserver and daemon on this machine, started and stopped by a script or test.

``make backfill-check`` and the UI tests need what a user has after ``make ui``: the webserver
and the daemon on a DAGSTER_HOME, serving the repo's workspace over the data folder of their
choice. ``LocalDagster`` starts one of them in a process group of its own (SIGINT/SIGTERM at
their defaults, as ``make ui`` does), the webserver on a free loopback port; it waits until the
webserver answers, posts GraphQL the way the UI does (a backfill, a sensor's toggle) and stops
the whole group (code servers and run workers included) on exit.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

from rag_assets.runtime.processes import (
    EXEC_WITH_DEFAULT_SIGNALS,
    exit_message,
    free_port,
    log_tail,
    stop_group,
)

REPO = Path(__file__).resolve().parents[1]
SENSORS = """
query { sensorsOrError(repositorySelector: {repositoryName: "__repository__",
                                            repositoryLocationName: "rag_assets"}) {
  __typename ... on Sensors { results { name sensorState { id status } } } } }"""
STOP_SENSOR = """
mutation($id: String!) { stopSensor(id: $id) {
  __typename ... on StopSensorMutationResult { instigationState { status } } } }"""


class LocalDagster:
    """The webserver or the daemon on a DAGSTER_HOME and data folder, logging to
    ``<home>/<mode>.log``."""

    def __init__(self, home: Path, data_dir: Path, *,
                 mode: Literal["webserver", "daemon"] = "webserver",
                 env: dict[str, str] | None = None) -> None:
        self.home, self.data_dir, self.mode = Path(home), Path(data_dir), mode
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.home / f"{mode}.log"
        self.extra_env = env or {}
        self.process: subprocess.Popen[bytes] | None = None
        self._started = 0.0
        self._terminated = False

    def command(self) -> list[str]:
        bin_dir = Path(sys.executable).parent
        workspace = ["-w", str(REPO / "workspace.yaml")]
        if self.mode == "daemon":
            return [str(bin_dir / "dagster-daemon"), "run", *workspace]
        return [str(bin_dir / "dagster-webserver"), *workspace, "-h", "127.0.0.1",
                "-p", str(self.port)]

    def environment(self) -> dict[str, str]:
        """This process's environment, with the instance and the data folder's own stores (a
        warehouse or LanceDB URI set for another deployment would be used instead)."""
        inherited = {k: v for k, v in os.environ.items()
                     if k not in ("RAG_ASSETS_WAREHOUSE", "RAG_ASSETS_LANCEDB_URI")}
        return {
            **inherited,
            "DAGSTER_HOME": str(self.home),
            "RAG_ASSETS_DATA_DIR": str(self.data_dir),
            "HF_HUB_OFFLINE": "1",
            "GX_ANALYTICS_ENABLED": "false",
            "DAGSTER_DISABLE_TELEMETRY": "1",
            **self.extra_env,
        }

    def start(self, timeout: float = 120.0, *, wait: bool = True) -> Self:
        """Start the process; with ``wait`` (the default), return once it is up
        (``wait_until_up``), else at once: the caller does other work meanwhile and calls
        ``wait_until_up`` before it needs the server."""
        self.home.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own venv's dagster
                [sys.executable, *EXEC_WITH_DEFAULT_SIGNALS, *self.command()], cwd=REPO,
                env=self.environment(), stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._started, self._terminated = time.monotonic(), False
        return self.wait_until_up(timeout) if wait else self

    def wait_until_up(self, timeout: float = 120.0) -> Self:
        """The webserver answers ``/server_info`` (the daemon: it has not died in its first
        second); ``timeout`` counts from the start."""
        deadline = self._started + (1.0 if self.mode == "daemon" else timeout)
        while True:
            self.raise_if_dead()
            if self.mode == "daemon" and time.monotonic() >= deadline:
                return self  # no port: up once it has not died at start
            if self.mode == "webserver":
                with contextlib.suppress(urllib.error.URLError, OSError), \
                        urllib.request.urlopen(f"{self.url}/server_info", timeout=2):
                    return self
                if time.monotonic() >= deadline:
                    self.stop()
                    raise TimeoutError(f"dagster-webserver did not answer in {timeout:.0f} s:\n"
                                       f"{log_tail(self.log_path)}")
            time.sleep(0.25)

    def raise_if_dead(self) -> None:
        """A ``RuntimeError`` with the log's end when the process has exited."""
        if message := exit_message(self.process, f"dagster {self.mode}", self.log_path):
            self.stop()
            raise RuntimeError(message)

    def stop(self, timeout: float = 30.0) -> None:
        """SIGTERM to the whole group (the server, its code servers, run workers), SIGKILL to
        what is left after ``timeout``; also when the leader has already exited."""
        if self.process is None:
            return
        self.terminate()
        stop_group(self.process, timeout, terminate=False)

    def terminate(self) -> None:
        """SIGTERM to the whole group once, not waited for (``stop`` waits): servers told at
        once shut down side by side (a second SIGTERM would cut the webserver's shutdown)."""
        if self.process is not None and not self._terminated:
            self._terminated = True
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)

    def graphql(self, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """POST a query to the webserver's GraphQL endpoint; its ``data``, or a
        ``RuntimeError`` with the server's own message."""
        body = json.dumps({"query": query, "variables": variables or {}}).encode()
        request = urllib.request.Request(f"{self.url}/graphql", data=body,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                reply = json.loads(response.read())
        except urllib.error.HTTPError as err:
            raise RuntimeError(f"GraphQL HTTP {err.code}: {err.read()[:500]!r}") from err
        if reply.get("errors"):
            raise RuntimeError(f"GraphQL error: {reply['errors'][0].get('message')}")
        return reply["data"]

    def stop_sensors(self, names: Iterable[str], timeout: float = 60.0) -> None:
        """Turn sensors off as the UI's toggle does (before a daemon starts: it never ticks);
        waits for the code location to be loaded."""
        deadline = time.monotonic() + timeout
        while (reply := self.graphql(SENSORS)["sensorsOrError"])["__typename"] != "Sensors":
            if time.monotonic() >= deadline:
                raise RuntimeError(f"the sensors cannot be listed: {reply}")
            time.sleep(1.0)
        ids = {s["name"]: s["sensorState"]["id"] for s in reply["results"]}
        for name in names:
            result = self.graphql(STOP_SENSOR, {"id": ids[name]})["stopSensor"]
            status = (result.get("instigationState") or {}).get("status")
            if status != "STOPPED":
                raise RuntimeError(f"{name} not stopped: {result}")

    def __enter__(self) -> Self:
        return self if self.process is not None else self.start()  # started: stopped on exit

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()
