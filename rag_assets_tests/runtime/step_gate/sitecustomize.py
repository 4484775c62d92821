"""Test harness, never on the product's path: holds a ``rag-assets`` command's ingest step in
its middle, so a test's signal lands there whatever the machine's speed.

``test_run_safety`` puts this folder first on the command's ``PYTHONPATH`` with
``RAG_ASSETS_TEST_STEP_GATE=<folder>``. Python imports ``sitecustomize`` at start, and this one
wraps the step's reading of the report: it writes ``<folder>/entered`` and waits (up to two
minutes, sleeping, so a signal interrupts it as it would the reading) before reading. Why: the
three-page report is read in well under a second, and a signal sent after the step's start
event had found the run already over.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

GATE = os.environ.get("RAG_ASSETS_TEST_STEP_GATE")
HOLD_SECONDS = 120.0

if GATE:
    import rag_assets.defs.ingest as ingest_assets

    read_report = ingest_assets.process_report

    def held_read(*args: Any, **kwargs: Any) -> Any:
        Path(GATE, "entered").touch()
        deadline = time.monotonic() + HOLD_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.05)
        return read_report(*args, **kwargs)

    ingest_assets.process_report = held_read
