"""Every cover in ``../shared/corpora``: the registrant's name as printed, the name an answer and
a chunk header call the company, and every name a question may use for it (short name,
initials, nickname, ticker) routing to that company's filings and no other's.

Only the first ``COVER_PAGES`` pages of each filing are read (the reader's own page parser, no
whole document): about 4 s for the 85 filings on one core. The expected names were read off
each cover by a person and checked against the company of ``documents.jsonl`` (the registrant
as it was then: Block's covers of 2016-2020 print "SQUARE, INC.").
"""

from __future__ import annotations

import json
from functools import cache

import pytest

from rag_assets.core.evaluation.financebench import document_name
from rag_assets.core.ingest.context import company_name
from rag_assets.core.ingest.pages import Page
from rag_assets.core.ingest.pdf.reader import _load_range  # the page parser, a run of pages
from rag_assets.core.ingest.routing import (
    COVER_PAGES,
    DocumentProfile,
    cover_profile,
    short_display_name,
)
from rag_assets.core.question.companies import route, unindexed_company
from rag_assets_tests.real_filings import CORPORA

SETS = ("financebench-dev", "financebench-wide", "financebench-bulk")
# the registrant as its cover prints it; None where the cover sets it as a picture and the name
# comes from the alias table by the document's id (Foot Locker's 2023 filings, AMD's glossy
# annual report, whose 10-K cover is pages further on)
PRINTED = {
    "Activision Blizzard": "ACTIVISION BLIZZARD, INC.",
    "American Water Works": "AMERICAN WATER WORKS COMPANY, INC.",
    "Corning": "CORNING INCORPORATED", "General Mills": "GENERAL MILLS, INC.",
    "Lockheed Martin": "LOCKHEED MARTIN CORPORATION",
    "MGM Resorts": "MGM RESORTS INTERNATIONAL", "AMD": "ADVANCED MICRO DEVICES, INC.",
    "Costco": "Costco Wholesale Corporation", "Foot Locker": "Foot Locker, Inc.",
    "JPMorgan": "JPMorgan Chase & Co.", "Kraft Heinz": "The Kraft Heinz Company",
    "Microsoft": "MICROSOFT CORPORATION", "Netflix": "Netflix, Inc.", "Nike": "NIKE, Inc.",
    "Pfizer": "PFIZER INC.", "Ulta Beauty": "Ulta Beauty, Inc.", "Walmart": "WALMART INC.",
    "Coca-Cola": "THE COCA-COLA COMPANY", "3M": "3M COMPANY", "Block": "Block, Inc.",
}
# covers that print it otherwise than the company's other filings
PRINTED_BY_FILING = {
    "BLOCK_2016_10K": "SQUARE, INC.", "BLOCK_2018_10K": "SQUARE, INC.",
    "BLOCK_2020_10K": "SQUARE, INC.",  # renamed Block, Inc. in December 2021
    "COCACOLA_2019_10K": "COCA COLA CO",  # the 2019 cover prints EDGAR's conformed name
    "COCACOLA_2017_10K": "THE COCA-COLA COMPANY",  # page 2's running head (cover: a picture)
    "MGMRESORTS_2022_10K": "MGM Resorts International",
    "MGMRESORTS_2022Q4_EARNINGS": "MGM Resorts International",
    "MGMRESORTS_2023Q2_10Q": "MGM Resorts International",
    "MGMRESORTS_2023_8K_dated-2023-09-12": "MGM Resorts International",
    "LOCKHEEDMARTIN_2023Q2_10Q": "Lockheed Martin Corporation",
    "COSTCO_2023_8K_dated-2023-08-09": "COSTCO WHOLESALE CORPORATION",
    "PFIZER_2023Q2_EARNINGS": "Pfizer Inc.",
    "AMD_2022_annualreport": "Advanced Micro Devices, Inc.",  # from the alias table
}
# what an answer's first sentence calls the company ("3M's", never "The's")
SHORT = {"Coca-Cola": {"Coca-Cola", "Coca Cola"}, "3M": {"3M"}, "Kraft Heinz": {"Kraft Heinz"},
         "MGM Resorts": {"MGM Resorts International"}, "Pfizer": {"Pfizer"},
         "Costco": {"Costco Wholesale"}, "Block": {"Block", "Square"}, "Nike": {"NIKE"},
         "Microsoft": {"Microsoft"}, "American Water Works": {"American Water Works"}}


@cache
def filings() -> list[tuple[str, str, str, list[Page]]]:
    """(doc_name, company, document id, cover pages) of every filing of the corpora."""
    rows = [(CORPORA / s / "pdfs", json.loads(line)) for s in SETS
            for line in (CORPORA / s / "documents.jsonl").read_text().splitlines()]
    rows += [(CORPORA / "sec-10k", {"doc_name": n, "company": c, "doc_type": "10k"})
             for n, c in (("3M_2018_10K", "3M"), ("PFIZER_2021_10K", "Pfizer"))]
    out = []
    for folder, doc in rows:
        path = folder / f"{doc['doc_name']}.pdf"
        if not path.is_file():
            pytest.skip(f"real filing not found at {path} (../shared/corpora)")
        pages = [page for page, _, _ in _load_range(str(path), range(COVER_PAGES))]
        document = document_name(doc["company"], doc["doc_type"], doc["doc_name"])
        out.append((doc["doc_name"], doc["company"], document, pages))
    return out


