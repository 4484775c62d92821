"""The years a text names, and whether a sentence is of another year than those asked."""

from __future__ import annotations

import pytest

from rag_assets.core.text.years import (
    names_other_years,
    one_period_restated,
    only_base_years,
    years_in,
)


def test_a_sentence_of_another_year_and_one_of_none() -> None:
    text = "The increase in our effective tax rate for fiscal 2019 is primarily due to ..."
    assert years_in(text) == [2019]
    assert names_other_years(text, [2020])
    assert not names_other_years(text, [2019, 2020])
    assert not names_other_years("The decrease in expenses was impacted by $150 million.", [2023])
    assert not names_other_years(text, [])  # a question that asks no year


def test_a_year_printed_only_as_the_base_of_a_change_speaks_of_the_year_after() -> None:
    """Ulta Beauty's Q2 fiscal 2023 release states the quarter against fiscal 2022's and prints
    no 2023 in that sentence: it is of fiscal 2023. A sentence of 2022 with its own base (2021),
    or of a year two before, is not."""
    from rag_assets.core.text.sentences import split_sentences
    from rag_assets_tests.real_filings import real_filing

    page = real_filing("financebench-bulk/pdfs/ULTABEAUTY_2023Q2_EARNINGS.pdf").pages[1].text
    stated = next(s for s in split_sentences(" ".join(page.split()))
                  if "gross profit decreased to 39.3%" in s)
    assert "in the second quarter of fiscal 2022, primarily due to lower merchandise" in stated
    assert only_base_years(stated, [2023])
    assert not only_base_years(stated, [2022])  # fiscal 2022's is not stated by it
    for other in ("Net sales were $1.2 billion in 2022, compared to $1.1 billion in 2021.",
                  "Net sales rose from $1.2 billion in 2021.",
                  "In fiscal 2022 we opened 50 stores.", "Gross margin was 39.3%."):
        assert not only_base_years(other, [2023]), other


@pytest.mark.parametrize(("text", "once"), [
    ("in Q1 fiscal 2024 (three months ended April 30, 2023)?", True),
    ("during fiscal 2022 (year ended January 28, 2023), and why?", True),
    ("from 2021 to the quarter ended June 30, 2023?", False),  # no fiscal name restated
    ("between fiscal 2021 and (the three months ended April 30, 2023)?", False),  # two years
    ("in fiscal 2023 and in Q1 fiscal 2024 (three months ended April 30, 2023)?", False),
    ("in fiscal 2024?", False),
])
def test_one_period_named_by_its_fiscal_name_and_end_date(text: str, once: bool) -> None:
    assert one_period_restated(text) is once
