"""Small helpers for the processes this project starts or stops itself: a free loopback port, the
end of a log, an ``exec`` that a shell's background job cannot make deaf to Ctrl-C and SIGTERM,
whether a recorded process is still alive, and how a command that runs jobs stops on SIGINT or
SIGTERM (``STOP``). Standard library only: the CLI installs ``STOP`` before it imports Dagster."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

# the argv prefix that runs a command through ``exec_with_default_signals`` (no preexec_fn:
# forking a parent that holds torch's threads may deadlock in it)
EXEC_WITH_DEFAULT_SIGNALS = (
    "-c", "import sys; from rag_assets.runtime.processes import exec_with_default_signals as run; "
    "run(sys.argv[1:])",
)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


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


def exit_message(process: subprocess.Popen[bytes] | None, what: str, log: Path) -> str | None:
    """``"<what> exited with <code>: <log's end>"`` once ``process`` has exited, else None."""
    if process is None or process.poll() is None:
        return None
    return f"{what} exited with {process.returncode} (log {log}):\n{log_tail(log)}"


def stop_group(process: subprocess.Popen[bytes], timeout: float, *,
               terminate: bool = True) -> None:
    """Stop the process group ``process`` leads (a server with its children): SIGTERM to the
    group (unless already sent: ``terminate=False``), SIGKILL to what is left after
    ``timeout``; also when the leader has already exited."""
    group = process.pid  # a session leader: its pid is the group's id
    if terminate:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(10)


def exec_with_default_signals(argv: Sequence[str]) -> None:
    """Replace this process by ``argv`` with SIGINT and SIGTERM at their defaults: a process
    started in the background by a shell inherits them ignored, and ``dagster`` then never
    stops."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    os.execv(argv[0], list(argv))


def process_start(pid: int) -> str | None:
    """When process ``pid`` started, in clock ticks since boot (``/proc/<pid>/stat`` field 22),
    or None where there is no ``/proc`` or no such process. With the pid it names one process:
    a pid the kernel handed to a new process after the first one died has another start."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # after the command name, which may hold spaces
    return fields[19] if len(fields) > 19 else None


def process_alive(pid: int, start: str | None = None) -> bool:
    """Whether process ``pid`` of this host runs (``os.kill(pid, 0)``; a process of another user
    counts), and when ``start`` is given, is the one that started then (not a reused pid)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    if start is None:
        return True
    now = process_start(pid)
    return now is None or now == start


class Stopped(KeyboardInterrupt):  # noqa: N818 - what the command was told, like KeyboardInterrupt
    """The command was asked to stop (SIGINT or SIGTERM) and its run was canceled; raised where
    the command would otherwise go on with its next run. A KeyboardInterrupt, so that no
    ``except Exception`` on the way swallows it."""

    def __init__(self, signum: int, run_id: str = "") -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum, self.run_id = signum, run_id


class SignalStop:
    """SIGINT and SIGTERM for a command that runs jobs in its own process.

    ``install`` (main thread) gives both signals a handler that raises KeyboardInterrupt (so
    SIGTERM unwinds like Ctrl-C instead of killing the process with its run left "started"),
    and a wakeup fd read by a watchdog thread: the C-level handler writes every signal's number
    there whatever Python handler is in place (Dagster swaps in its own while a run executes,
    and a step in a long C call runs no Python handler at all). The watchdog records the first
    signal (``signum``); when the command has not ended ``grace`` seconds later, or at a second
    signal, it calls ``on_deadline(signum)`` (cancel the run, free its slots, say so) and ends
    the process with 128 + the signal's number.
    """

    def __init__(self) -> None:
        self.signum: int | None = None
        self.grace = 8.0
        self.on_deadline: Callable[[int], None] | None = None
        self._installed = False
        self._received = threading.Event()

    @property
    def installed(self) -> bool:
        return self._installed

    def install(self, grace: float = 8.0,
                on_deadline: Callable[[int], None] | None = None) -> SignalStop:
        self.grace, self.on_deadline = grace, on_deadline
        if self._installed:
            return self
        read_fd, write_fd = os.pipe()
        os.set_blocking(write_fd, False)
        for sig in STOP_SIGNALS:
            signal.signal(sig, self._raise)
        quiet_interrupted_pool_closes()
        signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
        threading.Thread(target=self._watch, args=(read_fd,), name="rag-assets-stop",
                         daemon=True).start()
        self._installed = True
        return self

    def _raise(self, signum: int, frame: object) -> None:
        if self.signum is None:
            self.signum = signum
        raise KeyboardInterrupt(signal.Signals(signum).name)

    def _signals(self, read_fd: int) -> list[int]:
        try:
            data = os.read(read_fd, 64)
        except InterruptedError:
            return []
        return [b for b in data if b in STOP_SIGNALS]

    def _watch(self, read_fd: int) -> None:
        while not (received := self._signals(read_fd)):
            pass
        if self.signum is None:
            self.signum = received[0]
        self._received.set()
        deadline = time.monotonic() + self.grace
        if len(received) == 1:  # a second signal at once: no grace
            while time.monotonic() < deadline:
                ready, _, _ = _select([read_fd], deadline - time.monotonic())
                if ready and self._signals(read_fd):
                    break
        if self.on_deadline is not None:
            with contextlib.suppress(Exception):
                self.on_deadline(self.signum)
        os._exit(128 + self.signum)

    def received(self, timeout: float = 0.0) -> int | None:
        """The stop signal's number once one came (waiting up to ``timeout`` for the watchdog
        to read it), else None."""
        if self.signum is None and self._installed:
            self._received.wait(timeout)
        return self.signum


POOL_LOGGER = "sqlalchemy.pool"


class _NotAnInterrupt(logging.Filter):
    """Drops a record whose exception is an interrupt (a BaseException that is no Exception:
    KeyboardInterrupt, Dagster's DagsterExecutionInterruptedError). SQLAlchemy's pool logs
    "Exception closing connection" with the traceback and then re-raises exactly those, so the
    record only repeats, as a traceback, the stop the command already reports in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.exc_info[0] if record.exc_info else None
        return kind is None or issubclass(kind, Exception)


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at the time, like Python's last-resort handler."""

    def __init__(self, level: int) -> None:
        logging.Handler.__init__(self, level)

    @property
    def stream(self) -> TextIO:
        return sys.stderr


def quiet_interrupted_pool_closes() -> None:
    """Route SQLAlchemy's pool records through one stderr handler that drops those of a close
    cut short by a stop signal and prints every other one as before (Python's last-resort
    handler did: the message and its traceback). Installed up front, not in the signal handler:
    while a run executes Dagster's own handler raises, and ours never runs. Idempotent."""
    logger = logging.getLogger(POOL_LOGGER)
    if any(isinstance(f, _NotAnInterrupt) for h in logger.handlers for f in h.filters):
        return
    handler = _Stderr(logging.WARNING)
    handler.addFilter(_NotAnInterrupt())
    logger.addHandler(handler)
    logger.propagate = False


def _select(fds: list[int], timeout: float) -> tuple[list, list, list]:
    import select

    return select.select(fds, [], [], max(timeout, 0.0))


STOP = SignalStop()  # the command's; installed by the console entry point (rag_assets.cli.run)
