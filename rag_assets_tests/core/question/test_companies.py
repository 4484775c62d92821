"""A name a question writes as a possessive: a company no filing is from, or a segment an
indexed filing prints as its own (``printed_as_member``)."""

from __future__ import annotations

import pytest

from rag_assets.core.question.companies import printed_as_member

# JPMorgan's 10-Q for Q3 2022 (p.21 and p.4), Walmart's 10-K segment note as printed
JPM_SEGMENTS = ("There are four major\nreportable business segments – Consumer & Community\n"
                "Banking, Corporate & Investment Bank, Commercial\nBanking and Asset & Wealth "
                "Management.")
JPM_CONSUMER = ("The Firm’s\nconsumer business segment is Consumer & Community\nBanking "
                "(“CCB”).")
WALMART = "We operate three segments: Walmart U.S., Walmart International and Sam's Club."
COMPETITORS = "Our segments compete with Kroger, Target and Amazon."


@pytest.mark.parametrize(("name", "text", "member"), [
    ("Consumer & Community Banking", JPM_SEGMENTS, True),
    ("Commercial Banking", JPM_SEGMENTS, True),
    ("Asset & Wealth Management", JPM_SEGMENTS, True),
    ("Community Banking", JPM_CONSUMER, True),
    ("Walmart International", WALMART, True),
    ("Sam's Club", "Sam's Club segment net sales increased 9.6%.", True),
    # a competitor named after the word is no segment of the filer's
    ("Kroger", COMPETITORS, False),
    ("Target", COMPETITORS, False),
    ("Kroger", WALMART, False),
])
def test_a_segment_is_printed_before_its_noun_or_in_the_list_after_it(
        name: str, text: str, member: bool) -> None:
    """"What was Consumer & Community Banking's net income?" names a segment of JPMorgan's,
    never a company no filing is from (which once made the engine abstain)."""
    assert printed_as_member(name, text) is member
