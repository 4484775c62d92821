"""How text names a part of a fiscal year: the one grammar of quarters, halves and nine-month
periods ("Q2 2023", "Q2'2023", "Q2 FY2023", "2021 Q1", "second quarter of fiscal 2022",
"first half", "nine months")."""

from __future__ import annotations

import re

QUARTER_WORDS = ("first", "second", "third", "fourth")
QUARTER_RES = (
    re.compile(r"\bq(?P<q>[1-4])\s*'?\s*(?:fy\s*|fiscal\s+)?(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE),
    re.compile(r"\b(?P<y>(?:19|20)\d\d)\s*q(?P<q>[1-4])\b", re.IGNORECASE),
    re.compile(r"\b(?P<w>first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?"
               r"(?:fiscal\s+|fy\s*)?(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE),
)
# a quarter glued to its year ("Q22023", "Q2'2023"): read as "Q2 2023" so the year is found
GLUED_QUARTER_RE = re.compile(r"\bQ([1-4])'?((?:19|20)\d\d)\b", re.IGNORECASE)
# a quarter named with or without its year: "Q2", "Q4 of FY2023", "second quarter"
ASKED_QUARTER_RE = re.compile(
    r"\bq(?P<q>[1-4])\b|\b(?P<w>first|second|third|fourth)\s+(?:fiscal\s+)?quarter\b",
    re.IGNORECASE)
HALF_YEAR_RE = re.compile(r"\b(?:h1|first\s+half|six\s+months)\b", re.IGNORECASE)
NINE_MONTHS_RE = re.compile(r"\bnine\s+months\b", re.IGNORECASE)
# a column or label of a part of a year: "three months", "6 months", "Q3"
PART_OF_YEAR_RE = re.compile(r"\b(?:[369]|three|six|nine) months\b|\bq[1-4]\b", re.IGNORECASE)


def unglued(text: str) -> str:
    """``text`` with a quarter glued to its year set apart ("Q22023" -> "Q2 2023")."""
    return GLUED_QUARTER_RE.sub(r"Q\1 \2", text)


def quarters_named(text: str) -> list[tuple[int, int, int]]:
    """Every quarter ``text`` names with its year, as (quarter 1-4, year, offset of the year in
    ``text``), in the order the patterns are tried."""
    found: list[tuple[int, int, int]] = []
    for pattern in QUARTER_RES:
        for match in pattern.finditer(text):
            word = match.groupdict().get("w")
            quarter = QUARTER_WORDS.index(word.lower()) + 1 if word else int(match["q"])
            found.append((quarter, int(match["y"]), match.start("y")))
    return found


def asked_quarters(text: str) -> set[str]:
    """The quarters a text names, with or without a year, as a document's name writes them
    ("q2")."""
    return {f"q{m['q']}" if m["q"] else f"q{QUARTER_WORDS.index(m['w'].lower()) + 1}"
            for m in ASKED_QUARTER_RE.finditer(unglued(text))}


def months_asked(text: str) -> int:
    """The length of the period a text asks about: 3 for a quarter, 6 for a half, 9 for nine
    months, else 12 (a fiscal year)."""
    if HALF_YEAR_RE.search(text):
        return 6
    if NINE_MONTHS_RE.search(text):
        return 9
    return 3 if quarters_named(text) else 12


def without_quarters(text: str) -> str:
    """``text`` with each quarter named with its year reduced to the year."""
    for pattern in QUARTER_RES:
        text = pattern.sub(lambda m: f" {m['y']} ", text)
    return text
