"""The scope ``routed`` searches, over the profiles of several real companies' filings: a
question naming a company by ticker or short form is searched in that company's filings only (the
filter every search runs with), and one naming a company no filing is says so."""

from __future__ import annotations

from typing import Any

import pytest

from rag_assets.core.generation.answers import Answerer
from rag_assets.core.ingest.routing import DocumentProfile
from rag_assets.core.retrieval.retriever import Retriever
from rag_assets_tests.core.ingest.test_sections_real import ROUTED, _profile

YEARS = {"kraft-heinz-10k": 2019, "microsoft-10k": 2023, "microsoft-10k-2016": 2016,
         "jpmorgan-10q-q2": 2022, "nike-10k": 2023, "general-mills-10k": 2020,
         "corning-10k": 2022}


class ProfilesOnly:
    """The two things ``resolve_scope`` asks of a store: its profiles and its partitions."""

    def __init__(self, profiles: list[DocumentProfile]) -> None:
        self._profiles = profiles

    def profiles(self) -> list[dict[str, Any]]:
        return [p.model_dump() for p in self._profiles]

    def partitions(self, kind: str) -> list[tuple[str, int]]:
        del kind
        return [(p.document, p.year) for p in self._profiles]

    def bm25(self, kind: str, text: str, k: int) -> list[dict[str, Any]]:
        del kind, text, k
        return []  # no chunk prints a segment the question names


@pytest.fixture(scope="module")
def retriever() -> Retriever:
    profiles = [_profile(d).model_copy(update={"year": YEARS[d]}) for d in ROUTED]
    return Retriever(ProfilesOnly(profiles), embedder=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("question", "documents"), [
    ("What drove KHC's 2019 impairments?", ["kraft-heinz-10k"]),
    ("MSFT's segments", ["microsoft-10k", "microsoft-10k-2016"]),
])
def test_ticker_scopes_the_search_to_that_company(
        retriever: Retriever, question: str, documents: list[str]) -> None:
    scope = retriever.resolve_scope(retriever.read(question), "enriched")
    assert scope.documents == documents
    assert scope.unindexed is None
    where = scope.where() or ""
    for other in set(ROUTED) - set(documents):  # no other company's page can be a hit
        assert f"'{other}'" not in where
    if "2019" in question:
        assert scope.years == [2019]


@pytest.mark.parametrize(("question", "named"), [
    ("What drove Tesla's 2019 impairments?", "Tesla"),
    ("How is Big Blue's cloud business doing?", "Big Blue"),
    ("What did BofA earn in 2022?", "BofA"),
])
def test_a_company_no_filing_is_is_said_in_the_scope(
        retriever: Retriever, question: str, named: str) -> None:
    assert_routes_to_nothing(retriever, question, named)


def assert_routes_to_nothing(retriever: Retriever, question: str, named: str) -> None:
    """The question names ``named``, a company no indexed filing is: no document in its scope,
    and the scope says which company it did not find."""
    scope = retriever.resolve_scope(retriever.read(question), "enriched")
    assert scope.documents is None
    assert scope.unindexed == named
    assert scope.how.startswith(f"no indexed company named ({named})")


def test_a_question_naming_no_company_searches_all_silently(retriever: Retriever) -> None:
    scope = retriever.resolve_scope(retriever.read("What was the effective tax rate in 2022?"),
                                    "enriched")
    assert scope.unindexed is None and scope.how.startswith("all documents")


class Filings(ProfilesOnly):
    """Profiles with the partitions given: one company's several filings."""

    def __init__(self, profiles: list[DocumentProfile], held: list[tuple[str, int]]) -> None:
        super().__init__(profiles)
        self._held = held

    def partitions(self, kind: str) -> list[tuple[str, int]]:
        del kind
        return self._held


@pytest.fixture(scope="module")
def jpm_filings() -> Retriever:
    """JPMorgan's real 10-Q cover as three filings (Q1 2021, Q2 2022, Q2 2023) beside Nike."""
    q2 = _profile("jpmorgan-10q-q2")
    q1 = q2.model_copy(update={"document": "jpmorgan-10q-q1", "year": 2021})
    nike = _profile("nike-10k")
    held = [("jpmorgan-10q-q1", 2021), ("jpmorgan-10q-q2", 2022), ("jpmorgan-10q-q2", 2023),
            ("nike-10k", 2023)]
    return Retriever(Filings([q1, q2, nike], held), embedder=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("question", "documents", "years"), [
    # the quarter names the filing, the year its partition
    ("Which of JPM's business segments had the lowest net revenue in 2021 Q1?",
     ["jpmorgan-10q-q1"], [2021]),
    # no quarter named: the filings holding the year asked, not every JPM filing
    ("Did JPM's VaR decrease in 2023 against the prior year?", ["jpmorgan-10q-q2"], [2023]),
    ("What was JPM's net income in 2021?", ["jpmorgan-10q-q1"], [2021]),
    # no year, no quarter: every filing of the company
    ("How does JPM manage liquidity risk?", ["jpmorgan-10q-q1", "jpmorgan-10q-q2"], None),
    # the year written on the filing is the one read, not the outlook years it quotes
    ("What does JPM expect for 2023 and 2025, according to its 2022 10-Q?",
     ["jpmorgan-10q-q2"], [2022]),
])
def test_one_companys_filings_narrow_to_the_quarter_and_year_asked(
        jpm_filings: Retriever, question: str, documents: list[str],
        years: list[int] | None) -> None:
    scope = jpm_filings.resolve_scope(jpm_filings.read(question), "enriched")
    assert scope.documents == documents
    assert scope.years == years


