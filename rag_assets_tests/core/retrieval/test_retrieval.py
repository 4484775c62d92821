"""Retrieval over a real tiny store: scopes from the question (years with a ±1 fallback, documents
by alias), explicit scopes, every first-stage strategy, blended ranks, citation reranking, context
packing, multi-query evidence, and the cross-encoder stage (unavailable by default, and its
mechanics with a tiny BERT built in the test)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from rag_assets.core.chunks.chunking import Chunk, chunk_id
from rag_assets.core.retrieval.embeddings import Embedder, content_key
from rag_assets.core.retrieval.references import citation_scores
from rag_assets.core.retrieval.retriever import (
    DEFAULT_CROSS_ENCODER,
    SUMMARY_TOPICS,
    CrossEncoderReranker,
    Hit,
    RetrievalConfig,
    Retriever,
    Scope,
    blended_rank,
    pack_context,
)
from rag_assets.core.retrieval.store import VectorStore

KIND = "enriched"
ART_6 = ("Article 6(1) sets out when processing is lawful: the data subject has given consent, or "
         "processing is necessary for a contract or a legal obligation.")
ART_7 = ("Article 7 Conditions for consent: where processing is based on consent, the controller "
         "shall be able to demonstrate that the data subject has consented to processing of his "
         "or her personal data.")
CORPUS: dict[tuple[str, int], list[tuple[int, str]]] = {
    ("acme-10k", 2021): [
        (3, "Acme Corporation reported total revenue of $4.1 billion in fiscal 2021, up 8 percent "
            "on higher robot sales."),
        (5, "Operating cash flow was $900 million and free cash flow reached $650 million; debt "
            "stayed at $1.8 billion."),
        (9, "Principal risks include supply chain disruption, litigation over patents and "
            "contingencies from product recalls."),
    ],
    ("acme-10k", 2022): [
        (3, "Acme Corporation reported total revenue of $4.6 billion in fiscal 2022, up 12 "
            "percent on robot demand."),
        (6, "Liquidity remained strong with cash and equivalents of $1.2 billion and operating "
            "cash flow of $1.1 billion."),
        (8, "Outlook: management expects revenue growth of about 5 percent and stable margins in "
            "the coming year."),
        (11, "Acme acquired Widget Labs, expanding the robotics segment and its products and "
             "operations in Asia."),
    ],
    ("gdpr", 2016): [
        (36, ART_6),
        (37, ART_7),
        (43, "Article 17 Right to erasure: the data subject shall have the right to obtain from "
             "the controller the erasure of personal data without undue delay."),
        (8, "Recital 47 The legitimate interests of a controller may provide a legal basis for "
            "processing."),
    ],
}
N_CHUNKS = sum(len(rows) for rows in CORPUS.values())  # 11
PROFILES = {
    ("acme-10k", 2021): ["Acme Corporation", "Acme", "ACME"],
    ("acme-10k", 2022): ["Acme Corporation", "Acme", "ACME"],
    ("gdpr", 2016): ["Regulation (EU) 2016/679", "General Data Protection Regulation", "GDPR"],
}


def cid(document: str, year: int, seq: int) -> str:
    return chunk_id(document, year, KIND, seq)


ART_6_ID, ART_7_ID = cid("gdpr", 2016, 0), cid("gdpr", 2016, 1)
REVENUE_IDS = {cid("acme-10k", 2021, 0), cid("acme-10k", 2022, 0)}


def make_chunks(document: str, year: int, rows: Sequence[tuple[int, str]]) -> list[Chunk]:
    return [
        Chunk(chunk_id=cid(document, year, seq), document=document, year=year, kind=KIND,
              seq=seq, page_start=page, page_end=page, section=None, text=text,
              n_chars=len(text), n_tokens=len(text.split()), markers_cited=[],
              markers_defined=[])
        for seq, (page, text) in enumerate(rows)
    ]


def write(store: VectorStore, embedder: Embedder, document: str, year: int,
          rows: Sequence[tuple[int, str]]) -> None:
    chunks = make_chunks(document, year, rows)
    vectors, _ = embedder.embed([c.text for c in chunks])
    store.replace_partition(KIND, document, year, chunks, vectors,
                            [content_key(c.text) for c in chunks])


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> VectorStore:
    store = VectorStore(tmp_path_factory.mktemp("lancedb"), embedder.slug, embedder.dimension)
    for (document, year), rows in CORPUS.items():
        write(store, embedder, document, year, rows)
    for (document, year), aliases in PROFILES.items():
        store.put_profile(document, year, aliases[0], aliases)
    return store


@pytest.fixture(scope="module")
def unavailable_reranker() -> CrossEncoderReranker:
    return CrossEncoderReranker(DEFAULT_CROSS_ENCODER)


@pytest.fixture(scope="module")
def retriever(store: VectorStore, embedder: Embedder,
              unavailable_reranker: CrossEncoderReranker) -> Retriever:
    return Retriever(store, embedder, reranker=unavailable_reranker)


def ids(hits: Sequence[Hit]) -> list[str]:
    return [h.chunk_id for h in hits]


def test_the_store_holds_three_partitions(store: VectorStore) -> None:
    assert store.partitions(KIND) == [("acme-10k", 2021), ("acme-10k", 2022), ("gdpr", 2016)]
    assert [store.partition_rows(KIND, d, y) for d, y in CORPUS] == [3, 4, 4]


# --- temporal and document scopes ------------------------------------------------------------


def test_a_question_naming_a_held_year_searches_only_that_year(retriever: Retriever) -> None:
    result = retriever.search("What was total revenue in 2022?", "routed", k=N_CHUNKS)
    assert result.scope.years == [2022]
    assert result.scope.documents is None  # no document named
    assert result.scope.how == "all documents; years [2022]"
    # every 2022 chunk and nothing else; the revenue chunk first
    assert sorted(ids(result.hits)) == [cid("acme-10k", 2022, s) for s in range(4)]
    assert result.hits[0].chunk_id == cid("acme-10k", 2022, 0)


def test_years_a_report_prints_side_by_side_are_read_in_the_latest(retriever: Retriever) -> None:
    """2021 and 2022 are both held; the 2022 report prints 2021 beside 2022, so a question over
    both is read there. Years further apart than COMPARATIVE_YEARS keep both reports."""
    result = retriever.search("How did revenue change from FY2021 to FY2022?", "routed",
                              k=N_CHUNKS)
    assert result.scope.years == [2022]
    assert result.scope.how == "all documents; years [2021, 2022]: all in the 2022 report"
    assert {h.year for h in result.hits} == {2022}
    apart = retriever.search("Compare revenue in 2016 with 2022.", "routed", k=N_CHUNKS)
    assert apart.scope.years == [2016, 2022]  # six years apart: each year's own report
    older = retriever.search("Compare revenue in 2021 with 2023.", "routed", k=N_CHUNKS)
    assert older.scope.years == [2021]  # the latest year asked is not held: only what is


def test_a_year_without_a_partition_falls_back_to_the_next_year(retriever: Retriever) -> None:
    # 2020 is not held; of 2019..2021 only 2021 is
    result = retriever.search("What was total revenue in 2020?", "routed", k=N_CHUNKS)
    assert result.scope.years == [2021]
    assert "±1 [2021]" in result.scope.how
    assert {h.year for h in result.hits} == {2021}
    assert len(result.hits) == 3


def test_a_year_without_a_neighbour_searches_all_years(retriever: Retriever) -> None:
    result = retriever.search("What was total revenue in 2030?", "routed", k=N_CHUNKS)
    assert result.scope.years is None
    assert result.scope.where() is None
    assert "no partition within a year of [2030]: all years" in result.scope.how
    assert len(result.hits) == N_CHUNKS
    assert {h.year for h in result.hits} == {2016, 2021, 2022}


def test_an_explicit_scope_overrides_the_year_in_the_question(retriever: Retriever) -> None:
    scope = Scope(years=[2021], how="explicit")
    result = retriever.search("What was total revenue in 2022?", "routed", k=N_CHUNKS,
                              scope=scope)
    assert result.scope == scope
    assert {h.year for h in result.hits} == {2021}
    assert result.hits[0].chunk_id == cid("acme-10k", 2021, 0)
    partition = retriever.search("What was total revenue in 2022?", "dense", k=N_CHUNKS,
                                 scope=Scope.partition("gdpr", 2016))
    assert {(h.document, h.year) for h in partition.hits} == {("gdpr", 2016)}


def test_other_strategies_ignore_the_question_year(retriever: Retriever) -> None:
    result = retriever.search("What was total revenue in 2022?", "dense", k=N_CHUNKS)
    assert result.scope == Scope()
    assert result.scope.how == "whole corpus"
    assert len(result.hits) == N_CHUNKS


def test_any_strategy_can_route(retriever: Retriever) -> None:
    result = retriever.search("What was total revenue in 2022?", "hybrid_rrf", k=N_CHUNKS,
                              route=True)
    assert result.scope.years == [2022]
    assert {h.year for h in result.hits} == {2022}
    unrouted = retriever.search("What was total revenue in 2022?", "routed", k=N_CHUNKS,
                                route=False)
    assert unrouted.scope == Scope()


@pytest.mark.parametrize(
    ("question", "documents", "years"),
    [
        ("How did Acme revenue grow?", ["acme-10k"], None),
        ("What was ACME revenue in 2022?", ["acme-10k"], [2022]),
        ("When does the GDPR require consent?", ["gdpr"], None),
        ("When does the gdpr require consent?", None, None),  # an acronym only in capitals
        # the GDPR holds only 2016: 2021 has no partition within a year, so all its years
        ("What does the General Data Protection Regulation say in 2021?", ["gdpr"], None),
        ("What does the General Data Protection Regulation say in 2017?", ["gdpr"], [2016]),
        # 2021 is held, but not by the document named: ±1 finds nothing, so all its years
        ("What did the GDPR require in 2022?", ["gdpr"], None),
    ],
)
def test_routed_searches_the_documents_the_question_names(
    retriever: Retriever, question: str, documents: list[str] | None, years: list[int] | None
) -> None:
    result = retriever.search(question, "routed", k=N_CHUNKS)
    assert result.scope.documents == documents
    assert result.scope.years == years
    held = {(d, y) for d, y in CORPUS if (documents is None or d in documents)
            and (years is None or y in years)}
    if result.scope.latest:  # no period named: each document's latest partition only
        newest = {d: max(y for e, y in held if e == d) for d, _ in held}
        assert result.scope.latest == sorted(newest.items())
        held = set(newest.items())
    assert {(h.document, h.year) for h in result.hits} == held
    assert len(result.hits) == sum(len(CORPUS[p]) for p in held)
    assert {h.stage for h in result.hits} == {"citation_rerank"}


def test_scope_where_quotes_document_names() -> None:
    scope = Scope(documents=["o'neil-10k", "acme"], years=[2021, 2022])
    assert scope.where() == "document IN ('o''neil-10k', 'acme') AND year IN (2021, 2022)"
    assert Scope(years=[2020]).where() == "year IN (2020)"
    assert Scope().where() is None
    assert Scope.partition("o'neil", 2019).where() == "document IN ('o''neil') AND year IN (2019)"


def test_a_document_name_with_a_quote_is_searched_and_routed(
    tmp_path: Path, embedder: Embedder
) -> None:
    store = VectorStore(tmp_path / "db", embedder.slug, embedder.dimension)
    write(store, embedder, "o'neil-10k", 2021,
          [(1, "O'Neil Holdings sold lumber and nails."), (2, "Revenue of O'Neil was flat.")])
    write(store, embedder, "acme-10k", 2021, [(1, "Acme sold robots."), (2, "Acme revenue.")])
    store.put_profile("o'neil-10k", 2021, "O'Neil Holdings", ["O'Neil Holdings", "O'Neil"])
    retriever = Retriever(store, embedder)
    scope = Scope(documents=["o'neil-10k"])
    for strategy in ("dense", "bm25", "hybrid_blended"):
        hits = retriever.search("revenue", strategy, k=4, scope=scope).hits
        assert {h.document for h in hits} == {"o'neil-10k"}, strategy
    routed = retriever.search("What was O'Neil revenue?", "routed", k=4)
    assert routed.scope.documents == ["o'neil-10k"]
    assert {h.document for h in routed.hits} == {"o'neil-10k"}
    assert len(routed.hits) == 2


# --- first-stage strategies ------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["dense", "bm25", "hybrid_rrf", "hybrid_blended"])
def test_first_stage_strategies_return_ranked_hits(retriever: Retriever, strategy: str) -> None:
    result = retriever.search("What was Acme's total revenue?", strategy, k=4)  # type: ignore[arg-type]
    assert result.strategy == strategy
    assert result.unavailable is None
    assert [h.rank for h in result.hits] == [1, 2, 3, 4]
    assert {h.stage for h in result.hits} == {strategy}
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True)
    assert result.hits[0].chunk_id in REVENUE_IDS
    assert len(set(ids(result.hits))) == 4
    top = result.hits[0]
    assert top.pages == [3] and top.document == "acme-10k" and "revenue" in top.text


def test_dense_scores_are_cosines(retriever: Retriever, embedder: Embedder) -> None:
    question = "What was Acme's total revenue?"
    hits = retriever.search(question, "dense", k=3).hits
    q = embedder.embed_query(question)
    texts = embedder.encode([h.text for h in hits])
    assert [h.score for h in hits] == pytest.approx(list(texts @ q), abs=1e-4)


def test_bm25_finds_only_chunks_with_the_words(retriever: Retriever) -> None:
    hits = retriever.search("erasure", "bm25", k=10).hits
    assert ids(hits) == [cid("gdpr", 2016, 2)]
    assert retriever.search("zyzzyva", "bm25", k=10).hits == []


def test_hybrid_blended_scores_follow_the_formula(retriever: Retriever) -> None:
    """Both lists are as deep as the first stage (``first_stage_k``); the fused one is cut to k."""
    question, k, depth = "cash flow and liquidity", 5, retriever.config.first_stage_k
    dense = {h.chunk_id: h.rank for h in retriever.search(question, "dense", k=depth).hits}
    bm25 = {h.chunk_id: h.rank for h in retriever.search(question, "bm25", k=depth).hits}
    blended = retriever.search(question, "hybrid_blended", k=k).hits
    assert len(blended) == k
    w_vec, w_bm25 = retriever.config.w_vec, retriever.config.w_bm25
    for h in blended:  # missing from a list: its length + 1
        expected = (-w_vec * dense.get(h.chunk_id, len(dense) + 1)
                    - w_bm25 * bm25.get(h.chunk_id, len(bm25) + 1))
        assert h.score == pytest.approx(expected), h.chunk_id


# --- blended ranks by hand -------------------------------------------------------------------


def h(chunk: str, rank: int, score: float = 0.0, text: str = "", stage: str = "dense") -> Hit:
    return Hit(chunk_id=chunk, document="d", year=2022, page_start=1, page_end=1,
               text=text or chunk, rank=rank, score=score, stage=stage)


def test_blended_rank_arithmetic() -> None:
    dense = [h("a", 1), h("c", 2), h("b", 3)]
    bm25 = [h("b", 1, stage="bm25"), h("d", 2, stage="bm25")]
    # missing from dense: rank 3 + 1 = 4; missing from bm25: rank 2 + 1 = 3
    # a: -1 + 0.5 * -3 = -2.5
    # c: -2 + 0.5 * -3 = -3.5
    # b: -3 + 0.5 * -1 = -3.5 (tie with c: the better dense rank, c, goes first)
    # d: -4 + 0.5 * -2 = -5.0
    fused = blended_rank(dense, bm25, w_vec=1.0, w_bm25=0.5)
    assert [(x.chunk_id, x.rank, x.score) for x in fused] == [
        ("a", 1, -2.5), ("c", 2, -3.5), ("b", 3, -3.5), ("d", 4, -5.0)]
    assert {x.stage for x in fused} == {"hybrid_blended"}


def test_blended_rank_bm25_can_lift_a_chunk() -> None:
    dense = [h("a", 1), h("b", 2), h("c", 3), h("e", 4)]
    bm25 = [h("e", 1, stage="bm25"), h("c", 2, stage="bm25")]
    # a: -1 + 0.5 * -3 = -2.5; b: -2 - 1.5 = -3.5; c: -3 - 1 = -4.0; e: -4 - 0.5 = -4.5
    assert [(x.chunk_id, x.score) for x in blended_rank(dense, bm25, 1.0, 0.5)] == [
        ("a", -2.5), ("b", -3.5), ("c", -4.0), ("e", -4.5)]
    # with w_bm25 = 2: a: -1 - 6 = -7; b: -2 - 6 = -8; c: -3 - 4 = -7; e: -4 - 2 = -6
    assert [(x.chunk_id, x.score) for x in blended_rank(dense, bm25, 1.0, 2.0)] == [
        ("e", -6.0), ("a", -7.0), ("c", -7.0), ("b", -8.0)]


def test_blended_rank_of_empty_lists() -> None:
    assert blended_rank([], [], 1.0, 0.5) == []
    # only bm25: every chunk takes dense rank 0 + 1 = 1
    fused = blended_rank([], [h("x", 1), h("y", 2)], 1.0, 0.5)
    assert [(x.chunk_id, x.score) for x in fused] == [("x", -1.5), ("y", -2.0)]


# --- citation rerank -------------------------------------------------------------------------


QUESTION_6_1 = ("Under Art. 6(1), what must the controller demonstrate about the data subject's "
                "consent to processing of personal data?")


def test_citation_rerank_lifts_the_chunk_citing_the_asked_article(retriever: Retriever) -> None:
    first = [
        h("art7", 1, 0.90, ART_7),
        h("art6", 2, 0.85, ART_6),
        h("x", 3, 0.50, "Recital 47 concerns legitimate interests."),
        h("y", 4, 0.10, "Acme sold robots."),
    ]
    reranked = retriever.citation_rerank(QUESTION_6_1, first)
    assert ids(reranked) == ["art6", "art7", "x", "y"]
    assert [x.rank for x in reranked] == [1, 2, 3, 4]
    assert {x.stage for x in reranked} == {"citation_rerank"}
    # (1 - 0.3) * minmax(first stage) + 0.3 * citation score; Article 7 scores 0 for Art. 6(1)
    c6, c7 = (s.score for s in citation_scores(QUESTION_6_1, [ART_6, ART_7]))
    assert c7 == 0.0 and c6 > 0.4
    assert reranked[0].score == pytest.approx(0.7 * (0.85 - 0.10) / 0.80 + 0.3 * c6)
    assert reranked[1].score == pytest.approx(0.7 * 1.0)
    assert reranked[3].score == 0.0
    assert retriever.citation_rerank(QUESTION_6_1, []) == []


def test_citation_rerank_on_the_store_reverses_the_first_stage(retriever: Retriever) -> None:
    first = retriever.search(QUESTION_6_1, "hybrid_blended", k=N_CHUNKS).hits
    assert ids(first).index(ART_7_ID) < ids(first).index(ART_6_ID)  # the embedding prefers 7
    reranked = retriever.search(QUESTION_6_1, "citation_rerank", k=3).hits
    assert ids(reranked)[:2] == [ART_6_ID, ART_7_ID]
    assert len(reranked) == 3


# --- context packing -------------------------------------------------------------------------


def test_pack_context_truncates_a_first_hit_longer_than_the_budget() -> None:
    long = "x" * 6000
    packed = pack_context([h("a", 1, text=long), h("b", 2, text="short")])
    assert packed.texts == [long[:5000]]
    assert len(packed.texts[0]) == 5000
    assert packed.chars == 5000
    assert packed.truncated is True
    assert packed.chunk_ids == ["a"]
    assert packed.dropped == ["b"]  # nothing fits after a full budget


def test_pack_context_adds_only_whole_later_hits_in_order() -> None:
    hits = [h("a", 1, text="a" * 3000), h("b", 2, text="b" * 2500), h("c", 3, text="c" * 1500),
            h("d", 4, text="d" * 600), h("e", 5, text="e" * 500)]
    packed = pack_context(hits)
    # a: 3000; b: 3000 + 2500 > 5000 dropped; c: 4500 fits; d: 5100 dropped; e: exactly 5000
    assert packed.chunk_ids == ["a", "c", "e"]
    assert packed.texts == ["a" * 3000, "c" * 1500, "e" * 500]
    assert packed.dropped == ["b", "d"]
    assert packed.chars == 5000
    assert packed.truncated is False


def test_pack_context_budget_edges() -> None:
    exact = pack_context([h("a", 1, text="a" * 100)], budget=100)
    assert (exact.texts, exact.truncated, exact.chars) == (["a" * 100], False, 100)
    later_long = pack_context([h("a", 1, text="a" * 10), h("b", 2, text="b" * 200)], budget=100)
    assert later_long.chunk_ids == ["a"] and later_long.dropped == ["b"]  # only the first is cut
    empty = pack_context([])
    assert (empty.texts, empty.chars, empty.truncated, empty.dropped) == ([], 0, False, [])


# --- multi-query -----------------------------------------------------------------------------


def test_multi_query_merges_five_topic_searches(
    retriever: Retriever, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, list[str]]] = []
    search = retriever.search

    def spy(question, strategy, kind=KIND, **kwargs):  # type: ignore[no-untyped-def]
        result = search(question, strategy, kind, **kwargs)
        calls.append((question, ids(result.hits)))
        return result

    monkeypatch.setattr(retriever, "search", spy)
    hits = retriever.multi_query("Acme", k_per_query=3, scope=Scope(documents=["acme-10k"]))
    assert len(calls) == 5
    for (question, _), (topic, terms) in zip(calls, SUMMARY_TOPICS.items(), strict=True):
        assert question == f"Acme {topic}: {terms}"
    found = {c for _, topic_ids in calls for c in topic_ids}
    assert all(len(topic_ids) == 3 for _, topic_ids in calls)
    assert len(ids(hits)) == len(set(ids(hits)))  # each chunk once
    assert set(ids(hits)) == found  # every chunk any topic found
    assert [x.rank for x in hits] == list(range(1, len(hits) + 1))
    assert len(hits) > 3  # the topics do not all find the same chunks
    by_topic = {topic: topic_ids for (_, topic_ids), topic in zip(calls, SUMMARY_TOPICS,
                                                                   strict=True)}
    for x in hits:
        assert x.stage.startswith("multi_query:")
        assert x.chunk_id in by_topic[x.stage.removeprefix("multi_query:")]
        assert x.document == "acme-10k"
    # round-robin: the first three are the top hits of the first topics (when distinct)
    assert hits[0].chunk_id == calls[0][1][0]
    assert hits[0].stage == "multi_query:financial performance"


# --- cross-encoder ---------------------------------------------------------------------------


def test_default_cross_encoder_is_unavailable_and_the_first_stage_is_returned(
    retriever: Retriever, unavailable_reranker: CrossEncoderReranker
) -> None:
    reason = unavailable_reranker.unavailable
    assert isinstance(reason, str)
    # one line in the project's words: what is missing and what to do, not the hub's OSError
    assert reason.startswith(f"the optional cross-encoder reranker '{DEFAULT_CROSS_ENCODER}' "
                             "is not installed on this machine")
    assert "\n" not in reason and "huggingface.co" not in reason and "OSError" not in reason
    assert "retrieval.cross_encoder_model" in reason
    with pytest.raises(RuntimeError):
        unavailable_reranker.scores("q", ["t"])
    question = "What was Acme's total revenue?"
    result = retriever.search(question, "cross_encoder", k=5)
    assert result.unavailable == reason
    first = retriever.search(question, "hybrid_blended", k=50).hits[:5]
    assert [(x.chunk_id, x.rank, x.score, x.stage) for x in result.hits] == [
        (x.chunk_id, x.rank, x.score, x.stage) for x in first]
    assert {x.stage for x in result.hits} == {"hybrid_blended"}


VOCAB_WORDS = [
    "the", "a", "of", "to", "in", "and", "is", "was", "what", "revenue", "cash", "flow", "risk",
    "risks", "article", "consent", "data", "processing", "lawful", "growth", "acme", "robots",
    "sales", "debt",
]


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialized one-layer BERT cross-encoder, saved like a hub model."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-cross-encoder")
    vocab = folder / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *VOCAB_WORDS])
                     + "\n", encoding="utf-8")
    tokenizer = BertTokenizerFast(vocab_file=str(vocab))
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size, hidden_size=16, num_hidden_layers=1,
        num_attention_heads=2, intermediate_size=32, num_labels=1,
        max_position_embeddings=128, initializer_range=0.5,  # spread the scores apart
    )
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


TINY_TEXTS = ["revenue growth of acme robots", "cash flow and debt", "the risks of processing",
              "consent is lawful", "data", "what was the revenue of acme in the sales"]


def test_cross_encoder_reranks_by_model_score(
    tiny_cross_encoder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sentence_transformers import CrossEncoder

    batch_sizes: list[int] = []
    batches: list[int] = []
    predict, preprocess = CrossEncoder.predict, CrossEncoder.preprocess

    def predict_spy(self, inputs, *args, **kwargs):  # type: ignore[no-untyped-def]
        batch_sizes.append(kwargs["batch_size"])
        return predict(self, inputs, *args, **kwargs)

    def preprocess_spy(self, batch, *args, **kwargs):  # type: ignore[no-untyped-def]
        batches.append(len(batch))
        return preprocess(self, batch, *args, **kwargs)

    monkeypatch.setattr(CrossEncoder, "predict", predict_spy)
    monkeypatch.setattr(CrossEncoder, "preprocess", preprocess_spy)

    reranker = CrossEncoderReranker(str(tiny_cross_encoder), batch_size=2)
    assert reranker.unavailable is None
    question = "what was acme revenue"
    hits = [h(f"c{i}", i + 1, score=1.0 - i / 10, text=t, stage="hybrid_blended")
            for i, t in enumerate(TINY_TEXTS)]
    expected = reranker.scores(question, TINY_TEXTS)
    assert expected.shape == (6,) and expected.dtype == np.float32
    # a random tiny model can tie two texts (torch/transformers versions differ in how): the
    # order is checked by score, which a tie cannot make ambiguous, and the scores must spread
    assert len(set(expected.tolist())) >= 4
    assert batch_sizes == [2] and batches == [2, 2, 2]  # 6 pairs in batches of 2

    reranked = reranker.rerank(question, hits, top_n=3)
    top = sorted(expected.tolist(), reverse=True)[:3]
    assert [x.score for x in reranked] == pytest.approx(top, abs=1e-6)
    for x in reranked:  # each hit keeps its own text and carries its own model score
        i = int(x.chunk_id[1:])
        assert x.text == TINY_TEXTS[i] and x.score == pytest.approx(float(expected[i]), abs=1e-6)
    assert [x.rank for x in reranked] == [1, 2, 3]
    assert {x.stage for x in reranked} == {"cross_encoder"}
    assert batch_sizes == [2, 2]
    assert reranker.rerank(question, [], top_n=3) == []
    assert not math.isclose(float(expected.max()), float(expected.min()))


def test_retriever_cross_encoder_stage_keeps_top_n(
    store: VectorStore, embedder: Embedder, tiny_cross_encoder: Path
) -> None:
    reranker = CrossEncoderReranker(str(tiny_cross_encoder), batch_size=4)
    retriever = Retriever(store, embedder, RetrievalConfig(top_n=3), reranker)
    question = "What was Acme's total revenue?"
    result = retriever.search(question, "cross_encoder", k=10)
    assert result.unavailable is None
    assert [x.rank for x in result.hits] == [1, 2, 3]
    assert {x.stage for x in result.hits} == {"cross_encoder"}
    first = retriever.search(question, "hybrid_blended", k=50).hits
    scores = reranker.scores(question, [x.text for x in first])
    best = [first[i].chunk_id for i in sorted(range(len(first)), key=lambda i: -scores[i])[:3]]
    assert ids(result.hits) == best
