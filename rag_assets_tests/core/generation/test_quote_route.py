"""Which filing's structure answers a question (the cover's securities table, Item 1, Item
1A): the best unit's, or, for a question that names no period, the latest filing held of that
document (units built here; the routing that names the documents is read_question's)."""

from __future__ import annotations

from typing import cast

from rag_assets.core.generation.answer_config import AnswerConfig
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import ScoredUnit, names_short_name
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.quote_route import (
    AMOUNT_RANKED,
    QuoteRoute,
    amount_ranked,
    filing_asked,
)
from rag_assets.core.ingest.pages import Page
from rag_assets.core.question.question import Question, read_question
from rag_assets.core.retrieval.retriever import Retriever

HELD = [("general-mills-10k", 2015), ("general-mills-10k", 2022), ("general-mills-10k", 2017),
        ("walmart-10k", 2023)]


def _unit(document: str, year: int) -> EvidenceUnit:
    return EvidenceUnit(chunk_id="c", document=document, year=year, chunk_rank=0, page=0,
                        located=True, quote="Securities registered pursuant to Section 12(b)",
                        text="Securities registered pursuant to Section 12(b)")


def _question(text: str) -> Question:
    """The question as read, routed to General Mills' 10-Ks."""
    return read_question(text).model_copy(update={"documents": ["general-mills-10k"]})


def test_a_question_without_a_period_reads_the_latest_filing_of_its_document() -> None:
    best = [_unit("general-mills-10k", 2015), _unit("general-mills-10k", 2017)]
    asked = _question("Which securities does General Mills have registered?")
    assert filing_asked(asked, best, HELD) == ("general-mills-10k", 2022)


def test_a_period_named_or_a_document_not_named_keeps_the_best_units_filing() -> None:
    best = [_unit("general-mills-10k", 2015)]
    dated = _question("Which securities did General Mills register in FY2015?")
    assert filing_asked(dated, best, HELD) == ("general-mills-10k", 2015)
    other = [_unit("walmart-10k", 2023)]
    assert filing_asked(_question("Which securities are registered?"), other, HELD) == (
        "walmart-10k", 2023)


def _route(document: str, year: int, text: str) -> QuoteRoute:
    """A quote route over one page's text (page 0): what reading a page's next sentence needs."""
    pages = PageTexts.from_pages(document, year, [Page(page_index=0, text=text)])
    return QuoteRoute(retriever=cast(Retriever, None), pages=pages, config=AnswerConfig())


def _scored(document: str, year: int, text: str) -> ScoredUnit:
    unit = EvidenceUnit(chunk_id="c", document=document, year=year, chunk_rank=0, page=0,
                        located=True, quote=text, text=text)
    return ScoredUnit(unit=unit, score=0.9, dense=0.5, bm25=0.5, coverage=1.0, matches=1.0)


# American Water's Q2 2023 10-Q (bulk, p.34): the comments on the PFAS rule, then their size
PFAS = ("On May 24, 2023, the Company submitted comments to the EPA outlining its position on "
        "key issues to address the proposed regulations, including its projected costs "
        "associated with PFAS treatment at the proposed limits and the potential impact to "
        "customers' bills.")
SIZED = ("The Company estimates an investment in excess of $1 billion of capital expenditures "
         "to install additional treatment facilities over a three to five-year period in order "
         "to comply with proposed regulations.")


def test_an_amount_asked_that_no_quote_prints_is_read_from_the_next_sentence() -> None:
    route = _route("american-water-works-10q-q2", 2023, f"{PFAS} {SIZED} These are estimates.")
    asked = read_question("How much does American Water Works expect to spend to comply with "
                          "the EPA's proposed PFAS rules in 2023?")
    chosen = route.amount_following(asked, [_scored("american-water-works-10q-q2", 2023, PFAS)])
    assert [s.unit.text for s in chosen] == [SIZED, PFAS]  # its size leads
    # a sentence that prints an amount already answers; a count is read by its own reader
    printed = [_scored("american-water-works-10q-q2", 2023, SIZED)]
    assert route.amount_following(asked, printed) == printed
    counted = read_question("How many treatment facilities does American Water Works plan?")
    quoted = [_scored("american-water-works-10q-q2", 2023, PFAS)]
    assert route.amount_following(counted, quoted) == quoted


