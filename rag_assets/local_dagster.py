"""A real Dagster UI and daemon on this machine, started and stopped by a script or a test.

``make backfill-check`` and the UI tests need what a user has after ``make ui``: the webserver
and the daemon on a DAGSTER_HOME, serving the repo's workspace over the data folder of their
choice. ``LocalDagster`` starts ``dagster dev`` (both), the webserver alone or the daemon alone
in a process group of its own, the webserver on a free loopback port (SIGINT/SIGTERM reset to
default, as ``ui_launcher`` does, so it can be stopped); it waits until the webserver answers,
posts GraphQL the way the UI does (a backfill, a sensor's toggle) and stops the whole group on
exit.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

REPO = Path(__file__).resolve().parents[1]
SENSORS = """
query { sensorsOrError(repositorySelector: {repositoryName: "__repository__",
                                            repositoryLocationName: "rag_assets"}) {
  ... on Sensors { results { name sensorState { id status } } } } }"""
STOP_SENSOR = """
mutation($id: String!) { stopSensor(id: $id) {
  __typename ... on StopSensorMutationResult { instigationState { status } } } }"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _default_signals() -> None:  # in the child, before exec: stoppable by SIGINT/SIGTERM
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


class LocalDagster:
    """``dagster dev`` (``mode="dev"``: webserver and daemon), the webserver alone or the daemon
    alone, on a DAGSTER_HOME and data folder, logging to ``<home>/<mode>.log``."""

    def __init__(self, home: Path, data_dir: Path, *,
                 mode: Literal["dev", "webserver", "daemon"] = "dev",
                 port: int | None = None, env: dict[str, str] | None = None) -> None:
        self.home, self.data_dir, self.mode = Path(home), Path(data_dir), mode
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.home / f"{mode}.log"
        self.extra_env = env or {}
        self.process: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        bin_dir = Path(sys.executable).parent
        where = ["-w", str(REPO / "workspace.yaml"), "-h", "127.0.0.1", "-p", str(self.port)]
        if self.mode == "dev":
            return [str(bin_dir / "dagster"), "dev", *where]
        if self.mode == "daemon":
            return [str(bin_dir / "dagster-daemon"), "run", *where[:2]]
        return [str(bin_dir / "dagster-webserver"), *where]

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

    def start(self, timeout: float = 120.0) -> Self:
        self.home.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(  # noqa: S603 - our own venv's dagster
            self.command(), cwd=REPO, env=self.environment(), stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_default_signals,
        )
        log.close()
        if self.mode == "daemon":  # no port: it is up once it has not died at start
            time.sleep(1.0)
            if self.process.poll() is not None:
                raise RuntimeError(f"dagster-daemon exited with {self.process.returncode}:\n"
                                   f"{self.log_tail()}")
            return self
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"dagster {self.mode} exited with {self.process.returncode}:"
                                   f"\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/server_info", timeout=2):
                    return self
            except (urllib.error.URLError, OSError):
                time.sleep(0.5)
        self.stop()
        raise TimeoutError(f"dagster {self.mode} did not answer in {timeout:.0f} s:\n"
                           f"{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.is_file() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, timeout: float = 30.0) -> None:
        """SIGTERM to the whole group (webserver, daemon, code servers), SIGKILL after
        ``timeout``."""
        if self.process is None or self.process.poll() is not None:
            return
        group = os.getpgid(self.process.pid)
        os.killpg(group, signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(group, signal.SIGKILL)
            self.process.wait(10)
        with contextlib.suppress(ProcessLookupError):  # children that outlived the leader
            os.killpg(group, signal.SIGKILL)

    def graphql(self, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """POST a query to the webserver's GraphQL endpoint; its ``data``, or an error."""
        body = json.dumps({"query": query, "variables": variables or {}}).encode()
        request = urllib.request.Request(f"{self.url}/graphql", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            reply = json.loads(response.read())
        if reply.get("errors"):
            raise RuntimeError(f"GraphQL error: {reply['errors'][0].get('message')}")
        return reply["data"]

    def stop_sensors(self, names: Iterable[str]) -> None:
        """Turn sensors off as the UI's toggle does (before a daemon starts: it never ticks)."""
        reply = self.graphql(SENSORS)["sensorsOrError"]
        ids = {s["name"]: s["sensorState"]["id"] for s in reply.get("results", [])}
        for name in names:
            result = self.graphql(STOP_SENSOR, {"id": ids[name]})["stopSensor"]
            status = (result.get("instigationState") or {}).get("status")
            if status != "STOPPED":
                raise RuntimeError(f"{name} not stopped: {result}")

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()
