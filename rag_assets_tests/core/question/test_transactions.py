"""What a question asks of a transaction, read once with it: the verb whose event or manner it
asks (``Question.manner``) and whether it asks a transaction's terms (``Question.terms``). The
questions name real filings' transactions (Corning's, American Water's, JPMorgan's, Walmart's),
worded apart from the analyst sets."""

from __future__ import annotations

import pytest

from rag_assets.core.question.question import read_question


@pytest.mark.parametrize(("question", "manner"), [
    ("According to Corning's 2020 10-K, how was Hemlock Semiconductor Group's September 9, "
     "2020 redemption of DuPont's ownership interest funded, and what ownership interests did "
     "Corning hold once it was completed?", "fund"),
    ("How was the acquisition financed?", "financ"),
    ("How is revenue recognized?", "recogniz"),
    ("How has revenue changed?", None),  # a change's figure, not a manner
    ("How did revenue change in 2022?", None),
    ("How were the proceeds used?", None),  # too short a stem to tell
    # an event asked by its verb (transactions.json's events)
    ("What debt did Corning issue in the second quarter of 2023, on what terms?", "issu"),
    ("Which businesses did Walmart divest in fiscal 2022?", "dives"),
    ("What acquisitions did Corning complete in FY2018?", None),  # "acquired Costa" answers
    ("What industry does Corning operate in?", None),
])
def test_a_manner_asked_is_read_from_the_verb_that_ends_its_clause(question: str,
                                                                   manner: str | None) -> None:
    assert read_question(question).manner == manner


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
    assert read_question(question).terms is asks
