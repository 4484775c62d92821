"""Baseline against enriched summaries of the real earnings sample: the enriched one keeps the
qualifications that change what a figure means, the baseline does not; every sentence is cited
and every citation holds on its page."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.records import SummaryResult
from rag_assets.core.generation.summaries import summarize_report

from .conftest import Corpus

EARNINGS = ("exemplar-corp-earnings", 2024)


@pytest.fixture(scope="module")
def summaries(corpus: Corpus) -> dict[str, SummaryResult]:
    answerer = corpus.answerer()
    return {variant: summarize_report(answerer, *EARNINGS, variant)
            for variant in ("baseline", "enriched")}


def test_the_enriched_summary_keeps_the_qualifications_the_baseline_loses(
        summaries: dict[str, SummaryResult]) -> None:
    enriched, baseline = summaries["enriched"].text, summaries["baseline"].text
    # organic growth and the acquisition's share of it ([1]); the non-GAAP basis ([4]/[13])
    for qualification in ("organic revenue growth was 3.2%", "$555 million of revenue from "
                          "Lumen Analytics", "Non-GAAP"):
        assert qualification in enriched, qualification
    assert "organic" not in baseline.lower()
    assert "$555 million of revenue from Lumen Analytics" not in baseline


def test_every_summary_sentence_is_cited_and_every_citation_holds(
        summaries: dict[str, SummaryResult]) -> None:
    for summary in summaries.values():
        assert len(summary.claims) >= 5
        assert summary.chunk_ids
        for claim in summary.claims:
            assert claim.citations, claim.text
            assert all(c.mark == "valid" for c in claim.citations), (claim.text, [
                c.reason for c in claim.citations])
        assert len(summary.text.splitlines()) == len(summary.claims)
        assert all("[exemplar-corp-earnings 2024 p." in line
                   for line in summary.text.splitlines())
