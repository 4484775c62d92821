"""What a run is doing, on the terminal, while the CLI waits for it."""

from __future__ import annotations

import logging
import shutil
import sys
import threading
import time
from typing import Any, TextIO


class Progress:
    """What a run is doing, for a person watching the terminal.

    ``on_event`` receives every event the run writes to the instance (step starts, log messages);
    while the run goes on, a thread shows the running step, its elapsed time and its last log
    message: on one line rewritten with ``\\r`` every second when the stream is a terminal, else
    as a line every minute (so a long first embedding in a piped ``make demo`` is not silent).
    """

    def __init__(self, label: str, stream: TextIO | None = None,
                 interval: float | None = None) -> None:
        self.label = label
        self._lock = threading.Lock()  # the ticker thread and the run's events both write
        self.stream = stream if stream is not None else sys.stdout
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty and isatty())
        self.interval = interval if interval is not None else (1.0 if self.tty else 60.0)
        self.started = self.step_started = time.perf_counter()
        self.step = ""
        self.detail = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._width = 0  # of the ticker line last written (terminal only)

    def on_event(self, entry: Any) -> None:
        """An instance event listener (``EventLogEntry``): remember the step and its news; print
        the run's notices (a step waiting for a pool slot and who holds it, a dead holder
        failed) as lines of their own."""
        from rag_assets.runtime.run_safety import NOTICE

        event = getattr(entry, "dagster_event", None)
        if event is not None:
            if event.event_type_value == "STEP_START":
                self.step, self.detail = event.step_key or "", ""
                self.step_started = time.perf_counter()
            metadata = getattr(getattr(event, "event_specific_data", None), "metadata", None) or {}
            if event.event_type_value == "ENGINE_EVENT" and NOTICE in metadata and event.message:
                self.detail = event.message
                self.note(event.message)
        elif getattr(entry, "level", 0) >= logging.INFO and getattr(entry, "user_message", ""):
            self.detail = entry.user_message.strip().splitlines()[0]

    def status(self) -> str:
        now = time.perf_counter()
        text = f"{self.label}  {now - self.started:.0f} s"
        if self.step:
            text += f"  {self.step} {now - self.step_started:.0f} s"
        return f"{text}: {self.detail}" if self.detail else text

    def show(self) -> None:
        columns = shutil.get_terminal_size((120, 24)).columns - 1
        with self._lock:
            if self.tty:
                line = self.status()[:columns]
                self.stream.write("\r" + line.ljust(self._width))
                self._width = len(line)
            else:
                self.stream.write(f"  ... {self.status()}"[:columns] + "\n")
            self.stream.flush()

    def note(self, text: str) -> None:
        """A line of its own (the ticker's line cleared first), whole however long."""
        with self._lock:
            if self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self._width = 0
            self.stream.write(f"  {self.label}  {text}\n")
            self.stream.flush()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self.show()

    def __enter__(self) -> Progress:
        self._thread = threading.Thread(target=self._tick, name="rag-assets-progress",
                                        daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self._width:  # leave the line empty for what is printed next
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
                self._width = 0
