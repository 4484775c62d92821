"""What sentence states a transaction and its terms: the sentences are copied from
real filings (American Water's and Corning's Q2 2023 10-Qs, JPMorgan's), the questions worded
apart from the analyst sets. The answers on the filings themselves are tested in
``test_answer_forms_real.py``."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.generation.transaction_terms import (
    _in_all,
    _named,
    _states_event,
)
from rag_assets.core.question.question import read_question

NOTES = ("On June 29, 2023, AWCC, issued $1,035 million aggregate principal amount of 3.625% "
         "Exchangeable Senior Notes due 2026 (the “Notes”).")


@pytest.mark.parametrize(("sentence", "states"), [
    (NOTES, True),
    # what could be done, and words that only share a verb's letters, state no transaction
    ("AWCC may issue up to $2.60 billion of commercial paper under its program.", False),
    ("AWCC plans to issue $500 million of notes in the second half of 2023.", False),
    ("Based on borrowing rates currently available for notes with similar terms, the fair "
     "value of long-term debt was $7.1 billion.", False),
    # Walmart's fiscal 2022 10-K: a participle before its noun states no transaction
    ("The decrease in operating expenses was primarily due to impacts from the divested "
     "markets and $0.4 billion of lower incremental costs related to the notes.", False),
    # a deal stated as completed by its noun
    ("On March 1, 2021, AWCC completed its previously announced offering of $1,100 million of "
     "senior notes.", True),
])
def test_a_transaction_is_a_sentence_that_states_one_done(sentence: str, states: bool) -> None:
    named = _named(read_question("What were the key terms of the notes American Water issued "
                                 "in June 2023?"))
    unit = printed_unit("american-water-works-10q-q2", 2023, 20, sentence)
    assert _states_event(named, unit) is states


def test_only_tranches_or_a_total_asked_are_added_up() -> None:
    tranches = ("On May 15, 2023, the Company issued €300 million 3.875% Notes due 2026 (“2026 "
                "Notes”) and €550 million 4.125% Notes due 2031 (“2031 Notes”).")
    assert _in_all(tranches, asked=False) == " (€850 million in all)"
    # JPMorgan's Q2 2023 10-Q: a price and the gain it resulted in are no total
    deal = ("On May 1, 2023, JPMorgan Chase acquired certain assets ... for $67.9 billion, "
            "resulting in an estimated bargain purchase gain of $2.7 billion recorded in other "
            "income.")
    assert _in_all(deal, asked=False) == ""
    # notes issued to redeem others: two issues, not two tranches
    assert _in_all("issued $1.0 billion of 4.25% notes due 2030 to redeem $1.0 billion of "
                   "3.5% notes due 2024", asked=False) == ""
    # a total amount asked adds every amount of one currency, at the decimals printed
    assert _in_all("issued $1.25 billion of notes and $0.75 billion of debentures",
                   asked=True) == " ($2.00 billion in all)"


def test_the_deal_asked_is_named_by_more_than_the_verb_every_deal_prints() -> None:
    """Kraft Heinz's 2021 10-K: "the cheese business sale that Kraft Heinz completed with
    Lactalis" names the cheese sale; the Assan Foods acquisition, "completed" too, is another
    deal, and the agreement with Lactalis for the cheese business is the one asked."""
    named = _named(read_question("What were the terms of the cheese business sale that Kraft "
                                 "Heinz completed with Lactalis in 2021?"))
    assert {"comp", "clos"}.isdisjoint(named) and {"chee", "lact"} <= named
    assan = printed_unit("kraft-heinz-10k", 2021, 28, (
        "Additionally, in the fourth quarter of 2021, we completed the Assan Foods Acquisition, "
        "which included cash consideration of approximately $70 million, and the BR Spices "
        "Acquisition for an insignificant amount of cash consideration."))
    cheese = printed_unit("kraft-heinz-10k", 2021, 66, (
        "In September 2020, we entered into a definitive agreement with a third party, an "
        "affiliate of Groupe Lactalis (“Lactalis”), to sell certain assets in our global cheese "
        "business, as well as to license certain trademarks, for total consideration of "
        "approximately $3.34 billion."))
    assert not _states_event(named, assan)
    assert _states_event(named, cheese)


def test_completed_names_the_deal_where_the_question_names_nothing_else() -> None:
    """"Which acquisition did 3M complete in 2017, and on what terms?" names its deal only by
    the verb: the sentence that states it completed is the transaction (a review's case)."""
    named = _named(read_question("Which acquisition did 3M complete in 2017, and on what "
                                 "terms?"))
    assert named == {"comp"}
    scott = printed_unit("3m-10k", 2018, 50, (
        "In October 2017, 3M completed the acquisition of the underlying legal entities and "
        "associated assets of Scott Safety for $2.0 billion of cash, net of cash acquired."))
    assert _states_event(named, scott)
