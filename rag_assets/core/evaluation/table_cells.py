"""A stored table's cells read whatever a missing value looks like (None, NaN, ``pd.NA``, text
that is not JSON): the audit report must build from any partition, with any table missing or
written by an older version, so a cell that cannot be read reads as empty.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd


def frame_or_empty(frame: pd.DataFrame | None) -> pd.DataFrame:
    """The table, or an empty one when it is not stored."""
    return frame if frame is not None else pd.DataFrame()


def cell_list(value: object) -> list[Any]:
    """A JSON list cell (or a list already parsed); ``[]`` when missing or not a list."""
    if isinstance(value, list):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return []
    try:
        parsed = json.loads(str(value))
    except ValueError:
        return []
    return parsed if isinstance(parsed, list) else []


def cell_dict(value: object) -> dict[str, Any]:
    """A JSON object cell; ``{}`` when missing or not an object."""
    try:
        parsed = json.loads(str(value))
    except (TypeError, ValueError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def cell_number(value: object) -> float | None:
    """A numeric cell; None when missing, NaN or not a number."""
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def cell_text(value: object) -> str:
    """A text cell; ``""`` when missing (never the string ``None`` or ``nan``)."""
    return "" if value is None or value is pd.NA or (
        isinstance(value, float) and math.isnan(value)) else str(value)
