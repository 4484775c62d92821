"""How text names a year: the one grammar of years that questions and definitions are read with.

"fiscal 2022", "fiscal year 2022", "FY2022", "FY 2022", "FY22", "FY'22" or a bare 2022; not part
of a longer number ("$2,018", "2018.5"), an amount, or an EU act's number ("Regulation (EU)
2016/679": 2016 is not a year asked about). A quarter glued to its year ("Q22023", "Q2'2023")
is read as "Q2 2023" first (:func:`rag_assets.core.text.periods.unglued`).
"""

from __future__ import annotations

import re

from rag_assets.core.text.periods import unglued

YEAR_RE = re.compile(
    r"(?<![\d$.,/])(?:(?:fiscal(?:\s+year)?\s+)?(?P<year>(?:19[5-9]|20\d)\d)(?!\d|[,.]\d|/\d)"
    r"|\bFY\s?'?(?P<fy>\d{4}|\d{2})\b)",
    re.IGNORECASE,
)
# any four digits that read as a year of this or the last century: a figure that is a year
# ("2022"), not an amount, when figures are compared
YEARLIKE_RE = re.compile(r"\b(?:19|20)\d{2}\b")
# a year as a table's column heading prints it: "2022", "FY 2022", "fiscal year 2022" (group 1)
FISCAL_YEAR_RE = re.compile(r"\b(?:fy\s?|fiscal (?:year )?)?((?:19|20)\d{2})\b", re.IGNORECASE)
# a year a definition writes on one of its terms ("FY2019 revenue", "FY 2018 PP&E")
FY_TERM_RE = re.compile(r"\bfy\s*'?\s*(?P<y>(?:19|20)\d\d)\s+")
# a year as a definition's range writes it: "FY2018", "fy 18", "2019"
YEAR_TOKEN = r"(?:fy\s*'?\s*)?(?:(?:19|20)\d\d|\d\d)"


def year_of(match: re.Match[str]) -> int:
    """The year a :data:`YEAR_RE` match writes (two digits: FY99 is 1999, FY22 is 2022)."""
    if match.group("year"):
        return int(match.group("year"))
    fy = match.group("fy")
    return int(fy) if len(fy) == 4 else (2000 if int(fy) < 50 else 1900) + int(fy)


def year_mentions(text: str) -> list[tuple[int, int]]:
    """Every year ``text`` names, as (year, offset of its digits in ``text``), in order (a year
    glued to a quarter, "Q22023", is not seen: :func:`years_in` reads it)."""
    return [(year_of(m), m.start("year") if m.group("year") else m.start("fy"))
            for m in YEAR_RE.finditer(text)]


def years_in(text: str) -> list[int]:
    """The years a text names, in order of mention, each once."""
    return list(dict.fromkeys(year for year, _ in year_mentions(unglued(text))))
