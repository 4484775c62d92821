"""How text names a period: the one grammar of quarters, halves and nine-month periods ("Q2
2023", "Q2'2023", "Q2 FY2023", "2021 Q1", "second quarter of fiscal 2022", "first half", "nine
months"), of the durations a statement's columns print ("Three Months Ended", "Thirty-nine
weeks ended") and of the dates and periods a table's headings write ("December 31, 2022",
"Corporate three months 2021")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from rag_assets.core.text.figures import MONEY, SCALE_WORDS

QUARTER_WORDS = ("first", "second", "third", "fourth")
# a part of a year's length in words, as statements print it ("Three Months Ended")
MONTHS_IN_WORDS = {3: "three", 6: "six", 9: "nine"}
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
# the year to date through a quarter: the second column a 10-Q's income statement prints
# (Regulation S-X Rule 10-01(c)(2): the interim period and the year to date)
YEAR_TO_DATE_RE = re.compile(r"\byear[\s-]+to[\s-]+date\b|\bytd\b", re.IGNORECASE)
# a quarter asked as the point the year has reached ("as of Q2 2023", "through the second
# quarter", "year to date"): its flows are the year to date's, not the three months'
TO_DATE_RE = re.compile(r"\b(?:as\s+of|through)\s+(?:the\s+end\s+of\s+)?(?:q[1-4]\b|the\s+"
                        r"(?:first|second|third|fourth)\s+quarter\b)|" + YEAR_TO_DATE_RE.pattern,
                        re.IGNORECASE)


def asks_to_date(text: str) -> bool:
    """Whether a question asks of the point the year has reached ("as of Q2 2023", "year to
    date"), whose flows a 10-Q prints for the year to date."""
    return bool(TO_DATE_RE.search(text))


# a period named as the filer's fiscal one: "fiscal Q1 2023", "Q2 FY2023", "FY23"
FISCAL_RE = re.compile(r"\bfiscal\b|\bfy\s?'?\d", re.IGNORECASE)


def names_fiscal(text: str) -> bool:
    """Whether a question names its period as the filer's fiscal one ("fiscal Q1 2023"): a
    fiscal quarter is a calendar quarter only for a filer whose year ends in December."""
    return bool(FISCAL_RE.search(text))


# the year-ago period named as such: "the prior year", "prior-year quarter", "the previous period"
PRIOR_PERIOD = r"(?:prior|previous|preceding)[\s-]+(?:year|quarter|period)"
PRIOR_PERIOD_RE = re.compile(rf"\b{PRIOR_PERIOD}\b", re.IGNORECASE)
# a change against the quarter just before (sequential), not the year-ago quarter: "compared to
# the prior quarter", "sequentially", "linked quarter" ("the prior-year quarter" is not one)
SEQUENTIAL_RE = re.compile(r"\b(?:sequential\w*|linked[\s-]quarter|(?:prior|previous|preceding)\s+"
                           r"quarter)\b", re.IGNORECASE)
# a sentence whose subject is the year-ago period's: "The prior year provision was a net benefit
# of $1.5 billion, reflecting ...", "In the prior-year quarter, ..."
PRIOR_PERIOD_OPENING_RE = re.compile(rf"^\s*(?:(?:in|for|during)\s+)?(?:the\s+)?{PRIOR_PERIOD}\b",
                                     re.IGNORECASE)
# a period's short name in capitals: "FY2022", "Q2", "H1" (no name of a thing asked)
PERIOD_NAME_RE = re.compile(r"(?:FY|Q[1-4]|H[12])\d*")
# a time phrase a sentence opens with before its subject: "In 2021, ", "On May 15, 2023, ",
# "During fiscal 2022, ", "In the fourth quarter of 2020, ", "As of December 31, 2019, "
TIME_OPENING_RE = re.compile(
    r"^\s*(?:in|on|during|for|as\s+of|at|through|since)\s+(?:the\s+)?"
    r"(?:(?:first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+of\s+)?(?:fiscal\s+(?:year\s+)?)?"
    r"(?:[A-Z][a-z]+\s+(?:\d{1,2},\s+)?)?(?:19|20)\d\d,\s+", re.IGNORECASE)


def names_prior_period(text: str) -> bool:
    """Whether a text names the year-ago period as such ("the prior year")."""
    return bool(PRIOR_PERIOD_RE.search(text))


def opens_with_prior_period(sentence: str) -> bool:
    """Whether a sentence opens with the year-ago period as its subject ("The prior year
    provision was ..."): it states a comparison's base, not the period it compares."""
    return bool(PRIOR_PERIOD_OPENING_RE.match(sentence))


# the plural nouns of a span of time ("six months", "three years"): a number before one counts
# no things
SPAN_NOUNS = r"(?:months|years|quarters|weeks|days)"
# the period a sentence's results are of, named after "the" ("The current quarter was negatively
# affected by ..."), not a period's date ("the year ended December 31")
PERIOD_REFERRED = (r"(?:current\s+)?(?:quarter|year|period)\b"
                   r"(?![\s-]*(?:ended|ending|ago|over|prior|from|to\b))")
MONTHS_PER_YEAR = 12
# a column or label of a part of a year: "three months", "6 months", "Q3"
PART_OF_YEAR_RE = re.compile(r"\b(?:[369]|three|six|nine) months\b|\bq[1-4]\b", re.IGNORECASE)
# a quarter's column heading as a table prints it: "three months 2022" (a question's "three
# months ended" is :func:`months_asked`'s)
THREE_MONTHS_HEADING_RE = re.compile(r"\b(?:3|three)[ -]months?\b", re.IGNORECASE)
# a figure given for each quarter, not the year's: "$1.36 ... per share for each quarter"
EACH_QUARTER_RE = re.compile(r"\b(?:for\s+)?(?:each|every|per)\s+quarter\b|\bquarterly\b",
                             re.IGNORECASE)
# a month's name, as a statement's date heading prints it ("December 31,")
MONTH_RE = re.compile(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)\b", re.IGNORECASE)
# a comparison's other period: "more cash than in fiscal 2021", "less than at the end of
# 2020", "higher than the prior year", "than at December 31, 2022", "than its fiscal 2021
# revenue", "than the same quarter last year" (never a level, "more than 21%", nor another
# benchmark, "higher than the industry average in 2022")
THAN_PERIOD_RE = re.compile(
    r"\bthan\s+(?![$€£\d])(?:(?:it|they)\s+(?:did|had|was|were)\s+)?(?:(?!average|industry|peers?|"
    r"competitors?|median|target|guidance|budget|plan|forecast|estimate|expected)[\w'’.-]+\s+)"
    r"{0,4}?(?:(?:fiscal\s+|fy\s?)(?:year[\s-]+)?(?:19|20)?\d\d\b|(?:year[\s-]+end\s+)?(?:19|20)"
    r"\d\d\b|(?:prior|previous|preceding|last)\s+(?:fiscal\s+)?(?:year|quarter|period)\b|(?:a|the)"
    r"\s+year\s+(?:earlier|ago|before)\b|(?:the\s+)?(?:first|second|third|fourth)\s+quarter\b|"
    r"q[1-4]\b|(?:the\s+)?same\s+(?:quarter|period)\b|"
    rf"{MONTH_RE.pattern}\s+\d{{1,2}},?\s+(?:19|20)\d\d\b)", re.IGNORECASE)
# a change against the period before: "quarter over quarter", "year-over-year"
PERIOD_OVER_PERIOD_RE = re.compile(r"\b(?:year|quarter|month)s?[\s-]+over[\s-]+(?:year|quarter|"
                                   r"month)s?\b", re.IGNORECASE)
# the period a sentence opens with before what it says: "For fiscal 2018 , the decrease was ...",
# "In 2022, ...", "For the year ended December 31, 2022, ..."
PERIOD_LEAD_RE = re.compile(
    r"^\s*(?:for|in|during)\s+(?:the\s+)?(?:(?:fiscal\s+)?(?:year|quarter)\s+ended\s+\w+\.?\s+"
    r"\d{1,2},\s+|fiscal\s+(?:year\s+)?|fy\s*)?(?:19|20)\d{2}\s*,\s*", re.IGNORECASE)
# a date as prose prints it: "August 9, 2023"
# a month and its year, as a column that names a past revision prints it ("April 2023¹": a
# note marker may follow the year)
MONTH_YEAR = rf"{MONTH_RE.pattern}\s+(?:19|20)\d\d(?![0-9])"
PRINTED_DATE_RE = re.compile(rf"{MONTH_RE.pattern}\s+\d{{1,2}},\s+(?:19|20)\d{{2}}", re.IGNORECASE)
# a statement of equity's balance struck at a date, inside a page's text: "Balance at May 31,
# 2022", "Balances as of January 31, 2021" (its year in group "year")
BALANCE_DATED_RE = re.compile(
    rf"\bbalances?\s+(?:at|as\s+of)\s+(?P<day>(?:{MONTH_RE.pattern}|\b(?:jan|feb|mar|apr|jun|jul|"
    r"aug|sept?|oct|nov|dec)\.)\s+\d{1,2}),?\s+(?P<year>(?:19|20)\d{2})\b", re.IGNORECASE)
# the captions naming a statement column's duration, with its months, in the order they may
# be printed: weeks in words too (Foot Locker's "Thirteen weeks ended / Thirty-nine weeks
# ended"); "Quarters Ended" over a quarter's columns (Lockheed's 2023 Q2 release)
DURATIONS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"\b(?:three|3)\s+months?\b|\b(?:1[234]|twelve|thirteen|fourteen)\s+weeks\b|"
                r"\bquarters?\s+ended\b|\b(?:first|second|third|fourth)-quarter\b", re.I), 3),
    (re.compile(r"\b(?:six|6)\s+months?\b|\b(?:2[4-7]|twenty-(?:four|six|seven))\s+weeks\b",
                re.I), 6),
    (re.compile(r"\b(?:nine|9)\s+months?\b|\b(?:36|39|40|thirty-six|thirty-nine|forty)\s+weeks\b",
                re.I),
     9),
    (re.compile(r"\b(?:twelve|12)\s+months?\b|\b(?:5[23]|fifty-(?:two|three))\s+weeks\b|"
                r"\byears?\s+ended\b|\bfiscal\s+years?\b|\byear\s+ending\b", re.I), 12),
)
# a whole line that dates a table: "December 31, 2022", "2022", "December 31," (fullmatch);
# case-sensitive, so a capitalized word and a day is a month and a day
DATE_LINE_RE = re.compile(r"(?:\w+ \d{1,2}, )?(?:19|20)\d{2}|[A-Z][a-z]+ \d{1,2},?")
# a markdown header cell that is a year or a date: "2022", "Fiscal 2022", "Dec. 31, 2022"
YEAR_OR_DATE_CELL_RE = re.compile(
    r"^(?:fiscal\s+)?(?:(?:19|20)\d{2}|[A-Z][a-z]+\.? \d{1,2}, (?:19|20)\d{2})$", re.IGNORECASE
)
# a table's row that dates the block of rows under it, and says nothing else: "For the year
# ended December 31, 2022", "Fiscal Year Ended January 31, 2018", "Three Months Ended June 30,
# 2023", "As of December 31, 2021", "December 28, 2019", "2021" (a segment note with a column
# per segment and a block per year: Walmart's, Corning's), "As of/Year ended December 31, 2015"
# (Netflix's: a block of balances and flows)
PERIOD_CAPTION_RE = re.compile(
    r"^(?:for\s+the\s+|as\s+of\s*/\s*)?(?:(?:fiscal\s+)?(?:years?|quarters?|"
    r"(?:three|six|nine|twelve)\s+months|\d\d\s+weeks)\s+ended\s+(?:[a-z]+\.?\s+\d{1,2},?\s+)?|"
    r"(?:(?:as\s+of|at)\s+)?[a-z]+\.?\s+\d{1,2},?\s+|fiscal\s+(?:year\s+)?)?"
    r"(?:19|20)\d{2}:?$", re.IGNORECASE)
