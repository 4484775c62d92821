"""What a total is made of, from the table that adds its lines up to it: Foot Locker's Q3 2022
10-Q prints its impairment and other charges (note 5, p.13) over four columns (thirteen and
thirty-nine weeks of 2022 and 2021), dashes for the lines of nothing."""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.direct_rows import load_cues
from rag_assets.core.generation.evidence import EvidenceUnit, page_table_rows, pages_printing
from rag_assets.core.generation.made_up import largest_part, made_up
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import real_filing

CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")
DOC, YEAR, PAGE = "foot-locker-10q-q3", 2023, 12


@cache
def _pages() -> PageTexts:
    return PageTexts.from_pages(DOC, YEAR, real_filing(
        "financebench-bulk/pdfs/FOOTLOCKER_2023Q3_10Q.pdf").pages)


def _rows() -> list[EvidenceUnit]:
    return page_table_rows(_pages(), DOC, YEAR, PAGE)


def _made_up(question: str, selected: list[EvidenceUnit] | None = None) -> str | None:
    pages = _pages()
    found = made_up(read_question(question), selected or _rows()[-1:],
                    lambda d, y, p: page_table_rows(pages, d, y, p), load_cues())
    if found is None:
        return None
    claim = verify_claims([found.claim()], pages)[0]
    assert {c.mark for c in claim.citations} == {"valid"}, claim.citations
    return found.text


@pytest.mark.parametrize(("question", "expected"), [
    # the amount the question states picks the quarter's column: 17 + 2 + 1 = 20
    ("What items made up Foot Locker's $20 million of impairment and other charges in the "
     "quarter ended October 29, 2022?",
     "Total impairment and other charges of $20 million in three months 2022 were made up of "
     "Transformation consulting $17 million, Reorganization costs $2 million and Acquisition "
     "and integration costs $1 million: the table's lines add up to its total."),
    # the length asked picks the thirty-nine weeks: 27 + 5 + 4 + 2 = 38, the dashes nil
    ("What made up Foot Locker's impairment and other charges in the thirty-nine weeks ended "
     "October 29, 2022?",
     "Total impairment and other charges of $38 million in nine months 2022 were made up of "
     "Transformation consulting $27 million, Impairment of long-lived assets and right-of-use "
     "assets $5 million, Acquisition and integration costs $4 million and Reorganization costs "
     "$2 million: the table's lines add up to its total."),
    # the prior year's quarter: 30 + 14 + 13 = 57
    ("What were the components of Foot Locker's impairment and other charges in the third "
     "quarter of 2021?",
     "Total impairment and other charges of $57 million in three months 2021 were made up of "
     "Impairment of investments $30 million, Acquisition and integration costs $14 million and "
     "Impairment of long-lived assets and right-of-use assets $13 million: the table's lines "
     "add up to its total."),
])
def test_the_lines_that_add_up_to_the_total_asked(question: str, expected: str) -> None:
    assert _made_up(question) == expected


def test_no_answer_without_the_total_asked_or_lines_that_add_up() -> None:
    # a total the question does not name, and a question that asks no parts
    assert _made_up("What made up Foot Locker's selling, general and administrative expenses "
                    "in the third quarter of 2022?") is None
    assert _made_up("What were Foot Locker's impairment and other charges in the third quarter "
                    "of 2022?") is None
    # a line missing: the rest no longer add up to the total, so nothing is said
    rows = [r for r in _rows() if not r.text.startswith("Reorganization costs")]
    pages = _pages()
    assert made_up(read_question("What made up Foot Locker's impairment and other charges in "
                                 "the third quarter of 2022?"), rows[-1:],
                   lambda d, y, p: [r for r in page_table_rows(pages, d, y, p)
                                    if not r.text.startswith("Reorganization costs")],
                   load_cues()) is None
    # a stated amount no column's total prints, and no period: which column is not said
    assert _made_up("What items made up Foot Locker's $21 million of impairment and other "
                    "charges?") is None


MGM, MGM_YEAR, MGM_PAGE = "mgm-resorts-10q-q2", 2023, 10


@cache
def _mgm_pages() -> PageTexts:
    return PageTexts.from_pages(MGM, MGM_YEAR, real_filing(
        "financebench-wide/pdfs/MGMRESORTS_2023Q2_10Q.pdf").pages)


def _mgm(question: str, reader=made_up, printing=None):  # noqa: ANN001, ANN202
    pages = _mgm_pages()
    selected = page_table_rows(pages, MGM, MGM_YEAR, MGM_PAGE)[-1:]
    found = reader(read_question(question), selected,
                   lambda d, y, p: page_table_rows(pages, d, y, p), load_cues(), printing)
    if found is not None:
        claim = verify_claims([found.claim()], pages)[0]
        assert {c.mark for c in claim.citations} == {"valid"}, claim.citations
    return found


