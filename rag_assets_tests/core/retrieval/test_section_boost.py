"""Intents and the section boost of ``routed``."""

from __future__ import annotations

import pytest

from rag_assets.core.ingest.sections import load_sections, sections_of
from rag_assets.core.question.intents import load_intents
from rag_assets.core.question.question import read_question
from rag_assets.core.retrieval.retriever import Hit, RetrievalConfig, Retriever


@pytest.mark.parametrize(("question", "sections"), [
    # a cause is asked: MD&A gives the reasons (Item 303(b)), read before the goodwill note
    ("What drove KHC's 2019 impairments?", ["mdna", "goodwill"]),
    ("Where are Pfizer's legal proceedings discussed?", ["legal"]),
    ("Has MGM Resorts paid dividends to common shareholders in FY2022?",
     ["shareholder_returns"]),
    ("Who replaced the CEO of Foot Locker in 2022?", ["governance"]),  # officers: Item 5.02
    ("What is the FY2019 fixed asset turnover ratio for Activision Blizzard?", []),
])
def test_intents_point_to_sections(question: str, sections: list[str]) -> None:
    assert read_question(question).sections == sections


def test_every_intent_points_to_sections_pages_can_have() -> None:
    known = load_sections().keys()
    assert all(set(e.sections) <= known for e in load_intents().intents.values())


def test_sections_are_read_back_from_headers() -> None:
    assert sections_of("Acme | 10-K fiscal 2022 | Item 3. Legal Proceedings") == {"legal"}
    assert sections_of("Acme | 10-Q fiscal 2023 | Part II, Item 1. Legal Proceedings") == {"legal"}
    assert sections_of("Acme | 10-Q fiscal 2023 | Part I, Item 1. Financial Statements") == {
        "financial_statements"}
    assert sections_of("Acme | 8-K fiscal 2022 | Item 5.02. Departure of Directors") == {
        "governance"}
    assert sections_of("Acme | 10-K fiscal 2022 | Item 8. Financial Statements and "
                       "Supplementary Data | Notes: Income Taxes") >= {"income_taxes"}
    assert sections_of("Acme | 10-K fiscal 2022", "segment_note") == {"segments"}


def _hit(chunk: str, context: str, score: float, rank: int) -> Hit:
    return Hit(chunk_id=chunk, document="acme-10k", year=2022, page_start=rank, page_end=rank,
               context=context, text="...", rank=rank, score=score, stage="citation_rerank")


def test_section_boost_lifts_the_answering_section_by_its_weight() -> None:
    retriever = Retriever(store=None, embedder=None,  # type: ignore[arg-type]
                          config=RetrievalConfig(section_weight=0.3))
    hits = [_hit("risk", "Acme | 10-K fiscal 2022 | Item 1A. Risk Factors", 0.9, 1),
            _hit("legal", "Acme | 10-K fiscal 2022 | Item 3. Legal Proceedings", 0.7, 2)]
    plan = read_question("What lawsuits is Acme facing?")
    boosted = retriever.section_boost(plan, hits)
    assert [h.chunk_id for h in boosted] == ["legal", "risk"]
    assert boosted[0].score == pytest.approx(1.0)
    unchanged = retriever.section_boost(read_question("What was Acme's 2022 revenue?"), hits)
    assert [h.chunk_id for h in unchanged] == ["risk", "legal"]
