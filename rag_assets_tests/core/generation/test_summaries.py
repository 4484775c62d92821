"""Baseline against enriched summaries of the real earnings sample: the enriched one keeps the
qualifications that change what a figure means, the baseline does not; every sentence is cited
and every citation holds on its page; and every sentence reads as prose, on the samples and on a
real 10-K (markers as note references, headings apart, table rows in their units)."""

from __future__ import annotations

import re

import pytest

from rag_assets.core.generation.records import SummaryResult
from rag_assets.core.generation.summaries import Variant, summarize_report

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


RAW_MARKER_RE = re.compile(r"^\s*(?:\[\d{1,3}\]|\(\w{1,3}\)|[*†])\s|\[\d{1,3}\]")
# a column heading followed by a bare figure: a row printed without its table's units
BARE_FIGURE_RE = re.compile(r"(?:^|; )[^:;]+: \(?-?\d[\d,]*(?:\.\d+)?\)?(?=;|$)")


def prose_problems(summary: SummaryResult) -> list[str]:
    """Sentences that open with a raw marker or hold a ``[N]`` one, or a table row's figure
    without its units."""
    return [claim.text for claim in summary.claims
            if RAW_MARKER_RE.search(claim.text) or BARE_FIGURE_RE.search(claim.text)]


def test_summaries_of_the_release_read_as_prose(summaries: dict[str, SummaryResult]) -> None:
    for summary in summaries.values():
        assert prose_problems(summary) == []
    enriched = summaries["enriched"].text
    # the stitched definition follows its sentence as a note the sentence refers to
    assert ("(note 1). Note 1: Includes $555 million of revenue from Lumen Analytics, "
            "acquired on March 28, 2024.") in enriched
    # the heading the page prints above the sentence is kept apart from it
    assert "Fiscal year 2024 highlights Revenue" not in enriched
    assert "Fiscal year 2024 highlights: Revenue rose 34% to $2.4 billion (note 1)." in enriched
    # Table 4 is "(in $ millions)": its rows say so, beside their column headings
    both = enriched + summaries["baseline"].text
    assert "Free cash flow: FY 2024: $381 million; FY 2023: $273 million" in both
    # a definition quoted by the baseline reads as a note, not as "[7] Free cash flow ..."
    baseline = summaries["baseline"].text
    notes = [line for line in baseline.splitlines() if line.startswith("Note ")]
    assert notes and all(re.match(r"Note \d+: [A-Z]", line) for line in notes)


@pytest.mark.parametrize(("document", "year", "variants"), [
    ("northwind-annual", 2023, ("baseline", "enriched")),
    # the store holds 3M's statement pages alone (Item 8): their naive windows are tables run
    # together, no sentence to quote; the enriched chunks read them as rows
    ("3m-10k", 2018, ("enriched",))])
def test_summaries_of_an_annual_report_and_a_real_10k_read_as_prose(
        corpus: Corpus, document: str, year: int, variants: tuple[Variant, ...]) -> None:
    if document not in corpus.documents:
        pytest.skip(f"{document} is not in the store (../shared/corpora absent)")
    answerer = corpus.answerer()
    for variant in variants:
        summary = summarize_report(answerer, document, year, variant)
        assert len(summary.claims) >= 3
        assert prose_problems(summary) == [], variant
        for claim in summary.claims:
            assert not claim.text[:1].islower(), claim.text  # no fragment a window cut
            assert all(c.mark == "valid" for c in claim.citations), claim.text
    if document == "3m-10k":  # "(Millions)": a statement's rows in millions, per-share not
        rows = [c.text for c in summary.claims if re.search(r": 2018: ", c.text)]
        assert rows and all(("million" in row) != ("per share" in row) for row in rows), rows
