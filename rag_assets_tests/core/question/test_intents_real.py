"""The intent lexicon against real filings: every intent's first section (where a filing is
required to print the answer) is found in at least three real 10-Ks of ``../shared/corpora`` (an
earnings release's outlook in three releases, an 8-K Item in an 8-K), so an intent never points
retrieval to a section the reader cannot find.

Skipped with the reason when ``../shared/corpora`` is absent; the filings come from the session's
disk cache (``real_filings``), shared with the section tests.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from rag_assets.core.ingest.context import document_context
from rag_assets.core.ingest.sections import STATEMENT_SECTIONS, load_sections, sections_of
from rag_assets.core.question.intents import (
    answer_form_of,
    intents_in,
    load_intents,
    word_forms,
)
from rag_assets.core.question.question import read_question
from rag_assets_tests.core.conftest import CORPORA
from rag_assets_tests.real_filings import real_filing

WIDE, BULK, DEV = (CORPORA / f"financebench-{n}" / "pdfs" for n in ("wide", "bulk", "dev"))
# the filings each form's sections are looked for in: six 10-Ks of six companies (two decades of
# Item headings, notes and covers), four earnings releases, three 8-Ks
FILINGS: dict[str, dict[str, tuple[Path, int]]] = {
    "10-K": {
        "3m-10k": (CORPORA / "sec-10k" / "3M_2018_10K.pdf", 2018),
        "kraft-heinz-10k": (WIDE / "KRAFTHEINZ_2019_10K.pdf", 2019),
        "microsoft-10k": (WIDE / "MICROSOFT_2023_10K.pdf", 2023),
        "nike-10k": (WIDE / "NIKE_2023_10K.pdf", 2023),
        "general-mills-10k": (DEV / "GENERALMILLS_2020_10K.pdf", 2020),
        "corning-10k": (DEV / "CORNING_2022_10K.pdf", 2022),
    },
    "earnings": {
        "ulta-beauty-earnings-q4": (WIDE / "ULTABEAUTY_2023Q4_EARNINGS.pdf", 2023),
        "ulta-beauty-earnings-q2": (BULK / "ULTABEAUTY_2023Q2_EARNINGS.pdf", 2023),
        "pfizer-earnings-q2": (BULK / "PFIZER_2023Q2_EARNINGS.pdf", 2023),
        "mgm-resorts-earnings-q4": (WIDE / "MGMRESORTS_2022Q4_EARNINGS.pdf", 2022),
    },
    "8-K": {
        "foot-locker-8k-2022-05-20": (WIDE / "FOOTLOCKER_2022_8K_dated-2022-05-20.pdf", 2022),
        "lockheed-martin-8k-2023-08-24": (BULK / "LOCKHEEDMARTIN_2023_8K_dated-2023-08-24.pdf",
                                          2023),
        "block-8k-2022-01-28": (BULK / "BLOCK_2022_8K_dated-2022-01-28.pdf", 2022),
    },
}
# how many of them must show the section: an 8-K reports only the events that happened, and
# the corpora hold seven 8-Ks, so an 8-K Item (read by its number, Form 8-K) is asked of one
MIN_FILINGS = {"10-K": 3, "earnings": 3, "8-K": 1}
# the form each section is looked for in: a 10-K's Items, notes, statements and cover; else an
# earnings release's outlook; else an 8-K Item
TABLE = load_sections()
TEN_K_SECTIONS = {*TABLE.items_10k.values(), *TABLE.notes, *STATEMENT_SECTIONS.values(), "cover"}


def form_of(section: str) -> str:
    if section in TEN_K_SECTIONS:
        return "10-K"
    return "earnings" if section == "outlook" else "8-K"


pytestmark = pytest.mark.skipif(
    not all(p.is_file() for filings in FILINGS.values() for p, _ in filings.values()),
    reason=f"real filings not under {CORPORA}")


@cache
def _sections(form: str, document: str) -> frozenset[str]:
    """Every section key some page of the filing has, as chunk headers carry them."""
    path, year = FILINGS[form][document]
    pages = real_filing(path).pages
    context = document_context(document, year, pages)
    return frozenset().union(*(sections_of(context.header(i), context.page(i).statement)
                               for i in range(len(pages))))


@pytest.mark.parametrize("intent", list(load_intents().intents))
def test_every_intents_first_section_is_found_in_real_filings(intent: str) -> None:
    """Three real 10-Ks show the section an intent reads first (three earnings releases for an
    outlook, one 8-K for an 8-K Item)."""
    section = load_intents().intents[intent].sections[0]
    form = form_of(section)
    found = [d for d in FILINGS[form] if section in _sections(form, d)]
    assert len(found) >= MIN_FILINGS[form], (intent, section, form, found)


@pytest.mark.parametrize(("question", "intent", "form"), [
    ("Is 3M a capital-intensive business based on FY2022 data?", "capital_intensity", "yes_no"),
    ("What drove the change in Nike's operating margin in FY2023?", "drivers", "cause"),
    ("Which debt securities are registered to trade on a national securities exchange under "
     "3M's name as of Q2 of 2023?", "registered_securities", "names"),
    # where a class of stock trades is the cover page's Section 12(b) table
    ("On which exchange is Costco's common stock listed, according to its 8-K dated August 9, "
     "2023?", "registered_securities", "names"),
    ("What is American Water Works' ticker symbol and on what exchange does it trade?",
     "registered_securities", "names"),
    ("What industry does General Mills operate in?", "industry", "text"),
    ("Which legal proceedings is Kraft Heinz involved in?", "legal", "names"),
    ("What was the outcome of Foot Locker's shareholder vote?", "shareholder_vote", "text"),
    # the ways an analyst asks for a cause, each read as one
    ("What factors contributed to the increase in Nike's revenue in fiscal 2023?", "drivers",
     "cause"),
    ("What was behind the change in MGM's net revenues in 2019?", "drivers", "cause"),
    ("What led to the increase in Activision Blizzard's net bookings in 2019?", "drivers",
     "cause"),
    ("Which factors drove the decline in AMD's operating margin?", "drivers", "cause"),
    ("What accounted for the increase in Pfizer's SG&A expenses in 2021?", "drivers", "cause"),
    ("Why did Foot Locker's comparable sales fall in Q3 2023?", "drivers", "cause"),
    ("Is Lockheed Martin dependent on the U.S. government for its sales?", "customers",
     "yes_no"),
    ("How much cash did Nike return to shareholders in fiscal 2023?", "buybacks",
     "figure"),
    ("Where does AMD generate most of its revenue?", "geography", "figure"),
    # Item 101(c)(2)(ii): a count of employees is printed in Item 1 (Coca-Cola 2019, p.11)
    ("How many employees did Coca-Cola have at the end of FY2019?", "employees", "figure"),
    ("What was Corning's headcount at the end of 2022?", "employees", "figure"),
    # a lexicon word in any of its forms: a verb's -ed, -ing and -s, "relying" for "rely"
    ("Which businesses has Walmart divested?", "acquisitions", "names"),
    ("Is Kraft Heinz relying on a single customer for its 2021 sales?", "customers", "yes_no"),
    ("Is Corning still returning capital to shareholders in 2023?", "dividends", "yes_no"),
])
def test_a_question_names_its_intent_and_its_answer_form(question: str, intent: str,
                                                         form: str) -> None:
    read = read_question(question)
    assert intent in intents_in(question)
    assert read.expects == form
    assert load_intents().intents[intent].sections[0] in read.sections


@pytest.mark.parametrize(("word", "verb", "asked", "not_asked"), [
    ("divest", True, ["divest", "divests", "divested", "divesting"], ["divestment"]),
    ("acquire", True, ["acquire", "acquires", "acquired", "acquiring"], ["acquir", "acquirer"]),
    ("rely", True, ["rely", "relies", "relied", "relying"], ["relay"]),
    ("spin", True, ["spin", "spins", "spinning"], ["spine"]),
    ("customer", False, ["customer", "customers"], ["customery", "customered"]),
    ("deal", False, ["deal", "deals"], ["dealing", "dealt"]),
])
def test_a_lexicon_word_matches_its_forms(word: str, verb: bool, asked: list[str],
                                          not_asked: list[str]) -> None:
    pattern = re.compile(rf"^{word_forms(word, verb)}$")
    assert all(pattern.match(w) for w in asked), [w for w in asked if not pattern.match(w)]
    assert not any(pattern.match(w) for w in not_asked)


def test_a_noun_of_the_lexicon_asked_as_a_verb_names_no_intent() -> None:
    """Only the lexicon's verbs take a verb's endings: "dealing with inflation" asks of no
    deal, "leveraging its platform" of no debt, "courting customers" of no lawsuit."""
    assert "acquisitions" not in intents_in("How is Walmart dealing with inflation?")
    assert "debt" not in intents_in("How is Nike leveraging its digital platform?")
    assert "legal" not in intents_in("Is Costco courting new members?")


def test_the_intents_answer_form_is_the_default_when_the_wording_gives_none() -> None:
    assert read_question("What legal proceedings is Nike involved in?").expects == "names"
    assert read_question("What does Nike's 10-K say about its legal proceedings?").expects == \
        "text"
    assert answer_form_of([]) is None
    # the wording wins over the intent: a yes or no about legal matters stays a yes or no
    assert read_question("Does Nike face any antitrust litigation?").expects == "yes_no"
