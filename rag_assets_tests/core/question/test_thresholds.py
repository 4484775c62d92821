"""The level a yes or no asks against is read once, with the question (``Question.threshold``)."""

from __future__ import annotations

import pytest

from rag_assets.core.question.question import read_question


@pytest.mark.parametrize(("text", "above", "level", "kind", "shown"), [
    ("Is Acme's effective tax rate above the 21% statutory rate in FY2022?", True, 21.0,
     "percent", "21%"),
    ("Did Costco's net income increase by more than $500 million in FY2023?", True, 500e6,
     "money", "$500 million"),
    ("Did its gross margin expand by more than 50 basis points in FY2019?", True, 0.5,
     "points", "50 basis points"),
    ("Is its current ratio at least 1.5 as of FY2021?", True, 1.5, "plain", "1.5"),
    ("Did revenue fall below 7,000 in 2019?", False, 7000.0, "plain", "7,000"),
])
def test_the_level_its_side_and_its_unit(text: str, above: bool, level: float, kind: str,
                                         shown: str) -> None:
    threshold = read_question(text).threshold
    assert threshold is not None
    assert (threshold.above, threshold.level, threshold.shown) == (above, level, shown)
    assert (threshold.percent, threshold.money, threshold.points) == (
        kind == "percent", kind == "money", kind == "points")
    assert threshold.inclusive == ("at least" in text)


def test_a_level_reached_is_not_the_size_of_a_move() -> None:
    reached = read_question("Did Acme's revenue fall to less than $7 billion in FY2019?")
    by = read_question("Did Acme's revenue fall by less than $7 billion in FY2019?")
    assert reached.threshold is not None and reached.threshold.reached
    assert by.threshold is not None and not by.threshold.reached


@pytest.mark.parametrize("text", [
    "Did revenue rise above 2021 levels in FY2022?",  # a year is no level
    "What drove the change in operating margin in FY2022?",
    # a definition after the question names its own numbers; only the asking sentence is read
    "Is Acme's cash conversion healthy in FY2022? Define it as operating cash flow over 12 "
    "months divided by net income.",
])
def test_no_level(text: str) -> None:
    assert read_question(text).threshold is None


def test_a_rewording_reads_its_own_level() -> None:
    question = read_question("Did Acme's net income exceed $1 billion in FY2019?")
    reworded = question.reworded("Did Acme earn more than $2 billion in FY2019?")
    assert reworded.threshold is not None and reworded.threshold.level == 2e9