def test_a_question_naming_no_period_reads_each_filings_latest(jpm_filings: Retriever) -> None:
    """No year, quarter or date named: the company as it is now, so each of its filings is
    searched in its latest partition (the Q2 10-Q of 2023, not of 2022); a year named reads
    that year's, whatever is latest."""
    scope = jpm_filings.resolve_scope(jpm_filings.read("How does JPM manage liquidity risk?"),
                                      "enriched")
    assert scope.latest == [("jpmorgan-10q-q1", 2021), ("jpmorgan-10q-q2", 2023)]
    where = scope.where() or ""
    assert "(document = 'jpmorgan-10q-q2' AND year = 2023)" in where and "2022" not in where
    assert "latest" in scope.how
    dated = jpm_filings.resolve_scope(jpm_filings.read("How did JPM manage liquidity risk in "
                                                       "2022?"), "enriched")
    assert dated.latest is None and dated.years == [2022]
    single = jpm_filings.resolve_scope(jpm_filings.read("What does Nike sell?"), "enriched")
    assert single.latest is None  # one filing: nothing to choose among
    for unread in ("How did JPM's net interest income move in 3Q22?",
                   "How did JPM's previous 10-Q describe liquidity risk?"):
        assert jpm_filings.resolve_scope(jpm_filings.read(unread), "enriched").latest is None


def test_one_companys_filings_are_one_part_two_companies_two(jpm_filings: Retriever) -> None:
    """A question over one company's several filings is answered from the one that holds the
    answer (one part), not once per filing with a refusal for the others; a comparison of two
    companies is still answered company by company."""
    answerer = Answerer(jpm_filings, pages=None)  # type: ignore[arg-type]  # parts read no page
    [whole] = answerer.parts(answerer.read("How does JPM manage liquidity risk?"))
    # one part, searched in the company's filings only (whatever the strategy)
    assert not whole.label and whole.scope is not None
    assert whole.scope.documents == ["jpmorgan-10q-q1", "jpmorgan-10q-q2"]
    both = answerer.parts(answerer.read("Compare JPM's and Nike's net income in 2023."))
    assert [p.label for p in both] == ["jpmorgan-10q-q2", "nike-10k"]
    # a plan's years are no filings to compare: one part, the filing the question names
    # (prose-dev's American Water question was answered once from each of two 10-Ks)
    [plan] = answerer.parts(answerer.read("How much does JPM expect to invest over 2021-2025, "
                                          "according to its 2022 10-Q?"))
    assert not plan.label


class PrintingSegments(ProfilesOnly):
    """Profiles, and chunks that print segments by name: the full-text index's answer."""

    def __init__(self, profiles: list[DocumentProfile], texts: list[str]) -> None:
        super().__init__(profiles)
        self.texts = texts

    def bm25(self, kind: str, text: str, k: int) -> list[dict[str, Any]]:
        del kind, text
        return [{"text": t} for t in self.texts[:k]]


# Walmart's FY2020 10-K, Item 1 (Business), as printed
WALMART_SEGMENTS = [
    "Since then, our international presence has expanded and, as of January 31, 2020, our "
    "Walmart International segment conducted business in 26 countries.",
    "Suppliers shipped the balance of the Sam's Club segment's club purchases directly to "
    "Sam's Club locations.",
    "Sam's Club competes with other membership-only warehouse clubs, the largest of which is "
    "Costco, as well as with discount retailers, retail and wholesale grocers, general "
    "merchandise wholesalers ...",
]


def test_a_segment_named_as_a_possessive_is_no_unindexed_company() -> None:
    """"Sam's Club's operating income" names a segment an indexed filing prints, not a company
    named "Sam": searched over all documents, no abstention; a competitor the filing names,
    and a company it never prints, stay companies no filing is from."""
    profiles = [_profile(d).model_copy(update={"year": YEARS[d]}) for d in ROUTED]
    retriever = Retriever(PrintingSegments(profiles, WALMART_SEGMENTS),  # type: ignore[arg-type]
                          embedder=None)  # type: ignore[arg-type]
    scope = retriever.resolve_scope(retriever.read(
        "What drove the increase in Sam's Club's operating income in fiscal 2020?"), "enriched")
    assert scope.unindexed is None and scope.how.startswith("all documents")
    for named in ("Costco", "Tesla"):
        assert_routes_to_nothing(retriever, f"What was {named}'s revenue in fiscal 2020?",
                                 named)


# JPMorgan's 10-Q for Q3 2022 (p.21), as the full-text index returns it with its document
JPM_SEGMENTS = ("There are four major reportable business segments – Consumer & Community "
                "Banking, Corporate & Investment Bank, Commercial Banking and Asset & Wealth "
                "Management.")


class PrintingOwnSegments(PrintingSegments):
    def bm25(self, kind: str, text: str, k: int) -> list[dict[str, Any]]:
        return [{**row, "document": "jpmorgan-10q-q2"} for row in super().bm25(kind, text, k)]


def test_a_segment_named_alone_reads_its_filers_filings_of_the_quarter() -> None:
    """"What was Consumer & Community Banking's net income in Q2 2022?" names no company: the
    filer that prints the segment is read (its 10-Q of the quarter asked), never every filing,
    and no abstention as if "Community Banking" were a company no filing is from."""
    profiles = [_profile(d).model_copy(update={"year": YEARS[d]}) for d in ROUTED]
    retriever = Retriever(PrintingOwnSegments(profiles, [JPM_SEGMENTS]),  # type: ignore[arg-type]
                          embedder=None)  # type: ignore[arg-type]
    scope = retriever.resolve_scope(retriever.read(
        "What was Consumer & Community Banking's net income in Q2 2022?"), "enriched")
    assert scope.unindexed is None and scope.documents == ["jpmorgan-10q-q2"]
