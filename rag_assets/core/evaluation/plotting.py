"""matplotlib's pyplot on its Agg backend (files only, no display on a server), imported when a
chart is drawn: importing it takes about a second on 2 cores, which every Dagster process and
CLI command that loads the definitions paid without drawing anything."""

from __future__ import annotations

from typing import Any


def pyplot() -> Any:
    """``matplotlib.pyplot``, the backend chosen before its first import."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