# a column heading that names a measure, then its period: "Revenue 2024", "Op. inc. Q2 FY2023"
# (groups "what" and "when"; the measure has a lowercase letter, so "FY 2024" is no measure)
NAME_THEN_PERIOD_RE = re.compile(r"^(?P<what>.*?[a-z].*?)\s+(?P<when>(?:Q[1-4]\s*)?"
                                 r"(?:FY\s?|Fiscal )?(?:19|20)\d{2})$")
# the words of a period in a lowercased heading ("q2", "fy", "fiscal", "year", a number):
# what is left without them names a measure
PERIOD_WORD_RE = re.compile(r"\b(?:q[1-4]|fy|fiscal|year|\d+)\b")
# the words that open a column's heading before its year ("FISCAL 2020", "Year ended ..."):
# where the words a stacked header prints under the heading before it end
PERIOD_HEADING_WORDS_RE = re.compile(
    r"\b(?:fiscal|years?|quarters?|months|weeks|ended|fy)\b", re.IGNORECASE)
# a column as the statement reader names it after the name heading it: "Corporate three
# months 2021", "CCB 2022" (groups "name" and "period": a duration in words, then a year)
NAME_THEN_DURATION_RE = re.compile(r"^(?P<name>.*?[^\W\d_].*?) (?P<period>(?:(?:three|six|nine) "
                                   r"months )?(?:19|20)\d{2})$")
