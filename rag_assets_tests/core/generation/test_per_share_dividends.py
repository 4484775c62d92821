"""Dividends per share read from the row a 10-K prints them in, on American Water's real 10-K
for 2021 (dev; its selected financial data prints "Cash dividends declared per common share" for
five years), the row as the table reader gives it: the figure of the year asked, else nothing."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.evidence import EvidenceUnit, page_table_rows
from rag_assets.core.generation.fiscal_names import periods_as_printed
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.per_share_dividends import PER_SHARE_RE, per_share_dividend
from rag_assets.core.question.question import read_question
from rag_assets.core.text.sentences import page_prose, split_sentences
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")

DOCUMENT, YEAR, PAGE = "american-water-works-10k", 2021, 54


def _answer(question: str) -> str | None:
    pages = PageTexts.from_pages(DOCUMENT, YEAR, real_filing(
        "financebench-dev/pdfs/AMERICANWATERWORKS_2021_10K.pdf").pages)
    rows = page_table_rows(pages, DOCUMENT, YEAR, PAGE)
    found = per_share_dividend(read_question(question), rows)
    if found is None:
        return None
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return found.text


def test_the_year_asked_is_read_from_the_per_share_row() -> None:
    assert _answer("How much did American Water Works pay in dividends per share in FY2021?") \
        == "Cash dividends declared per common share: $2.41 in 2021."
    assert _answer("What was American Water's dividend per share in 2019?") == (
        "Cash dividends declared per common share: $2.00 in 2019.")


def test_no_single_year_or_no_printed_year_gives_nothing() -> None:
    assert _answer("What was American Water's dividend per share in 2015?") is None
    assert _answer("How did American Water's dividends per share change from 2020 to "
                   "2021?") is None  # two periods: the trend is another question's
    assert _answer("How much did American Water pay in dividends in 2021?") is None  # dollars


def test_the_row_is_read_from_the_page_that_prints_it_when_retrieval_missed_it() -> None:
    pages = PageTexts.from_pages(DOCUMENT, YEAR, real_filing(
        "financebench-dev/pdfs/AMERICANWATERWORKS_2021_10K.pdf").pages)
    # retrieval returned a row of another table only
    other = [u for u in page_table_rows(pages, DOCUMENT, YEAR, PAGE)
             if not PER_SHARE_RE.search(u.text)][:1]
    assert other

    def scan(patterns: Sequence[re.Pattern[str]]) -> Iterator[EvidenceUnit]:
        for page in pages.pages_of(DOCUMENT, YEAR):
            for sentence in split_sentences(page_prose(pages.get(DOCUMENT, YEAR, page) or "")):
                if any(p.search(sentence) for p in patterns):
                    yield EvidenceUnit(chunk_id="scan", document=DOCUMENT, year=YEAR,
                                       chunk_rank=0, page=page, located=True, quote=sentence,
                                       text=sentence)

    question = read_question("How much did American Water Works pay in dividends per share in "
                             "FY2020?")
    assert per_share_dividend(question, other) is None  # the rows retrieval returned alone
    found = per_share_dividend(question, other, (),
                               lambda d, y, p: page_table_rows(pages, d, y, p), scan)
    assert found is not None and found.text == (
        "Cash dividends declared per common share: $2.20 in 2020.")
    assert [c.mark for c in verify_claims([found.claim()], pages)[0].citations] == ["valid"]


def _asker(pages: PageTexts, doc: str, year: int, rows: bool = False, shift: int = 0
           ) -> Callable[[str], str | None]:
    """The direct answer's text for a question of one filing, its citation verified: the
    filing's sentences scanned as the engine scans them, its pages' rows when ``rows``."""

    def scan(patterns: Sequence[re.Pattern[str]]) -> Iterator[EvidenceUnit]:
        for page in pages.pages_of(doc, year):
            for sentence in split_sentences(page_prose(pages.get(doc, year, page) or "")):
                if any(p.search(sentence) for p in patterns):
                    yield EvidenceUnit(chunk_id="scan", document=doc, year=year, chunk_rank=0,
                                       page=page, located=True, quote=sentence, text=sentence)

    def page_rows(d: str, y: int, p: int) -> list[EvidenceUnit]:
        return page_table_rows(pages, d, y, p) if rows else []

    def asked(question: str) -> str | None:
        read = read_question(question)
        if shift:  # dated as the filing's columns print the quarter, as the engine does
            read = read.model_copy(update={"periods": periods_as_printed(read.periods, shift)})
        found = per_share_dividend(read, [], (), page_rows, scan)
        if found is not None:
            marks = [c.mark for c in verify_claims([found.claim()], pages)[0].citations]
            assert marks and set(marks) == {"valid"}, marks
        return None if found is None else found.text

    return asked


def _filing_asker(path: str, doc: str, year: int, shift: int = 0
                  ) -> Callable[[str], str | None]:
    """:func:`_asker` of a real filing of the corpora, its pages' rows read."""
    return _asker(PageTexts.from_pages(doc, year, real_filing(path).pages), doc, year,
                  rows=True, shift=shift)


