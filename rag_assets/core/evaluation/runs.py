"""Retrieval evaluation: every golden question × chunk kind × setting × strategy, judged.

Two settings: ``partition`` searches only the question's own (document, year) partition;
``corpus`` searches one store shared by every partition, as users do. A hit is relevant at page
level when it is from the question's document and year and holds text from a labelled page (its
page range, and for an enriched chunk the pages of the footnotes stitched into it), at footnote
level when it also carries the definition of a labelled marker (see
:mod:`rag_assets.core.evaluation.metrics`). Each run is judged twice at page level: the chunk
ranking (``page_*`` columns) and the page ranking built from it (``pages_*``: one hit per page,
see :func:`rag_assets.core.retrieval.retriever.rank_pages`).

Unanswerable golden questions (category ``unanswerable``: the document does not hold the
answer) have no evidence page to rank: :func:`run_questions` skips them, so the retrieval
metrics are those of the answerable questions; answer evaluation judges them by abstention.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, get_args

import pandas as pd
from pydantic import BaseModel

from rag_assets.core.chunks.chunking import ChunkKind
from rag_assets.core.evaluation.metrics import (
    RankedMetrics,
    marker_items,
    page_items,
    ranked_metrics,
)
from rag_assets.core.evaluation.questions import GoldenQuestion, answerable_questions
from rag_assets.core.retrieval.retriever import STRATEGIES, Hit, Retriever, Scope, Strategy

Setting = Literal["partition", "corpus"]
SETTINGS: tuple[Setting, ...] = get_args(Setting)
CHUNK_KINDS: tuple[ChunkKind, ...] = get_args(ChunkKind)
METRICS = ("mrr", "ndcg_at_10", "recall_at_1", "recall_at_5", "recall_at_10")
# page: the chunk ranking judged by page; pages: the page ranking; footnote: definitions
LEVELS = ("page", "pages", "footnote")


class RankedHit(BaseModel):
    chunk_id: str
    document: str
    year: int
    page_start: int
    page_end: int
    pages: list[int]
    score: float
    stage: str


class RunRecord(BaseModel):
    """One question answered by one strategy in one setting: the ranking and its judgement."""

    question_id: str
    document: str
    year: int
    category: str
    kind: ChunkKind
    setting: Setting
    strategy: Strategy
    hits: list[RankedHit]
    page_hits: list[RankedHit]
    scope: str
    unavailable: str | None
    latency_ms: float
    page: RankedMetrics
    pages: RankedMetrics
    footnote: RankedMetrics | None


def judge(question: GoldenQuestion, hits: Sequence[Hit]) -> tuple[RankedMetrics,
                                                                    RankedMetrics | None]:
    """Page-level metrics, and footnote-level ones when the question labels markers.

    Raises ``ValueError`` for an unanswerable question: with no relevant page every ranking
    would score 0, which is not a judgement of the ranking."""
    if not question.answerable:
        raise ValueError(f"{question.id}: unanswerable, there is no evidence to rank")
    pages = page_items(question.document, question.year, question.relevant_pages)
    markers = marker_items(question.document, question.year, question.relevant_markers)
    page_covered = [page_items(h.document, h.year, h.pages) & pages for h in hits]
    page = ranked_metrics(page_covered, len(pages))
    if not markers:
        return page, None
    # "(a)" and "*" restart under every table: a definition counts only in a hit on a labelled
    # page (the defining page for a plain chunk, the citing page for a stitched one)
    marker_covered = [
        marker_items(h.document, h.year, h.markers_defined) & markers if covered else set()
        for h, covered in zip(hits, page_covered, strict=True)
    ]
    return page, ranked_metrics(marker_covered, len(markers))


def run_question(
    retriever: Retriever, question: GoldenQuestion, kind: ChunkKind, setting: Setting,
    strategy: Strategy,
) -> RunRecord:
    scope = Scope.partition(question.document, question.year) if setting == "partition" else None
    result = retriever.search(question.question, strategy, kind, scope=scope)
    page, footnote = judge(question, result.hits)
    pages, _ = judge(question, result.pages)
    return RunRecord(
        question_id=question.id, document=question.document, year=question.year,
        category=question.category, kind=kind, setting=setting, strategy=strategy,
        hits=_ranked(result.hits), page_hits=_ranked(result.pages),
        scope=result.scope.how, unavailable=result.unavailable, latency_ms=result.latency_ms,
        page=page, pages=pages, footnote=footnote,
    )


def _ranked(hits: Sequence[Hit]) -> list[RankedHit]:
    return [RankedHit(**h.model_dump(include=set(RankedHit.model_fields))) for h in hits]


def run_questions(
    retriever: Retriever,
    questions: Sequence[GoldenQuestion],
    *,
    kinds: Iterable[ChunkKind] = CHUNK_KINDS,
    settings: Iterable[Setting] = SETTINGS,
    strategies: Iterable[Strategy] = STRATEGIES,
    progress: Callable[[str], None] | None = None,
) -> list[RunRecord]:
    """Every answerable question × kind × setting × strategy; unanswerable questions are
    skipped (no evidence page to rank)."""
    records: list[RunRecord] = []
    questions = answerable_questions(questions)
    kinds, settings, strategies = list(kinds), list(settings), list(strategies)
    for question in questions:  # encode up front: no run's latency pays for the model
        retriever.embedder.embed_query(retriever.read(question.question).ranking_text)
    for kind in kinds:
        for setting in settings:
            for strategy in strategies:
                for question in questions:
                    records.append(run_question(retriever, question, kind, setting, strategy))
            if progress:
                progress(f"{kind} chunks, {setting} setting: {len(questions)} questions "
                         f"x {len(strategies)} strategies done")
    return records


RUN_COLUMNS = [
    "question_id", "document", "year", "category", "kind", "setting", "strategy", "scope",
    "unavailable", "latency_ms", "chunk_ids", "hits_json", "page_hits_json",
    *[f"{level}_{m}" for level in LEVELS for m in METRICS],
]


def records_to_frame(records: Sequence[RunRecord]) -> pd.DataFrame:
    """One row per record: the ranking as JSON, each metric in its own column (NaN footnote
    metrics for questions without labelled markers). Explicit types, so that an empty partition
    writes the same table shape."""
    rows = []
    for r in records:
        row = r.model_dump(exclude={"hits", "page_hits", "page", "pages", "footnote"})
        row["chunk_ids"] = json.dumps([h.chunk_id for h in r.hits])
        row["hits_json"] = json.dumps([h.model_dump() for h in r.hits])
        row["page_hits_json"] = json.dumps([h.model_dump() for h in r.page_hits])
        for metric in METRICS:
            row[f"page_{metric}"] = getattr(r.page, metric)
            row[f"pages_{metric}"] = getattr(r.pages, metric)
            row[f"footnote_{metric}"] = getattr(r.footnote, metric) if r.footnote else None
        rows.append(row)
    frame = pd.DataFrame(rows, columns=RUN_COLUMNS)
    floats = {c: "float64" for c in RUN_COLUMNS
              if c.startswith(tuple(f"{level}_" for level in LEVELS)) and c != "page_hits_json"}
    strings = {c: "string" for c in RUN_COLUMNS if c not in floats and c not in
               ("year", "latency_ms")}
    return frame.astype({**floats, **strings, "year": "Int64", "latency_ms": "float64"})


def summarize(runs: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Mean of every metric per group, with question counts and the reason a stage could not
    run (its metrics are then those of the first stage it fell back to)."""
    columns = [f"{level}_{m}" for level in LEVELS for m in METRICS]
    if runs.empty:
        return pd.DataFrame(columns=[*by, "questions", "footnote_questions", *columns,
                                     "latency_ms_p50", "unavailable"])
    grouped = runs.groupby(list(by), dropna=False, sort=True)
    out = grouped[columns].mean().round(4)
    out.insert(0, "questions", grouped.size())
    out.insert(1, "footnote_questions", grouped["footnote_mrr"].count())
    out["latency_ms_p50"] = grouped["latency_ms"].median().round(2)
    out["unavailable"] = grouped["unavailable"].agg(
        lambda s: next((v for v in s if isinstance(v, str) and v), None)
    )
    return out.reset_index()
