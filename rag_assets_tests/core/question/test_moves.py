"""The measure a yes/no question asks the move of, and the way its verb asks, read from its
grammar; nothing when it asks more than a direction."""

from __future__ import annotations

import pytest

from rag_assets.core.question.moves import moved_measure


@pytest.mark.parametrize(("text", "measure", "up"), [
    ("Did JPMorgan Chase grow its average deposits in Q2 2023, even with the First Republic "
     "acquisition?", "average deposits", True),
    ("Did Netflix's paid memberships increase in Q2 2023?", "paid memberships", True),
    ("Is JPMorgan Chase's credit cost rising in Q2 2023?", "credit cost", True),
    ("Has Corning reduced its total debt since 2021?", "total debt", False),
    # the verb that governs the measure says the way, not another word of the question
    ("Did Netflix reduce its content spending in 2023 to support growth?", "content spending",
     False),
])
def test_the_measure_is_the_verbs_object_or_subject(text: str, measure: str, up: bool) -> None:
    move = moved_measure(text)
    assert move is not None and (move.measure, move.up) == (measure, up)


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

