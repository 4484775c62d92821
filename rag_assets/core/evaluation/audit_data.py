"""What the audit report shows, collected from a partition's stored tables only (no model, no
embedding): the scorecard, where each page's text came from, the chunks and their footnote
coverage, the footnote registry, the summaries and their diff, the answers with their citations
and scores, the retrieval metrics, text conservation.

Every table may be missing or empty (the renderings then say so). A citation's target is a page
anchor built from the partition and the page number only (:func:`anchor`), never from document
text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, SupportsInt

import pandas as pd

from rag_assets.core.evaluation.coverage_heatmap import KINDS, chunk_coverage
from rag_assets.core.evaluation.summary_diff import SIMILARITY_THRESHOLD, DiffRow, sentence_diff
from rag_assets.core.evaluation.table_cells import (
    cell_dict,
    cell_list,
    cell_number,
    cell_text,
    frame_or_empty,
)
from rag_assets.core.footnotes.checks import text_conservation
from rag_assets.core.warehouse.tables import (
    frame_to_pages,
    frame_to_stitched,
    frames_to_index,
)

TABLES = (
    "raw_pages", "footnote_dictionary", "footnote_registry", "stitched_text", "naive_chunks",
    "enriched_chunks", "retrieval_metrics", "summaries", "answers", "answer_metrics",
)


def anchor(document: str, year: object, page: SupportsInt) -> str:
    """The id of a page's anchor: built from the partition and the page number only, with every
    character outside ``[a-z0-9-]`` replaced (an id never carries document text)."""
    slug = re.sub(r"[^a-z0-9-]+", "-", f"{document}-{year}".lower())
    return f"page-{slug}-{int(page)}"


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
    # steps of reading a page that failed (its tables, superscripts, OCR): the page kept its text
    page_faults: list[dict[str, Any]] = field(default_factory=list)


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
        quote = cell_text(c.get("quote"))
        if quote and quote not in pages[target]["quotes"]:
            pages[target]["quotes"].append(quote)
        out.append(Citation(label=f"{doc} {yr} p.{page + 1}", quote=quote,
                            mark=cell_text(c.get("mark")) or "unchecked", target=target))
    return out


def _registry(dictionary: pd.DataFrame, registry: pd.DataFrame) -> list[dict[str, Any]]:
    counts: dict[str, int] = {}
    resolutions: dict[str, set[str]] = {}
    if not registry.empty and "footnote_id" in registry:
        for r in registry.itertuples(index=False):
            key = cell_text(r.footnote_id) or f"unresolved:{r.marker}"
            counts[key] = counts.get(key, 0) + 1
            resolutions.setdefault(key, set()).add(cell_text(getattr(r, "resolution", "")))
    rows = []
    for r in dictionary.itertuples(index=False):
        footnote_id = cell_text(r.footnote_id)
        key = footnote_id or f"unresolved:{r.marker}"
        defined_on = sorted({int(k) for k in cell_dict(getattr(r, "spans", "{}"))}
                            | ({int(r.page_index)} if cell_number(r.page_index) is not None
                               else set()))
        cited = sorted(int(p) for p in cell_list(getattr(r, "cited_pages", "[]")))
        sentences = cell_list(getattr(r, "citing_sentences", "[]"))
        resolution = ", ".join(sorted(x for x in resolutions.get(key, set()) if x))
        rows.append({
            "id": footnote_id or "-", "marker": cell_text(r.marker),
            "status": cell_text(r.status),
            "definition": cell_text(r.text), "defined_on": [p + 1 for p in defined_on],
            "cited_on": [p + 1 for p in cited],
            "resolution": resolution or cell_text(r.status),
            "citations": counts.get(key, len(sentences)),
            "sentences": [cell_text(s) for s in sentences[:5]],
        })
    return rows


def _chunk_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    if frame.empty:
        return []
    if "seq" in frame:
        frame = frame.sort_values("seq")
    rows = []
    for r in frame.itertuples(index=False):
        cited, defined = cell_list(r.markers_cited), cell_list(r.markers_defined)
        rows.append({
            "id": cell_text(r.chunk_id),
            "seq": int(r.seq) if cell_number(r.seq) is not None else 0,
            "pages": f"{int(r.page_start) + 1}-{int(r.page_end) + 1}"
            if int(r.page_end) != int(r.page_start) else str(int(r.page_start) + 1),
            "context": cell_text(getattr(r, "context", "")), "text": cell_text(r.text),
            "tokens": int(r.n_tokens) if cell_number(getattr(r, "n_tokens", None)) is not None
            else 0,
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
        source = cell_text(r.text_source) or "text"
        if source == "text":
            continue
        rows.append({
            "page": int(r.page_index) + 1, "label": cell_text(r.page_label), "source": source,
            "chars": int(r.n_chars) if cell_number(r.n_chars) is not None else 0,
            "note": cell_text(getattr(r, "text_note", None)),
        })
    return rows


def page_faults(raw: pd.DataFrame) -> list[dict[str, Any]]:
    """The steps of reading a page that failed, in page order: page number (1-based), printed
    label, the reader that failed and why. The page kept what the other steps read."""
    if raw.empty or "faults" not in raw:
        return []
    rows = []
    for r in raw.sort_values("page_index").itertuples(index=False):
        faults = json.loads(r.faults) if isinstance(r.faults, str) else []
        rows += [{"page": int(r.page_index) + 1, "label": cell_text(r.page_label),
                  "reader": f["reader"], "cause": f["cause"]} for f in faults]
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
    frames = {name: frame_or_empty(tables.get(name)) for name in TABLES}
    missing = [name for name in TABLES if frames[name].empty]
    raw = frames["raw_pages"]
    page_texts: dict[tuple[str, int, int], str] = {}
    if not raw.empty:
        for r in raw.itertuples(index=False):
            page_texts[(document, year, int(r.page_index))] = cell_text(r.text)
    pages: dict[str, dict[str, Any]] = {}

    summaries: dict[str, list[Sentence]] = {}
    frame = frames["summaries"]
    if not frame.empty:
        for variant, rows in frame.sort_values("position").groupby("variant", sort=False):
            summaries[str(variant)] = [
                Sentence(cell_text(r.text), _citations(cell_list(r.citations), pages,
                                                       page_texts, document, year))
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
        result = cell_dict(r.get("result_json"))
        claims = [Sentence(cell_text(c.get("text")),
                           _citations(c.get("citations", []), pages, page_texts, document, year))
                  for c in result.get("claims", []) if isinstance(c, dict)]
        score = by_question.get(str(r.get("question_id")), {})
        answers.append({
            "id": cell_text(r.get("question_id")), "question": cell_text(r.get("question")),
            "category": cell_text(r.get("category")), "answer": cell_text(r.get("answer")),
            "abstained": bool(r.get("abstained")) if r.get("abstained") is not pd.NA else False,
            "claims": claims,
            "scores": {k: cell_number(score.get(k))
                       for k in ("fact_recall", "citation_precision", "citation_recall")},
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
        page_faults=page_faults(raw),
    )
