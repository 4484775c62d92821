"""Amounts of dollars a sentence states, against the amounts the statements print."""

from __future__ import annotations

import pytest

from rag_assets.core.text.figures import money_amounts, states_other_amount

# JPMorgan's Q2 2022 provision for credit losses (p.88): 1,101 against (2,285), a 3,386 change
LEVELS = [1_101e6, -2_285e6, 3_386e6]


@pytest.mark.parametrize(("sentence", "other"), [
    ("The provision for credit losses was $1.1 billion", False),  # to the precision printed
    ("The provision for credit losses was $59 million", True),  # Commercial Banking's
    ("The provision for credit losses was $761 million", True),  # Consumer & Community's
    ("The provision increased $3.4 billion", False),  # the change
    ("a net benefit of $2,285 million in the prior year", False),  # the year before's
    ("The provision for credit losses increased", False),  # no amount stated: no judgment
    ("The provision was $1,849", False),  # no scale word: no judgment
])
def test_a_sentence_states_another_level(sentence: str, other: bool) -> None:
    assert states_other_amount(sentence, LEVELS) is other
    assert not states_other_amount(sentence, [])  # nothing printed to hold it against


def test_money_amounts_are_in_dollars() -> None:
    assert money_amounts("$285.8 million and $1.1 billion") == [285.8e6, 1.1e9]
