"""A dividend's declaration stated whole (amount per share, declaration, payable and record
dates) from the sentences that print it: Costco's 8-K of August 9, 2023 (an analyst-tune
filing), Corning's 10-Q for Q2 2023 (a probe filing), and pages like a 10-Q's and an 8-K's
that print declarations beside what is not one (a year's total, a preferred series' note, a
table's cells)."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.declared_dividends import declared_dividend
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

COSTCO_8K = "financebench-bulk/pdfs/COSTCO_2023_8K_dated-2023-08-09.pdf"
CORNING_10Q = "financebench-bulk/pdfs/CORNING_2023Q2_10Q.pdf"
TEN_Q = [(7, "Subsequent events. On April 20, 2023, the Board declared a quarterly dividend of "
             "$0.25 per share, payable May 15, 2023 to shareholders of record as of May 1, 2023. "
             "On July 20, 2023, the Board declared a special dividend of $1.00 per share. It is "
             "payable on August 15, 2023. Cash dividends declared in 2022 totaled $1.00 per "
             "share. (d) Dividends in the amount of $125.22 per share were declared on March "
             "13, 2023. | March | $ 0.50 | On June 1, 2023, the Board declared a dividend of "
             "$9.99 per share on its Series A preferred stock.")]
EIGHT_K = [(0, "FORM 8-K CURRENT REPORT Item 8.01 Other Events. On March 3, 2023, the Board of "
               "Directors declared a quarterly cash dividend of $0.30 per share, payable April "
               "14, 2023, to shareholders of record on March 24, 2023.")]


def _asked(text: str, pages: list[tuple[int, str]], document: str = "acme-10q") -> str | None:
    found = declared_dividend(read_question(text), document, 2023, pages)
    return found.text if found else None


def test_the_declaration_the_question_dates_is_stated_with_its_dates() -> None:
    assert _asked("What dividend did Acme declare on July 20, 2023, and when is it payable?",
                  TEN_Q) == ("A special dividend of $1.00 per share, declared July 20, 2023, "
                             "payable August 15, 2023.")
    assert _asked("How much was the dividend Acme declared on April 20, 2023?", TEN_Q) == (
        "A quarterly dividend of $0.25 per share ($1.00 a year at that rate), declared April "
        "20, 2023, payable May 15, 2023, to shareholders of record on May 1, 2023.")
    # a current report's one declaration needs no date; of another year it is not
    assert _asked("What dividend did Acme declare, and when is it payable?", EIGHT_K,
                  "acme-8k") == ("A quarterly cash dividend of $0.30 per share ($1.20 a year "
                                 "at that rate), declared March 3, 2023, payable April 14, "
                                 "2023, to shareholders of record on March 24, 2023.")
    assert _asked("What dividend did Acme declare in 2022?", EIGHT_K, "acme-8k") is None


@pytest.mark.parametrize("text", [
    "What dividends did Acme declare in 2023?",  # a 10-Q's year: its tables hold the others
    "What dividend did Acme declare on May 15, 2023?",  # a payable date, not a declaration's
    "What dividend did Acme declare on March 13, 2023?",  # a table's note: a series' dividend
    "What dividend did Acme declare on June 1, 2023?",  # preferred stock, not asked
    "What quarterly dividend did Acme declare on July 20, 2023?",  # that one was special
    "Did Acme declare a dividend on July 20, 2023?",  # a yes or no is read elsewhere
    "Who declared Acme's dividend on July 20, 2023?",  # a name
    "What total dividends did Acme declare on July 20, 2023?",  # a total
    "How much did Acme pay in dividends in 2023?",  # the cash paid, a statement's line
])
def test_no_declaration_is_guessed(text: str) -> None:
    assert _asked(text, TEN_Q) is None


@pytest.mark.skipif(not (CORPORA / COSTCO_8K).is_file(), reason=f"{COSTCO_8K} is not here")
def test_a_press_release_declaration_on_a_real_8k() -> None:
    filing = real_filing(COSTCO_8K)
    texts = PageTexts.from_pages("costco-8k", 2023, filing.pages)
    pages = [(p, texts.get("costco-8k", 2023, p) or "") for p in texts.pages_of("costco-8k", 2023)]
    found = declared_dividend(read_question(
        "What was the amount of the dividend Costco declared on August 9, 2023, and when is it "
        "paid?"), "costco-8k", 2023, pages)
    assert found is not None
    assert found.text == ("A quarterly cash dividend of $1.02 per share ($4.08 a year at that "
                          "rate), declared August 9, 2023, payable September 8, 2023, to "
                          "shareholders of record on August 25, 2023.")
    checked = verify_claims([found.claim()], texts)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    # a dividend asked of a current report is its declaration, whatever verb the question uses
    for asked in ("What was the amount of Costco's quarterly cash dividend per share in its 8-K "
                  "dated August 9, 2023?", "What dividend did Costco announce in its 8-K?"):
        again = declared_dividend(read_question(asked), "costco-8k", 2023, pages)
        assert again is not None and again.text == found.text, asked
    # a dividend named only to date what is asked is not asked
    assert declared_dividend(read_question(
        "How many warehouses did Costco operate at the time of its August 9, 2023 dividend "
        "announcement?"), "costco-8k", 2023, pages) is None


def test_a_quarterly_report_declares_what_its_quarter_dated() -> None:
    """A 10-Q asked of the quarter its cover reports: the declarations dated in that quarter,
    the ones dated before it not."""
    cover = (0, "FORM 10-Q For the quarterly period ended September 30, 2023 Acme Inc.")
    # July's was special, not quarterly
    assert _asked("What quarterly dividend did Acme declare in Q3 2023?", [cover, *TEN_Q]) is None
    assert _asked("What dividend did Acme declare in Q3 2023?", [cover, *TEN_Q]) == (
        "A special dividend of $1.00 per share, declared July 20, 2023, payable August 15, 2023.")
    # April's declaration is Q2's; a quarter the report does not cover is not read
    assert _asked("What dividend did Acme declare in Q2 2023?", [cover, *TEN_Q]) is None
    assert _asked("What dividend did Acme declare in Q3 2023?", TEN_Q) is None  # no cover
    # a fiscal quarter's months are the filer's: not read as the calendar's
    assert _asked("What dividend did Acme declare in fiscal Q3 2023?", [cover, *TEN_Q]) is None


@pytest.mark.skipif(not (CORPORA / CORNING_10Q).is_file(), reason=f"{CORNING_10Q} is not here")
def test_the_quarter_s_declaration_on_a_real_10q() -> None:
    """Corning's 10-Q prints the equity statement's six months' row ($0.56 per share) and, in
    MD&A, the quarter's declaration ($0.28): the declaration answers."""
    filing = real_filing(CORNING_10Q)
    texts = PageTexts.from_pages("corning-10q-q2", 2023, filing.pages)
    pages = [(p, texts.get("corning-10q-q2", 2023, p) or "")
             for p in texts.pages_of("corning-10q-q2", 2023)]
    found = declared_dividend(read_question(
        "What quarterly dividend per share did Corning declare in Q2 2023?"), "corning-10q-q2",
        2023, pages)
    assert found is not None
    assert found.text == ("A quarterly dividend of $0.28 per share ($1.12 a year at that rate), "
                          "declared June 21, 2023, payable September 28, 2023.")
    checked = verify_claims([found.claim()], texts)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    assert declared_dividend(read_question(
        "What quarterly dividend per share did Corning declare in Q1 2023?"), "corning-10q-q2",
        2023, pages) is None
