"""The audit report as Markdown: what asset metadata shows and ``report.md``.

Document text is escaped everywhere it appears (:func:`md_text`): HTML escaped, on one line,
pipes escaped, so a hostile page or footnote cannot break a table or inject markup.
"""

from __future__ import annotations

import html

import pandas as pd

from rag_assets.core.evaluation.audit_data import AuditData
from rag_assets.core.evaluation.charts import metrics_table
from rag_assets.core.evaluation.table_cells import cell_text


def md_text(value: object, width: int | None = None) -> str:
    """Document text safe inside a Markdown table cell: HTML escaped, one line, pipes escaped."""
    text = " ".join(cell_text(value).split())
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return html.escape(text).replace("|", "\\|")

RETRIEVAL_COLUMNS = {"kind": "chunks", "setting": "setting", "strategy": "strategy",
                     "questions": "n", "page_mrr": "MRR", "page_ndcg_at_10": "nDCG@10",
                     "page_recall_at_5": "R@5", "footnote_recall_at_5": "footnote R@5"}
ANSWER_COLUMNS = ("fact_recall", "citation_precision", "citation_recall",
                  "abstention_correct", "invalid_citations", "seconds")


def _absent(table: str) -> str:
    return f"_No `{table}` stored for this partition._\n"


def markdown_report(data: AuditData, image: str | None = None) -> str:
    """The report as Markdown; ``image`` is the heatmap's source (a file name or a data URI)."""
    out = [f"# Audit report: {md_text(data.document)} {data.year}\n"]
    out.append("| figure | value |\n|---|---|")
    out += [f"| {md_text(k)} | {md_text(v)} |" for k, v in data.scorecard]
    out.append("")
    if data.missing:
        out.append("Not stored: " + ", ".join(f"`{t}`" for t in data.missing) + ".\n")

    out.append("## Page text: OCR and pages without text\n")
    if "raw_pages" in data.missing:
        out.append(_absent("raw_pages"))
    elif not data.text_sources:
        out.append("Every page's text comes from its text layer: no page read by OCR, none "
                   "without text.\n")
    else:
        out.append("Pages whose text is not a text layer's: `ocr` (read from the rendered page: "
                   "check its figures against the PDF) or `none` (nothing read: its content is "
                   "not in the chunks).\n")
        out.append("| page | label | text | characters | note |\n|---|---|---|---|---|")
        out += [f"| {r['page']} | {md_text(r['label']) or '-'} | {md_text(r['source'])} | "
                f"{r['chars']} | {md_text(r['note'])} |" for r in data.text_sources]
        out.append("")
    if data.page_faults:
        out.append("Pages flagged while reading: a step that failed on the page (its tables, "
                   "superscripts or OCR); the page kept its text, the document went on.\n")
        out.append("| page | label | reader | cause |\n|---|---|---|---|")
        out += [f"| {r['page']} | {md_text(r['label']) or '-'} | {md_text(r['reader'])} | "
                f"{md_text(r['cause'])} |" for r in data.page_faults]
        out.append("")

    out.append("## Summaries: baseline vs enriched\n")
    if not data.summaries:
        out.append(_absent("summaries"))
    for variant in ("baseline", "enriched"):
        sentences = data.summaries.get(variant)
        if data.summaries and not sentences:
            out.append(f"_No {variant} summary stored._\n")
        elif sentences:
            out.append(f"**{variant}**\n")
            out += [f"{i}. {md_text(s.text)} "
                    + " ".join(f"({md_text(c.label)}, {md_text(c.mark)})" for c in s.citations)
                    for i, s in enumerate(sentences, 1)]
            out.append("")
    if data.diff:
        counts: dict[str, int] = {}
        for row in data.diff:
            counts[row.status] = counts.get(row.status, 0) + 1
        out.append(f"Sentence diff (token-set cosine ≥ {data.threshold}): "
                   + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.items()) + ".\n")

    out.append("## Retrieval metrics\n")
    if data.retrieval.empty:
        out.append(_absent("retrieval_metrics"))
    else:
        columns = {k: v for k, v in RETRIEVAL_COLUMNS.items() if k in data.retrieval}
        out.append(metrics_table(data.retrieval, columns) + "\n")

    out.append("## Answers\n")
    if data.answer_metrics.empty and not data.answers:
        out.append(_absent("answers") + _absent("answer_metrics"))
    else:
        metrics = data.answer_metrics
        if not metrics.empty:
            means = []
            for column in ANSWER_COLUMNS:
                values = pd.to_numeric(metrics[column], errors="coerce").dropna() \
                    if column in metrics else pd.Series(dtype=float)
                means.append(f"{values.mean():.3f}" if len(values) else "-")
            out.append("| questions | " + " | ".join(ANSWER_COLUMNS) + " |")
            out.append("|---|" + "---|" * len(ANSWER_COLUMNS))
            out.append(f"| {len(metrics)} | " + " | ".join(means) + " |\n")
        else:
            out.append(_absent("answer_metrics"))
        if data.answers:
            out.append(f"{len(data.answers)} answers, "
                       f"{sum(a['abstained'] for a in data.answers)} abstained, "
                       f"{sum(len(c.citations) for a in data.answers for c in a['claims'])} "
                       "citations (the HTML report shows each).\n")
        else:
            out.append(_absent("answers"))

    out.append("## Footnote registry\n")
    if not data.registry:
        out.append(_absent("footnote_dictionary"))
    else:
        out.append("| " + " | ".join(data.registry_summary) + " |")
        out.append("|" + "---|" * len(data.registry_summary))
        out.append("| " + " | ".join(str(v) for v in data.registry_summary.values()) + " |\n")
        most = sorted(data.registry, key=lambda r: -r["citations"])[:10]
        out.append("| marker | pages | resolution | citations | definition |\n"
                   "|---|---|---|---|---|")
        out += [f"| {md_text(r['marker'])} | {md_text(', '.join(map(str, r['defined_on'])))} | "
                f"{md_text(r['resolution'])} | {r['citations']} | "
                f"{md_text(r['definition'], 100)} |" for r in most]
        out.append("")

    out.append("## Text conservation and completeness\n")
    shown = {k: v for k, v in data.figures.items() if v is not None}
    if not shown:
        out.append("_No text_conservation or completeness figures recorded for this "
                   "partition._\n")
    else:
        out.append("| figure | value |\n|---|---|")
        out += [f"| {md_text(k)} | {md_text(v)} |" for k, v in shown.items()]
        out.append("")

    out.append("## Footnote coverage per chunk\n")
    if not any(data.coverage.values()):
        out.append(_absent("naive_chunks") + _absent("enriched_chunks"))
    elif image:
        out.append(f"![footnote coverage per chunk, naive vs enriched]({image})\n")
    return "\n".join(out)
