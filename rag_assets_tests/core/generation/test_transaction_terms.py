"""What asks a transaction's terms, and what sentence states one: the sentences are copied from
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
    asks_terms,
)
from rag_assets.core.question.question import read_question


@pytest.mark.parametrize(("question", "asks"), [
    ("What were the key terms of the notes American Water issued in June 2023?", True),
    ("Which acquisition did JPMorgan complete in Q2 2023, and on what terms?", True),
    # a transaction asked by its verb, with a term named
    ("What notes did Corning issue in May 2023, and what were their net proceeds?", True),
    # "in terms of" asks no terms; a yes or no, a manner or a figure alone ask none either
    ("How did Corning's net sales grow in terms of the segments in 2023?", False),
    ("Did American Water disclose the key terms of the notes it issued in June 2023?", False),
    ("How was the redemption funded?", False),
    ("How many shares did Corning repurchase in 2018, and at what average purchase price?",
     False),
    # the deals of a period are listed by their own reader
    ("What operations did Walmart divest during fiscal 2022?", False),
])
def test_what_asks_a_transactions_terms(question: str, asks: bool) -> None:
    assert asks_terms(read_question(question)) is asks


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
