"""A line item the statements do not carry, read from the sentence that states it (Coca-Cola's
2019 10-K: its debt note, its tax note and its MD&A, the sentences as printed, as units built
here)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.stated_line_items import stated_line_item
from rag_assets.core.question.question import read_question

INTEREST = ("Total interest paid was $921 million, $903 million and $803 million in 2019, 2018 "
            "and 2017, respectively.")
TAXES = ("We made income tax payments of $2,126 million, $2,120 million and $1,950 million in "
         "2019, 2018 and 2017, respectively.")
ACQUIRED_2019 = ("In 2019, the Company's acquisitions of businesses, equity method investments "
                 "and nonmarketable securities totaled $5,542 million, which primarily related to "
                 "the acquisitions of Costa and the remaining interest in CHI.")
ACQUIRED_2018 = ("In 2018, the Company's acquisitions of businesses, equity method investments "
                 "and nonmarketable securities totaled $1,263 million, which was primarily related "
                 "to the acquisition of a controlling interest in the Philippine bottling "
                 "operations and an equity interest in BA Sports Nutrition, LLC (\"BodyArmor\").")
ESTIMATED = ("Estimated contractual interest payments associated with our long-term debt amount "
             "to $16.0 billion, with approximately $1.3 billion expected to be paid in fiscal "
             "2023.")  # Walmart's fiscal 2022 10-K: a plan, not what was paid


def _scan(*texts: str):  # type: ignore[no-untyped-def]
    units = [EvidenceUnit(chunk_id="c", document="coca-cola-10k", year=2019, chunk_rank=0,
                          page=i, located=True, quote=t, text=t) for i, t in enumerate(texts)]

    def scan(patterns: Sequence[re.Pattern[str]]) -> Iterator[EvidenceUnit]:
        return (u for u in units if any(p.search(u.text) for p in patterns))
    return scan, units


def _answer(question: str, *texts: str) -> str | None:
    scan, _ = _scan(*texts)
    found = stated_line_item(read_question(question), scan)
    return None if found is None else found.text


def test_the_amount_in_the_years_place_of_a_respectively_list() -> None:
    both = (INTEREST, TAXES, ACQUIRED_2018, ACQUIRED_2019)
    assert _answer("How much did Coca-Cola pay in interest in FY2019?", *both) == (
        f"Interest paid in 2019 amounted to $921 million, as the filing states it outside its "
        f"statements: {INTEREST}")
    taxes = _answer("What were Coca-Cola's income taxes paid in FY2018?", *both)
    assert taxes is not None and taxes.startswith("Income taxes paid in 2018 amounted to "
                                                  "$2,120 million")


def test_the_first_amount_after_the_name_in_a_sentence_of_the_year_alone() -> None:
    answer = _answer("How much did Coca-Cola pay for acquisitions in FY2019?", ACQUIRED_2018,
                     ACQUIRED_2019)
    assert answer is not None and "in 2019 amounted to $5,542 million" in answer
    assert answer.endswith(ACQUIRED_2019)  # 2018's sentence is another year's


CORE_EPS = ("Core earnings per share decreased in the year ended December 31, 2020 to $1.39 per "
            "share, driven by the decrease in core net income.")  # Corning's 2020 10-K
ADJUSTED = ("Adjusted interest expense was $850 million in 2019.")


def test_no_amount_of_another_measure_nor_per_share() -> None:
    """Corning's core earnings per share once answered its 2020 dividends per share: a rate per
    share is the per-share readers', and a qualified name is another measure."""
    assert _answer("How much did Corning pay in dividends per share in FY2020?", CORE_EPS) is None
    assert _answer("What was Coca-Cola's interest expense in FY2019?", ADJUSTED) is None


DECLARED = ("The dividend of $1.02 per share declared on August 9, 2023, is payable September "
            "8, 2023, to shareholders of record at the close of business on August 25, 2023.")


def test_no_rate_per_share_for_an_amount_nor_a_count_asked() -> None:
    """Costco's 8-K of August 9, 2023: its dividend per share is no amount of dividends paid,
    and a count asked beside it ("How many warehouses ... at the time of its dividend
    announcement?") is not the dividends'."""
    assert _answer("How much did Costco pay in dividends in 2023?", DECLARED) is None
    assert _answer("How many warehouses did Costco operate at the time of its August 9, 2023 "
                   "dividend announcement?", "Costco paid dividends of $1,251 million in "
                   "2023.") is None


def test_no_amount_from_a_plan_another_year_or_another_question() -> None:
    assert _answer("How much did Walmart pay in interest in FY2023?", ESTIMATED) is None
    assert _answer("How much did Coca-Cola pay for acquisitions in FY2017?", ACQUIRED_2018,
                   ACQUIRED_2019) is None
    assert _answer("Did Coca-Cola pay more interest in 2019 than in 2018?", INTEREST) is None
    assert _answer("How much did Coca-Cola pay in interest in Q2 2019?", INTEREST) is None
    changed = "In 2019, interest paid increased $18 million to $921 million."
    assert _answer("How much did Coca-Cola pay in interest in FY2019?", changed) is None
