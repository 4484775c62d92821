"""How a question names a fiscal quarter: the one grammar the metric parser and the direct
answers share ("Q2 2023", "Q2'2023", "Q2 FY2023", "2021 Q1", "second quarter of fiscal 2022")."""

from __future__ import annotations

import re

QUARTER_WORDS = ("first", "second", "third", "fourth")
QUARTER_RES = (
    re.compile(r"\bq(?P<q>[1-4])\s*'?\s*(?:fy\s*|fiscal\s+)?(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE),
    re.compile(r"\b(?P<y>(?:19|20)\d\d)\s*q(?P<q>[1-4])\b", re.IGNORECASE),
    re.compile(r"\b(?P<w>first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?"
               r"(?:fiscal\s+|fy\s*)?(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE),
)


def quarters_named(text: str) -> list[tuple[int, int, int]]:
    """Every quarter ``text`` names, as (quarter 1-4, year, offset of the year in ``text``), in
    the order the patterns are tried."""
    found: list[tuple[int, int, int]] = []
    for pattern in QUARTER_RES:
        for match in pattern.finditer(text):
            word = match.groupdict().get("w")
            quarter = QUARTER_WORDS.index(word.lower()) + 1 if word else int(match["q"])
            found.append((quarter, int(match["y"]), match.start("y")))
    return found
