"""The measure a yes/no question asks the move of, read from its grammar."""

from __future__ import annotations

import pytest

from rag_assets.core.question.moves import moved_measure


@pytest.mark.parametrize(("text", "measure"), [
    ("Did JPMorgan Chase grow its average deposits in Q2 2023, even with the First Republic "
     "acquisition?", "average deposits"),
    ("Did Netflix's paid memberships increase in Q2 2023?", "paid memberships"),
    ("Is JPMorgan Chase's credit cost rising in Q2 2023?", "credit cost"),
    ("Has Corning reduced its total debt since 2021?", "total debt"),
    ("Did American Water Works grow its customer base in 2022?", "customer base"),
    # no measure of its own: a position, the business
    ("Did JPMorgan Chase's capital position weaken during the first half of 2022?", None),
    ("Did Costco grow its business in fiscal 2023?", None),
    ("What drove Costco's sales growth?", None),
])
def test_the_measure_is_the_verbs_object_or_subject(text: str, measure: str | None) -> None:
    assert moved_measure(text) == measure
