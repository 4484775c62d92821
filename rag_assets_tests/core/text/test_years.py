"""The years a text names, and whether a sentence is of another year than those asked."""

from __future__ import annotations

from rag_assets.core.text.years import names_other_years, years_in


def test_a_sentence_of_another_year_and_one_of_none() -> None:
    text = "The increase in our effective tax rate for fiscal 2019 is primarily due to ..."
    assert years_in(text) == [2019]
    assert names_other_years(text, [2020])
    assert not names_other_years(text, [2019, 2020])
    assert not names_other_years("The decrease in expenses was impacted by $150 million.", [2023])
    assert not names_other_years(text, [])  # a question that asks no year
