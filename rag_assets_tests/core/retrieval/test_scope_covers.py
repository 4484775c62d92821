"""The scope ``routed`` searches over the profiles of every cover in ``../shared/corpora`` (85
filings of 20 companies): a question naming a company by any of its names is searched in that
company's filings and no other's; one naming a company no filing is routes to nothing and says
so."""

from __future__ import annotations

import pytest

from rag_assets.core.retrieval.retriever import Retriever
from rag_assets_tests.core.ingest.test_routing_covers import profiles
from rag_assets_tests.core.retrieval.test_scope_real import ProfilesOnly, assert_routes_to_nothing


@pytest.fixture(scope="module")
def retriever() -> Retriever:
    return Retriever(ProfilesOnly(profiles()), embedder=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("question", "company"), [
    ("What was MMM's capex?", "3m"),
    ("How did Kraft Heinz's sales change?", "kraft-heinz"),
    ("What were Khc's impairments?", "kraft-heinz"),
    ("How much did Square's revenue grow?", "block"),
    ("What is Lockheed's backlog?", "lockheed-martin"),
])
def test_a_routed_scope_holds_only_the_routed_filings(
        retriever: Retriever, question: str, company: str) -> None:
    scope = retriever.resolve_scope(retriever.read(question), "enriched")
    assert scope.documents and all(d.startswith(f"{company}-") for d in scope.documents)
    assert scope.unindexed is None
    where = scope.where() or ""
    others = {p.document for p in profiles()} - set(scope.documents)
    assert others and not any(f"'{d}'" in where for d in others)


@pytest.mark.parametrize(("question", "named"), [
    ("What was JnJ's revenue in 2022?", "JnJ"),
    ("What was AMEX's net income?", "AMEX"),
    ("What was ORCL's capex in FY2023?", "ORCL"),
    ("What was eBay's free cash flow?", "eBay"),
    ("What was Tesla's gross margin in 2022?", "Tesla"),
])
def test_a_company_no_filing_is_routes_to_nothing(
        retriever: Retriever, question: str, named: str) -> None:
    assert_routes_to_nothing(retriever, question, named)
