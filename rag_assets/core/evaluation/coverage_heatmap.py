"""Footnote coverage per chunk and its heatmap: for each chunk in order, the share of its cited
markers whose complete definition it holds, naive vs enriched chunks side by side.

A PNG written with matplotlib's Agg backend (files only, no display on a server), and the same
bytes as a data URI for the pages that must fetch nothing.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np
import pandas as pd

from rag_assets.core.evaluation.plotting import pyplot
from rag_assets.core.evaluation.table_cells import cell_list, frame_or_empty

if TYPE_CHECKING:
    from matplotlib.figure import Figure

KINDS = ("naive", "enriched")


def chunk_coverage(chunks: pd.DataFrame | None) -> list[float | None]:
    """Per chunk in order (``seq``): the share of its cited markers whose complete definition it
    holds; ``None`` for a chunk citing no marker."""
    frame = frame_or_empty(chunks)
    if frame.empty or "markers_cited" not in frame:
        return []
    if "seq" in frame:
        frame = frame.sort_values("seq")
    out: list[float | None] = []
    for cited_raw, defined_raw in zip(frame["markers_cited"], frame["markers_defined"],
                                      strict=True):
        cited, defined = set(cell_list(cited_raw)), set(cell_list(defined_raw))
        out.append(len(cited & defined) / len(cited) if cited else None)
    return out


def heatmap_figure(coverage: Mapping[str, Sequence[float | None]], title: str = "") -> Figure:
    """Rows = chunk kinds, columns = chunks in order, colour = share of cited markers whose
    definition the chunk holds (grey: the chunk cites none, white: no such chunk). Both axes
    tick at whole numbers only: a chunk's index and a kind's row (never -0.4 ... 0.4 for a
    single chunk). The caller closes the figure (``heatmap_png`` does)."""
    kinds = [k for k in KINDS if k in coverage] or list(KINDS)
    width = max([len(coverage.get(k, ())) for k in kinds] + [1])
    grid = np.full((len(kinds), width), np.nan)
    cites = np.zeros((len(kinds), width), dtype=bool)
    exists = np.zeros((len(kinds), width), dtype=bool)
    for r, kind in enumerate(kinds):
        for c, value in enumerate(coverage.get(kind, ())):
            exists[r, c] = True
            if value is not None:
                grid[r, c], cites[r, c] = value, True
    from matplotlib.ticker import MaxNLocator

    fig, ax = pyplot().subplots(figsize=(10, 1.2 + 0.55 * len(kinds)), dpi=100)
    background = np.where(exists & ~cites, 0.85, np.nan)
    ax.imshow(background, aspect="auto", cmap="gray", vmin=0, vmax=1, interpolation="nearest")
    image = ax.imshow(np.ma.masked_invalid(grid), aspect="auto", cmap="RdYlGn", vmin=0, vmax=1,
                      interpolation="nearest")
    ax.set_yticks(range(len(kinds)), [
        f"{k} ({sum(v is not None for v in coverage.get(k, ()))}/{len(coverage.get(k, ()))}"
        " cite)" for k in kinds])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1, steps=[1, 2, 5, 10]))
    ax.set_xlabel("chunk (in order); grey: cites no marker")
    ax.set_title(title or "footnote coverage per chunk: share of cited markers defined in it",
                 fontsize=10)
    fig.colorbar(image, ax=ax, fraction=0.03, pad=0.01)
    fig.tight_layout()
    return cast("Figure", fig)


def heatmap_png(coverage: Mapping[str, Sequence[float | None]], path: Path,
                title: str = "") -> Path:
    """``heatmap_figure`` written to ``path`` as a PNG."""
    fig = heatmap_figure(coverage, title)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    pyplot().close(fig)
    return path


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")
