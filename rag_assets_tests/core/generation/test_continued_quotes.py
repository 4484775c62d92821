"""A quoted first sentence read on into the next one on real filings: the sentence after it is
joined when it refers back to it and states more of what it amounts to (Lockheed Martin's price
for Aerojet Rocketdyne, then "This represents ... $4.6 billion"), and left out when it starts
another statement, opens on the filer or prints no amount (American Water's acquisitions paid
before its plan, its PFAS estimate and investment plan each continued by "the Company ...",
Coca-Cola's goodwill after Costa's allocation, Corning's note on how a debt was recorded). No
store: the units are the pages' own sentences, the next one read by the route's own reader,
every citation verified on its page."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.answer_config import AnswerConfig
from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.claims import claim_of
from rag_assets.core.generation.continued_quotes import continues, opens_on_same_subject
from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.generation.extractive import ScoredUnit
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.quote_route import QuoteRoute
from rag_assets.core.generation.yes_no import with_its_amount
from rag_assets.core.ingest.routing import DocumentProfile
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")


def _lead(path: str, document: str, year: int, company: str, question: str, opening: str
          ) -> str:
    """The first quote's text after :meth:`QuoteRoute.continued_lead`, the lead being the
    first sentence of the filing that prints ``opening``; its citations all valid."""
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    route = QuoteRoute(retriever=None, pages=pages, config=AnswerConfig())  # type: ignore[arg-type]
    found = [(page, sentence) for page in pages.pages_of(document, year)
             for sentence in route.read_page(document, year, page).sentences
             if opening in sentence]
    assert found, opening
    unit = printed_unit(document, year, *found[0])
    profile = DocumentProfile(document=document, year=year, title=company, aliases=[company])
    scored = [ScoredUnit(unit=unit, score=1.0, dense=0.0, bm25=0.0, coverage=0.0, matches=0.0)]
    quotes = route.continued_lead(read_question(question, [profile]), scored, [claim_of(unit)])
    assert len(quotes) == 1
    assert all(c.mark in ("valid", "unchecked") for c in quotes[0].citations), quotes[0]
    return quotes[0].text


AW_Q2_2023 = ("financebench-bulk/pdfs/AMERICANWATERWORKS_2023Q2_10Q.pdf",
              "american-water-works-10q-q2", 2023, "American Water Works")
AW_2020 = ("financebench-dev/pdfs/AMERICANWATERWORKS_2020_10K.pdf", "american-water-works-10k",
           2020, "American Water Works")


def test_a_price_per_share_goes_on_with_the_transaction_value() -> None:
    lead = _lead("financebench-dev/pdfs/LOCKHEEDMARTIN_2020_10K.pdf", "lockheed-martin-10k",
                 2020, "Lockheed Martin", "What acquisition did Lockheed Martin agree to in "
                 "December 2020, and at what price?", "Acquisitions On December 20, 2020")
    assert "$56 per share" in lead and "; this represents a post-dividend equity value of " \
           "approximately $4.6 billion" in lead and "$4.4 billion" in lead, lead


@pytest.mark.parametrize(("filing", "question", "opening"), [
    # the next sentence is the plan, another statement ("As previously noted, ...")
    (AW_2020, "How much did American Water Works pay for acquisitions in 2020?",
     "During 2020, the Company paid $135 million for the acquisition"),
    # the next sentences open on the filer: "Additionally, the Company estimates annual
    # operating expenses of approximately $50 million ...", "In 2021, the Company expects to
    # invest $1.9 billion ..." are quotes of their own, as the filer opens most sentences
    (AW_Q2_2023, "How much does American Water Works expect to spend to comply with the EPA's "
     "proposed PFAS regulations?", "The Company estimates an investment in excess of $1 billion"),
    (AW_2020, "How much does American Water Works expect to invest over 2021-2025 and "
     "2021-2030?", "As previously noted, the Company expects to invest"),
    # the next sentence prints no amount
    (("financebench-bulk/pdfs/COCACOLA_2019_10K.pdf", "coca-cola-10k", 2019, "Coca-Cola"),
     "How was Coca-Cola's purchase price for Costa allocated?",
     "As of December 31, 2019, $2.4 billion of the purchase price"),
    (("financebench-wide/pdfs/CORNING_2020_10K.pdf", "corning-10k", 2020, "Corning"),
     "How was Hemlock Semiconductor's redemption funded?",
     "The Redemption was funded with HSG"),
])
def test_another_statement_or_no_amount_is_not_joined(
        filing: tuple[str, str, int, str], question: str, opening: str) -> None:
    lead = _lead(*filing, question, opening)
    assert opening in lead and ";" not in lead.split(opening)[1], lead


@pytest.mark.parametrize(("sentence", "same"), [
    ("This represents a transaction value of approximately $4.4 billion.", True),
    ("In 2021, these investments are expected to total $1.9 billion.", True),
    ("Additionally, it includes $50 million of annual operating expenses.", True),
    ("Additionally, the Company estimates annual operating expenses of $50 million.", False),
    ("In 2021, the Company expects to invest $1.9 billion.", False),
    ("On May 15, 2023, we issued €850 million of notes.", False),
    ("• These include a $100 million grant.", False),
    ("As previously noted, the Company expects to invest $10.3 billion.", False),
    ("Net charge-offs were $727 million.", False),
])
def test_the_same_subject_past_an_adverb_or_a_time(sentence: str, same: bool) -> None:
    assert opens_on_same_subject(sentence) is same


def test_a_next_year_the_question_and_the_lead_do_not_name_is_not_joined() -> None:
    profile = DocumentProfile(document="x-10k", year=2020, title="X", aliases=["X"])
    question = read_question("How much did X pay for acquisitions in 2020?", [profile])
    lead = printed_unit("x-10k", 2020, 3, "In 2020, the Company paid $135 million for systems.")
    after = printed_unit("x-10k", 2020, 3, "In 2021, these are expected to cost $90 million.")
    assert not continues(question.years, lead, after)
    assert continues(question.years, lead, after.model_copy(update={
        "text": "In 2020, these also included $20 million for land."}))


def test_a_yes_whose_sentence_prints_an_amount_goes_on_with_the_sentence_that_refers_back() -> (
        None):
    """A yes or no read from a sentence that prints its amount is read on as a quote is:
    Lockheed Martin's agreement for Aerojet Rocketdyne, $56 per share, then "This represents
    ... a transaction value of approximately $4.4 billion"."""
    path, document, year = ("financebench-dev/pdfs/LOCKHEEDMARTIN_2020_10K.pdf",
                            "lockheed-martin-10k", 2020)
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    route = QuoteRoute(retriever=None, pages=pages, config=AnswerConfig())  # type: ignore[arg-type]
    page, sentence = next((page, s) for page in pages.pages_of(document, year)
                          for s in route.read_page(document, year, page).sentences
                          if "On December 20, 2020 we entered into an agreement" in s)
    unit = printed_unit(document, year, page, sentence)
    found = DirectAnswer(kind="yes_no", units=[unit], text=f"Yes. {sentence}")
    completed = with_its_amount(found, route.preceding, route.following, [2020])
    assert completed is not None and len(completed.units) == 2
    assert completed.text.startswith(f"Yes. {sentence.rstrip('.')}; this represents a "
                                     "post-dividend equity value of approximately $4.6 billion")
    checked = verify_claims([completed.claim()], pages)[0]
    assert all(c.mark == "valid" for c in checked.citations), checked