def test_the_next_sentences_amount_of_another_topic_does_not_lead() -> None:
    # Microsoft's FY2023 10-K (p.47): the sentence after one on derivatives is the tax rate's
    derivatives = ("Other, net primarily reflects net losses on derivatives and fair value "
                   "adjustments, partially offset by gains on investments.")
    tax = "Our effective tax rate for fiscal years 2023 and 2022 was 19% and 13%, respectively."
    route = _route("microsoft-10k", 2023, f"{derivatives} {tax}")
    asked = read_question("How much did Microsoft's net losses on derivatives increase in "
                          "fiscal 2023?")
    quoted = [_scored("microsoft-10k", 2023, derivatives)]
    assert route.amount_following(asked, quoted) == quoted


# Corning's 2018 10-K: the announcement of December 2017 ranks first for what it paid in 2018;
# Note 6's sentence (p.3 of the MD&A overview too) prints the price under the deal's short name
ANNOUNCED = ("In December 2017, Corning announced that it had entered into agreements with the "
             "3M Company (3M) to purchase substantially all its Communication Markets Division "
             "(“CMD”) in a cash transaction.")
PAID = "During 2018, Corning acquired substantially all of CMD for $841 million."
GUIDED = ("In the Optical Communications segment, we expect sales to increase by 10% in 2019, "
          "including a full year of sales from the acquisition.")


def test_an_amount_asked_is_led_by_the_best_ranked_sentence_that_prints_it() -> None:
    asked = read_question("What did Corning pay for 3M's Communication Markets Division (CMD) "
                          "in 2018?")
    ranked = [_scored("corning-10k", 2018, t) for t in (ANNOUNCED, GUIDED, PAID)]
    chosen = amount_ranked(asked, ranked[:1], ranked)
    # the outlook prints an amount, but of 2019 and not of CMD; the price names CMD
    assert [s.unit.text for s in chosen] == [PAID, ANNOUNCED]
    # a quote that prints an amount answers already; a yes or no is not an amount asked
    assert amount_ranked(asked, ranked[2:], ranked) == ranked[2:]
    yes_no = read_question("Did Corning acquire 3M's Communication Markets Division (CMD)?")
    assert amount_ranked(yes_no, ranked[:1], ranked) == ranked[:1]
    # past the first few ranked, no sentence is read
    far = [*ranked[:1], *[ranked[1]] * AMOUNT_RANKED, ranked[2]]
    assert amount_ranked(asked, far[:1], far) == far[:1]


def test_a_short_name_is_one_the_question_defines_in_parentheses() -> None:
    asked = read_question("What did Corning pay for 3M's Communication Markets Division (CMD) "
                          "in FY2018?")
    assert names_short_name(asked, PAID)
    assert not names_short_name(asked, "In FY2018, 3M paid $100 million for Q4 items.")
    # a capitals word the question merely prints (its company's ticker, "R&D") defines nothing:
    # AMD's "$300 billion market opportunity" never leads its buybacks
    amd = read_question("How much did AMD spend on share repurchases and R&D in 2022?")
    assert not names_short_name(amd, "positioning AMD to address an expanded $300 billion "
                                     "market opportunity with R&D")


def test_a_quoted_row_prints_the_amount_asked_already() -> None:
    """Pfizer's income statement row prints its R&D expenses without a dollar sign: no
    sentence that prints "$500 million" leads before it."""
    asked = read_question("What were Pfizer's research and development expenses in 2019?")
    row = _scored("pfizer-10k", 2019, "Research and development expenses: 2019: 8,650; "
                  "2018: 8,006")
    row = row.model_copy(update={"unit": row.unit.model_copy(update={"is_row": True})})
    savings = _scored("pfizer-10k", 2019, "Savings of approximately $500 million were "
                      "reinvested in our research and development pipeline in 2019.")
    assert amount_ranked(asked, [row], [row, savings]) == [row]