# where the name of a definition's term ends and its period begins: a preposition ("revenue
# for 2019"), "fy" ("capex fy19") or a digit
PERIOD_OPENING_RE = re.compile(r"\b(?:for|of|in|at|on|during|from|over|between|fy)\b|\d")
# where a phrase names its period after the thing it measures: "operating income in Q3 FY2023",
# "net sales for the six months ended", "revenue in fiscal 2019" (not "cost of sales")
PERIOD_AFTER_RE = re.compile(
    r"\b(?:in|for|during|over)\s+(?:the\s+)?(?:(?:\w+\s+){0,2}(?:weeks?|months?|quarters?|"
    r"years?|fiscal|period)\b|q[1-4]\b|fy\s?\d|(?:first|second|third|fourth)\b)|"
    # a balance's date: "at the end of FY2022", "as of January 31, 2022"
    r"\b(?:at|by)\s+(?:the\s+)?end\s+of\b|\bas\s+of\s+(?:the\s+)?(?:end|\w+\s+\d|fy|fiscal|"
    r"(?:19|20)\d\d)", re.IGNORECASE)
# the year a question names right after a measure, before what qualifies it ("revenue in
# fiscal 2020 on a constant currency basis", "net sales for q2 2023 excluding currency"), in
# lower case as the vocabulary normalizes a question
YEAR_AFTER_TERM_RE = re.compile(
    r"^\s+(?:in|for|during|over)\s+(?:the\s+)?(?:(?:first|second|third|fourth)\s+quarter\s+"
    r"(?:of\s+)?|q[1-4]\s+(?:of\s+)?)?(?:fiscal\s+(?:year\s+)?|fy\s?)?(?:19|20)\d\d\b")
