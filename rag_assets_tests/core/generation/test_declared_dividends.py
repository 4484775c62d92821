"""A dividend's declaration stated whole (amount per share, payable date, record date) from the
sentences that print it: Costco's 8-K of August 9, 2023 (an analyst-tune filing), and a
10-Q-like page that prints two declarations."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.declared_dividends import declared_dividend
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

COSTCO_8K = "financebench-bulk/pdfs/COSTCO_2023_8K_dated-2023-08-09.pdf"
TWO_DECLARED = [(7, "Subsequent events. On April 20, 2023, the Board declared a quarterly "
                    "dividend of $0.25 per share, payable May 15, 2023 to shareholders of "
                    "record as of May 1, 2023. On July 20, 2023, the Board declared a special "
                    "dividend of $1.00 per share. It is payable on August 15, 2023.")]


def _asked(text: str, pages: list[tuple[int, str]]) -> str | None:
    found = declared_dividend(read_question(text), "acme-10q", 2023, pages)
    return found.text if found else None


def test_the_declaration_the_question_dates_is_stated_with_its_dates() -> None:
    assert _asked("What dividend did Acme declare on July 20, 2023, and when is it payable?",
                  TWO_DECLARED) == ("A special dividend of $1.00 per share, payable August 15, "
                                    "2023.")
    assert _asked("How much was the dividend Acme declared on April 20, 2023?",
                  TWO_DECLARED) == ("A quarterly dividend of $0.25 per share, payable May 15, "
                                    "2023, to shareholders of record on May 1, 2023.")


@pytest.mark.parametrize("text", [
    "What dividends did Acme declare in 2023?",  # two amounts, no date: not ours to pick
    "Did Acme declare a dividend on July 20, 2023?",  # a yes or no is read elsewhere
    "How much did Acme pay in dividends in 2023?",  # the cash paid, a statement's line
])
def test_no_declaration_is_guessed(text: str) -> None:
    assert _asked(text, TWO_DECLARED) is None


@pytest.mark.skipif(not (CORPORA / COSTCO_8K).is_file(), reason=f"{COSTCO_8K} is not here")
def test_a_press_release_declaration_on_a_real_8k() -> None:
    filing = real_filing(COSTCO_8K)
    texts = PageTexts.from_pages("costco-8k", 2023, filing.pages)
    pages = [(p, texts.get("costco-8k", 2023, p) or "") for p in texts.pages_of("costco-8k", 2023)]
    found = declared_dividend(read_question(
        "What was the amount of the dividend Costco declared on August 9, 2023, and when is it "
        "paid?"), "costco-8k", 2023, pages)
    assert found is not None
    assert found.text == ("A dividend of $1.02 per share, payable September 8, 2023, to "
                          "shareholders of record on August 25, 2023.")
    checked = verify_claims([found.claim()], texts)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
