"""How text names a year: the one grammar of years that questions and definitions are read with.

"fiscal 2022", "fiscal year 2022", "FY2022", "FY 2022", "FY22", "FY'22" or a bare 2022; not part
of a longer number ("$2,018", "2018.5"), an amount, or an EU act's number ("Regulation (EU)
2016/679": 2016 is not a year asked about). A quarter glued to its year ("Q22023", "Q2'2023")
is read as "Q2 2023" first (:func:`rag_assets.core.text.periods.unglued`).

Readers of tables and pages tell a year from an amount with a rule of their own below, each
narrower than :data:`YEAR_RE` on purpose: a statement's column heading refuses "20191" and years
past the 2040s, a catalog's year is a whole name, a PDF header token may carry a note marker.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.text.markers import SUPERSCRIPT_DIGITS
from rag_assets.core.text.periods import RESTATED_END_RE, unglued

# a span of years ("2019-2021", "2021 - 2020"): no range of a figure
YEAR_SPAN = r"(?:19|20)\d\d\s*[-–]\s*(?:19|20)\d\d\b"

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
# a year a definition writes in words on a term or a range: "fiscal 2022 cost of sales",
# "fiscal year-end 2021", "the ends of fiscal 2019 and fiscal 2020" (read as "FY2022" ...)
FISCAL_TERM_RE = re.compile(
    r"\b(?:the\s+)?(?:ends?\s+of\s+)?(?:fiscal\s+(?:year[- ]end\s+|year\s+)?|"
    r"(?:fiscal\s+)?year[- ]end(?:ed)?\s+)(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE)
# a year as a definition's range writes it: "FY2018", "fy 18", "2019"
YEAR_TOKEN = r"(?:fy\s*'?\s*)?(?:(?:19|20)\d\d|\d\d)"
# a year directory of the catalog, or a year given on the command line: the whole string
# a year written as a change's base: "change from fiscal 2019", "since 2019", "compared with
# FY2019", "versus 2019" (the change runs from it to the period after it)
BASE_YEAR_RE = re.compile(r"\b(?:from|since|compared (?:with|to)|versus|vs\.?|relative to)\s+"
                          r"(?:the\s+)?(?:fy\s?|fiscal (?:year\s+)?)?((?:19|20)\d{2})\b",
                          re.IGNORECASE)
# a year a sentence prints as the base of the change it states, a few words after the marker:
# "compared to 40.1% in the first quarter of fiscal 2022", "from $1.2 billion in 2022"
BASE_PERIOD_RE = re.compile(r"\b(?:from|since|compared (?:with|to)|versus|vs\.?|relative to)\s"
                            r"(?:[^.;!?]|\.\d){0,80}?\b(?:fy\s?|fiscal (?:year\s+)?)?"
                            r"((?:19|20)\d{2})\b", re.IGNORECASE)
WHOLE_YEAR_RE = re.compile(r"^(19|20)\d{2}$")
# the digits of a year anywhere in a line, even inside "12/31/2022" or "FY2022": a line that
# holds one is never read as a table's caption
YEAR_DIGITS_RE = re.compile(r"(?:19|20)\d{2}\b")
# a year a page prints, counted to tell a statement from prose: 1980-2049, not after a letter
# ("FY2022") nor inside an amount ("$2019", "1,2019", "2019.5")
PAGE_YEAR_RE = re.compile(r"(?<![\w$.,])(?:19[89]\d|20[0-4]\d)(?![\w,.]\d)")
# a year heading a statement's column: 1980-2049, after a letter too ("FY2022", unlike
# :data:`PAGE_YEAR_RE`), never part of a longer number ("20191", "1,2019", "2019.5")
STATEMENT_YEAR_RE = re.compile(r"(?<![\d,.$])(?:19[89]\d|20[0-4]\d)(?![\d,.]?\d)")
# the headings of a table printed as text: a year (group "year", any of this or the last
# century, unlike :data:`STATEMENT_YEAR_RE`) or a "% change" column (group "change")
YEAR_OR_CHANGE_HEADING_RE = re.compile(r"(?<![\d,.$])(?P<year>(?:19|20)\d{2})(?![\d,.]?\d)|"
                                       r"(?P<change>%\s*change)", re.IGNORECASE)
# a text table's column headings, with a column of the change's amount (group "delta"), as MD&A
# prints it beside its years: "Increase/" over "(decrease)" (Activision Blizzard's 10-Q), "$
# Change"
COLUMN_HEADING_RE = re.compile(rf"{YEAR_OR_CHANGE_HEADING_RE.pattern}|"
                               r"(?P<delta>increase\s*/\s*\(\s*decrease\s*\)|\$\s*change)",
                               re.IGNORECASE)
# the two years a "% change" column compares, as a stacked header prints them under it: "15
# vs. 14" (two digits: a four-digit pair would also read as the years of the columns); never a
# count of weeks ("53 vs. 52 weeks")
# the two years a change column compares, written whole: "2017 vs. 2016" (American Water's MD&A,
# an amount and a percentage under each)
COMPARED_FULL_RE = re.compile(r"(?<![\d,.])((?:19|20)\d{2})\s*vs\.?\s*((?:19|20)\d{2})"
                              r"(?![\d,.]?\d)", re.IGNORECASE)
COMPARED_YEARS_RE = re.compile(r"(?<![\d,.])\d\d\s*vs\.?\s*\d\d(?![\d,.%]|\s*weeks)",
                               re.IGNORECASE)
# a span of years a question asks over: "five-year", "3 years" (group "n")
YEAR_SPAN_RE = re.compile(
    r"\b(?P<n>\d|two|three|four|five|six|seven|eight|nine|ten)[\s-]+years?\b", re.IGNORECASE)
# a number a column heading prints: a year or a day ("2021", "21 vs. 20", "December 31,")
HEADING_NUMBER_RE = re.compile(r"(?:19|20)?\d\d,?|\d,?")
# a token of a PDF table's header row that is a year, a note marker maybe raised after it
# ("2021*", "2020¹"): the whole token
HEADER_YEAR_RE = re.compile(rf"^(?:19|20)\d\d[*{SUPERSCRIPT_DIGITS}]*$")


def year_heading_re(year: str) -> re.Pattern[str]:
    """A column heading that names ``year`` (four digits): "2021", "FY21", "'21", not
    "12021" or "3/21"."""
    return re.compile(rf"(?<!\d){year}(?!\d)|(?<![\d/])(?:fy)?'?{year[2:]}(?!\d)",
                      re.IGNORECASE)


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


def names_other_years(text: str, asked: Sequence[int]) -> bool:
    """Whether a text names years and none of those ``asked`` (a sentence of another year's;
    one that names no year, or a question that asks none, is not)."""
    printed = set(years_in(text))
    return bool(printed and asked and not printed & set(asked))


def years_in(text: str) -> list[int]:
    """The years a text names, in order of mention, each once."""
    return list(dict.fromkeys(year for year, _ in year_mentions(unglued(text))))


def only_base_years(text: str, years: Sequence[int]) -> bool:
    """Whether every year ``text`` prints is the year before one of ``years``, printed as the
    base of the change it states ("Gross margin decreased to 39.7%, compared to 40.1% in the
    first quarter of fiscal 2022" states fiscal 2023's): a year-over-year comparison, the form
    Item 303(b) MD&A takes, speaks of the later period while printing only the earlier one."""
    held = [m.start() for m in YEARLIKE_RE.finditer(text)]
    bases = {m.start(1) for m in BASE_PERIOD_RE.finditer(text)
             if int(m.group(1)) + 1 in years}
    return bool(held) and all(at in bases for at in held)



def one_period_restated(text: str) -> bool:
    """Whether ``text`` names one period twice, by the filer's fiscal name and, in parentheses,
    by the date it ends on: one such date, and one other year besides it, within a year of the
    date's (a fiscal year is named for the year it ends in, or the one before or after it:
    Walmart's Q1 fiscal 2024 ends April 30, 2023; Ulta's fiscal 2022 January 28, 2023)."""
    ends = [int(m["year"]) for m in RESTATED_END_RE.finditer(text)]
    others = set(years_in(RESTATED_END_RE.sub(" ", text)))
    return len(ends) == 1 and len(others) == 1 and abs(others.pop() - ends[0]) <= 1