# the period a definition writes after one of its terms ("net sales for the three months ended
# June 30, 2023", "total equity at the end of fy2022", "operating income, for fy2021"), in
# lower case with a fiscal year as "fy2022" (metric_questions reads the year it names); the
# date as a period's end writes it (:data:`_PERIOD_END_RE`)
TERM_PERIOD_RE = re.compile(
    r"(?:,\s*)?\b(?:both\s+|all\s+)?(?:for|at|as\s+of|in|during)\s+(?:the\s+)?(?:end\s+of\s+)?"
    r"(?:fy\s*(?P<fy>(?:19|20)\d\d)|(?:(?:three|six|nine|twelve)\s+months|(?:fiscal\s+)?year|"
    r"quarter)\s+(?P<ended>ended\s+\w+\s+\d{1,2},?\s+(?:19|20)\d\d))\b", re.IGNORECASE)


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


# a quarter asked by its span, never a maturity ("three months or less") or a rate's tenor:
# "the three months ended April 30, 2023", "the first three months of 2023", "13 weeks ended"
ASKED_QUARTER_SPAN_RE = re.compile(
    r"\b(?:the|first|last|latest|most\s+recent)\s+(?:three|3)\s+months\s+(?:ended|ending|of)\b|"
    r"\b(?:1[234]|twelve|thirteen|fourteen)\s+weeks\s+ended\b|"
    r"\b(?:the|first|second|third|fourth|latest)\s+quarter\s+ended\b|"
    r"\b(?:first|second|third|fourth)-quarter\b", re.IGNORECASE)
# a half or nine months asked by its weeks, as retailers count them: "24 weeks ended"
ASKED_WEEKS_RE = {
    6: re.compile(r"\b(?:2[4-7]|twenty-(?:four|six|seven))\s+weeks\s+ended\b", re.IGNORECASE),
    9: re.compile(r"\b(?:36|39|40|thirty-six|thirty-nine|forty)\s+weeks\s+ended\b",
                  re.IGNORECASE),
}


# a count in words, as questions and filings write spans ("the next five years", "over the last
# three years")
NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15,
                "twenty": 20}
# the span ahead a plan or an outlook covers: "over the next five years", "the next 10 years"
# (Item 303(b)(1)(ii)'s known commitments for capital expenditures, a release's long-term targets)
HORIZON_RE = re.compile(r"\bnext\s+(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|"
                        r"fifteen|twenty)\s+(?:fiscal\s+)?years\b", re.IGNORECASE)


def horizons(text: str) -> list[int]:
    """The spans ahead, in years, a text names ("the next five years": 5), in order."""
    return [int(w) if w.isdigit() else NUMBER_WORDS[w.lower()]
            for w in HORIZON_RE.findall(text)]


def dates_named(text: str) -> list[str]:
    """The dates a text prints ("August 9, 2023"), in order, its spaces normalized."""
    return [" ".join(m.group(0).split()) for m in PRINTED_DATE_RE.finditer(text)]


# a date that names a document, not a period's end or a balance's: "its 8-K dated May 20, 2022"
_DOCUMENT_DATE_BEFORE_RE = re.compile(r"\b(?:dated|filed|released|issued|published|reported|"
                                      r"announced)\b[^,.;]{0,30}?\s+(?:on\s+)?$|\b(?:in|per)\s+"
                                      r"its\s+$", re.IGNORECASE)


