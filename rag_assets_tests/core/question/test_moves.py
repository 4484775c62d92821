"""The measure a yes/no question asks the move of, and the way its verb asks, read from its
grammar; nothing when it asks more than a direction."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rag_assets.core.question import moves
from rag_assets.core.question.moves import moved_measure
from rag_assets.core.question.question import read_question


@pytest.mark.parametrize(("text", "measure", "up"), [
    ("Did JPMorgan Chase grow its average deposits in Q2 2023, even with the First Republic "
     "acquisition?", "average deposits", True),
    ("Did Netflix's paid memberships increase in Q2 2023?", "paid memberships", True),
    ("Is JPMorgan Chase's credit cost rising in Q2 2023?", "credit cost", True),
    ("Has Corning reduced its total debt since 2021?", "total debt", False),
    # the verb that governs the measure says the way, not another word of the question
    ("Did Netflix reduce its content spending in 2023 to support growth?", "content spending",
     False),
    # a purpose or a second verb in the clause does not turn the governing verb's way
    ("Did Acme reduce its headcount to improve profitability in 2023?", "headcount", False),
    ("Did Costco maintain and grow its paid memberships in 2023?", "paid memberships", True),
])
def test_the_measure_is_the_verbs_object_or_subject(text: str, measure: str, up: bool) -> None:
    move = moved_measure(text)
    assert move is not None and (move.measure, move.way) == (measure, "up" if up else "down")
    # the question carries that one way: the stated moves and row comparisons read it there
    assert read_question(text).way == move.way


@pytest.mark.parametrize("text", [
    "Did JPMorgan Chase's capital position improve in 2022?",  # a position, no measure
    "Did Costco grow its business in fiscal 2023?",
    "What drove Costco's sales growth?",  # no yes/no of a move
    # a threshold, or a member, asks more than a direction
    "Did JPMorgan Chase grow its average deposits by more than 10% in Q2 2022?",
    "Did JPMorgan's Consumer & Community Banking segment grow its average deposits in Q2 2023?",
    "Did JPMorgan grow its average deposits in Asset & Wealth Management in Q2 2023?",
])
def test_no_measure_when_the_question_asks_more_than_a_direction(text: str) -> None:
    assert moved_measure(text) is None


@pytest.mark.parametrize(("text", "clause", "way"), [
    # the question's own clause: a concessive clause or one after a comma asks no way
    ("Did Ulta Beauty raise its fiscal 2023 net sales outlook, even as costs rose?",
     "Did Ulta Beauty raise its fiscal 2023 net sales outlook", "up"),
    ("Despite lower earnings, did Costco increase its quarterly dividend in 2023?",
     "did Costco increase its quarterly dividend in 2023", "up"),
    ("As of Q2 2023, did JPMorgan Chase reduce its long-term debt?",
     "did JPMorgan Chase reduce its long-term debt", "down"),
    ("Did Walmart's net sales decline in fiscal 2022 as store counts fell?",
     "Did Walmart's net sales decline in fiscal 2022", "down"),
    ("Did Ulta Beauty reaffirm its fiscal 2024 guidance?",
     "Did Ulta Beauty reaffirm its fiscal 2024 guidance", "kept"),
    # a judgment of which way is better, which no figure's direction says alone
    ("Did JPMorgan Chase's credit quality improve in 2022?",
     "Did JPMorgan Chase's credit quality improve in 2022", "better"),
    ("Did Corning's liquidity deteriorate in 2023?",
     "Did Corning's liquidity deteriorate in 2023", "worse"),
    # an "as" inside the measure or the period ends no clause; an adjective moves nothing
    ("Did Ulta Beauty's gross profit as a percentage of net sales increase in fiscal 2023?",
     "Did Ulta Beauty's gross profit as a percentage of net sales increase in fiscal 2023",
     "up"),
    ("Did Costco's comparable sales increase in fiscal 2023 on lower gasoline prices?",
     "Did Costco's comparable sales increase in fiscal 2023 on lower gasoline prices", "up"),
    ("Did Ulta Beauty lower its operating margin outlook for fiscal 2023?",
     "Did Ulta Beauty lower its operating margin outlook for fiscal 2023", "down"),
    # a phrasal verb moves its object; a margin compressed moved down, a compressor nothing
    ("Did Walmart step up its share repurchases in fiscal 2022?",
     "Did Walmart step up its share repurchases in fiscal 2022", "up"),
    ("Did Netflix scale back its content spending in 2020?",
     "Did Netflix scale back its content spending in 2020", "down"),
    ("Did Corning's gross margin compress in the second quarter of 2023, and if so, why?",
     "Did Corning's gross margin compress in the second quarter of 2023", "down"),
    ("Is Netflix scaling back its content spending?",
     "Is Netflix scaling back its content spending", "down"),
    ("Did Intel cut back on capital spending in 2023?",
     "Did Intel cut back on capital spending in 2023", "down"),
    # a noun, a cause or another's object is no move asked of the measure (a review's cases)
    ("Did Chipotle's menu price hikes weigh on traffic?",
     "Did Chipotle's menu price hikes weigh on traffic", None),
    ("Did Tesla ramp up production of Model Y at Gigafactory Berlin in 2022?",
     "Did Tesla ramp up production of Model Y at Gigafactory Berlin in 2022", None),
    # a fee hiked asks its rate, never the income line's move
    ("Did Costco hike its membership fees in fiscal 2018?",
     "Did Costco hike its membership fees in fiscal 2018", None),
    ("Did Netflix trim its content spending in 2020?",
     "Did Netflix trim its content spending in 2020", "down"),
    ("Did its compressor sales business report a profit in 2023?",
     "Did its compressor sales business report a profit in 2023", None),
    # a move kept on is that move's way
    ("Did Netflix keep growing its paid memberships in Q2 2023?",
     "Did Netflix keep growing its paid memberships in Q2 2023", "up"),
    # both ways, or a question that is no yes or no, ask none
    ("Did Netflix's revenue rise or fall in Q2 2023?",
     "Did Netflix's revenue rise or fall in Q2 2023", None),
    ("What drove the decline in Corning's net sales in 2023?",
     "What drove the decline in Corning's net sales in 2023", None),
    ("In fiscal 2022, what drove Walmart's operating income, and why?",
     "what drove Walmart's operating income", None),
])
def test_the_way_asked_is_read_in_the_questions_own_clause(text: str, clause: str,
                                                             way: str | None) -> None:
    question = read_question(text)
    assert (question.clause, question.way) == (clause, way)


def test_every_verb_of_direction_is_data_with_its_source() -> None:
    """``directions.json``: each verb's kind, way, pattern (one that compiles) and source; the
    verbs that say the way by a word of their own ask it only with their object after them."""
    data = json.loads((Path(moves.__file__).with_name("directions.json")).read_text())
    for name, verb in data["verbs"].items():
        assert set(verb) == {"kind", "way", "pattern", "source"}, name
        assert verb["kind"] in {"asked", "moving", "phrasal"} and verb["way"] in {"up", "down"}
        assert verb["source"].strip(), name
        re.compile(verb["pattern"])
        if verb["kind"] == "phrasal":
            assert "(?=" in verb["pattern"], name
