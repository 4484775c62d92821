"""The self-contained interactive audit page: jinja2 with autoescape (document text escaped by
the template engine, never by hand), inline CSS and JS, the heatmap as a data URI, nothing
fetched. The one piece of data the page's script reads is a ``<script type="application/json">``
block written with ``|tojson``.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from rag_assets.core.evaluation.audit_data import AuditData
from rag_assets.core.evaluation.coverage_heatmap import KINDS, data_uri

TEMPLATES = Path(__file__).with_name("templates")
TEMPLATE = "audit_report.html.j2"


def environment() -> Environment:
    """Autoescape on, and a name the template asks for but is not given fails the render
    (``StrictUndefined``) instead of printing nothing."""
    return Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def html_report(data: AuditData, heatmap: bytes | None = None) -> str:
    """The self-contained interactive audit page (autoescaped template, no external fetch)."""
    script_data = {
        "document": data.document, "year": data.year,
        "counts": {kind: len(rows) for kind, rows in data.chunks.items()},
    }
    return environment().get_template(TEMPLATE).render(
        data=data, heatmap=data_uri(heatmap) if heatmap else None, script_data=script_data,
        kinds=KINDS,
    )
