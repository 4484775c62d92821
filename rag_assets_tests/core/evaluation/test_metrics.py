"""Retrieval metrics against hand-computed cases: reciprocal rank, nDCG@10 with first-cover credit,
recall@k, and the page and footnote judgement of ranked hits against a golden question."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rag_assets.core.evaluation.metrics import (
    Item,
    marker_items,
    ndcg_at_k,
    page_items,
    ranked_metrics,
    recall_at_k,
    reciprocal_rank,
)
from rag_assets.core.evaluation.questions import (
    GoldenQuestion,
    answerable_questions,
    read_questions,
    write_questions,
)
from rag_assets.core.evaluation.runs import judge, run_questions
from rag_assets.core.retrieval.retriever import Hit, RetrievalResult, Scope

DOC, YEAR = "acme-10k", 2022


def p(page: int, document: str = DOC, year: int = YEAR) -> Item:
    """One page item."""
    return (document, year, str(page))


NONE: set[Item] = set()


# --- reciprocal rank -------------------------------------------------------------------------


def test_reciprocal_rank_is_one_over_the_first_relevant_rank() -> None:
    # ranks 1 and 2 cover nothing, rank 3 covers page 4: 1/3
    assert reciprocal_rank([NONE, NONE, {p(4)}, {p(5)}]) == pytest.approx(1 / 3)
    assert reciprocal_rank([{p(4)}, NONE]) == 1.0
    assert reciprocal_rank([NONE, {p(4)}]) == 0.5


def test_reciprocal_rank_is_zero_without_a_relevant_hit() -> None:
    assert reciprocal_rank([NONE, NONE, NONE]) == 0.0
    assert reciprocal_rank([]) == 0.0


def test_reciprocal_rank_cut_off_at_k() -> None:
    covered = [NONE, NONE, {p(4)}]
    assert reciprocal_rank(covered, k=2) == 0.0  # the relevant hit is at rank 3 > k
    assert reciprocal_rank(covered, k=3) == pytest.approx(1 / 3)
    # ranked_metrics uses k=10: a first relevant hit at rank 11 gives MRR 0
    eleventh = [NONE] * 10 + [{p(4)}]
    assert reciprocal_rank(eleventh) == pytest.approx(1 / 11)
    assert ranked_metrics(eleventh, 1).mrr == 0.0


# --- nDCG@10 ---------------------------------------------------------------------------------


def test_ndcg_two_relevant_pages_found_at_ranks_1_and_3() -> None:
    # DCG = 1/log2(1+1) + 1/log2(3+1) = 1 + 1/2 = 1.5
    # IDCG (both items in the first hit) = 2/log2(2) = 2
    covered = [{p(3)}, NONE, {p(7)}]
    expected = (1 + 1 / math.log2(4)) / 2
    assert ndcg_at_k(covered, n_items=2) == pytest.approx(expected)
    assert ndcg_at_k(covered, n_items=2) == pytest.approx(0.75)


def test_ndcg_counts_a_page_covered_twice_once() -> None:
    # rank 2 covers page 3 again: no fresh item, no gain. DCG = 1 + 1/log2(4) as above
    covered = [{p(3)}, {p(3)}, {p(7)}]
    assert ndcg_at_k(covered, n_items=2) == pytest.approx(0.75)
    # had the duplicate counted, DCG would be 1 + 1/log2(3) + 1/2 = 2.13 > IDCG = 2
    assert ndcg_at_k(covered, n_items=2) < 1.0


def test_ndcg_one_hit_covering_two_items_gains_two_at_its_rank() -> None:
    # one hit spanning pages 3..7 covers both items at rank 1: DCG = 2/log2(2) = 2 = IDCG
    assert ndcg_at_k([{p(3), p(7)}], n_items=2) == 1.0
    # the same hit at rank 2: DCG = 2/log2(3) = 1.2619; / 2 = 0.6309
    expected = (2 / math.log2(3)) / 2
    assert ndcg_at_k([NONE, {p(3), p(7)}], n_items=2) == pytest.approx(expected)
    assert expected == pytest.approx(0.6309, abs=1e-4)
    # the reviewer's case: {a,b} at rank 1 and c at rank 4 is not perfect any more
    assert ndcg_at_k([{p(1), p(2)}, NONE, NONE, {p(3)}], n_items=3) == pytest.approx(
        (2 + 1 / math.log2(5)) / 3)


def test_ndcg_ideal_is_every_item_in_the_first_hit() -> None:
    # 12 items, ranks 1..10 each cover a fresh one: DCG@10 = sum_{r=1..10} 1/log2(r+1);
    # IDCG = 12 (all twelve first covered at rank 1)
    covered = [{p(r)} for r in range(1, 13)]
    dcg_10 = sum(1 / math.log2(r + 1) for r in range(1, 11))
    assert dcg_10 == pytest.approx(4.543559, abs=1e-6)
    assert ndcg_at_k(covered, n_items=12) == pytest.approx(dcg_10 / 12)
    # only rank 1 relevant: 1 / 12
    assert ndcg_at_k([{p(1)}], n_items=12) == pytest.approx(1 / 12)
    # a hit at rank 11 is beyond k and earns nothing
    assert ndcg_at_k([NONE] * 10 + [{p(1)}], n_items=1) == 0.0


def test_ndcg_without_items_is_zero() -> None:
    assert ndcg_at_k([{p(1)}], n_items=0) == 0.0
    assert ndcg_at_k([NONE, NONE], n_items=2) == 0.0


# --- recall@k --------------------------------------------------------------------------------


def test_recall_at_1_5_10() -> None:
    # 5 items, pages {1, 2, 3, 4, 99}: page 1 at rank 2 (and again at 8), pages 2 and 3 at rank 5
    # (one hit), page 4 at rank 9 (and again at 10), page 99 at rank 11
    covered = [NONE, {p(1)}, NONE, NONE, {p(2), p(3)}, NONE, NONE, {p(1)}, {p(4)}, {p(4)},
               {p(99)}]
    assert recall_at_k(covered, 5, 1) == 0.0  # rank 1 covers nothing
    assert recall_at_k(covered, 5, 2) == pytest.approx(1 / 5)
    assert recall_at_k(covered, 5, 5) == pytest.approx(3 / 5)  # pages 1, 2, 3
    assert recall_at_k(covered, 5, 10) == pytest.approx(4 / 5)  # + page 4 (counted once)
    assert recall_at_k(covered, 5, 11) == 1.0
    assert recall_at_k([], 5, 10) == 0.0
    assert recall_at_k(covered, 0, 10) == 0.0
    m = ranked_metrics(covered, 5)
    assert (m.recall_at_1, m.recall_at_5, m.recall_at_10) == pytest.approx((0.0, 0.6, 0.8))
    assert m.mrr == 0.5


def test_ranked_metrics_of_a_perfect_and_an_empty_list() -> None:
    perfect = ranked_metrics([{p(1), p(2)}], 2)  # all evidence in the first hit
    assert set(perfect.model_dump().values()) == {1.0}
    two_hits = ranked_metrics([{p(1)}, {p(2)}], 2)
    # recall@1: 1 of 2 items; nDCG (1 + 1/log2 3) / 2
    assert two_hits.model_dump() == pytest.approx(
        {"mrr": 1.0, "ndcg_at_10": (1 + 1 / math.log2(3)) / 2, "recall_at_1": 0.5,
         "recall_at_5": 1.0, "recall_at_10": 1.0})
    empty = ranked_metrics([], 2)
    assert set(empty.model_dump().values()) == {0.0}


def test_items_are_typed_and_normalized() -> None:
    assert page_items("d", 2021, [3, 4]) == {("d", 2021, "3"), ("d", 2021, "4")}
    assert marker_items("d", 2021, ["[1]", "(a)"]) == {("d", 2021, "[1]"), ("d", 2021, "(a)")}


# --- judge: page and footnote level ----------------------------------------------------------


def hit(rank: int, page_start: int, page_end: int | None = None, *, document: str = DOC,
        year: int = YEAR, defined: list[str] | None = None) -> Hit:
    return Hit(
        chunk_id=f"{document}:{year}:{rank}", document=document, year=year,
        page_start=page_start, page_end=page_end if page_end is not None else page_start,
        text=f"text {rank}", markers_defined=defined or [], rank=rank, score=1.0 / rank,
        stage="test",
    )


def question(pages: list[int], markers: list[str] | None = None) -> GoldenQuestion:
    return GoldenQuestion(
        id="q1", document=DOC, year=YEAR, question="What was revenue?", category="factual",
        relevant_pages=pages, relevant_markers=markers or [],
    )


def test_judge_page_level_ignores_same_page_of_another_document_or_year() -> None:
    q = question([5, 9])
    hits = [
        hit(1, 5, document="other-10k"),  # page 5 of another document: not relevant
        hit(2, 5, year=2021),  # page 5 of another year: not relevant
        hit(3, 4, 5),  # pages 4-5 of the right partition: covers page 5 -> first relevant
        hit(4, 5),  # page 5 again: no fresh item
        hit(5, 9),  # page 9: the second item
    ]
    page, footnote = judge(q, hits)
    assert footnote is None  # no labelled markers
    # MRR 1/3; DCG = 1/log2(4) + 1/log2(6); IDCG = 2 items at rank 1 = 2
    assert page.mrr == pytest.approx(1 / 3)
    assert page.ndcg_at_10 == pytest.approx((1 / math.log2(4) + 1 / math.log2(6)) / 2)
    assert (page.recall_at_1, page.recall_at_5, page.recall_at_10) == (0.0, 1.0, 1.0)


def test_judge_page_level_all_from_other_partitions_scores_zero() -> None:
    q = question([5])
    page, _ = judge(q, [hit(1, 5, document="other"), hit(2, 1, 9, year=2020)])
    assert set(page.model_dump().values()) == {0.0}


def test_judge_footnote_level_by_markers_defined() -> None:
    q = question([5, 8], markers=["[1]", "[2]"])  # cited on page 5, defined on page 8
    hits = [
        hit(1, 5),  # the right page, but it defines no marker
        hit(2, 6, document="other", defined=["[1]", "[2]"]),  # markers of another document
        hit(3, 7, year=2021, defined=["[1]"]),  # marker of another year
        hit(4, 8, defined=["[2]", "[7]"]),  # defines [2] (and an unlabelled [7])
        hit(5, 8, defined=["[1]", "[2]"]),  # [1] fresh, [2] already covered
    ]
    page, footnote = judge(q, hits)
    assert page.mrr == 1.0 and page.recall_at_1 == 0.5 and page.recall_at_5 == 1.0
    assert footnote is not None
    # first marker at rank 4: MRR 1/4; DCG = 1/log2(5) + 1/log2(6); IDCG = 2
    assert footnote.mrr == pytest.approx(1 / 4)
    assert footnote.ndcg_at_10 == pytest.approx((1 / math.log2(5) + 1 / math.log2(6)) / 2)
    assert footnote.recall_at_1 == 0.0
    assert footnote.recall_at_5 == 1.0
    assert footnote.recall_at_10 == 1.0
    # recall over the first 4 hits: [2] only
    marker_covered = [marker_items(h.document, h.year, h.markers_defined)
                      & marker_items(DOC, YEAR, ["[1]", "[2]"]) for h in hits]
    assert recall_at_k(marker_covered, 2, 4) == 0.5


def test_judge_footnote_level_needs_a_labelled_page() -> None:
    """"(a)" and "*" restart under every table: the same marker defined on an unlabelled page is
    another footnote and earns nothing."""
    q = question([5, 8], markers=["(a)"])
    hits = [
        hit(1, 40, defined=["(a)"]),  # an "(a)" under some other table
        hit(2, 5, defined=["(a)"]),  # the stitched chunk: citing page, definition inlined
    ]
    _, footnote = judge(q, hits)
    assert footnote is not None
    assert footnote.mrr == 0.5
    assert footnote.recall_at_1 == 0.0 and footnote.recall_at_5 == 1.0


# ------------------------------------------------------------------ unanswerable golden questions


def unanswerable(**labels: object) -> GoldenQuestion:
    return GoldenQuestion(id="u1", document=DOC, year=YEAR, category="unanswerable",
                          question="What were revenues in 2035?", **labels)


def test_only_an_unanswerable_question_may_have_no_relevant_page(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="needs at least one relevant page"):
        question([])
    u = unanswerable()
    assert not u.answerable and question([3]).answerable
    path = tmp_path / "q.jsonl"
    write_questions(path, [question([3]), u])
    assert read_questions(path) == [question([3]), u]
    assert answerable_questions(read_questions(path)) == [question([3])]


@pytest.mark.parametrize("labels", [{"relevant_pages": [3]}, {"expected_facts": ["12"]},
                                    {"relevant_markers": ["(1)"]}])
def test_an_unanswerable_question_has_no_evidence(labels: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="unanswerable question has no evidence"):
        unanswerable(**labels)


def test_judge_refuses_an_unanswerable_question() -> None:
    with pytest.raises(ValueError, match="no evidence to rank"):
        judge(unanswerable(), [hit(1, 3)])


class _Embedder:
    def __init__(self) -> None:
        self.encoded: list[str] = []

    def embed_query(self, text: str) -> None:
        self.encoded.append(text)


class _Plan:
    def __init__(self, text: str) -> None:
        self.ranking_text = text


class _Retriever:
    """Answers every search with page 3 first: enough to see which questions were run."""

    def __init__(self) -> None:
        self.embedder = _Embedder()
        self.searched: list[str] = []

    def read(self, text: str) -> _Plan:
        return _Plan(text)

    def search(self, text: str, strategy: str, kind: str, scope: Scope | None = None
               ) -> RetrievalResult:
        self.searched.append(text)
        hits = [hit(1, 3), hit(2, 7)]
        return RetrievalResult(question=text, strategy=strategy, kind=kind, hits=hits,
                               pages=hits, scope=scope or Scope(), latency_ms=1.0)


def test_run_questions_skips_unanswerable_questions() -> None:
    retriever = _Retriever()
    records = run_questions(retriever, [question([3]), unanswerable()],  # type: ignore[arg-type]
                            kinds=["naive"], settings=["partition"], strategies=["dense"])
    assert [r.question_id for r in records] == ["q1"]
    assert records[0].page.mrr == 1.0
    assert "What were revenues in 2035?" not in retriever.searched + retriever.embedder.encoded
