"""Everything Dagster loads: the definitions found in ``rag_assets/defs/`` (assets, checks, jobs,
schedules, sensors in their modules; resources and executor in ``defs/platform.py``), loaded the
way ``dg`` projects load them (``[tool.dg]`` in pyproject.toml). ``defs`` is what Dagster loads."""

from __future__ import annotations

from pathlib import Path

import dagster as dg

defs = dg.load_from_defs_folder(path_within_project=Path(__file__).parent)
all_assets = list(defs.assets or [])
