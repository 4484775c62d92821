"""What a question compares or adds up, read once onto the ``Question`` (``comparison.py``)."""

from __future__ import annotations

import pytest

from rag_assets.core.question.question import read_question


@pytest.mark.parametrize(("text", "total"), [
    ("What was Kraft Heinz's total goodwill and intangible asset impairment in 2019?", True),
    ("How much did Costco pay in dividends and buybacks combined in FY2021?", True),
    # "total revenues" is the line item's own name, no sum of the two asked
    ("What were Walmart's total revenues and net income in FY2022?", False),
    ("What was Netflix's revenue in 2020?", False),
])
def test_a_sum_is_asked_only_by_a_word_outside_the_terms(text: str, total: bool) -> None:
    assert read_question(text).total is total


def test_a_level_comparison_names_its_two_line_items() -> None:
    question = read_question("Did Coca-Cola's dividends paid exceed its free cash flow in 2019?")
    assert question.compares is not None and not question.compares_growth
    assert question.compares.measures == ("dividends_paid", "free_cash_flow")
    assert question.compares.more


def test_no_comparison_where_a_threshold_is_asked() -> None:
    question = read_question("Did Costco's net sales grow more than 5% in fiscal 2021?")
    assert question.compares is None and not question.compares_growth


def test_a_concessive_clause_is_context_not_the_ask() -> None:
    """"Did it grow its deposits, even with the First Republic acquisition?" asks of deposits:
    the deal named in the concession is no acquisitions question (a list of deals had been
    answered "Yes" to it)."""
    assert read_question("Did JPMorgan Chase grow its average deposits in Q2 2023, even with "
                         "the First Republic acquisition?").intents == []
    assert "acquisitions" in read_question("Did JPMorgan Chase complete any acquisitions in "
                                           "Q2 2023?").intents


@pytest.mark.parametrize(("text", "direction"), [
    ("Did Walmart's free cash flow weaken in fiscal 2022?", "worsen"),
    ("Did Costco's operating margin strengthen in fiscal 2021?", "improve"),
    # the asking clause's verb, not a word of the clause after it
    ("Is Walmart's net income rising in fiscal 2022, and how much of it came despite the "
     "deterioration of its margins?", "up"),
])
def test_the_way_asked_is_the_asking_clauses(text: str, direction: str) -> None:
    from rag_assets.core.generation.metric_questions import parse_question

    parsed = parse_question(read_question(text))
    assert parsed is not None and (parsed.aggregate, parsed.direction) == ("trend", direction)


@pytest.mark.parametrize(("text", "noun"), [
    ("What one-time charge weighed on Costco's Q3 FY2023 earnings?", "charge"),
    ("What euro-denominated notes did Corning issue in Q2 2023?", "notes"),
    ("What percentage of revenue did Netflix spend on marketing in 2020?", None),  # a figure
    ("What guidance did Ulta give for fiscal 2023?", None),  # an intent's readers know it
])
def test_the_noun_a_what_question_asks_of(text: str, noun: str | None) -> None:
    assert read_question(text).asks_of == noun

