"""The clauses one question asks (``core/question/parts``) and a clause read within its whole
(``Question.within``): wordings written here, none copied from a question set."""

from __future__ import annotations

import pytest

from rag_assets.core.question.parts import asked_parts
from rag_assets.core.question.question import read_question


@pytest.mark.parametrize(("question", "parts"), [
    # two clauses, "and" between them
    ("How was the acquisition of Beta financed, and what stake did Acme hold afterwards?",
     ["How was the acquisition of Beta financed?", "What stake did Acme hold afterwards?"]),
    # three, the middle one without "and"; a comma inside a date splits nothing
    ("What dividend did Acme declare on May 4, 2023, what yearly rate does it imply, and when "
     "will it be paid?",
     ["What dividend did Acme declare on May 4, 2023?", "What yearly rate does it imply?",
      "When will it be paid?"]),
    # an opening clause is the first part's context, not a part
    ("In fiscal 2022, how much did Acme spend on buybacks, and what was the average price paid?",
     ["In fiscal 2022, how much did Acme spend on buybacks?",
      "What was the average price paid?"]),
    # a yes or no, then what it amounts to
    ("Did Acme repay debt in 2021, and how much did its total debt change from 2020?",
     ["Did Acme repay debt in 2021?", "How much did its total debt change from 2020?"]),
])
def test_a_question_that_asks_several_things_is_read_as_its_clauses(
        question: str, parts: list[str]) -> None:
    assert asked_parts(question) == parts
    assert read_question(question).asked == parts


@pytest.mark.parametrize("question", [
    "What was Acme's operating margin in FY2022?",
    # a short clause leans on the one before it
    "Which business did Acme buy in 2023, and on what terms?",
    # "and why" is the cause of what is asked first, answered with it
    "Did Acme's gross margin improve in 2022, and what drove the change?",
    # a clause whose subject is a pronoun asks of what the clause before names
    "Who are Acme's largest customers, and does any account for more than 10% of sales?",
    # an aside between commas, an auxiliary after it: one question
    "How much cash, if any, did Acme put toward buybacks in 2022?",
    # a comma inside parentheses, or before a clause that is no question
    "What is Acme's quick ratio (cash, receivables and securities over current liabilities)?",
    "As of FY2021, is Acme reliant on a few large customers?",
    # a relative clause is no question of its own
    "What was Acme's fiscal 2022 revenue, which includes three months of Beta?",
])
def test_a_question_that_asks_one_thing_has_no_clauses(question: str) -> None:
    assert asked_parts(question) == []


def test_a_clause_is_read_within_its_question() -> None:
    """The whole's period when the clause names none; from an earlier year it names alone
    ("from fiscal 2019") to the whole's latest."""
    whole = read_question("What did Acme spend on capital projects in fiscal 2020, and how much "
                          "did its spending on new stores change from fiscal 2019?")
    first, second = (read_question(text).within(whole) for text in whole.asked)
    assert first.years == [2020]
    assert second.years == [2019, 2020]
    bare = read_question("What was the average price paid?").within(
        read_question("How much did Acme spend on buybacks in Q1 2023, and what was the average "
                      "price paid?"))
    assert (bare.years, bare.quarters, bare.months) == ([2023], ["q1"], 3)
    # what the whole says of its period: the year to date, a fiscal quarter
    to_date = read_question("What was the free cash flow?").within(read_question(
        "What did Acme spend on buybacks as of Q2 FY2023, and what was the free cash "
        "flow?"))
    assert (to_date.to_date, to_date.fiscal) == (True, True)


@pytest.mark.parametrize("text", [
    "Did Costco's gross margin improve in FY2023, and what's driving the change in it?",
    "Is Corning's gross margin improving in Q2 2023, and what is driving it?",
    "What was its provision for credit losses in Q2 2023, and what accounted for the change?",
])
def test_a_cause_asked_after_the_first_clause_is_the_drivers_intents_phrase(text: str) -> None:
    """The words that ask a cause are the drivers intent's phrases (``intent_lexicon.json``):
    one list for the clause split and the "..., and why?" reader, an apostrophe either way."""
    from rag_assets.core.question.question import asks_cause, read_question
    question = read_question(text)
    assert asks_cause(question) and not question.asked
