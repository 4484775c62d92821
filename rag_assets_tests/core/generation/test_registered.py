"""The securities registered under Section 12(b), read from real cover pages in each way text
extraction prints the table: rows whose columns ran together (Walmart, Coca-Cola, JPMorgan's
titles over two lines), the columns one after the other (3M, whose common stock is listed twice),
a symbol on a line of its own (Coca-Cola's KO27), rows of cells (General Mills 2020) and a
one-class cover (American Water Works). The covers are of analyst-tune's companies and 3M."""

from __future__ import annotations

from functools import cache

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.registered import cover_table, registered_securities, securities
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")

WALMART = "financebench-bulk/pdfs/WALMART_2022_10K.pdf"
AMERICAN_WATER = "financebench-dev/pdfs/AMERICANWATERWORKS_2022_10K.pdf"


@cache
def _pages(path: str) -> PageTexts:
    return PageTexts.from_pages("d", 2022, real_filing(path).pages)


def _cover(path: str) -> list[str]:
    pages = _pages(path)
    block = next(b for p in pages.pages_of("d", 2022)[:5]
                 if (b := cover_table((pages.get("d", 2022, p) or "").replace("\xa0", " "))))
    return [s.shown() for s in securities(block)]


@pytest.mark.parametrize(("path", "count", "first", "last"), [
    (WALMART, 3, "Common Stock, par value $0.10 per share (WMT, NYSE)",
     "2.550% Notes Due 2026 (WMT26, NYSE)"),
    ("sec-10k/3M_2018_10K.pdf", 7, "Common Stock, Par Value $.01 Per Share (New York Stock "
     "Exchange, Inc., Chicago Stock Exchange, Inc.)", "1.500% Notes due 2031 (New York Stock "
     "Exchange, Inc.)"),
    ("financebench-bulk/pdfs/COCACOLA_2019_10K.pdf", 13,
     "Common Stock, $0.25 Par Value (KO, New York Stock Exchange)",
     "1.100% Notes Due 2036 (KO36, New York Stock Exchange)"),
    ("financebench-dev/pdfs/GENERALMILLS_2020_10K.pdf", 5,
     "Common Stock, $.10 par value (GIS, New York Stock Exchange)",
     "1.500% Notes due 2027 (GIS27, New York Stock Exchange)"),
    # the table printed away from its caption, after the check boxes
    ("financebench-bulk/pdfs/GENERALMILLS_2015_10K.pdf", 1,
     "Common Stock, $.10 par value (New York Stock Exchange)",
     "Common Stock, $.10 par value (New York Stock Exchange)"),
    ("financebench-bulk/pdfs/JPMORGAN_2022Q3_10Q.pdf", 9, "Common stock (JPM, The New York "
     "Stock Exchange)", "Guarantee of Callable Fixed Rate Notes due June 10, 2032 of JPMorgan "
     "Chase Financial Company LLC (JPM/32, The New York Stock Exchange)"),
    (AMERICAN_WATER, 1, "Common stock, par value $0.01 per share (AWK, New York Stock Exchange)",
     "Common stock, par value $0.01 per share (AWK, New York Stock Exchange)"),
])
def test_every_class_of_a_real_cover_is_read(path: str, count: int, first: str,
                                              last: str) -> None:
    shown = _cover(path)
    assert (len(shown), shown[0], shown[-1]) == (count, first, last)


def test_ko27s_symbol_on_a_line_of_its_own_and_jpms_two_line_titles() -> None:
    assert "1.125% Notes Due 2027 (KO27, New York Stock Exchange)" in _cover(
        "financebench-bulk/pdfs/COCACOLA_2019_10K.pdf")
    assert ("Depositary Shares, each representing a one-four hundredth interest in a share of "
            "5.75% Non-Cumulative Preferred Stock, Series DD (JPM PR D, The New York Stock "
            "Exchange)") in _cover("financebench-bulk/pdfs/JPMORGAN_2022Q3_10Q.pdf")


def _answer(question: str, path: str) -> str | None:
    pages = _pages(path)
    found = registered_securities(read_question(question), "d", 2022, [
        (p, pages.get("d", 2022, p) or "") for p in pages.pages_of("d", 2022)])
    if found is None:
        return None
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return found.text


def test_the_kind_asked_is_named_with_symbol_and_exchange() -> None:
    debt = ("1.900% Notes Due 2022 (WMT22, NYSE) and 2.550% Notes Due 2026 (WMT26, NYSE), "
            "registered under Section 12(b) of the Exchange Act.")
    assert _answer("Which of Walmart's debt securities are listed on a national securities "
                   "exchange?", WALMART) == debt
    assert _answer("Does Walmart have notes registered to trade on an exchange?",
                   WALMART) == f"Yes: {debt}"
    assert _answer("Which classes of stock are registered under Section 12(b) for Walmart?",
                   WALMART) == ("Common Stock, par value $0.10 per share (WMT, NYSE), registered "
                                "under Section 12(b) of the Exchange Act.")


def test_none_of_the_kind_asked_says_so_and_names_what_is_registered() -> None:
    assert _answer("Which debt securities are registered to trade on a national securities "
                   "exchange under American Water Works' name?", AMERICAN_WATER) == (
        "None: no debt securities are registered under Section 12(b) of the Exchange Act; the "
        "cover page lists Common stock, par value $0.01 per share (AWK, New York Stock "
        "Exchange).")


def test_other_questions_are_left_to_the_other_routes() -> None:
    assert _answer("What drove Walmart's revenue growth in fiscal 2022?", WALMART) is None
    assert _answer("How much debt did Walmart have at the end of fiscal 2022?", WALMART) is None


def test_the_exchange_and_the_class_a_question_names() -> None:
    """An exchange named is no kind of class ("listed on the New York Stock Exchange" asks no
    equity); a yes or no names the exchange asked; a class word named ("preferred") is that
    class only; a question about no class of securities is not answered from the cover."""
    assert _answer("Which debt securities are listed on the New York Stock Exchange under "
                   "Walmart's name?", WALMART) == (
        "1.900% Notes Due 2022 (WMT22, NYSE) and 2.550% Notes Due 2026 (WMT26, NYSE), "
        "registered under Section 12(b) of the Exchange Act.")
    assert (_answer("Is Walmart's common stock listed on the Nasdaq?", WALMART) or "").startswith(
        "No: no common securities are registered under Section 12(b) of the Exchange Act on "
        "the Nasdaq; the cover page lists Common Stock")
    assert (_answer("Does Walmart have any preferred stock registered under Section 12(b)?",
                    WALMART) or "").startswith("No: no preferred securities are registered")
    assert _answer("Which commodity futures traded on the Chicago Board of Trade does Walmart "
                   "use?", WALMART) is None


def test_no_class_of_the_kind_asked_is_said_only_after_the_whole_table() -> None:
    """American Water registers its common stock only: asked for equity, it is named; a
    table whose notes the reader lost would not be said to hold none."""
    assert _answer("Which classes of equity are registered under Section 12(b) for American "
                   "Water Works?", AMERICAN_WATER) == (
        "Common stock, par value $0.01 per share (AWK, New York Stock Exchange), registered "
        "under Section 12(b) of the Exchange Act.")
    from rag_assets.core.generation.registered import _read_whole, securities

    block = ("Title of each class Name of each exchange on which registered\n"
             "Common Stock New York Stock Exchange\n1.500% Notes due 2026")
    listed = securities(block)
    assert [s.title for s in listed] == ["Common Stock"]
    assert not _read_whole(block, listed, "debt")  # a note's title printed, its row not read
    assert _read_whole(block, listed, "equity")