def test_a_sentence_that_lists_each_years_dividend_respectively() -> None:
    """3M's 2018 10-K (sec-10k) states the year's dividends in its equity note, after each
    quarter's: the amount in the year's place, not a quarter's; no rows given to read."""
    pages = PageTexts.from_pages("3m-10k", 2018, real_filing("sec-10k/3M_2018_10K.pdf").pages)
    asked = _asker(pages, "3m-10k", 2018)

    assert asked("How much did 3M pay in dividends per share in FY2017?") == (
        'Dividends per share: $4.70 in 2017 (stated: "dividends of $5.44, $4.70 and $4.44 per '
        'share, respectively").')
    assert asked("What dividends per share did 3M pay in FY2015?") is None  # not listed
    assert PER_SHARE_RE.search("Cash dividends paid per 3M common share")


@pytest.mark.parametrize("sentence", [
    # Coca-Cola 2019, Item 7: each amount with its "per share"
    "Our annualized common stock dividend was $1.60 per share, $1.56 per share and $1.48 per "
    "share in 2019, 2018 and 2017, respectively.",
    # its equity statement's row
    "Dividends (per share \u2014 $1.60, $1.56 and $1.48 in 2019, 2018 and 2017, respectively)",
])
def test_each_years_dividend_listed_in_other_words(sentence: str) -> None:
    unit = EvidenceUnit(chunk_id="scan", document="coca-cola-10k", year=2019, chunk_rank=0,
                        page=60, located=True, quote=sentence, text=sentence)

    def asked(question: str) -> str | None:
        found = per_share_dividend(read_question(question), [], (), lambda d, y, p: [],
                                   lambda patterns: iter([unit]))
        return None if found is None else found.text

    assert (asked("How much did Coca-Cola pay in dividends per share in FY2018?") or "").startswith(
        "Dividends per share: $1.56 in 2018")
    assert asked("How much did Coca-Cola pay in dividends per share in FY2016?") is None


def test_the_common_dividend_a_statement_of_equity_prints_in_its_rows_label() -> None:
    """Kraft Heinz 2021 (bulk) prints no per-share row: its statement of equity's "Dividends
    declared-common stock ($1.60 per share)" in each year's block, closed by that year's
    balance; the noncontrolling interest's ($108.71 per share) is not the common share's."""
    asked = _filing_asker("financebench-bulk/pdfs/KRAFTHEINZ_2021_10K.pdf", "kraft-heinz-10k",
                          2021)

    assert asked("How much did Kraft Heinz pay in dividends per share in FY2021?") == (
        'Dividends per share: $1.60 in 2021 (stated: "Dividends declared-common stock ($1.60 '
        'per share)").')
    assert asked("What dividends per share did Kraft Heinz pay in FY2019?") is not None
    assert asked("What dividends per share did Kraft Heinz pay in FY2018?") is None  # no block


