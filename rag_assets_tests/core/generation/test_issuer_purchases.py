"""A quarter's buyback read from Item 703's table, on JPMorgan's real 10-Q for Q2 2022
(financebench-wide): its Part II, Item 2 prints a row per month and per quarter, and its MD&A
says the firm "has temporarily suspended share repurchases" (in July, after the quarter)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.direct import direct_answer
from rag_assets.core.generation.evidence import EvidenceUnit, page_table_rows
from rag_assets.core.generation.issuer_purchases import purchases_yes_no
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.question.question import read_question
from rag_assets.core.text.sentences import page_prose, split_sentences
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")

DOC, YEAR = "jpmorgan-10q-q2", 2022
SUSPENDED_RE = re.compile(r"temporarily suspended share\s+repurchases", re.IGNORECASE)


@cache
def _pages() -> PageTexts:
    return PageTexts.from_pages(DOC, YEAR, real_filing(
        "financebench-wide/pdfs/JPMORGAN_2022Q2_10Q.pdf").pages)


def _scan(patterns: Sequence[re.Pattern[str]]) -> Iterator[EvidenceUnit]:
    pages = _pages()
    for page in pages.pages_of(DOC, YEAR):
        for sentence in split_sentences(page_prose(pages.get(DOC, YEAR, page) or "")):
            if any(p.search(sentence) for p in patterns):
                yield EvidenceUnit(chunk_id="scan", document=DOC, year=YEAR, chunk_rank=0,
                                   page=page, located=True, quote=sentence, text=sentence)


def _ask(question: str) -> str | None:
    """The direct answer when retrieval returned the suspension's sentence alone."""
    pages = _pages()
    selected = list(_scan([SUSPENDED_RE]))[:1]
    assert selected, "the MD&A sentence on the suspension"
    found = direct_answer(read_question(question), selected, selected,
                          lambda d, y, p: page_table_rows(pages, d, y, p), scan=_scan)
    if found is None:
        return None
    assert [c.mark for c in verify_claims([found.claim()], pages)[0].citations] == ["valid"]
    return found.text


def test_the_quarter_row_of_item_703_says_yes_before_the_suspension_sentence() -> None:
    assert _ask("Did JPMorgan repurchase shares in Q2 2022?") == (
        "Yes. Second quarter: Total number of shares of common stock repurchased: 4,981,047; "
        "Aggregate purchase price of common stock repurchases (in millions)(a): $ 622 (Item "
        "703's table of issuer purchases).")
    answer = _ask("Did JPMorgan buy back stock in the first quarter of 2022?")
    assert answer is not None and answer.startswith("Yes. First quarter: Total number of "
                                                    "shares of common stock repurchased: "
                                                    "18,106,991")


def test_a_pause_asked_of_a_quarter_that_bought_shares_is_no() -> None:
    """The quarter's row printing shares bought says No to whether buybacks were paused."""
    answer = _ask("Did JPMorgan pause share buybacks in Q2 2022?")
    assert answer is not None and answer.startswith("No. Second quarter: Total number of "
                                                    "shares of common stock repurchased: "
                                                    "4,981,047")


def test_a_quarter_the_table_does_not_print_is_left_to_the_sentences() -> None:
    question = read_question("Did JPMorgan repurchase shares in Q3 2022?")
    assert purchases_yes_no(question, [], [], lambda d, y, p: page_table_rows(_pages(), d, y, p),
                            _scan) is None
    # a year asked, or a figure: not this table's question
    for asked in ("Did JPMorgan repurchase shares in 2022?",
                  "How much did JPMorgan spend on buybacks in Q2 2022?"):
        assert purchases_yes_no(read_question(asked), [], [], None, _scan) is None


def test_how_many_shares_is_the_quarter_rows_count_without_the_dollars_scale() -> None:
    """The quarter's row prints the count in shares; "(in millions)" heads the dollars beside
    it, never the count."""
    assert _ask("How many shares did JPMorgan repurchase in Q2 2022?") == (
        "4,981,047 shares (Second quarter, Total number of shares of common stock repurchased: "
        "4,981,047).")


WALMART = ("walmart-10q-q1", 2024, "financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf")


def test_a_row_that_is_the_count_gives_the_period_reported_first_in_its_tables_scale() -> None:
    """Walmart's MD&A for Q1 fiscal 2024: "Total number of shares repurchased 4.8 16.9" under
    "Three Months Ended April 30, 2023 2022" and "(Amounts in millions, except per share
    data)"."""
    document, year, path = WALMART
    pages = PageTexts.from_pages(document, year, real_filing(path).pages)
    rows = [u for page in pages.pages_of(document, year)
            for u in page_table_rows(pages, document, year, page)
            if re.match(r"total number of shares repurchased", u.text, re.IGNORECASE)]
    question = read_question("How many shares did Walmart repurchase during Q1 fiscal 2024?")
    found = direct_answer(question, rows, rows, None)
    assert found is not None and found.text.startswith("4.8 million shares (Total number of "
                                                       "shares repurchased")
    assert [c.mark for c in verify_claims([found.claim()], pages)[0].citations] == ["valid"]
