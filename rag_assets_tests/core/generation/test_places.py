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
