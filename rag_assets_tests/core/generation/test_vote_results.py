"""An 8-K's vote read from the counts Item 5.07 requires, on Foot Locker's real report of its
2022 annual meeting (financebench-wide: its question on the nominees is where the reader was
found, so that set is in-sample for it)."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.citations import verify_claims
from rag_assets.core.generation.page_texts import PageTexts
from rag_assets.core.generation.report_items import report_items
from rag_assets.core.generation.vote_results import read_matters, vote_result
from rag_assets.core.question.question import read_question
from rag_assets_tests.real_filings import CORPORA, real_filing

pytestmark = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not here")

DOCUMENT, YEAR = "foot-locker-8k-2022-05-20", 2022


def _pages() -> tuple[PageTexts, list[tuple[int, str]]]:
    pages = PageTexts.from_pages(DOCUMENT, YEAR, real_filing(
        "financebench-wide/pdfs/FOOTLOCKER_2022_8K_dated-2022-05-20.pdf").pages)
    return pages, [(p, pages.get(DOCUMENT, YEAR, p) or "") for p in pages.pages_of(DOCUMENT, YEAR)]


def _answer(question: str) -> str | None:
    pages, read = _pages()
    found = vote_result(read_question(question), DOCUMENT, YEAR, read)
    if found is None:
        return None
    checked = verify_claims([found.claim()], pages)
    assert all(c.mark == "valid" for claim in checked for c in claim.citations)
    return found.text


def test_the_matters_are_read_with_their_columns_rows_and_outcomes() -> None:
    """Four proposals: the election's ten rows, say-on-pay's and the auditor's one row each;
    the frequency vote's two-line header ("Votes For" thrice over "1 Year 2 Years 3 Years")
    prints five counts under three columns named, so it is left to the quotes."""
    _, read = _pages()
    body = next(item.lines for item in report_items(read) if item.number == "5.07")
    matters = read_matters(body)
    assert [len(m.rows) for m in matters] == [10, 1, 1]
    assert matters[0].rows[2] == ("Richard A. Johnson", [54_484_293, 16_105_005, 77_685,
                                                         6_884_223])
    assert matters[0].columns == ["for", "against", "abstain", "broker non-votes"]
    assert matters[2].title.startswith("Proposal 4. With respect to the proposal to ratify")
    # an outcome that wraps onto the next line is read whole
    assert matters[2].outcome.endswith("for the 2022 fiscal year was duly ratified.")


def test_a_nominee_far_above_the_others_in_votes_against_is_named() -> None:
    # Johnson: 16,105,005 of 70,589,298 cast for or against (22.8%); the other nine's shares'
    # median is 8.2%, so "substantially more" holds (at least twice)
    assert _answer("Were there any board member nominees who had substantially more votes "
                   "against joining than the other nominees?") == (
        "Yes. Richard A. Johnson received 16,105,005 votes against (22.8% of the votes cast on "
        "the nominee), compared with a median of 8.2% for the other 9 nominees; next, Dona D. "
        "Young: 6,074,467. Based on the votes set forth above, each of the ten nominees to the "
        "Board was duly elected.")
    assert _answer("Which director nominee received the most votes against?") == (
        "Richard A. Johnson received the most votes against of the 10 nominees: 16,105,005 "
        "votes against (next, Dona D. Young: 6,074,467).")
    assert _answer("Which nominee received the fewest votes for?").startswith(
        "Dona D. Young received the fewest votes for of the 10 nominees: 53,876,257")


def test_a_share_of_the_votes_cast_is_computed_for_the_matter_named() -> None:
    # votes cast are for and against: abstentions and broker non-votes are not
    assert _answer("What percentage of votes cast approved the executive compensation "
                   "proposal?") == (
        "81.1% of the votes cast were for it (57,172,731 for / (57,172,731 for + 13,324,080 "
        "against)). Based on the votes set forth above, the NEOs’ compensation was approved.")
    assert _answer("What share of the votes supported ratifying KPMG?").startswith(
        "97.6% of the votes cast were for it (75,612,318 for / (75,612,318 for + 1,854,695 "
        "against)).")


def test_a_question_the_counts_do_not_answer_is_left_to_the_item() -> None:
    # no nominee ranked nor share asked; a share of a matter no title names; not a vote
    assert _answer("What were the results of Foot Locker's 2022 annual meeting vote?") is None
    assert _answer("What percentage of votes approved the stock split?") is None
    assert _answer("Who signed Foot Locker's 8-K?") is None


def test_the_column_the_extreme_and_the_matter_are_read_as_asked() -> None:
    """Support asked is the votes for, a bare "For ..." opening names no column; a yes or no
    the counts do not decide, a share of the shares outstanding, a share of a matter no
    paragraph names and a share of the votes against are read as asked."""
    assert _answer("Which director received the highest approval at Foot Locker's 2022 "
                   "annual meeting?") == (
        "Virginia C. Drosos received the most votes for of the 10 nominees: 59,657,810 votes "
        "for (next, Tristan Walker: 55,528,794).")
    assert _answer("For Foot Locker's 2022 annual meeting, which nominee received the most "
                   "votes against?").startswith("Richard A. Johnson received the most votes "
                                                "against")
    assert _answer("Did each director nominee receive more than 90% of the votes cast?") is None
    assert _answer("Did shareholders support the executive compensation proposal?") is None
    assert _answer("What percentage of outstanding shares voted on the executive "
                   "compensation proposal?") is None
    assert _answer("What percentage of votes approved the company's new equity plan for the "
                   "fiscal year?") is None
    assert _answer("What percentage of votes cast were against the executive compensation "
                   "proposal?") == (
        "18.9% of the votes cast were against it (13,324,080 against / (57,172,731 for + "
        "13,324,080 against)). Based on the votes set forth above, the NEOs’ compensation was "
        "approved.")


def test_a_table_is_read_whole_or_not_at_all() -> None:
    """Lines worded as Item 5.07 prints them: a year in a row's label is no count, an outcome
    is one that refers back to the counts (not the next matter's opening), and a table that
    runs to the page's end or into a wrapped name is not read."""
    header = "Name Votes For Votes Against Abstentions Broker Non-Votes"
    wrapped = ["Proposal 1. Election of directors.", header,
               "Ann Able 90,000,000 1,000,000 10,000 500,000", "Bob",
               "Brown 89,000,000 2,000,000 10,000 500,000",
               "Based on the votes set forth above, each nominee was elected."]
    assert read_matters(wrapped) == []
    assert read_matters(wrapped[:3]) == []  # the page ends under the table
    year_in_label = ["Proposal 3. Ratification of the auditor.",
                     "Votes For Votes Against Abstentions Broker Non-Votes",
                     "Ratification of Ernst & Young LLP for 2023 94,000,000 1,000,000 100,000",
                     "Proposal 4. The shareholders approved, on an advisory basis, the "
                     "compensation of the named executive officers."]
    assert read_matters(year_in_label) == []  # three counts under four columns
    kept = read_matters([*year_in_label[:2], "94,000,000 1,000,000 100,000 0",
                         year_in_label[3]])
    assert [m.outcome for m in kept] == [""]  # the next matter's opening is no outcome


def test_what_the_counts_cannot_say_is_not_answered_from_them() -> None:
    """Against the votes for (not the other nominees), a frequency vote (its table not read),
    abstentions (no votes cast); a share asked of the nominees is ranked by their shares:
    Johnson's 54,484,293 for of 70,589,298 cast is the lowest, not Young's fewest votes."""
    assert _answer("Did any nominee receive substantially more votes against than for?") is None
    assert _answer("What percentage of votes favored an annual frequency for the executive "
                   "compensation vote?") is None
    assert _answer("What percentage of the votes cast were abstentions on the KPMG "
                   "ratification?") is None
    assert _answer("Which nominee received the lowest percentage of votes for?") == (
        "Richard A. Johnson received the lowest share of votes for of the 10 nominees: 77.2% "
        "of the votes cast on the nominee (54,484,293 / (54,484,293 for + 16,105,005 "
        "against)); next, Dona D. Young: 89.9%.")


def test_whether_a_matter_passed_is_the_outcome_item_5_07_closes_it_with() -> None:
    """A yes or no on a matter is read from its outcome sentence, in its polarity, with its
    counts; turned when the question asks the opposite. (The questions were written for this
    reader on the report, so it is in-sample.)"""
    assert _answer("Did Foot Locker's shareholders approve the executive compensation at the "
                   "2022 annual meeting?") == (
        "Yes. Based on the votes set forth above, the NEOs’ compensation was approved "
        "(57,172,731 for, 13,324,080 against, 170,172 abstain, 6,884,223 broker non-votes).")
    assert _answer("Did shareholders reject the named executive officers' compensation at the "
                   "annual meeting?") == (
        "No. Based on the votes set forth above, the NEOs’ compensation was approved "
        "(57,172,731 for, 13,324,080 against, 170,172 abstain, 6,884,223 broker non-votes).")
    ratified = _answer("Did Foot Locker's shareholders ratify KPMG LLP as the independent "
                       "registered public accounting firm for fiscal 2022?")
    assert ratified is not None and ratified.startswith("Yes.") and "75,612,318 for" in ratified
    assert _answer("Were all of Foot Locker's director nominees elected at the 2022 annual "
                   "meeting?") == ("Yes. Based on the votes set forth above, each of the ten "
                                   "nominees to the Board was duly elected.")
    # a frequency vote is not read; a matter no paragraph names is not guessed
    assert _answer("Did shareholders approve an annual frequency for the say-on-pay vote?") is None
    assert _answer("Did shareholders approve the stock split?") is None


def test_the_share_of_shares_represented_is_the_quorum_the_item_states() -> None:
    """Item 5.07's quorum sentences: the shares outstanding and entitled to vote, then those
    represented in person or by proxy (a question written for this reader: in-sample)."""
    assert _answer("What percentage of Foot Locker's outstanding shares entitled to vote were "
                   "represented at the May 18, 2022 annual meeting?") == (
        "80.7% of the shares entitled to vote were represented at the meeting: 77,551,206 / "
        "96,089,997 shares.")
    assert _answer("How many shares were represented at Foot Locker's 2022 annual meeting?"
                   ) is None  # a count, not a share: the sentence answers


def test_a_share_or_a_yes_or_no_the_quorum_and_the_outcome_do_not_answer() -> None:
    """A share of the votes for a matter is the matter's, not the quorum's; a yes or no asked
    in the negative or on the counts is not read from the outcome sentence (the review's
    cases)."""
    assert _answer("What percentage of the shares present at Foot Locker's 2022 annual meeting "
                   "voted for ratifying KPMG?") is None
    assert _answer("Were more than 90% of Foot Locker's outstanding shares represented at the "
                   "2022 annual meeting?") is None
    assert _answer("Was Foot Locker's executive compensation not approved at the 2022 annual "
                   "meeting?") is None
    assert _answer("Did Foot Locker's shareholders ratify KPMG LLP as auditor with more than "
                   "99% of the votes cast?") is None
