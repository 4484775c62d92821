"""Routing by names and tickers, and section classification, on real FinanceBench filings.

Skipped with the reason when ``../shared/corpora`` is absent. Page indices are zero-based, as
the loader numbers them.
"""

from __future__ import annotations

from functools import cache

import pytest

from rag_assets.core.ingest.context import document_context
from rag_assets.core.ingest.documents import LoadedDocument
from rag_assets.core.ingest.routing import DocumentProfile, cover_profile
from rag_assets.core.ingest.sections import page_items, sections_of, topics_by_page
from rag_assets.core.question.companies import route
from rag_assets_tests.core.conftest import CORPORA
from rag_assets_tests.real_filings import real_filing

WIDE = CORPORA / "financebench-wide" / "pdfs"
DEV = CORPORA / "financebench-dev" / "pdfs"
# document id (as financebench.document_name writes them) -> PDF
FILINGS = {
    "kraft-heinz-10k": WIDE / "KRAFTHEINZ_2019_10K.pdf",
    "microsoft-10k": WIDE / "MICROSOFT_2023_10K.pdf",
    "microsoft-10k-2016": WIDE / "MICROSOFT_2016_10K.pdf",
    "jpmorgan-10q-q2": WIDE / "JPMORGAN_2022Q2_10Q.pdf",
    "nike-10k": WIDE / "NIKE_2023_10K.pdf",
    "general-mills-10k": DEV / "GENERALMILLS_2020_10K.pdf",
    "corning-10k": DEV / "CORNING_2022_10K.pdf",
    "mgm-resorts-10q-q2": WIDE / "MGMRESORTS_2023Q2_10Q.pdf",
    "pfizer-10q-q2": WIDE / "Pfizer_2023Q2_10Q.pdf",
    "foot-locker-8k-2022-05-20": WIDE / "FOOTLOCKER_2022_8K_dated-2022-05-20.pdf",
    "foot-locker-8k-2022-08-19": WIDE / "FOOTLOCKER_2022_8K_dated_2022-08-19.pdf",
}


@cache
def _loaded(document: str) -> LoadedDocument:
    return real_filing(FILINGS[document])


def _profile(document: str) -> DocumentProfile:
    pages = _loaded(document).pages
    return cover_profile(document, 2020, pages)


ROUTED = ["kraft-heinz-10k", "microsoft-10k", "microsoft-10k-2016", "jpmorgan-10q-q2",
          "nike-10k", "general-mills-10k", "corning-10k"]


@pytest.fixture(scope="module")
def profiles() -> list[DocumentProfile]:
    return [_profile(d) for d in ROUTED]


def test_covers_give_tickers_short_forms_and_table_aliases(
        profiles: list[DocumentProfile]) -> None:
    aliases = {p.document: p.aliases for p in profiles}
    assert {"KHC", "Kraft Heinz"} <= set(aliases["kraft-heinz-10k"])
    assert "MSFT" in aliases["microsoft-10k"]  # the 2023 cover's Trading Symbol table
    assert "MSFT" in aliases["microsoft-10k-2016"]  # no symbol on the cover: the alias table
    assert {"JPM", "JPMorgan Chase", "JPMorgan"} <= set(aliases["jpmorgan-10q-q2"])
    assert "AMJ" not in aliases["jpmorgan-10q-q2"]  # an ETN's symbol, not the company's
    assert {"NKE", "Nike"} <= set(aliases["nike-10k"])
    assert {"GIS", "General Mills"} <= set(aliases["general-mills-10k"])
    assert "GM" not in aliases["general-mills-10k"]  # two-letter initials name General Motors


@pytest.mark.parametrize(("question", "expected"), [
    ("What drove KHC's 2019 impairments?", ["kraft-heinz-10k"]),
    ("MSFT's segments", ["microsoft-10k", "microsoft-10k-2016"]),
    ("How did Kraft Heinz's net sales change?", ["kraft-heinz-10k"]),
    ("What are JPM's legal proceedings?", ["jpmorgan-10q-q2"]),
    ("Which segments does Nike report?", ["nike-10k"]),
    ("How is IT spending described?", []),  # "IT" is a word, never a company
])
def test_route_names_only_the_company_asked_about(
        profiles: list[DocumentProfile], question: str, expected: list[str]) -> None:
    assert route(question, profiles) == expected


def test_section_headers_of_real_filings() -> None:
    """Known pages: a 10-K's Item 3 (on the page that also heads Items 1B-5), its legal note, a
    10-Q's Part II Item 1, an 8-K's Items 5.07 and 5.02."""
    khc = document_context("kraft-heinz-10k", 2019, _loaded("kraft-heinz-10k").pages)
    assert "legal" in sections_of(khc.header(23))  # Items 1B, 2, 3, 4, 5 on one page
    assert khc.page(23).item == "Item 5. Market for Registrant's Common Equity"
    assert sections_of(khc.header(97)) >= {"legal", "financial_statements"}
    assert "acquisitions" in sections_of(khc.header(61))
    assert "legal" not in sections_of(khc.header(50))  # a statement page

    mgm = document_context("mgm-resorts-10q-q2", 2023, _loaded("mgm-resorts-10q-q2").pages)
    assert mgm.doc_type == "10-Q"
    assert mgm.page(26).item == "Part I, Item 2. Management's Discussion and Analysis"
    assert "legal" in sections_of(mgm.header(42))  # Part II Items 1, 1A, 2, 5
    assert mgm.page(42).item != "Item 1. Business"  # never read as a 10-K Item

    pfizer = _loaded("pfizer-10q-q2").pages
    items, opened = page_items([p.lines for p in pfizer], "10-Q")
    assert "Part II, Item 1. Legal Proceedings" in opened[63]
    assert items[7] == "Part I, Item 1. Financial Statements"
    assert items[40] == "Part I, Item 2. Management's Discussion and Analysis"
    assert "legal" in topics_by_page([p.lines for p in pfizer], items)[27]

    votes = document_context("foot-locker-8k-2022-05-20", 2022,
                             _loaded("foot-locker-8k-2022-05-20").pages)
    assert votes.doc_type == "8-K"
    assert votes.page(1).item == "Item 5.07. Submission of Matters to a Vote of Security Holders"
    assert sections_of(votes.header(1)) - {"cover"} == {"shareholder_vote"}
    assert sections_of(votes.header(2)) >= {"exhibits"}
    officers = document_context("foot-locker-8k-2022-08-19", 2022,
                                _loaded("foot-locker-8k-2022-08-19").pages)
    assert "governance" in sections_of(officers.header(1))
    assert officers.page(28).item == "Exhibit 99.1"


def test_sections_of_a_dev_10k_note_pages() -> None:
    """Corning's 2022 10-K: the income tax note runs pages 75-78, debt 82-83."""
    corning = document_context("corning-10k", 2022, _loaded("corning-10k").pages)
    assert all("income_taxes" in sections_of(corning.header(i)) for i in (75, 76, 77, 78))
    assert "debt" in sections_of(corning.header(82))
    assert "income_taxes" not in sections_of(corning.header(23))  # MD&A
    assert "mdna" in sections_of(corning.header(23), corning.page(23).statement)
