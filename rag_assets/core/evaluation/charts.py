"""Reports: metric tables as markdown and one PNG chart per retrieval strategy."""

from __future__ import annotations

import base64
from pathlib import Path

import pandas as pd

from rag_assets.core.evaluation.plotting import pyplot

CHART_METRICS = {
    "page_mrr": "MRR",
    "page_ndcg_at_10": "nDCG@10",
    "page_recall_at_5": "recall@5",
    "footnote_recall_at_5": "footnote\nrecall@5",
}
SERIES_COLORS = {
    ("naive", "partition"): "#9ecae1",
    ("naive", "corpus"): "#3182bd",
    ("enriched", "partition"): "#fdae6b",
    ("enriched", "corpus"): "#e6550d",
}


def strategy_chart(summary: pd.DataFrame, strategy: str, path: Path) -> Path:
    """Grouped bars for one strategy: each metric for naive/enriched chunks × the two settings.

    ``summary`` has one row per (kind, setting, strategy) with the metric columns.
    """
    rows = summary[summary.strategy == strategy]
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.0), dpi=100)
    width = 0.8 / max(len(SERIES_COLORS), 1)
    for i, ((kind, setting), color) in enumerate(SERIES_COLORS.items()):
        row = rows[(rows.kind == kind) & (rows.setting == setting)]
        if row.empty:
            continue
        values = [float(row.iloc[0][m]) if pd.notna(row.iloc[0][m]) else 0.0
                  for m in CHART_METRICS]
        positions = [x + (i - 1.5) * width for x in range(len(CHART_METRICS))]
        ax.bar(positions, values, width, label=f"{kind} / {setting}", color=color)
    ax.set_xticks(range(len(CHART_METRICS)), list(CHART_METRICS.values()))
    ax.set_ylim(0, 1)
    ax.set_title(f"{strategy}: naive vs enriched chunks, own partition vs whole corpus")
    ax.legend(fontsize=8, ncols=4, loc="upper center", bbox_to_anchor=(0.5, -0.16),
              frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def png_markdown(path: Path, title: str) -> str:
    """An inline image for a Dagster markdown metadata value (the UI renders data URIs)."""
    encoded = base64.b64encode(path.read_bytes()).decode("ascii")
    return f"![{title}](data:image/png;base64,{encoded})"


def metrics_table(summary: pd.DataFrame, columns: dict[str, str]) -> str:
    """Selected columns, renamed, as a markdown table; a stage that could not run shows "n/a"
    instead of its fallback's numbers, and why, below the table."""
    shown = summary[list(columns)].astype(object).copy()
    unavailable = summary["unavailable"].notna() if "unavailable" in summary else None
    notes: list[str] = []
    if unavailable is not None and unavailable.any():
        metric_columns = [c for c in columns if pd.api.types.is_float_dtype(summary[c])]
        shown.loc[unavailable, metric_columns] = "n/a"
        notes = [f"\n\n{s}: {r}" for s, r in summary.loc[unavailable, ["strategy", "unavailable"]]
                 .drop_duplicates("strategy").itertuples(index=False)]
    # pandas is untyped here: to_markdown returns the table's text
    table: str = shown.rename(columns=columns).to_markdown(index=False, floatfmt=".3f")
    return table + "".join(notes)


def comparison_table(rollup: pd.DataFrame, setting: str, category: str = "all") -> str:
    """Strategy x (MRR, nDCG@10, recall@5, footnote recall@5) for naive and enriched chunks, as
    plain text; a stage that could not run shows why instead of its fallback's numbers."""
    from tabulate import tabulate

    rows = rollup[(rollup.setting == setting) & (rollup.category == category)]
    if "document" in rows:
        rows = rows[rows.document == "all"]
    if rows.empty:
        return f"(no runs for setting {setting!r}, category {category!r})"
    metrics = {"page_mrr": "MRR", "page_ndcg_at_10": "nDCG@10", "page_recall_at_5": "R@5",
               "footnote_recall_at_5": "fn R@5"}
    table, notes = [], []
    for strategy in dict.fromkeys(rows.strategy):
        line: list[object] = [strategy]
        reason = None
        for kind in ("naive", "enriched"):
            row = rows[(rows.strategy == strategy) & (rows.kind == kind)]
            if row.empty:
                line += ["-"] * len(metrics)
                continue
            reason = reason or (row.iloc[0].unavailable if pd.notna(row.iloc[0].unavailable)
                                else None)
            line += [
                "n/a" if reason else
                (f"{row.iloc[0][m]:.3f}" if pd.notna(row.iloc[0][m]) else "-")
                for m in metrics
            ]
        if reason:
            notes.append(f"{strategy}: unavailable, {reason}")
        n = int(rows[rows.strategy == strategy].questions.max())
        table.append([*line, n])
    headers = ["strategy", *[f"{kind[:5]} {name}" for kind in ("naive", "enriched")
                             for name in metrics.values()], "n"]
    text = tabulate(table, headers=headers, disable_numparse=True)
    return "\n".join([text, *notes])


def by_document_table(rollup: pd.DataFrame, setting: str, kind: str,
                      metric: str = "page_mrr") -> str:
    """Document x strategy for one metric: does a strategy win on every collection?"""
    from tabulate import tabulate

    rows = rollup[(rollup.setting == setting) & (rollup.kind == kind)
                  & (rollup.category == "all") & (rollup.document != "all")]
    if rows.empty:
        return "(no per-document rows)"
    pivot = rows.pivot_table(index="document", columns="strategy", values=metric)
    pivot = pivot[[s for s in pivot.columns if s != "cross_encoder"]]
    n = rows.groupby("document").questions.max()
    table = [[doc, *[f"{v:.3f}" for v in pivot.loc[doc]], int(n[doc])] for doc in pivot.index]
    text: str = tabulate(table, headers=["document", *pivot.columns, "n"], disable_numparse=True)
    return text
