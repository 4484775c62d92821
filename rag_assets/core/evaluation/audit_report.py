"""The audit report of one partition, built from its stored tables only (no model, no embedding).

Three files: a Markdown report (where each page's text came from: the pages read by OCR and those
left without text, then summaries side by side, retrieval and answer metrics, the footnote
registry in figures, text conservation and completeness where they were recorded), a heatmap PNG
of footnote coverage per chunk (naive vs enriched), and a self-contained HTML audit report
(jinja2 with autoescape, inline CSS and JS, the PNG as a data URI, nothing fetched).

Every table may be missing or empty: its section then says so. Document text is escaped
everywhere (HTML by jinja2's autoescape, Markdown by :func:`md_text`); the one piece of data the
page's script reads is a ``<script type="application/json">`` block written with ``|tojson``.

The summary diff pairs sentences by **lexical** similarity, the cosine of their token sets
(``|A ∩ B| / sqrt(|A| |B|)``), at ``threshold`` (0.82 by default). An embedding cosine would need
the model, and the report must cost none.
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, SupportsInt

import matplotlib

matplotlib.use("Agg")  # files only: no display on a server

import matplotlib.pyplot as plt  # noqa: E402 - after choosing the backend
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from jinja2 import Environment, FileSystemLoader, StrictUndefined  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from rag_assets.core.evaluation.reports import metrics_table  # noqa: E402
from rag_assets.core.footnotes.checks import text_conservation  # noqa: E402
from rag_assets.core.warehouse.tables import (  # noqa: E402
    frame_to_pages,
    frame_to_stitched,
    frames_to_index,
)

SIMILARITY_THRESHOLD = 0.82
TEMPLATES = Path(__file__).with_name("templates")
TEMPLATE = "audit_report.html.j2"
TABLES = (
    "raw_pages", "footnote_dictionary", "footnote_registry", "stitched_text", "naive_chunks",
    "enriched_chunks", "retrieval_metrics", "summaries", "answers", "answer_metrics",
)
KINDS = ("naive", "enriched")
_TOKEN_RE = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")


# --- small helpers -----------------------------------------------------------------------------


def _rows(frame: pd.DataFrame | None) -> pd.DataFrame:
    return frame if frame is not None else pd.DataFrame()


def _json_list(value: object) -> list[Any]:
    if isinstance(value, list):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return []
    try:
        parsed = json.loads(str(value))
    except ValueError:
        return []
    return parsed if isinstance(parsed, list) else []


def _json_dict(value: object) -> dict[str, Any]:
    try:
        parsed = json.loads(str(value))
    except (TypeError, ValueError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _num(value: object) -> float | None:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def _text(value: object) -> str:
    return "" if value is None or value is pd.NA or (
        isinstance(value, float) and math.isnan(value)) else str(value)


def md_text(value: object, width: int | None = None) -> str:
    """Document text safe inside a Markdown table cell: HTML escaped, one line, pipes escaped."""
    text = " ".join(_text(value).split())
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return html.escape(text).replace("|", "\\|")


def anchor(document: str, year: object, page: SupportsInt) -> str:
    """The id of a page's anchor: built from the partition and the page number only, with every
    character outside ``[a-z0-9-]`` replaced (an id never carries document text)."""
    slug = re.sub(r"[^a-z0-9-]+", "-", f"{document}-{year}".lower())
    return f"page-{slug}-{int(page)}"


def token_set(text: str) -> set[str]:
    return set(_TOKEN_RE.findall(text.lower()))


def token_set_cosine(a: str, b: str) -> float:
    """Cosine of the two sentences' token sets (binary vectors): ``|A ∩ B| / sqrt(|A| |B|)``."""
    left, right = token_set(a), token_set(b)
    if not left or not right:
        return 0.0
    return len(left & right) / math.sqrt(len(left) * len(right))


# --- summary diff ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiffRow:
    """One line of the summary diff: ``same`` (identical), ``similar`` (matched at or above the
    threshold), ``baseline_only`` or ``enriched_only``."""

    status: str
    baseline: str
    enriched: str
    similarity: float | None


