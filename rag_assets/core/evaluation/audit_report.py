"""The audit report of one partition, built from its stored tables only (no model, no embedding).

Three files: a Markdown report (where each page's text came from: the pages read by OCR and those
left without text, then summaries side by side, retrieval and answer metrics, the footnote
registry in figures, text conservation and completeness where they were recorded), a heatmap PNG
of footnote coverage per chunk (naive vs enriched), and a self-contained HTML audit report
(jinja2 with autoescape, inline CSS and JS, the PNG as a data URI, nothing fetched).

Every table may be missing or empty: its section then says so. Document text is escaped
everywhere (HTML by jinja2's autoescape, Markdown by
:func:`~rag_assets.core.evaluation.audit_markdown.md_text`); the one piece of data the
page's script reads is a ``<script type="application/json">`` block written with ``|tojson``.

The parts: :mod:`~rag_assets.core.evaluation.audit_data` (what the report shows),
:mod:`~rag_assets.core.evaluation.summary_diff` (the lexical summary diff),
:mod:`~rag_assets.core.evaluation.coverage_heatmap` (coverage per chunk, the PNG),
:mod:`~rag_assets.core.evaluation.audit_markdown` and :mod:`~rag_assets.core.evaluation.audit_html`
(the renderings). This module writes the three files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from rag_assets.core.evaluation.audit_data import AuditData, collect
from rag_assets.core.evaluation.audit_html import html_report
from rag_assets.core.evaluation.audit_markdown import markdown_report
from rag_assets.core.evaluation.coverage_heatmap import data_uri, heatmap_png
from rag_assets.core.evaluation.summary_diff import SIMILARITY_THRESHOLD


@dataclass(frozen=True)
class AuditReport:
    markdown: str  # the heatmap as a data URI: what asset metadata shows
    markdown_path: Path
    heatmap_path: Path | None
    html_path: Path
    missing: list[str]
    data: AuditData


def build_audit_report(document: str, year: int, tables: Mapping[str, pd.DataFrame | None],
                       out_dir: Path, figures: Mapping[str, object] | None = None,
                       threshold: float = SIMILARITY_THRESHOLD) -> AuditReport:
    """Writes ``report.md`` (heatmap by file name), ``heatmap.png`` (when chunks are stored) and
    ``audit.html`` under ``out_dir``; returns the Markdown with the heatmap inlined."""
    data = collect(document, year, tables, figures, threshold)
    out_dir.mkdir(parents=True, exist_ok=True)
    heatmap_path: Path | None = None
    png: bytes | None = None
    if any(data.coverage.values()):
        heatmap_path = heatmap_png(data.coverage, out_dir / "heatmap.png",
                                   f"{document} {year}: footnote coverage per chunk")
        png = heatmap_path.read_bytes()
    else:
        (out_dir / "heatmap.png").unlink(missing_ok=True)  # no stale picture of older chunks
    markdown_path = out_dir / "report.md"
    markdown_path.write_text(markdown_report(data, heatmap_path.name if heatmap_path else None),
                             encoding="utf-8")
    html_path = out_dir / "audit.html"
    html_path.write_text(html_report(data, png), encoding="utf-8")
    return AuditReport(
        markdown=markdown_report(data, data_uri(png) if png else None),
        markdown_path=markdown_path, heatmap_path=heatmap_path, html_path=html_path,
        missing=data.missing, data=data,
    )
