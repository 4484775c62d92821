"""Connections to the DuckDB warehouse that wait for another process's writer lock.

DuckDB lets one process write a file; a second process (the CLI beside a running UI, a report
beside a run) fails at once with an ``IOException``. Every direct connection of the project goes
through :func:`connect_warehouse`, which retries until ``wait_seconds`` have passed.
"""

from __future__ import annotations

import time
from pathlib import Path

import duckdb

WAIT_FOR_WRITER_SECONDS = 60.0


def connect_warehouse(database: str | Path, read_only: bool = False,
            wait_seconds: float = WAIT_FOR_WRITER_SECONDS) -> duckdb.DuckDBPyConnection:
    """A connection to ``database``, retried every 0.5 s while its lock is held."""
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            return duckdb.connect(str(database), read_only=read_only)
        except duckdb.IOException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