def sentence_diff(baseline: Sequence[str], enriched: Sequence[str],
                  threshold: float = SIMILARITY_THRESHOLD) -> list[DiffRow]:
    """Pairs each enriched sentence with at most one baseline sentence, best pairs first, when
    their token-set cosine reaches ``threshold``; the rest are one-sided. Rows follow the
    enriched summary's order, an unmatched baseline sentence after the row it followed."""
    pairs = sorted(
        ((token_set_cosine(b, e), i, j) for i, b in enumerate(baseline)
         for j, e in enumerate(enriched)),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    match_of_enriched: dict[int, tuple[int, float]] = {}
    used: set[int] = set()
    for score, i, j in pairs:
        if score < threshold:
            break
        if i in used or j in match_of_enriched:
            continue
        used.add(i)
        match_of_enriched[j] = (i, score)
    rows: list[DiffRow] = []
    pending = [i for i in range(len(baseline)) if i not in used]
    for j, sentence in enumerate(enriched):
        if j in match_of_enriched:
            i, score = match_of_enriched[j]
            while pending and pending[0] < i:  # unmatched baseline sentences before this one
                rows.append(DiffRow("baseline_only", baseline[pending.pop(0)], "", None))
            same = baseline[i].strip() == sentence.strip()
            rows.append(DiffRow("same" if same else "similar", baseline[i], sentence,
                                round(score, 3)))
        else:
            rows.append(DiffRow("enriched_only", "", sentence, None))
    rows.extend(DiffRow("baseline_only", baseline[i], "", None) for i in pending)
    return rows


# --- chunk coverage and the heatmap ------------------------------------------------------------


def chunk_coverage(chunks: pd.DataFrame | None) -> list[float | None]:
    """Per chunk in order (``seq``): the share of its cited markers whose complete definition it
    holds; ``None`` for a chunk citing no marker."""
    frame = _rows(chunks)
    if frame.empty or "markers_cited" not in frame:
        return []
    if "seq" in frame:
        frame = frame.sort_values("seq")
    out: list[float | None] = []
    for cited_raw, defined_raw in zip(frame["markers_cited"], frame["markers_defined"],
                                      strict=True):
        cited, defined = set(_json_list(cited_raw)), set(_json_list(defined_raw))
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
    fig, ax = plt.subplots(figsize=(10, 1.2 + 0.55 * len(kinds)), dpi=100)
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
    return fig


def heatmap_png(coverage: Mapping[str, Sequence[float | None]], path: Path,
                title: str = "") -> Path:
    """``heatmap_figure`` written to ``path`` as a PNG."""
    fig = heatmap_figure(coverage, title)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


# --- what the report shows ---------------------------------------------------------------------


@dataclass
class Citation:
    label: str
    quote: str
    mark: str
    target: str  # the anchor id of its page


@dataclass
class Sentence:
    text: str
    citations: list[Citation]


@dataclass
class AuditData:
    """Everything the three renderings show, taken from the stored tables."""

    document: str
    year: int
    threshold: float
    missing: list[str]
    scorecard: list[tuple[str, str]]
    chunks: dict[str, list[dict[str, Any]]]
    coverage: dict[str, list[float | None]]
    registry: list[dict[str, Any]]
    registry_summary: dict[str, int]
    summaries: dict[str, list[Sentence]]
    diff: list[DiffRow]
    answers: list[dict[str, Any]]
    retrieval: pd.DataFrame
    answer_metrics: pd.DataFrame
    figures: dict[str, object]
    pages: dict[str, dict[str, Any]] = field(default_factory=dict)
    # pages whose text is not their text layer's ("ocr") or who have none ("none"), in order
    text_sources: list[dict[str, Any]] = field(default_factory=list)


def _citations(raw: Sequence[dict[str, Any]], pages: dict[str, dict[str, Any]],
               page_texts: Mapping[tuple[str, int, int], str], document: str, year: int
               ) -> list[Citation]:
    out = []
    for c in raw:
        doc, yr, page = str(c.get("document", document)), c.get("year", year), c.get("page", 0)
        try:
            page = int(page)
            yr = int(yr)
        except (TypeError, ValueError):
            continue
        target = anchor(doc, yr, page)
        if target not in pages:
            own = (doc, yr) == (document, year)
            pages[target] = {
                "id": target, "label": f"{doc} {yr} p.{page + 1}",
                "text": page_texts.get((doc, yr, page), "") if own else "",
                "note": "" if own and (doc, yr, page) in page_texts else (
                    "page not in this partition's raw_pages: the quoted words only"),
                "quotes": [],
            }
        quote = _text(c.get("quote"))
        if quote and quote not in pages[target]["quotes"]:
            pages[target]["quotes"].append(quote)
        out.append(Citation(label=f"{doc} {yr} p.{page + 1}", quote=quote,
                            mark=_text(c.get("mark")) or "unchecked", target=target))
    return out


def _registry(dictionary: pd.DataFrame, registry: pd.DataFrame) -> list[dict[str, Any]]:
    counts: dict[str, int] = {}
    resolutions: dict[str, set[str]] = {}
    if not registry.empty and "footnote_id" in registry:
        for r in registry.itertuples(index=False):
            key = _text(r.footnote_id) or f"unresolved:{r.marker}"
            counts[key] = counts.get(key, 0) + 1
            resolutions.setdefault(key, set()).add(_text(getattr(r, "resolution", "")))
    rows = []
    for r in dictionary.itertuples(index=False):
        footnote_id = _text(r.footnote_id)
        key = footnote_id or f"unresolved:{r.marker}"
        defined_on = sorted({int(k) for k in _json_dict(getattr(r, "spans", "{}"))}
                            | ({int(r.page_index)} if _num(r.page_index) is not None else set()))
        cited = sorted(int(p) for p in _json_list(getattr(r, "cited_pages", "[]")))
        sentences = _json_list(getattr(r, "citing_sentences", "[]"))
        resolution = ", ".join(sorted(x for x in resolutions.get(key, set()) if x))
        rows.append({
            "id": footnote_id or "-", "marker": _text(r.marker), "status": _text(r.status),
            "definition": _text(r.text), "defined_on": [p + 1 for p in defined_on],
            "cited_on": [p + 1 for p in cited],
            "resolution": resolution or _text(r.status),
            "citations": counts.get(key, len(sentences)),
            "sentences": [_text(s) for s in sentences[:5]],
        })
    return rows


def _chunk_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    if frame.empty:
        return []
    if "seq" in frame:
        frame = frame.sort_values("seq")
    rows = []
    for r in frame.itertuples(index=False):
        cited, defined = _json_list(r.markers_cited), _json_list(r.markers_defined)
        rows.append({
            "id": _text(r.chunk_id), "seq": int(r.seq) if _num(r.seq) is not None else 0,
            "pages": f"{int(r.page_start) + 1}-{int(r.page_end) + 1}"
            if int(r.page_end) != int(r.page_start) else str(int(r.page_start) + 1),
            "context": _text(getattr(r, "context", "")), "text": _text(r.text),
            "tokens": int(r.n_tokens) if _num(getattr(r, "n_tokens", None)) is not None else 0,
            "cited": [{"marker": m, "held": m in defined} for m in cited],
            "defined": list(defined),
        })
    return rows


def text_sources(raw: pd.DataFrame) -> list[dict[str, Any]]:
    """The pages of ``raw_pages`` read by OCR or left without text, in page order: page number
    (1-based), printed label, source, characters, and the note saying how or why. A table
    written before the text source was kept has none to show."""
    if raw.empty or "text_source" not in raw:
        return []
    rows = []
    for r in raw.sort_values("page_index").itertuples(index=False):
        source = _text(r.text_source) or "text"
        if source == "text":
            continue
        rows.append({
            "page": int(r.page_index) + 1, "label": _text(r.page_label), "source": source,
            "chars": int(r.n_chars) if _num(r.n_chars) is not None else 0,
            "note": _text(getattr(r, "text_note", None)),
        })
    return rows


def recomputed_conservation(frames: Mapping[str, pd.DataFrame]) -> dict[str, object]:
    """Text conservation computed again from the stored pages, footnote tables and stitched
    text (deterministic, no model) when no run's check figures were given; nothing when a table
    is missing."""
    needed = ("raw_pages", "footnote_dictionary", "footnote_registry", "stitched_text")
    if any(frames[name].empty for name in needed):
        return {}
    result = text_conservation(
        frame_to_pages(frames["raw_pages"]),
        frames_to_index(frames["footnote_dictionary"], frames["footnote_registry"]),
        frame_to_stitched(frames["stitched_text"]),
    )
    return {"text_conservation": "recomputed from the stored tables",
            "words_checked": result.words_checked, "words_lost": result.words_lost}


def _pct(numerator: int, denominator: int) -> str:
    return f"{numerator}/{denominator} ({100 * numerator / denominator:.0f}%)" if denominator \
        else "-"


def collect(document: str, year: int, tables: Mapping[str, pd.DataFrame | None],
            figures: Mapping[str, object] | None = None,
            threshold: float = SIMILARITY_THRESHOLD) -> AuditData:
    """What the report shows, from the partition's stored tables (``TABLES``, each a DataFrame
    or ``None`` when not stored) and recorded figures (e.g. ``words_lost`` of the
    ``text_conservation`` check, ``definitions_complete``)."""
    frames = {name: _rows(tables.get(name)) for name in TABLES}
    missing = [name for name in TABLES if frames[name].empty]
    raw = frames["raw_pages"]
    page_texts: dict[tuple[str, int, int], str] = {}
    if not raw.empty:
        for r in raw.itertuples(index=False):
            page_texts[(document, year, int(r.page_index))] = _text(r.text)
    pages: dict[str, dict[str, Any]] = {}

    summaries: dict[str, list[Sentence]] = {}
    frame = frames["summaries"]
    if not frame.empty:
        for variant, rows in frame.sort_values("position").groupby("variant", sort=False):
            summaries[str(variant)] = [
                Sentence(_text(r.text), _citations(_json_list(r.citations), pages, page_texts,
                                                   document, year))
                for r in rows.itertuples(index=False)
            ]
    diff = sentence_diff([s.text for s in summaries.get("baseline", [])],
                         [s.text for s in summaries.get("enriched", [])], threshold) \
        if summaries else []

    metrics = frames["answer_metrics"]
    by_question = {str(r["question_id"]): r for r in metrics.to_dict("records")} \
        if not metrics.empty else {}
    answers = []
    for r in frames["answers"].to_dict("records"):
        result = _json_dict(r.get("result_json"))
        claims = [Sentence(_text(c.get("text")), _citations(c.get("citations", []), pages,
                                                            page_texts, document, year))
                  for c in result.get("claims", []) if isinstance(c, dict)]
        score = by_question.get(str(r.get("question_id")), {})
        answers.append({
            "id": _text(r.get("question_id")), "question": _text(r.get("question")),
            "category": _text(r.get("category")), "answer": _text(r.get("answer")),
            "abstained": bool(r.get("abstained")) if r.get("abstained") is not pd.NA else False,
            "claims": claims,
            "scores": {k: _num(score.get(k)) for k in ("fact_recall", "citation_precision",
                                                        "citation_recall")},
        })

    dictionary = frames["footnote_dictionary"]
    registry = _registry(dictionary, frames["footnote_registry"]) if not dictionary.empty else []
    statuses = dictionary["status"].value_counts().to_dict() if not dictionary.empty else {}
    registry_summary = {
        "definitions": int(sum(v for k, v in statuses.items() if k != "dangling")),
        "cited": int(statuses.get("cited", 0)), "orphan": int(statuses.get("orphan", 0)),
        "dangling markers": int(statuses.get("dangling", 0)),
    }
    reg = frames["footnote_registry"]
    if not reg.empty and "resolution" in reg:
        counts = reg["resolution"].value_counts().to_dict()
        registry_summary["citations"] = len(reg)
        registry_summary["stitched"] = int(counts.get("stitched", 0))
        registry_summary["unresolved"] = int(counts.get("unresolved", 0))

    chunks = {kind: _chunk_rows(frames[f"{kind}_chunks"]) for kind in KINDS}
    coverage = {kind: chunk_coverage(frames[f"{kind}_chunks"]) for kind in KINDS}
    sources = text_sources(raw)
    scorecard: list[tuple[str, str]] = [("pages", str(len(raw)) if not raw.empty else "-")]
    scorecard.append(("footnote definitions", str(registry_summary["definitions"])
                      if not dictionary.empty else "-"))
    for kind in KINDS:
        pairs = sum(len(c["cited"]) for c in chunks[kind])
        held = sum(m["held"] for c in chunks[kind] for m in c["cited"])
        scorecard.append((f"{kind} chunks", str(len(chunks[kind])) if chunks[kind] else "-"))
        scorecard.append((f"{kind} co-location", _pct(held, pairs)))
    for source, name in (("ocr", "pages read by OCR"), ("none", "pages without text")):
        scorecard.append((name, str(sum(r["source"] == source for r in sources))
                          if not raw.empty else "-"))
    retrieval = frames["retrieval_metrics"]
    if not retrieval.empty and "category" in retrieval:
        retrieval = retrieval[retrieval["category"] == "all"]
    for kind in KINDS:
        rows = retrieval[retrieval["kind"] == kind] if "kind" in retrieval else retrieval.iloc[0:0]
        if "unavailable" in rows:  # a stage that could not run carries its fallback's numbers
            rows = rows[rows["unavailable"].isna()]
        if not rows.empty and "page_mrr" in rows:
            best = rows.sort_values("page_mrr", ascending=False).iloc[0]
            scorecard.append((f"best MRR ({kind})", f"{float(best.page_mrr):.3f} "
                              f"{best.strategy} / {best.setting}"))
    if not metrics.empty:
        for column in ("fact_recall", "citation_precision", "citation_recall"):
            if column in metrics:
                values = pd.to_numeric(metrics[column], errors="coerce").dropna()
                scorecard.append((column.replace("_", " "),
                                  f"{values.mean():.3f}" if len(values) else "-"))
    figures = dict(figures or {})
    if "words_lost" not in figures:
        figures.update(recomputed_conservation(frames))
    for key in ("words_lost", "definitions_complete"):
        if key in figures:
            scorecard.append((key.replace("_", " "), str(figures[key])))
    return AuditData(
        document=document, year=year, threshold=threshold, missing=missing,
        scorecard=scorecard, chunks=chunks, coverage=coverage, registry=registry,
        registry_summary=registry_summary, summaries=summaries, diff=diff, answers=answers,
        retrieval=retrieval, answer_metrics=metrics, figures=figures, pages=pages,
        text_sources=sources,
    )


# --- Markdown ----------------------------------------------------------------------------------

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


# --- HTML --------------------------------------------------------------------------------------


def environment() -> Environment:
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


# --- the three files ---------------------------------------------------------------------------


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
