"""The kinds of filing: how a question names one, how a cover prints one, how a document's id
writes one. The one table of filing kinds.

Source: the SEC form names (10-K annual report, 10-Q quarterly report, 8-K current report,
20-F a foreign private issuer's annual report) as their covers print them ("FORM 10-K",
"ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)"), the press release a company's earnings are
announced in, and the EU's acts as the Official Journal titles them. A filing is ingested as
"<company>-<kind>[-q<N>|-<date>]" (jpmorgan-10q-q1, foot-locker-8k-2022-05-20,
mgm-resorts-earnings-q4), so several filings of one company in one year stay distinct documents.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import NamedTuple

from rag_assets.core.text.periods import MONTH_NUMBERS, PRINTED_DATE_RE, unglued
from rag_assets.core.text.years import YEAR_RE, year_of, years_in


class FilingKind(NamedTuple):
    """One kind: its word in a document id, its name, and the patterns that name it."""

    id_words: frozenset[str]  # a document id with one of these words is of the kind
    form: str  # how a chunk header names it ("10-K")
    asked: re.Pattern[str] | None  # how a question names it
    cover: re.Pattern[str]  # how its cover prints it


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# in the order a cover is read: the first kind whose pattern the cover prints
FILING_KINDS: tuple[FilingKind, ...] = (
    FilingKind(frozenset({"10k"}), "10-K", _words(r"\b10-?k\b|\bannual report\b"),
               _words(r"\bFORM\s+10-K\b|\bANNUAL REPORT PURSUANT TO SECTION 13")),
    FilingKind(frozenset({"10q"}), "10-Q", _words(r"\b10-?q\b|\bquarterly report\b"),
               _words(r"\bFORM\s+10-Q\b|\bQUARTERLY REPORT PURSUANT TO SECTION 13")),
    FilingKind(frozenset({"20f"}), "20-F", None, _words(r"\bFORM\s+20-F\b")),
    FilingKind(frozenset({"8k"}), "8-K", _words(r"\b8-?k\b|\bcurrent report\b"),
               _words(r"\bFORM\s+8-K\b|\bCURRENT REPORT\s+PURSUANT TO SECTION 13")),
    FilingKind(frozenset(), "EU regulation", None, _words(r"\bREGULATION\s+\((?:EU|EC)\)")),
    FilingKind(frozenset(), "EU directive", None, _words(r"\bDIRECTIVE\s+\((?:EU|EC)\)")),
    FilingKind(frozenset({"earnings", "release"}), "earnings release",
               _words(r"\bearnings (?:release|report)\b|\bpress release\b"),
               _words(r"\b(?:earnings|press)\s+release\b")),
    FilingKind(frozenset({"annualreport"}), "annual report", None, _words(r"\bannual\s+report\b")),
)
# the words of a document id that say what kind of document it is, not whose
GENERIC_ID_WORDS = frozenset({"10k", "10q", "8k", "20f", "annual", "report", "annualreport",
                              "paper", "earnings", "release", "filing"})
# a document id's words that date it rather than name it: a quarter, a half, a year, a day
PERIOD_ID_WORD_RE = re.compile(r"(?:q[1-4]|h[12]|fy\d{2,4}|\d+)", re.IGNORECASE)
_QUARTER_ID_WORD_RE = re.compile(r"q[1-4]", re.IGNORECASE)


def document_quarters(document: str) -> set[str]:
    """The quarters a document id names ("jpmorgan-10q-q3": {"q3"}), lower case."""
    return {w.lower() for w in re.split(r"[-_]", document) if _QUARTER_ID_WORD_RE.fullmatch(w)}


# how FinanceBench names a filing: COMPANY_YEAR[Qn]_TYPE[_dated-YYYY-MM-DD]; what tells two
# filings of one company, kind and year apart is the quarter of a 10-Q or an earnings release
# (``JPMORGAN_2021Q1_10Q``) or the date of an 8-K (``FOOTLOCKER_2022_8K_dated-2022-05-20``)
FINANCEBENCH_NAME_RE = re.compile(
    r"^(?P<company>.+?)_(?P<period>(?:19|20)\d\d)(?:Q\d)?_(?P<type>[A-Z0-9]+)"
    r"(?:_dated[-_]\d{4}-\d{2}-\d{2})?$",
    re.IGNORECASE,
)
QUARTER_NAME_RE = re.compile(r"_(?:19|20)\d\d(?P<quarter>Q[1-4])_", re.IGNORECASE)
DATED_NAME_RE = re.compile(r"_dated[-_](?P<date>\d{4}-\d{2}-\d{2})$", re.IGNORECASE)
# what may stand between a year and the filing it names: "2020 10-K", "2020 Form 10-K"
FORM_WORD_RE = re.compile(r"\s+(?:form\s+)?", re.IGNORECASE)
# lines of a cover's form, never a registrant: "FORM 10-K", "(Mark One)", "TRANSITION REPORT",
# "For the fiscal year ended"
COVER_BOILERPLATE_RE = re.compile(
    r"\bFORM\s+\d|\bREPORT\s+PURSUANT\b|\bSECURITIES\s+AND\s+EXCHANGE\b|\bMark\s+One\b|"
    r"\bTRANSITION\s+(?:REPORT|PERIOD)\b|\b(?:fiscal\s+year|quarterly\s+period)\s+ended\b",
    re.IGNORECASE)
# a running head whose number is the page's, not a figure ("Third Quarter 2022 Form 10-Q Page
# 2": Foot Locker): it ends in "Page" or the form
FORM_OR_PAGE_AT_END_RE = re.compile(r"\b(?:page|form\s+10-[kq])\s*$", re.I)
# how a 10-K's Item 16 title starts (alternatives of a heading's start)
FORM_10K_SUMMARY_TITLE = "form 10-k summary|form 10k summary"
# a 10-Q's Part heading: "PART I. FINANCIAL INFORMATION", "Part II — Other Information" (groups
# "part" and "rest"); its rest, lowercased, opens with :data:`QUARTERLY_PART_TITLE_RE` or is
# empty
QUARTERLY_PART_RE = re.compile(
    r"^\s*part\s+(?P<part>ii|i|2|1)\b\s*[.:,—–-]?\s*(?P<rest>.*)$", re.IGNORECASE)
QUARTERLY_PART_TITLE_RE = re.compile(r"(?:—|–|-)?\s*(?:financial|other)\s+information\b")


def id_words(document: str) -> set[str]:
    """The words of a document's id: its kind ("10q") and quarter ("q2") among them."""
    return set(re.split(r"[-_\s|]+", document.lower()))


