"""Retrieval metrics over ranked hits judged against golden evidence.

A question's evidence is a set of items: labelled pages ``(document, year, page)`` at page level,
labelled footnote markers ``(document, year, marker)`` at footnote level. A hit *covers* the items
it holds: the pages in its page range, the markers whose definition it carries. Credit goes to the
first hit that covers an item, so two hits on the same page are not counted twice:

- reciprocal rank: 1 / rank of the first hit covering any item, within the first k (MRR@10);
- nDCG@k: gain = the number of items first covered at a rank, discounted by ``log2(rank + 1)``,
  over the ideal DCG: every item covered by the first hit (``n_items``). One chunk holding a claim
  and its footnote's page ranks as well as evidence can, and two separate hits at ranks 1 and 2
  score ``(1 + 1/log2 3) / 2``; never above 1;
- recall@k: share of the items covered by the first k hits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel

Item = tuple[str, int, str]  # (document, year, page or marker), pages as text


class RankedMetrics(BaseModel):
    """Metrics of one ranked list at one level of judgement."""

    mrr: float
    ndcg_at_10: float
    recall_at_1: float
    recall_at_5: float
    recall_at_10: float


def reciprocal_rank(covered: Sequence[set[Item]], k: int | None = None) -> float:
    for rank, items in enumerate(covered[:k] if k else covered, start=1):
        if items:
            return 1.0 / rank
    return 0.0


def _first_covered(covered: Sequence[set[Item]]) -> list[int]:
    """How many items are covered for the first time at each rank."""
    seen: set[Item] = set()
    fresh: list[int] = []
    for items in covered:
        fresh.append(len(items - seen))
        seen |= items
    return fresh


def ndcg_at_k(covered: Sequence[set[Item]], n_items: int, k: int = 10) -> float:
    if n_items <= 0:
        return 0.0
    fresh = _first_covered(covered[:k])
    dcg = sum(gain / math.log2(rank + 1) for rank, gain in enumerate(fresh, start=1))
    return dcg / n_items  # the ideal: all n_items first covered at rank 1 (log2(2) = 1)


def recall_at_k(covered: Sequence[set[Item]], n_items: int, k: int) -> float:
    if n_items <= 0:
        return 0.0
    found: set[Item] = set().union(*covered[:k]) if covered[:k] else set()
    return len(found) / n_items


def ranked_metrics(covered: Sequence[set[Item]], n_items: int) -> RankedMetrics:
    return RankedMetrics(
        mrr=reciprocal_rank(covered, k=10),
        ndcg_at_10=ndcg_at_k(covered, n_items, 10),
        recall_at_1=recall_at_k(covered, n_items, 1),
        recall_at_5=recall_at_k(covered, n_items, 5),
        recall_at_10=recall_at_k(covered, n_items, 10),
    )


def page_items(document: str, year: int, pages: Sequence[int]) -> set[Item]:
    return {(document, int(year), str(int(p))) for p in pages}


def marker_items(document: str, year: int, markers: Sequence[str]) -> set[Item]:
    return {(document, int(year), m) for m in markers}