def same_year_dates(text: str) -> bool:
    """Whether ``text`` writes two different period or balance dates of one year ("from
    January 29, 2022 to October 29, 2022": a fiscal year's end and a quarter's), a date that
    names a document ("dated", "filed") aside. A statement's columns are told apart by their
    years, so two such dates are two columns one year cannot name."""
    years: dict[str, str] = {}
    for match in PRINTED_DATE_RE.finditer(text):
        if _DOCUMENT_DATE_BEFORE_RE.search(text[max(0, match.start() - 48):match.start()]):
            continue
        date = " ".join(match.group(0).lower().split())
        if years.setdefault(date[-4:], date) != date:
            return True
    return False


# a comparison of two years' results ("in the current year compared to ... the prior year") or
# two quarters' ("in the current quarter compared to ... the prior year quarter"): MGM's release
# prints both of a segment, one after the other
_YEARS_COMPARED_RE = re.compile(r"\bcurrent\s+year\b(?!['’]s\b|\s+quarter)", re.IGNORECASE)
_QUARTERS_COMPARED_RE = re.compile(r"\bcurrent\s+quarter\b|\bprior\s+year\s+quarter\b",
                                   re.IGNORECASE)


def results_compared(text: str) -> int | None:
    """The length in months of the periods a sentence compares by name ("the current quarter
    ... the prior year quarter": 3; "the current year ... the prior year": 12), or None."""
    if _QUARTERS_COMPARED_RE.search(text):
        return 3
    return MONTHS_PER_YEAR if _YEARS_COMPARED_RE.search(text) else None


# the occasion a question dates the event by, no part of the event: "when it reported
# fourth-quarter 2022 results", "with its Q2 2023 results"
_OCCASION_RE = re.compile(r",?\s+(?:when|as|after)\s+(?:it|they|the\s+company)\s+(?:reported|"
                             r"announced|released|published)\b[^,]*|\s+(?:with|in)\s+(?:its|their)"
                             r"\s+(?:(?:first|second|third|fourth|q[1-4]|full|fiscal|[\d-]+|year|"
                             r"quarter|annual|quarterly)[\s-]+)+results\b[^,]*", re.I)


def without_occasion(text: str) -> str:
    """A question without the occasion it dates its event by (:data:`_OCCASION_RE`)."""
    return _OCCASION_RE.sub("", text)


def heading_months(heading: str) -> int:
    """The length of the period a column heading names: :func:`months_asked`'s, a quarter's
    "three months 2022" read as 3."""
    months = months_asked(heading)
    return 3 if months == MONTHS_PER_YEAR and THREE_MONTHS_HEADING_RE.search(heading) else months


def months_asked(text: str) -> int:
    """The length of the period a text asks about: 3 for a quarter, 6 for a half, 9 for nine
    months, the year to date through a quarter named (6 through Q2), else 12 (a fiscal
    year)."""
    if YEAR_TO_DATE_RE.search(text) and (named := quarters_named(text)):
        return 3 * named[0][0]
    if HALF_YEAR_RE.search(text) or ASKED_WEEKS_RE[6].search(text):
        return 6
    if NINE_MONTHS_RE.search(text) or ASKED_WEEKS_RE[9].search(text):
        return 9
    return 3 if quarters_named(text) or ASKED_QUARTER_SPAN_RE.search(text) else 12


# a release's own words for the period a sentence is of: "in the current quarter compared to
# ... in the prior year quarter", "in the current year compared to ... in the prior year"
CURRENT_QUARTER_RE = re.compile(r"\b(?:current|prior[- ]year|this|same)\s+quarter\b",
                                re.IGNORECASE)
CURRENT_YEAR_RE = re.compile(r"\b(?:current|full|this)\s+year\b(?![- ]+(?:quarter|"
                             r"period|to[- ]date))", re.IGNORECASE)  # "the prior year" is any base


# what happened in a month, a month and year with no day ("issued in April 2020"), never a
# fiscal year named by the month it ends in ("the fiscal year ending in August 2021")
MONTH_EVENT_RE = re.compile(rf"(?<!ending )(?<!ended )(?<!ends )\b(?:in|during) {MONTH_RE.pattern} "
                            r"(?:of )?(?:19|20)\d\d\b", re.IGNORECASE)


def month_event(text: str) -> bool:
    """Whether a question asks what happened in a month (:data:`MONTH_EVENT_RE`)."""
    return MONTH_EVENT_RE.search(text) is not None


def stated_length(text: str) -> int | None:
    """The length a sentence says its period is in a release's own words ("the current
    quarter": 3, "the current year": 12), or None when it says neither or both."""
    quarter, year = CURRENT_QUARTER_RE.search(text), CURRENT_YEAR_RE.search(text)
    return None if bool(quarter) == bool(year) else 3 if quarter else 12


def without_quarters(text: str) -> str:
    """``text`` with each quarter named with its year reduced to the year."""
    for pattern in QUARTER_RES:
        text = pattern.sub(lambda m: f" {m['y']} ", text)
    return text


