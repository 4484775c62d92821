"""Retrieval on a real 10-K: an analyst's question wrapped in instructions ranks the same
statement page first as its bare form; pages are ranked from their chunks."""

from __future__ import annotations

import pandas as pd
import pytest

from rag_assets.core.retrieval.embeddings import Embedder
from rag_assets.core.retrieval.retriever import Hit, RetrievalConfig, Retriever, rank_pages
from rag_assets.core.retrieval.store import VectorStore, index_partition
from rag_assets.core.warehouse.tables import pages_to_frame

from ..conftest import Processed

DOCUMENT, YEAR = "3m-10k", 2018
STATEMENT_PAGES = range(50, 63)  # Item 8 of the 3M 10-K: statements 55-59 and the first notes
INCOME, BALANCE, CASH_FLOWS = 55, 57, 59


@pytest.fixture(scope="module")
def retriever(three_m: Processed, tmp_path_factory: pytest.TempPathFactory) -> Retriever:
    """The enriched chunks of 3M's statement pages (with the whole filing's context) in a store
    of their own: about a hundred chunks, embedded in seconds."""
    chunks = three_m.part(STATEMENT_PAGES).enriched_chunks
    embedder = Embedder()
    store = VectorStore.of(embedder, tmp_path_factory.mktemp("lancedb"))
    index_partition(store, embedder, "enriched", DOCUMENT, YEAR, chunks)
    store.put_profile(DOCUMENT, YEAR, three_m.profile.title, three_m.profile.aliases)
    return Retriever(store, embedder)


PAIRS = [
    (
        "Using the cash flow statement, answer the following question to the best of your "
        "abilities: how much did 3M generate in cash flow from operating activities in FY2018? "
        "Answer in USD millions.",
        "How much did 3M generate in cash flow from operating activities in FY2018?",
        CASH_FLOWS,
    ),
    (
        "What is 3M's FY2018 net working capital? Define net working capital as total current "
        "assets less total current liabilities. Answer in USD millions. Respond to the question "
        "by assuming the perspective of an investment analyst who can only use the details "
        "shown within the balance sheet.",
        "What is 3M's FY2018 net working capital?",
        BALANCE,
    ),
    (
        "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response "
        "to the question by relying on the details shown in the cash flow statement.",
        "What was 3M's FY2018 capital expenditure?",
        CASH_FLOWS,
    ),
    (
        "What is the FY2018 operating margin for 3M? Round your answer to one decimal place. "
        "Approach the question asked by assuming the standpoint of an investment banking "
        "analyst who only has access to the statement of income.",
        "What is 3M's FY2018 operating margin?",
        INCOME,
    ),
]


@pytest.mark.parametrize(("instructed", "bare", "page"), PAIRS,
                         ids=["cash-from-operations", "working-capital", "capex", "margin"])
def test_instruction_laden_question_ranks_the_same_statement_page_as_its_bare_form(
    retriever: Retriever, instructed: str, bare: str, page: int
) -> None:
    for question in (instructed, bare):
        result = retriever.search(question, "routed", "enriched")
        assert result.scope.documents == [DOCUMENT]
        top = result.pages[0]
        assert (top.document, top.page) == (DOCUMENT, page), (question, top.page, top.context)
        assert top.statement is not None and top.page in top.pages
    assert (retriever.read(instructed).statements[:1]
            == retriever.read(bare).statements[:1]), "the same statement asked for"


def test_page_ranking_lists_each_page_once_with_its_chunks(retriever: Retriever) -> None:
    result = retriever.search(PAIRS[0][1], "routed", "enriched")
    pages = [(h.document, h.year, h.page) for h in result.pages]
    assert len(pages) == len(set(pages)) == min(10, len(pages))
    for hit in result.pages:
        assert hit.chunk_ids and hit.chunk_ids[0] == hit.chunk_id
        assert hit.page in hit.pages
        assert hit.stage == "page:citation_rerank"
    assert [h.rank for h in result.pages] == list(range(1, len(result.pages) + 1))