def test_a_years_four_quarters_in_the_quarterly_data_are_summed() -> None:
    """General Mills 2015 (bulk) prints no year's per-share row: its quarterly data (Item 302)
    print each quarter's, $0.41, $0.41, $0.41 and $0.44 in fiscal 2015, summed to the $1.67
    MD&A says was paid (its equity statement's "($1.70 per share)" is what was declared)."""
    asked = _filing_asker("financebench-bulk/pdfs/GENERALMILLS_2015_10K.pdf",
                          "general-mills-10k", 2015)

    assert asked("How much did General Mills pay in dividends per share in FY2015?") == (
        "Dividends per share: $1.67 in 2015, the sum of the four quarters the quarterly data "
        "print ($0.41, $0.41, $0.41, $0.44).")
    assert (asked("What was General Mills' dividend per share in fiscal 2014?") or "").startswith(
        "Dividends per share: $1.55 in 2014")
    assert asked("What was General Mills' dividend per share in Q4 2015?") is None  # a quarter


def test_a_quarters_declared_dividend_paid_in_installments_names_the_installment() -> None:
    """Walmart's 10-Q for Q1 fiscal 2024 (bulk): its board approves the year's dividend in the
    first quarter, so the quarter's row declares $2.28, "paid in four quarterly installments of
    $0.57 per share" (4 x $0.57 = $2.28); a year asked is the row's alone."""
    asked = _filing_asker("financebench-bulk/pdfs/WALMART_2024Q1_10Q.pdf", "walmart-10q-q1",
                          2024, shift=-1)
    assert asked("What quarterly dividend per share did Walmart declare in Q1 fiscal 2024?") == (
        "Dividends declared per common share: $2.28 in three months 2023, the year's dividend, "
        "paid in four quarterly installments of $0.57 per share.")


def test_a_statement_of_equity_read_as_text_gives_the_years_dividend() -> None:
    """Nike's FY2022 10-K (bulk) stacks its statement of equity's header over nine lines, and
    no table reader takes it apart: its common dividend's label, "Dividends on common stock
    ($1.190 per share)", is the one before "Balance at May 31, 2022" in the page's text. The
    preferred stock's "($0.10 per share)" on the next line is never the answer."""
    asked = _filing_asker("financebench-bulk/pdfs/NIKE_2022_10K.pdf", "nike-10k", 2022)
    assert asked("What was Nike's dividend per share in fiscal 2022?") == (
        'Dividends per share: $1.190 in 2022 (stated: "Dividends on common stock ($1.190 per '
        'share)").')
    assert asked("How much did Nike pay in dividends per share in FY2020?") == (
        'Dividends per share: $0.955 in 2020 (stated: "Dividends on common stock ($0.955 per '
        'share)").')
    assert asked("What was Nike's dividend per share in fiscal 2019?") is None  # no block


@pytest.mark.parametrize("text", [
    # prose that names a dividend and, later, a balance: no statement of equity
    "Dividends declared in 2021 ($0.20 per share) reduced retained earnings, and the outstanding "
    "balance at December 31, 2022 under our revolving credit facility was zero.",
    # a preferred holder's dividend is no common dividend
    "Balance at December 31, 2021 100 50 Series A preferred stock dividends ($62.50 per share) "
    "(10) Cash dividends declared on common stock (40) Balance at December 31, 2022 120 60",
    # a liability's row under a balance of a note's table
    "Dividends payable ($0.20 per share) 5 4 Accrued interest 3 2 Balance at December 31, "
    "2022 7 6",
    # an opening balance at another date closes no year
    "Balance at January 1, 2021 100 Dividends ($0.80 per share) (8) Balance at January 1, 2022 "
    "110 Dividends ($0.85 per share) (9) Balance at December 31, 2022 120",
])
def test_no_years_dividend_from_text_that_is_not_its_statement_of_equity(text: str) -> None:
    unit = EvidenceUnit(chunk_id="scan", document="acme-10k", year=2022, chunk_rank=0, page=60,
                        located=True, quote=text, text=text)
    found = per_share_dividend(read_question("What was Acme's dividend per share in 2022?"), [],
                               (), lambda d, y, p: [], lambda patterns: iter([unit]))
    assert found is None, found


def test_a_statement_of_equitys_balances_dated_as_filings_print_them() -> None:
    from rag_assets.core.text.periods import BALANCE_DATED_RE

    for printed, year in (("Balance at May 31, 2022 305", "2022"),
                          ("Balances as of Jan. 31, 2021 1", "2021"),
                          ("Balances at Sept. 30, 2021 (4)", "2021")):
        match = BALANCE_DATED_RE.search(printed)
        assert match is not None and match["year"] == year, printed