def quarter_or_three_months_re(quarter: str) -> re.Pattern[str]:
    """A column heading of ``quarter`` ("Q2"): the quarter, or its three months ("three months
    2021")."""
    return re.compile(rf"\b{quarter}\b|\b(?:3|three) months\b", re.IGNORECASE)


def quarter_label_re(quarter: str) -> re.Pattern[str]:
    """A table row's label naming the quarter ``quarter`` ("Q2"): "Second quarter", "Q2" (the
    rows of Item 703's table of issuer purchases)."""
    word = QUARTER_WORDS[int(quarter[-1]) - 1]
    return re.compile(rf"^\s*(?:{word}\s+(?:fiscal\s+)?quarter|{quarter})\b", re.IGNORECASE)


# the quarterly data Item 302 of Regulation S-K asked a 10-K for ("NOTE 18. QUARTERLY DATA
# (UNAUDITED)", General Mills 2015): a year's four quarters side by side
QUARTERLY_DATA_RE = re.compile(r"\bquarterly\s+(?:data|financial|results|information)\b",
                               re.IGNORECASE)
# how a year's dividend declared at once is paid: "the annual dividend was or will be paid in
# four quarterly installments of $0.57 per share" (Walmart's 10-Q for Q1 fiscal 2024)
INSTALLMENTS_RE = re.compile(r"\b(?P<count>four|two|three|\d)\s+(?:equal\s+)?quarterly\s+"
                             r"installments\s+of\s+\$\s?(?P<each>\d+(?:\.\d+)?)\s+per\s+"
                             r"(?:common\s+)?share\b", re.IGNORECASE)


def figure_in_period_re(period: str) -> re.Pattern[str]:
    """A figure running text gives for ``period`` ("$1.2 billion in fiscal 2022", "12% for Q2
    2023"), the figure as group "fig"."""
    return re.compile(
        r"(?P<fig>[$€£]?\s?\d[\d,]*(?:\.\d+)?%?(?: (?:million|billion|thousand))?)"
        rf" (?:in|for|during|at the end of|at) (?:fiscal |the )?(?:year )?{re.escape(period)}\b",
        re.IGNORECASE)


# what "higher than" / "lower than" is followed by when it states a change over time: another
# period ("than a year ago", "than the prior year", "than in the first six months of 2022"),
# not another measure ("than the U.S. statutory rate")
_PERIOD_COMPARED_RE = re.compile(
    r"(?:in\s+|during\s+|for\s+|at\s+)?(?:(?:the|our|its|a|an|that\s+of)\s+)?(?:prior|previous|"
    r"last|same|comparable|corresponding|fiscal|first|second|third|fourth|three|six|nine|twelve|"
    r"(?:19|20)\d\d|year|quarter|period|month)\b", re.IGNORECASE)


def names_a_period(text: str) -> bool:
    """Whether ``text`` opens with a period a figure is compared with."""
    return _PERIOD_COMPARED_RE.match(text) is not None


# two period lengths listed for figures listed after them: "During the three and six months
# ended June 30, 2023, the Company repurchased 1,849,324 and 3,071,380 shares, respectively"
_LISTED_MONTHS_RE = re.compile(r"\b(three|six|nine|twelve) and (three|six|nine|twelve)\s+months\b",
                               re.IGNORECASE)
_MONTH_WORDS = {"three": 3, "six": 6, "nine": 9, "twelve": 12}


def listed_months(text: str) -> list[int] | None:
    """The two period lengths (in months) ``text`` lists in one phrase, in order, or None."""
    match = _LISTED_MONTHS_RE.search(text)
    if match is None:
        return None
    return [_MONTH_WORDS[match[1].lower()], _MONTH_WORDS[match[2].lower()]]


