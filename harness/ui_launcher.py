"""Start the Dagster UI (``make ui``) so that Ctrl-C and SIGTERM stop it cleanly.

A process started in the background by a shell inherits SIGINT (and sometimes SIGTERM) as
*ignored*, and ``dg dev`` then never stops; restoring the default handlers before ``exec``
fixes that. ``dg dev`` loads the project as ``[tool.dg]`` in pyproject.toml says, with this
interpreter's packages (``--use-active-venv``); the instance lives in ``$DAGSTER_HOME``
(``.dagster_home/`` in the repo).

The terminal gets the runs' log at INFO (``python_logs`` in deploy/dagster.yaml) and Dagster's
own services' lines from WARNING up: at INFO the daemon's run queue says "1 runs are currently in
progress. Maximum is 1, won't launch more." every second while a run goes (106 of 537 lines in
150 s of the sensors' runs); the UI's address is this launcher's first line.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from rag_assets.core.settings import Settings
from rag_assets.runtime.processes import exec_with_default_signals

SERVICES_LOG_LEVEL = "warning"


def command(dg: Path, host: str, port: str) -> list[str]:
    """``dg dev`` on this interpreter's packages, its services' log from WARNING up."""
    return [str(dg), "dev", "--use-active-venv", "--host", host, "--port", port,
            "--log-level", SERVICES_LOG_LEVEL]


def main() -> None:
    home = Path(os.environ.setdefault("DAGSTER_HOME", str(Path(".dagster_home").resolve())))
    home.mkdir(parents=True, exist_ok=True)
    runtime = Settings().runtime
    host, port = runtime.ui_host, str(runtime.ui_port)
    dg = Path(sys.executable).with_name("dg")
    # the venv ``make`` runs is the active one: without it ``dg`` prints a paragraph, twice,
    # that the active venv (none) is not the project's
    os.environ["VIRTUAL_ENV"] = sys.prefix
    print(f"Dagster UI on http://{host}:{port} (instance: {home}); Ctrl-C stops it", flush=True)
    exec_with_default_signals(command(dg, host, port))


if __name__ == "__main__":
    main()
