"""Small helpers for the servers this project starts itself: a free loopback port, the end of
a log, and an ``exec`` that a shell's background job cannot make deaf to Ctrl-C and SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Sequence
from pathlib import Path

# the argv prefix that runs a command through ``exec_with_default_signals`` (no preexec_fn:
# forking a parent that holds torch's threads may deadlock in it)
EXEC_WITH_DEFAULT_SIGNALS = (
    "-c", "import sys; from rag_assets.processes import exec_with_default_signals as run; "
    "run(sys.argv[1:])",
)


def free_port() -> int:
    """A TCP port nothing listens on at 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def log_tail(path: Path, lines: int = 30) -> str:
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty log)"


def exec_with_default_signals(argv: Sequence[str]) -> None:
    """Replace this process by ``argv`` with SIGINT and SIGTERM at their defaults: a process
    started in the background by a shell inherits them ignored, and ``dagster`` then never
    stops."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    os.execv(argv[0], list(argv))
