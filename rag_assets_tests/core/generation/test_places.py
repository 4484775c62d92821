"""Whether a row's label names a place: countries (ISO 3166 through pytz), regions, US states
and a company's own split of its operations, as real filings print them."""

from __future__ import annotations

import pytest

from rag_assets.core.generation.places import names_a_place


@pytest.mark.parametrize("label", [
    "United States", "Asia Pacific", "Europe, Middle East and Africa", "Latin America and Canada",
    "Non-U.S. operations", "Walmart International", "MGM China", "Regional Operations",
    "Total New Jersey", "Japan", "Korea", "Other countries", "Domestic"])
def test_places(label: str) -> None:
    assert names_a_place(label)


@pytest.mark.parametrize("label", [
    "Adhesives and Tapes", "Abrasives", "Safety and Graphics", "Sam's Club", "Consumer",
    "Personal Safety", "Total Industrial Business Group", "Optical Communications"])
def test_no_places(label: str) -> None:
    assert not names_a_place(label)


def test_a_place_printed_in_short_is_the_place_asked() -> None:
    """Walmart's "U.S. operations" is the United States a question names; "us", the pronoun,
    is no form of it."""
    from rag_assets.core.generation.places import place_forms, place_name, places_printed

    assert place_name("U.S.") == place_name("United States") == "united states"
    assert "u.s." in place_forms("United States") and "us" not in place_forms("united states")
    asked = "What share of revenue came from outside the United States?"
    assert places_printed(asked, "U.S. operations $ 402,532") == {"united", "states"}
    assert places_printed(asked, "Let us look at revenue") == set()