def test_a_subtotal_not_called_total_sums_the_lines_since_the_one_before() -> None:
    """MGM Resorts' debt investments (Q2 2023 10-Q, p.11): "Cash and cash equivalents" sums
    the money market funds and commercial paper above it, exactly in both columns, and ends
    their block; "Short-term investments" sums the four lines after it. A "Level 2" cell of
    words is no figure, so each line is read under the total's headings."""
    found = _mgm("What made up MGM's short-term investments at June 30, 2023?")
    assert found is not None and found.text == (
        "Short-term investments of $507,726 thousand in 2023 were made up of Corporate bonds "
        "$416,420 thousand, U.S. government securities $57,696 thousand, U.S. agency securities "
        "$29,049 thousand and Commercial paper and certificates of deposit $4,561 thousand: the "
        "table's lines add up to its total.")


def test_the_largest_part_of_the_total_asked_with_its_share() -> None:
    asked = ("Which type of debt received the largest investment among the short term "
             "investments for MGM in H1 FY2023?")
    found = _mgm(asked, largest_part)
    assert found is not None and found.text == (
        "Corporate bonds is the largest line of Short-term investments in 2023: $416,420 "
        "thousand, 82.0% of the $507,726 thousand total (416,420 / 507,726).")
    # a segment asked is the superlatives' to rank or refuse: a line is no segment
    assert _mgm("Which segment had the largest short term investments for MGM in H1 FY2023?",
                largest_part) is None
    smallest = _mgm(asked.replace("largest", "smallest"), largest_part)
    assert smallest is not None and smallest.text.startswith(
        "Commercial paper and certificates of deposit is the smallest line of Short-term "
        "investments in 2023: $4,561 thousand")
    # retrieval returned another page: the filing's pages that print a row so labelled are
    # read ("short term investments" printed "Short-term investments")
    pages = _mgm_pages()
    elsewhere = page_table_rows(pages, MGM, MGM_YEAR, 4)[:1]
    assert elsewhere and elsewhere[0].page != MGM_PAGE

    assert MGM_PAGE in pages_printing(pages, MGM, MGM_YEAR, "short term investments")
    read = largest_part(read_question(asked), elsewhere,
                        lambda d, y, p: page_table_rows(pages, d, y, p), load_cues(),
                        partial(pages_printing, pages))
    assert read is not None and read.named == "Corporate bonds"
    assert largest_part(read_question(asked), elsewhere,
                        lambda d, y, p: page_table_rows(pages, d, y, p), load_cues()) is None


@pytest.mark.parametrize(("of_mgm", "question"), [
    (True, "What made up MGM's total debt investments at June 30, 2023?"),
    (True, "What made up MGM's cash and cash equivalents at June 30, 2023?"),
    (False, "What made up the decrease in Foot Locker's impairment and other charges in the "
            "third quarter of 2022?"),
    (True, "What made up MGM's short-term investments between December 31, 2022 and June 30, "
           "2023?"),
])
def test_no_lines_of_another_total_a_single_line_or_a_change(of_mgm: bool, question: str
                                                            ) -> None:
    """The label is matched as one phrase ("Short-term investments" is no "total debt
    investments"); a total of one line that is not nil lists nothing (MGM's cash equivalents
    in the note: its money market funds alone); a change asked ("What made up the decrease
    ...?", two periods) is its causes' to answer, not its parts'."""
    assert (_mgm(question) if of_mgm else _made_up(question)) is None


def test_no_largest_line_of_a_reconciliation() -> None:
    """MGM Resorts' Q4 2022 release (p.15) reconciles Las Vegas Strip Resorts' net revenues to
    same-store net revenues by subtracting acquisitions: a line against the total's sign is an
    adjustment, so no line has a share of the total to rank (it had answered "124.7% of the
    total" and "-17.2%")."""
    document, year = "mgm-resorts-earnings-q4", 2022
    pages = PageTexts.from_pages(document, year, real_filing(
        "financebench-wide/pdfs/MGMRESORTS_2022Q4_EARNINGS.pdf").pages)
    selected = page_table_rows(pages, document, year, 14)[:1]
    for word in ("largest", "smallest"):
        assert largest_part(read_question(
            f"Which item had the {word} impact on Las Vegas Strip Resorts same-store net revenues "
            "in the three months ended December 31, 2022?"), selected,
            lambda d, y, p: page_table_rows(pages, d, y, p), load_cues()) is None
