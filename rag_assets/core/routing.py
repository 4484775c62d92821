"""Routing a question to documents and years before searching.

Across a corpus of many reports, "What did Pfizer earn in 2021?" should be searched in Pfizer's
2021 10-K, not in every page of every report. Document aliases come from the document itself (the
registrant name on a 10-K cover, its ticker, a regulation's short name and number, the document's
own id); years come from the question ("2022", "fiscal 2022", "FY22"). A question that names no
known document searches the whole corpus.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pydantic import BaseModel

# "fiscal 2022", "fiscal year 2022", "FY2022", "FY 2022", "FY22", "FY'22", or a bare 2022;
# not part of a longer number ("$2,018", "2018.5"), an amount, or an EU act's number
# ("Regulation (EU) 2016/679", "Directive 95/46/EC": 2016 is not a year asked about)
YEAR_RE = re.compile(
    r"(?<![\d$.,/])(?:(?:fiscal(?:\s+year)?\s+)?(?P<year>(?:19[5-9]|20\d)\d)(?!\d|[,.]\d|/\d)"
    r"|\bFY\s?'?(?P<fy>\d{4}|\d{2})\b)",
    re.IGNORECASE,
)
REGISTRANT_RE = re.compile(
    r"^\s*(?P<name>[^\n]{2,80}?)\s*\n\s*\(Exact name of registrant", re.IGNORECASE | re.MULTILINE
)
TICKER_RE = re.compile(
    r"(?:Trading\s+Symbol\(s\)|Trading\s+Symbol)[\s\S]{0,400}?\b(?P<ticker>[A-Z]{1,5})\b\s+"
    r"(?:New York Stock Exchange|NYSE|Nasdaq|Chicago Stock Exchange)",
)
COVER_NAME_RE = re.compile(
    r"Commission file number[^\n]*\n\s*(?P<name>[A-Z0-9][A-Z0-9 .,&'-]{1,60})\n"
)
REGULATION_RE = re.compile(
    r"(?P<kind>REGULATION|DIRECTIVE)\s+\((?P<area>EU|EC|EEC)\)\s+(?:No\s+)?(?P<number>\d{2,4}/\d{1,4})",
    re.IGNORECASE,
)
SHORT_NAME_RE = re.compile(
    r"\((?P<name>(?:[A-Z][a-z]+\s+){1,6}(?:Regulation|Directive|Act))\)"
)
TITLE_LINE_RE = re.compile(r"^(?P<name>[A-Z][\w&.,' -]{2,60}?)\s*(?:\||-)\s", re.MULTILINE)
LEGAL_SUFFIX_RE = re.compile(
    r"[\s,]+(?:Inc|Incorporated|Corp|Corporation|Company|Co|Ltd|Limited|plc|PLC|N\.V|S\.A|AG|"
    r"Holdings)\.?$",
    re.IGNORECASE,
)
GENERIC_ID_WORDS = {"10k", "10q", "annual", "report", "paper", "earnings", "release", "filing"}


class DocumentProfile(BaseModel):
    """How a question may name a document."""

    document: str
    year: int
    title: str | None = None
    aliases: list[str]


def years_in(question: str) -> list[int]:
    """Years a question asks about, in order of mention, each once."""
    years: list[int] = []
    for match in YEAR_RE.finditer(question):
        if match.group("year"):
            year = int(match.group("year"))
        else:
            fy = match.group("fy")
            # two digits: FY99 is 1999, FY22 is 2022
            year = int(fy) if len(fy) == 4 else (2000 if int(fy) < 50 else 1900) + int(fy)
        if year not in years:
            years.append(year)
    return years


def _company_aliases(name: str) -> list[str]:
    name = re.sub(r"\s+", " ", name).strip(" .,")
    short = LEGAL_SUFFIX_RE.sub("", name).strip(" .,")
    out = [name, short]
    return [a.title() if a.isupper() and len(a) > 4 else a for a in out]


def _acronym(name: str) -> str:
    return "".join(w[0] for w in name.split() if w[0].isupper())


def profile_from_text(document: str, year: int, first_pages: Sequence[str]) -> DocumentProfile:
    """Aliases from a document's first pages (its cover) and its id."""
    text = "\n".join(first_pages)
    aliases: list[str] = []
    title: str | None = None
    if match := REGISTRANT_RE.search(text) or COVER_NAME_RE.search(text):
        title = match.group("name").strip()
        aliases += _company_aliases(title)
    if match := TICKER_RE.search(text):
        aliases.append(match.group("ticker"))
    if match := REGULATION_RE.search(text):
        number = match.group("number")
        kind = match.group("kind").title()
        aliases += [f"{kind} ({match.group('area').upper()}) {number}", number]
        title = title or f"{kind} ({match.group('area').upper()}) {number}"
    if match := SHORT_NAME_RE.search(text):
        aliases += [match.group("name"), _acronym(match.group("name"))]
    if not title and (match := TITLE_LINE_RE.search(text)):
        title = match.group("name").strip()
        aliases += _company_aliases(title)
    words = [w for w in re.split(r"[-_\s]+", document) if w.lower() not in GENERIC_ID_WORDS]
    if words:
        aliases.append(" ".join(words))
    return DocumentProfile(document=document, year=year, title=title, aliases=_unique(aliases))


def _unique(values: Iterable[str]) -> list[str]:
    """Each alias once, case-insensitively, except beside a capitals-only alias: "GDPR" matches
    only in capitals, so the id "gdpr" is kept to match in any case."""
    out: list[str] = []
    for value in (v.strip() for v in values):
        if len(value) < 2 or any(
            o.lower() == value.lower() and not _case_sensitive(o) for o in out
        ) or value in out:
            continue
        out.append(value)
    return out


def _case_sensitive(alias: str) -> bool:
    """Tickers and acronyms: "PFE" must not match the letters "pfe" inside other text."""
    return alias.isupper() and len(alias) <= 5


def _alias_pattern(alias: str) -> re.Pattern[str]:
    """Whole words; short all-caps aliases (tickers, acronyms) only in capitals."""
    body = r"\s+".join(re.escape(part) for part in alias.split())
    flags = 0 if _case_sensitive(alias) else re.IGNORECASE
    return re.compile(rf"(?<![\w]){body}(?![\w])", flags)


def route(question: str, profiles: Sequence[DocumentProfile]) -> list[str]:
    """Documents the question names (by any alias); empty means the whole corpus."""
    named = {
        p.document
        for p in profiles
        for alias in p.aliases
        if _alias_pattern(alias).search(question)
    }
    return sorted(named)