_ID_DATE_RE = re.compile(r"(?<!\d)(?P<y>(?:19|20)\d\d)[-_](?P<m>\d\d)[-_](?P<d>\d\d)(?!\d)")
# Form 8-K General Instruction B.1: a report is filed within four business days of its event,
# so an 8-K is dated on its event's day or at most six calendar days after (a weekend between)
REPORT_DAYS_AFTER_EVENT = 6


def id_date(document: str) -> date | None:
    """The date a document's id writes ("foot-locker-8k-2022-05-20"), or None."""
    match = _ID_DATE_RE.search(document)
    try:
        return date(int(match["y"]), int(match["m"]), int(match["d"])) if match else None
    except ValueError:
        return None


# a date written as a period's end that has passed: "the quarter ended October 29, 2022", "as of
# June 30, 2023", "between October 30, 2021 and October 29, 2022" (a change over the period the
# two bound); never "ending" or "through", which may look ahead (guidance "for the fiscal year
# ending January 28, 2023" is given in a report filed before that day)
PERIOD_END_BEFORE_RE = re.compile(r"\b(?:ended|as\s+of|at)\s+$|\b(?:between|from)"
                                  r"\s+[A-Z][a-z]+\.?\s+\d{1,2},\s+\d{4}\s+(?:and|to)\s+$",
                                  re.IGNORECASE)


def _dates_written(text: str, period_ends: bool = False) -> list[date]:
    """The dates a question writes; with ``period_ends``, only those written as a period's end
    (:data:`PERIOD_END_BEFORE_RE`)."""
    out = []
    for match in PRINTED_DATE_RE.finditer(text):
        if period_ends and not PERIOD_END_BEFORE_RE.search(text[:match.start()]):
            continue
        month, day, year = match.group(0).replace(",", " ").split()
        try:
            out.append(date(int(year), MONTH_NUMBERS[month.lower()], int(day)))
        except ValueError:
            continue
    return out


