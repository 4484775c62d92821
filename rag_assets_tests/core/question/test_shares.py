"""The one share grammar, read once into the question (:mod:`rag_assets.core.question.shares`)."""

from __future__ import annotations

import pytest

from rag_assets.core.question.question import read_question
from rag_assets.core.question.shares import Share, share_asked


@pytest.mark.parametrize("verb", ["were", "are"])
def test_a_share_is_asked_with_are_as_with_were(verb: str) -> None:
    found = share_asked(f"What percentage of Walmart's fiscal 2020 net sales {verb} from "
                        "Walmart International?")
    assert found is not None and (found.part, found.total) == ("walmart international",
                                                               "net sales")
    found = share_asked(f"What percentage of Acme's warehouses {verb} in Canada?")
    assert found is not None and (found.part, found.total) == ("canada", "warehouses")
    found = share_asked(f"What share of its revenues {verb} paid out as dividends?")
    assert found is not None and (found.part, found.total) == ("dividends", "revenues")


def test_a_listed_part_keeps_its_commas_and_the_plain_part_ends_at_the_first() -> None:
    found = share_asked("What share of Walmart's capital expenditures went to eCommerce, "
                        "technology, supply chain and other?")
    assert found == Share(part="ecommerce", total="capital expenditures",
                          listed_part="ecommerce, technology, supply chain and other",
                          listed_total="capital expenditures")


def test_members_named_by_a_pronoun_and_other_questions_ask_no_share() -> None:
    assert share_asked("How much of its revenue did each segment account for?") is None
    assert share_asked("What was Walmart's revenue in fiscal 2020?") is None


def test_the_question_reads_its_share_once_without_its_instructions() -> None:
    question = read_question("What share of Walmart's fiscal 2020 net sales came from Walmart "
                             "International? Round your answer to one decimal place.")
    assert question.share is not None
    assert (question.share.part, question.share.total) == ("walmart international",
                                                           "net sales")
    # read off the whole text, the instruction would run into the part
    assert share_asked(question.text) != question.share