# the date a period ends on, as a question writes it: "(three months ended April 30, 2023)",
# "52 weeks ended January 28, 2023"
_PERIOD_END_RE = re.compile(
    r"\b(?:ended|ending)\s+(?:on\s+)?(?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december)\s+\d{1,2},?\s+(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE)


# a period's end date in parentheses after the period's fiscal name: "Q1 fiscal 2024 (three
# months ended April 30, 2023)", "fiscal 2022 (year ended January 28, 2023)"
RESTATED_END_RE = re.compile(rf"\([^()]*?{_PERIOD_END_RE.pattern}[^()]*\)", re.IGNORECASE)


def period_end_years(text: str) -> list[int]:
    """The years of the period-end dates ``text`` writes, in order: the year a statement's
    column prints for that period, whatever fiscal year a company calls it (Walmart's "Q1
    fiscal 2024" is the three months ended April 30, 2023)."""
    return [int(m["year"]) for m in _PERIOD_END_RE.finditer(text)]


# "$8.6 billion in fiscal 2021", "$650.0 million in the fourth quarter of fiscal 2021": an amount
# a filing's prose gives for a period it calls by its fiscal name
_AMOUNT_IN_FISCAL_RE = re.compile(
    rf"{MONEY}[^.$]{{0,40}}?\bin\s+(?:the\s+(?P<quarter>first|second|third|fourth)\s+quarter"
    r"\s+of\s+)?fiscal\s+(?:year\s+)?(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)


# a filing's own definition of its fiscal-year names: 'the fiscal year ending January 31, 2024
# ("fiscal 2024")', 'fiscal year ending January 28, 2023 ("fiscal 2022")'
_FISCAL_YEAR_DEFINED_RE = re.compile(
    rf"fiscal\s+years?\s+end(?:s|ing|ed)\s+(?:on\s+)?(?P<month>{MONTH_RE.pattern})\s+\d{{1,2}},?\s+"
    r"(?P<year>(?:19|20)\d\d)\s*\(\s*(?:the\s+)?[\"\u201c\u201d]?\s*fiscal\s+(?:year\s+)?"
    r"(?P<name>(?:19|20)\d\d)\b", re.IGNORECASE)
MONTH_NUMBERS = {m: i for i, m in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"), start=1)}


class FiscalYearEnd(NamedTuple):
    """How a filing names its fiscal years: the month they end in, and the calendar year of
    that end less the name (0: fiscal 2024 ends in 2024; 1: fiscal 2022 ends in 2023)."""

    month: int
    gap: int


def fiscal_year_defined(text: str) -> FiscalYearEnd | None:
    """The fiscal-year naming ``text`` defines in words, when every definition it prints
    agrees; None when it defines none (or two that disagree)."""
    found = {FiscalYearEnd(MONTH_NUMBERS[m["month"].lower()], int(m["year"]) - int(m["name"]))
             for m in _FISCAL_YEAR_DEFINED_RE.finditer(text)}
    return found.pop() if len(found) == 1 else None


class NamedAmount(NamedTuple):
    """An amount the prose gives for a fiscal period, with the rounding it was printed to."""

    value: float
    tolerance: float
    fiscal_name: int
    months: int


def amounts_by_fiscal_name(text: str) -> list[NamedAmount]:
    """The amounts ``text`` gives "in fiscal N" (a year) or "in the fourth quarter of fiscal N"
    (a quarter), each with half a unit of its last printed digit as its tolerance."""
    out = []
    for m in _AMOUNT_IN_FISCAL_RE.finditer(text):
        scale = SCALE_WORDS.get((m["scale"] or "").lower(), 1.0)
        decimals = len(m["n"].partition(".")[2])
        value = float(m["n"].replace(",", "")) * scale
        out.append(NamedAmount(value, 0.5 * 10 ** -decimals * scale, int(m["year"]),
                               3 if m["quarter"] else 12))
    return out


def without_period_lead(text: str) -> str:
    """``text`` without the period it opens with ("For fiscal 2018, the decrease was" -> "the
    decrease was"): what a sentence says is read after it."""
    return PERIOD_LEAD_RE.sub("", text, count=1)


# the period a sentence opens with, which dates the event it states ("In the fourth quarter of
# fiscal 2014, we sold ..."; group 1 the year); a calendar date opening it is another matter
OPENING_PERIOD_RE = re.compile(r"(?:in|during)\s+(?:the\s+)?(?:(?:first|second|third|fourth)\s+"
                               r"(?:fiscal\s+)?quarter\s+of\s+)?(?:fiscal\s+(?:year\s+)?)?"
                               r"((?:19|20)\d{2})\b", re.IGNORECASE)
# a duration a caption prints before its date: "Fiscal Year Ended", "Three Months Ended"
DURATION_ENDED_RE = re.compile(r"(?:fiscal\s+)?(?:years?|quarters?|(?:three|six|nine|twelve)\s+"
                               r"months|\d\d\s+weeks)\s+ended\b", re.IGNORECASE)
MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august",
               "september", "october", "november", "december")
_MONTH_NAME = "|".join(MONTH_NAMES)
# Form 10-Q's cover: "For the quarterly period ended June 30, 2023" (groups: month, year)
QUARTERLY_PERIOD_END_RE = re.compile(rf"\bfor the quarterly period ended\s+({_MONTH_NAME})\s+"
                                     r"\d{1,2},?\s+((?:19|20)\d{2})\b", re.IGNORECASE)
# a date a sentence states an event on: "On May 15, 2023", "In May 2023" (groups: month, year)
EVENT_DATE_RE = re.compile(rf"\b(?:on|in)\s+({_MONTH_NAME})\s+(?:\d{{1,2}},?\s+)?"
                           r"((?:19|20)\d{2})\b", re.IGNORECASE)


# a date as a table's column heads it, its month maybe cut short: "Dec. 31, 2022", "June 25,
# 2023", "Sept. 30, 2023"
COLUMN_DATE_RE = re.compile(rf"\b(?P<month>{'|'.join(m[:3] for m in MONTH_NAMES)})"
                            r"[a-z]*\.?\s+(?P<day>\d{1,2}),\s+(?P<year>(?:19|20)\d{2})\b",
                            re.IGNORECASE)
# the words of a period or a date, never of a measure's ("Third quarter", "Six months ended June
# 30", "Fiscal 2022"), by their first five letters, and those too short for five
PERIOD_ROOTS = frozenset({"quart", "first", "secon", "third", "fourt", "fisca", "month", "ended",
                          "endin", "twelv", "calen", "annua", "perio",
                          *(m[:5] for m in MONTH_NAMES if len(m) >= 5)})
SHORT_PERIOD_WORDS = frozenset({"one", "two", "three", "four", "six", "nine", "half", "year",
                                "week", "day", *(m for m in MONTH_NAMES if len(m) < 5)})


def calendar_dates(text: str) -> list[tuple[int, int, int]]:
    """The dates a text prints, full or with the month cut short, as (year, month, day), in
    order: "Dec. 31, 2022" and "December 31, 2022" are one date."""
    return [(int(m["year"]), [n[:3] for n in MONTH_NAMES].index(m["month"].lower()) + 1,
             int(m["day"])) for m in COLUMN_DATE_RE.finditer(text)]


def is_period_word(word: str) -> bool:
    """Whether a word (lower case, as the quote scorer's ``words`` gives it) is a period's or a
    date's, never a measure's: a number, a period word or a month."""
    return word.isdigit() or word[:5] in PERIOD_ROOTS or word in SHORT_PERIOD_WORDS


def month_number(name: str) -> int:
    """A month's number from its name ("May" -> 5)."""
    return MONTH_NAMES.index(name.lower()) + 1


def quarter_end(texts: Iterable[str]) -> tuple[int, int] | None:
    """(year, month) a 10-Q's quarter ends, from its cover (the first text that prints it)."""
    for text in texts:
        if (found := QUARTERLY_PERIOD_END_RE.search(" ".join(text.split()))) is not None:
            return int(found[2]), month_number(found[1])
    return None


def in_quarter(date: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether (year, month) is one of the three months ending at ``end``."""
    months = (end[0] * 12 + end[1]) - (date[0] * 12 + date[1])
    return 0 <= months <= 2


# where a table's title ends and its period header begins: "United States and Canada (UCAN)
# As of/ Year Ended December 31, 2020 ..." (Netflix's table per region)
HEADER_AFTER_TITLE_RE = re.compile(
    r"\s+(?:as\s+of\b|for\s+the\b|(?:fiscal\s+)?years?\s+ended\b|"
    r"(?:three|six|nine|twelve)\s+months\b|\(in\s|(?:19|20)\d{2}\b)", re.IGNORECASE)
# what leads a table's title into its period: "As of or for the Three Months Ended June 30,
# 2023" (American Water's segment tables) read as the caption "Three Months Ended June 30, 2023"
PERIOD_TITLE_LEAD_RE = re.compile(r"^(?:as\s+of\s+(?:or|and)\s+)?for\s+the\s+", re.IGNORECASE)


def durations_over(header: str, width: int) -> list[int | None]:
    """Each of ``width`` columns' length as a header prints its durations over them, in print
    order and splitting them evenly ("Thirteen weeks ended Thirty-nine weeks ended" over four
    columns: 3, 3, 9, 9); None for every column where it names none or they do not split."""
    found = sorted((m.start(), months) for p, months in DURATIONS for m in p.finditer(header))
    if not found or width % len(found):
        return [None] * width
    return [found[i * len(found) // width][1] for i in range(width)]


# the month a duration ends in, as a header prints it: "Three Months Ended December 31,"
_ENDED_MONTH_RE = re.compile(rf"\bended\s+(?P<month>{MONTH_RE.pattern})", re.IGNORECASE)


def ended_quarter(header: str) -> int | None:
    """The calendar quarter of the month a header's period ends in (December: 4), when it
    names one month only; None otherwise."""
    months = {m["month"].lower() for m in _ENDED_MONTH_RE.finditer(header)}
    return (month_number(months.pop()) - 1) // 3 + 1 if len(months) == 1 else None


def column_of_months(heading: str, months: int) -> bool:
    """Whether a column heading is of the months asked: a full year's names no part of one,
    a part's names its length ("three months 2023", "Q2", "six months")."""
    if months >= MONTHS_PER_YEAR:
        return not PART_OF_YEAR_RE.search(heading)
    return heading_months(heading) == months