def dated_filings(text: str, documents: Sequence[str]) -> list[str]:
    """Of several dated filings (a company's 8-Ks), those a date the question writes names:
    the one dated that day, else one dated within the days Form 8-K allows after an event of
    that day ("the May 18, 2022 annual meeting" is reported by the 8-K of May 20). Without
    such a filing, those dated before the end of a period the question asks are dropped
    (:func:`_after_period_ends`). Undated filings are kept; all are kept when no date names
    one."""
    dated = {d: when for d in documents if (when := id_date(d)) is not None}
    asked = _dates_written(text)
    if not dated or not asked:
        return list(documents)
    near: set[str] = set()
    if len(set(dated.values())) >= 2:
        for day in asked:  # each date its own report: that day's, else the one filed after it
            exact = {d for d, when in dated.items() if when == day}
            near |= exact or {d for d, when in dated.items()
                              if 0 <= (when - day).days <= REPORT_DAYS_AFTER_EVENT}
    if near:
        return [d for d in documents if d not in dated or d in near]
    return _after_period_ends(text, documents, dated)


def _after_period_ends(text: str, documents: Sequence[str], dated: dict[str, date]
                       ) -> list[str]:
    """The documents but those dated before a period the question asks had ended: a report
    cannot state a period that had not closed (an 8-K of August 19, 2022 reports nothing of
    the quarter ended October 29, 2022; the 10-Q does). All of them when that would leave
    only dated ones or drop none."""
    ends = _dates_written(text, period_ends=True)
    if not ends:
        return list(documents)
    later = [d for d in documents if d not in dated or dated[d] >= min(ends)]
    return later if len(later) < len(documents) and any(d not in dated for d in later) \
        else list(documents)


def kinds_asked(text: str) -> set[str]:
    """The kinds a question names, as a document id writes them ("10k", "earnings")."""
    return {word for kind in FILING_KINDS if kind.asked and kind.asked.search(text)
            for word in kind.id_words}


def kind_named_at(text: str, at: int) -> bool:
    """Whether a filing kind is named at ``at`` of ``text`` ("10-K" after "2020 ")."""
    gap = FORM_WORD_RE.match(text, at)
    return gap is not None and any(kind.asked.match(text, gap.end()) for kind in FILING_KINDS
                                   if kind.asked)


