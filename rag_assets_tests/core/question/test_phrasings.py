"""The phrasings a question is read for once (``phrasings.json``): each on a question that asks
it and on one that does not, every name a reader asks for held by the file, a question asked
in other words read again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rag_assets.core.question.phrasings import ReadOn, load_phrasings, phrasings_in
from rag_assets.core.question.question import ACCOUNTED_FOR_CHANGE, read_question

PACKAGE = Path(__file__).resolve().parents[3] / "rag_assets"
# name: (a question that asks it, the words it is asked in, one that does not)
CASES = {
    "negated": ("Was the say-on-pay proposal not approved?", "not",
                "Was the say-on-pay proposal approved?"),
    "negated_clause": ("Will Walmart not expand its operating margin in fiscal 2024?", "not",
                       "Will Walmart expand its operating margin in fiscal 2024?"),
    "vote_passing": ("Did shareholders approve the executive compensation?", "approve",
                     "How many votes were cast against the auditor?"),
    "vote_counts": ("Was the auditor ratified with more than 99% of the votes?", "more than",
                    "Was the auditor ratified?"),
    "vote_rejection": ("Did shareholders reject the shareholder proposal?", "reject",
                       "Did shareholders approve the shareholder proposal?"),
    "votes_cast": ("How many votes were cast for the auditor's ratification?", "cast for",
                   "What share of the shares outstanding were represented at the meeting?"),
    "quorum": ("What share of the shares outstanding were represented at the meeting?",
               "represented", "How many votes were cast for the auditor?"),
    "vote_nominees": ("Which director nominee received the most votes against?", "director",
                      "Did the Board of Directors recommend the proposal?"),
    "most": ("Which nominee received the most votes against?", "most",
             "Which nominee received the fewest votes for?"),
    "fewest": ("Which nominee received the fewest votes for?", "fewest",
               "Which nominee received the most votes against?"),
    "vote_column": ("Which nominee received the most votes against?", "against",
                    "Which nominee was elected?"),
    "share_word": ("Which nominee had the lowest percentage of votes for?", "percentage",
                   "Which nominee had the fewest votes for?"),
    "vote_unread": ("How many abstentions did the auditor's ratification receive?",
                    "abstentions", "How many votes for did the auditor's ratification get?"),
    "vote_support": ("Which proposal had the highest approval?", "approval",
                     "Which proposal had the most votes against?"),
    "vote_opposition": ("Which proposal drew the most opposition?", "opposition",
                        "Which proposal had the highest approval?"),
    "vote_outlier": ("Did any nominee receive substantially more votes against than the other "
                     "nominees?", "substantially more votes against than the other",
                     "Did any nominee receive more votes against than one million?"),
    "vote_share": ("What percentage of votes cast approved the executive compensation?",
                   "percentage of votes", "What share of the shares outstanding were present?"),
    "vote_against": ("How many votes were cast against the auditor?", "against",
                     "How many votes were cast for the auditor?"),
    "vote_other_base": ("What share of the shares outstanding were represented?", "outstanding",
                        "What percentage of votes cast approved it?"),
    "signature": ("Who signed Foot Locker's 8-K?", "signed",
                  "What is Foot Locker's 8-K about?"),
    "cover": ("Which stock exchange is Foot Locker listed on?", "stock exchange",
              "What did Foot Locker's 8-K report?"),
    "every_item": ("Which items does Foot Locker's 8-K report?", "Which items",
                   "What did Foot Locker's 8-K report?"),
    "exhibits": ("Which exhibits were filed with the 8-K?", "exhibits",
                 "What did the 8-K report?"),
    "reporting": ("What did Foot Locker's 8-K report?", "report",
                  "What is the key agenda of Foot Locker's 8-K?"),
    "vote_results": ("What were the results of the vote at Pfizer's annual meeting?", "results",
                     "Did shareholders approve the executive compensation?"),
    "agenda": ("What is the key agenda of Foot Locker's 8-K filing dated August 19, 2022?",
               "agenda", "What did Foot Locker's 8-K report?"),
    "what_happened": ("What leadership change did Foot Locker announce?",
                      "What leadership change did",
                      "What annual base salary did Foot Locker disclose?"),
    "who": ("Who will succeed Richard Johnson as CEO?", "Who", "What did Foot Locker report?"),
    "outlook_revision": ("Did Lockheed Martin raise its 2023 EPS outlook?",
                         "raise its 2023 EPS outlook",
                         "Does Lockheed Martin's outlook imply operating margin expansion?"),
    "outlook_change": ("How did Pfizer change its 2023 revenue guidance?", "change",
                       "What is Pfizer's 2023 revenue guidance?"),
    "pace": ("Does Ulta's outlook imply faster growth than in fiscal 2022?", "faster",
             "Does Ulta's outlook imply growth in fiscal 2023?"),
    "move": ("By how much did MGM China's net revenues grow in Q4 2022?",
             "By how much did MGM China's net revenues grow",
             "By how much did gross profit exceed operating income?"),
    "difference": ("What was the difference between gross profit and operating income?",
                   "What was the difference", "What is the total of the two agreements?"),
    "total": ("What is the total of the two agreements?", "What is the total",
              "What was the difference between gross profit and operating income?"),
    "cause_of_way": ("Was the 9.3% comparable sales increase driven by a higher average ticket?",
                     "driven by a higher average ticket",
                     "Did comparable sales increase in the first quarter?"),
    "stopped": ("Did JPMorgan pause share buybacks in Q2 2023?", "Did JPMorgan pause",
                "Did JPMorgan resume share buybacks in Q2 2022 after pausing them?"),
    "ended": ("Did Corning terminate its agreement with Samsung in 2023?", "terminat",
              "Did Corning renew its agreement with Samsung in 2023?"),
    "made_up": ("What items made up its $20 million of impairment and other charges?",
                "What items made up", "What drove its impairment and other charges?"),
    "repurchase": ("What average price per share did Costco pay for its repurchases?",
                   "repurchases", "What was the dividend per share?"),
    "not_repurchase": ("What was the dividend per share?", "dividend",
                       "What average price per share did Costco pay for its repurchases?"),
    "auditor": ("Who is Netflix's auditor?", "auditor", "Who is Netflix's CEO?"),
    "audit_other": ("How much did Netflix pay its auditor in fees?", "How much",
                    "Who is Netflix's auditor?"),
    "who_or_named": ("Who is the chief financial officer that certified the 10-K?", "Who",
                     "Did the chief financial officer certify the 10-K?"),
    "signer": ("Who signed the 10-K for Netflix?", "Who signed",
               "Who is Netflix's chief executive officer?"),
    "shares_counted": ("How many shares did Costco repurchase in fiscal 2023?",
                       "How many shares", "How much did Costco spend on repurchases?"),
    "debt_event": ("Did Corning repay any notes in Q2 2023?", "repay any notes",
                   "Did Corning repay any of its pension obligations in Q2 2023?"),
    "members_drove": ("Which segment drove Walmart's revenue growth in fiscal 2022?",
                      "Which segment drove", "What drove Walmart's revenue growth?"),
    "future": ("What does Pfizer expect its 2023 revenues to be?", "expect",
               "What were Pfizer's 2022 revenues?"),
    "largest": ("What were the total state taxes, and which state contributed the most?",
                "What were the total state taxes, and which state contributed the most",
                "What were the total state taxes?"),
    "cover_word": ("What does the cover page of Walmart's 10-K say about its shares?", "cover",
                   "How many shares did Walmart have outstanding?"),
    "change": ("Did Costco raise its quarterly dividend?", "raise",
               "Did Costco pay a quarterly dividend?"),
    "terms_total": ("What notes did Corning issue, and what was their total principal amount?",
                    "total principal", "What notes did Corning issue?"),
}


def test_every_phrasing_has_a_case_a_meaning_and_a_source() -> None:
    phrasings = load_phrasings()
    assert set(CASES) == set(phrasings)
    assert all(p.means.strip() and p.source.strip() for p in phrasings.values())


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_phrasing_is_read_on_the_question_that_asks_it(name: str) -> None:
    asks, words, other = CASES[name]
    assert read_question(asks).phrased(name) == words
    assert read_question(other).phrased(name) is None


def test_every_phrasing_a_reader_asks_for_is_in_the_file() -> None:
    asked = {m for path in PACKAGE.rglob("*.py")
             for m in re.findall(r"\.phrased\(\s*\"(\w+)\"", path.read_text("utf-8"))}
    assert len(asked) >= 30
    assert asked <= set(load_phrasings())
    with pytest.raises(KeyError, match="no phrasing 'nagated'"):
        read_question("Was it not approved?").phrased("nagated")


def test_a_question_asked_in_other_words_is_read_again() -> None:
    question = read_question("Did shareholders approve the executive compensation?")
    asked = "Was the executive compensation not approved?"
    reworded = question.reworded(asked, asked)
    assert question.phrased("negated") is None
    assert reworded.phrased("negated") == "not"
    assert reworded.clause == "Was the executive compensation not approved"


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_phrasing_is_read_on_its_own_text_only(name: str) -> None:
    """The asking question in the text the entry names is read; in the other two it is not."""
    asks, _, other = CASES[name]
    read_on = load_phrasings()[name].read_on
    texts: dict[ReadOn, str] = {"text": other, "ranking_text": other, "clause": other}
    assert name in phrasings_in({**texts, read_on: asks})
    assert all(name not in phrasings_in({**texts, elsewhere: asks})
               for elsewhere in ("text", "ranking_text", "clause") if elsewhere != read_on)


def test_every_span_of_a_phrasing_is_taken_out() -> None:
    """"combined", "what total" and "in total" are the total's words, not what it totals."""
    question = read_question("What was the total of the Asda and Seiyu proceeds combined, "
                             "and what total did they reach in total?")
    left = question.without_phrasing("total").lower().split()
    assert "combined" not in left and "total" not in left
    assert {"asda", "seiyu", "proceeds", "reach"} <= set(left)


def test_members_drove_holds_the_accounted_for_change_of_the_cause_reader() -> None:
    assert ACCOUNTED_FOR_CHANGE in load_phrasings()["members_drove"].pattern


def test_a_retry_searches_with_other_words_and_asks_as_before() -> None:
    question = read_question("Did Costco increase its net sales in FY2023?")
    assert question.searched_as("Net sales 2023").phrased("change") == "increase"
    assert question.plain().phrasings == question.phrasings
