"""Start the Dagster UI (``make ui``) so that Ctrl-C and SIGTERM stop it cleanly.

A process started in the background by a shell inherits SIGINT (and sometimes SIGTERM) as
*ignored*, and ``dg dev`` then never stops; restoring the default handlers before ``exec``
fixes that. ``dg dev`` loads the project as ``[tool.dg]`` in pyproject.toml says, with this
interpreter's packages (``--use-active-venv``); the instance lives in ``$DAGSTER_HOME``
(``.dagster_home/`` in the repo).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from rag_assets.core.settings import Settings
from rag_assets.runtime.processes import exec_with_default_signals


def main() -> None:
    home = Path(os.environ.setdefault("DAGSTER_HOME", str(Path(".dagster_home").resolve())))
    home.mkdir(parents=True, exist_ok=True)
    runtime = Settings().runtime
    host, port = runtime.ui_host, str(runtime.ui_port)
    dg = Path(sys.executable).with_name("dg")
    print(f"Dagster UI on http://{host}:{port} (instance: {home}); Ctrl-C stops it", flush=True)
    exec_with_default_signals([str(dg), "dev", "--use-active-venv", "--host", host, "--port", port])


if __name__ == "__main__":
    main()