@cache
def profiles() -> list[DocumentProfile]:
    return [cover_profile(document, 2020 + i, pages)
            for i, (_, _, document, pages) in enumerate(filings())]


def test_every_cover_gives_the_registrant_as_printed() -> None:
    wrong = {}
    for (name, company, document, _), profile in zip(filings(), profiles(), strict=True):
        expected = PRINTED_BY_FILING.get(name, PRINTED[company])
        if profile.title != expected:
            wrong[name] = profile.title
        header = company_name(document, profile.title)
        assert "_" not in header and "  " not in header and not header.startswith("The's")
        if company in SHORT:
            assert short_display_name(profile.title or "") in SHORT[company], name
    assert len(filings()) == 85  # 14 dev, 28 wide, 41 bulk, 2 sec-10k
    assert wrong == {}


def test_each_company_gives_its_display_names() -> None:
    titles = {n: p.title or "" for (n, *_), p in zip(filings(), profiles(), strict=True)}
    assert company_name("coca-cola-10k", titles["COCACOLA_2017_10K"]) == "The Coca-Cola Company"
    assert company_name("3m-10k", titles["3M_2018_10K"]) == "3M Company"
    assert company_name("x", titles["MGMRESORTS_2018_10K"]) == "MGM Resorts International"
    assert short_display_name(titles["KRAFTHEINZ_2019_10K"]) == "Kraft Heinz"


# each company, by the forms a question names it with: short name, initials, nickname, ticker
FORMS = {
    "activision-blizzard": ["Activision", "Activision Blizzard", "ATVI"],
    "american-water-works": ["American Water", "AWK"],
    "corning": ["Corning", "GLW"], "general-mills": ["General Mills", "GIS"],
    "lockheed-martin": ["Lockheed", "Lockheed Martin", "LMT"],
    "mgm-resorts": ["MGM Resorts", "MGM"], "amd": ["AMD", "Advanced Micro Devices"],
    "costco": ["Costco", "Costco Wholesale"], "foot-locker": ["Foot Locker"],
    "jpmorgan": ["JPMorgan", "JPM", "JP Morgan", "Jpm"],
    "kraft-heinz": ["Kraft Heinz", "KHC", "Khc"], "microsoft": ["Microsoft", "MSFT", "Msft"],
    "netflix": ["Netflix", "NFLX"], "nike": ["Nike", "NKE"], "pfizer": ["Pfizer", "PFE"],
    "ulta-beauty": ["Ulta", "Ulta Beauty", "ULTA"], "walmart": ["Walmart", "Wal-Mart", "WMT"],
    "coca-cola": ["Coca-Cola", "Coca Cola", "KO"], "3m": ["3M", "MMM", "Mmm"],
    "block": ["Block", "Square", "SQ"],
}


@pytest.mark.parametrize("company", sorted(FORMS))
def test_every_name_of_a_company_routes_to_its_filings_only(company: str) -> None:
    held = {p.document for p in profiles()}
    own = sorted(d for d in held if d.startswith(f"{company}-"))
    assert own, company
    for form in FORMS[company]:
        question = f"What was {form}'s revenue in 2022?"
        assert route(question, profiles()) == own, question
        assert unindexed_company(question, profiles()) is None


@pytest.mark.parametrize(("question", "named"), [
    ("What was JnJ's revenue in 2022?", "JnJ"),  # Johnson & Johnson by its ticker's letters
    ("How did AMEX's card fees change?", "AMEX"),
    ("What was ORCL's capex in FY2023?", "ORCL"),
    ("What was eBay's free cash flow?", "eBay"),  # whole: not "Bay"
    ("What was Tesla's gross margin in 2022?", "Tesla"),
    ("What did Mickey D's earn in 2021?", "Mickey D's"),
    ("Is the Acme Widgets, Inc. margin rising?", "Acme Widgets, Inc."),
])
def test_a_company_no_filing_is_routes_to_nothing_and_is_named(question: str, named: str) -> None:
    assert route(question, profiles()) == []
    assert unindexed_company(question, profiles()) == named


@pytest.mark.parametrize("question", [
    "What did it cost to build the new plant in 2022?",  # "cost": not Costco's symbol COST
    "Which block of shares was repurchased?",  # a word, no unindexed company
    "What was the effective tax rate in 2022?",
    "WHAT WAS THE COMPANY REVENUE IN 2022?",  # a question in capitals names no "THE COMPANY"
])
def test_words_that_are_no_company(question: str) -> None:
    assert unindexed_company(question, profiles()) is None