def test_statement_boost_lifts_the_statement_the_question_names(retriever: Retriever) -> None:
    """The weight is the only difference: without it, 3M's Note 1 (six chunks of accounting
    policies) ranks above the income statement for an operating-margin question; with it, the
    named statement is first. A question naming no statement ranks alike with and without."""
    plain = Retriever(retriever.store, retriever.embedder, RetrievalConfig(statement_weight=0))
    question = PAIRS[3][0]  # operating margin, "only has access to the statement of income"

    def first_income_statement(result_hits: list[Hit]) -> int:
        return next(h.rank for h in result_hits if h.statement == "income_statement")

    boosted, unboosted = retriever.search(question, "routed"), plain.search(question, "routed")
    assert boosted.pages[0].page == INCOME
    assert first_income_statement(boosted.hits) < first_income_statement(unboosted.hits)
    neutral = "What environmental remediation obligations does 3M disclose for 2018?"
    assert retriever.read(neutral).statements == []
    assert ([h.chunk_id for h in plain.search(neutral, "routed").hits]
            == [h.chunk_id for h in retriever.search(neutral, "routed").hits])


def test_hits_carry_the_statement_raw_pages_stores_for_their_page(
    retriever: Retriever, three_m: Processed
) -> None:
    """The statement boost reads each hit's statement: the classification made once at ingest,
    the one ``raw_pages`` stores for the page the chunk starts on (the facts reader and the
    chunkers read the same: ``core/chunks/test_report.py``)."""
    frame = pages_to_frame(three_m.pages, DOCUMENT, YEAR, "3m.pdf", "0" * 64, three_m.context)
    stored = {int(i): None if pd.isna(kind) else kind
              for i, kind in zip(frame.page_index, frame.statement, strict=True)}
    hits = [h for question, _, _ in PAIRS for h in retriever.search(question, "routed").hits]
    assert hits and {h.statement for h in hits} >= {"income_statement", "cash_flow"}
    assert all(h.statement == stored[h.page_start] for h in hits)


def _hit(chunk: str, page: int, score: float, rank: int, last: int | None = None) -> Hit:
    return Hit(chunk_id=chunk, document="d", year=2020, page_start=page,
               page_end=page if last is None else last, text=chunk, rank=rank, score=score,
               stage="routed")


def test_rank_pages_best_chunk_plus_a_bonus_per_further_chunk() -> None:
    """Scores go on 0..1 over the list (1.0 .. 0.0 here): page 3's best chunk (0.9) plus 0.2 for
    each of its two further chunks (0.5 each) beats page 1's single best chunk (1.0)."""
    hits = [_hit("a", 1, 1.0, 1), _hit("b", 3, 0.9, 2), _hit("c", 3, 0.5, 3),
            _hit("d", 3, 0.5, 4), _hit("e", 4, 0.0, 5, last=5)]
    pages = rank_pages(hits, bonus=0.2, extra_hits=3)
    assert [(h.page, h.chunk_id) for h in pages] == [(3, "b"), (1, "a"), (4, "e"), (5, "e")]
    assert pages[0].chunk_ids == ["b", "c", "d"]
    assert pages[0].score == pytest.approx(0.9 + 0.2 * (0.5 + 0.5))
    assert [h.pages for h in pages] == [[3], [1], [4], [5]]
    assert rank_pages(hits, bonus=0.0, extra_hits=3)[0].page == 1  # no bonus: the best chunk
    assert rank_pages([], bonus=0.2, extra_hits=3) == []


def test_without_query_understanding_the_question_ranks_as_asked(retriever: Retriever) -> None:
    raw = Retriever(retriever.store, retriever.embedder, RetrievalConfig(understand_query=False))
    question = PAIRS[0][0]
    plan = raw.read(question)
    assert plan.ranking_text == plan.bm25_text == question and plan.statements == []
    assert retriever.read(question).ranking_text != question  # the instructions are stripped
    assert raw.search(question, "routed").read == plan