# a filing named by the period it reports, a date's year in it: "its 10-K for the fiscal year
# ended January 31, 2018", "the Form 10-Q for the quarter ended April 30, 2023"
PERIOD_FILING_RE = re.compile(
    r"\b(?:form\s+)?(?:10-?[KQ]|annual\s+report|quarterly\s+report)\s+for\s+the\s+"
    r"(?:fiscal\s+)?(?:(?P<annual>year)|quarter|period)\s+ended\s+[A-Z][a-z]+\.?\s+\d{1,2},?\s+"
    r"(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)


def without_period_filing(text: str) -> str:
    """A question without a filing it names by its period (:data:`PERIOD_FILING_RE`) when
    that year names only the report to read: the question asks the same period again or a
    later one ("Did Walmart raise its dividend for fiscal 2019, according to its 10-K for the
    fiscal year ended January 31, 2018?" asks of fiscal 2019; "in the first quarter of 2021,
    according to its 10-Q for the quarter ended March 31, 2021" of the one quarter). A
    question that asks an earlier year against it ("how much did net sales grow over 2020?")
    asks the filing's year too, and is returned whole."""
    filed = [int(m["year"]) for m in PERIOD_FILING_RE.finditer(text)]
    rest = PERIOD_FILING_RE.sub(" ", text)
    others = years_in(rest)
    return rest if filed and others and min(others) >= max(filed) else text


def filing_years(text: str) -> list[int]:
    """The years a question writes on a filing ("its 2020 10-K", "the FY2018 annual report",
    "the 2022 earnings release", "its 10-K for the fiscal year ended January 31, 2018"; a
    quarter's end is no fiscal year: "the quarter ended April 30, 2023" is Walmart's Q1 fiscal
    2024), in order of mention: they name the partitions to read,
    whatever other years the question quotes ("invest over 2021-2025, according to its 2020
    10-K" asks the 2020 report for a plan, not the 2021 and 2025 reports)."""
    text = unglued(text)
    return list(dict.fromkeys([*(year_of(m) for m in YEAR_RE.finditer(text)
                                 if kind_named_at(text, m.end())),
                               *(int(m["year"]) for m in PERIOD_FILING_RE.finditer(text)
                                 if m["annual"])]))


def form_of(document: str, cover_text: str) -> str:
    """The form a document is filed as, read from its cover, else from its id."""
    for kind in FILING_KINDS:
        if kind.cover.search(cover_text):
            return kind.form
    words = id_words(document)
    return next((kind.form for kind in FILING_KINDS if kind.id_words & words), "report")


# --- where a question says to look ---------------------------------------------------------------

# "according to", "as set out in", "attached to", "in", "from": what opens a reference to the
# filing the answer is in ("the key agenda of its 8-K" asks of the filing; "was a vote reported
# in the 8-K?" keeps its verb: "reported in" is no opener, only its "in" is)
_REFERENCE_OPENS = (r"(?i:(?:according\s+to|in|per)\s+the\s+(?:press\s+release|release|"
                    r"exhibits?)\s+(?:attached|furnished|filed)\s+(?:to|with)|"
                    r"according\s+to|as\s+(?:set\s+out|described|reported|stated|"
                    r"disclosed|presented|shown|given)\s+in|attached\s+to|in|from|per|within)")
# whose: "the", "its", "their", "the company's", or a name in the possessive ("Costco's",
# "Ulta Beauty's", "3M's")
_REFERENCE_OWNER = (r"(?:(?i:(?:the\s+)?company['’]s|the|its|their)|"
                    r"[A-Z0-9][\w.&-]*(?:\s+[A-Z][\w.&-]*){0,3}['’]s)")
# the filing: a kind as a question names it (:data:`FILING_KINDS`), or a release its period or
# kind names ("its second quarter fiscal 2023 release"; "the gain from the release" is none)
_REFERENCE_FORM = "(?:" + "|".join(k.asked.pattern for k in FILING_KINDS if k.asked) + \
    r"|(?i:(?<=\d{4}\s)release|(?:quarter|year|results|earnings|press|news)\s+release)\b)"
# when it was filed: "dated August 9, 2023", "filed that day", "filed on 2023-08-09"
_REFERENCE_DATED = (r"(?:\s+(?i:dated|filed|issued|released|published)(?:\s+(?i:on))?\s+"
                    r"(?i:that\s+day|[a-z]+\.?\s+\d{1,2},\s+\d{4}|\d{4}-\d\d-\d\d))?")
# what may stand between the owner and the filing: its period and kind, never what is asked
# ("in the United States as of the 8-K" is a place asked, then a reference)
_REFERENCE_WORD = (r"(?:(?i:fiscal|year|fy\s?'?\d{2,4}|q[1-4]|first|second|third|fourth|"
                   r"quarter|annual|quarterly|full[- ]year|most|recent|latest|last|current|"
                   r"form|earnings|press|news)|(?:19|20)\d\d|"
                   # its date: "its August 9, 2023 8-K"
                   r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},)")
FILING_REFERENCE_RE = re.compile(
    rf"(?:,\s*|\s+|^)\b{_REFERENCE_OPENS}\s+{_REFERENCE_OWNER}\s+(?:{_REFERENCE_WORD}\s+){{0,5}}?"
    rf"(?i:{_REFERENCE_FORM}){_REFERENCE_DATED}(?=\s*(?:[,?.;!]|$))")


def filing_references_dropped(text: str) -> str:
    """``text`` without the references that say where to look ("according to Corning's 2020
    10-K", "in its first quarter fiscal 2023 earnings release", "in the press release attached
    to Costco's 8-K dated August 9, 2023"): a reference says which filing to read, which the
    question as asked routes to; ranked, its words find the cover page that prints the form's
    name and date instead of the sentence that answers. A reference that is all the question
    asks of ("What is in its 10-K?"), and so do the references of a question that compares
    filings of two years ("in the 2022 10-K than in the 2021 10-K")."""
    if len(filing_years(text)) > 1:
        return text
    out = text
    while (dropped := FILING_REFERENCE_RE.sub("", out, count=1)) != out:
        out = dropped
    out = re.sub(r"^[\s,;:]+", "", out)
    if out == text or len(re.findall(r"[^\W\d_]{3,}", out)) < 3:
        return text
    return out[:1].upper() + out[1:]
