"""Bulleted lists as text extraction prints them: one bullet per line, or several run into one."""

from __future__ import annotations

from rag_assets.core.text.bullets import bullet_groups, numbered


def test_bullets_printed_inside_a_line_are_items_of_their_own() -> None:
    """General Mills' fiscal 2022 10-K prints its fiscal 2023 targets with two bullets on the
    first line and a wrapped third: four targets, one sentence, none dropped."""
    lines = ["● Organic net sales are expected to increase 4 to 5 percent. ● Adjusted operating "
             "profit is expected to range between down 2 percent and up 1 percent from the base",
             "of $3.2 billion reported in fiscal 2022. ● Adjusted diluted EPS are expected to "
             "range between flat and up 3 percent.",
             "● Free cash flow conversion is expected to be at least 90 percent."]
    opening, bullets = bullet_groups(lines)
    assert opening == [] and len(bullets) == 4
    assert bullets[1] == ["Adjusted operating profit is expected to range between down 2 percent "
                          "and up 1 percent from the base of $3.2 billion reported in fiscal "
                          "2022."]
    text = numbered(bullets)
    assert text.startswith("(1) Organic net sales are expected to increase 4 to 5 percent; (2) ")
    assert "(4) Free cash flow conversion" in text and ". " not in text


def test_a_dash_inside_a_line_is_punctuation_not_a_bullet() -> None:
    opening, bullets = bullet_groups(["• Net sales rose – mostly on price – in 2022"])
    assert opening == [] and bullets == [["Net sales rose – mostly on price – in 2022"]]
