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
# the cover's name line(s) just above "(Exact name of registrant ...)": up to five lines, since
# some filings set one word (or one letter) per line (found by str.find, not a regex: a pattern
# of "up to five lines before" backtracks for seconds on a cover that lacks the phrase)
EXACT_NAME = "(exact name of registrant"
REGISTRANT_LINES = 5
# what a cover prints before the name on its line: the file number, a rule of underscores
COVER_PREFIX_RE = re.compile(
    r"^.*(?:_{3,}|(?:Commission\s+File\s+(?:No\.?|Number)\s*:?\s*)?\b\d{1,4}-\d{4,5}\b)\s*",
    re.IGNORECASE,
)
SPLIT_CAPITAL_RE = re.compile(r"\b([A-Z]) ([A-Z]{2,})\b")  # "R ESORTS" set as two pieces
# a company named in the running text: "The Coca-Cola Company", "Acme Widgets, Inc."
NAMED_COMPANY_RE = re.compile(
    r"\b(?P<name>(?:The\s+)?[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,4},?\s+"
    r"(?:Company|Inc\.|Incorporated|Corporation|Corp\.|plc|N\.V\.))"
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
COMMON_SHORT_WORDS = {"THE", "AND", "OF", "FOR", "INC", "CO", "LTD", "PLC", "LLC", "LP"}
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


def registrant_name(cover: str) -> str | None:
    """The registrant's name on a filing's cover, without the file number or the rule printed
    before it; when the cover sets the name as an image (no text), the company the first pages
    name most often."""
    at = cover.lower().find(EXACT_NAME)
    above = cover[:at].split("\n")[-REGISTRANT_LINES - 1:] if at > 0 else []
    match = COVER_NAME_RE.search(cover)
    for found in (above, match.group("name").split("\n") if match else []):
        lines = [line.strip() for line in found if line.strip() and len(line.strip()) <= 80]
        if not lines:
            continue
        joined = " ".join(lines)
        after_prefix = COVER_PREFIX_RE.sub("", joined, count=1).strip(" _")
        if after_prefix != joined:
            name = after_prefix  # what follows the file number or the rule
        else:  # the name is the last line, or the last lines when set a word per line
            name = lines[-1]
            for line in reversed(lines[:-1]):
                if len(name) > 3 or not line.isupper():
                    break
                name = f"{line} {name}"
        name = SPLIT_CAPITAL_RE.sub(r"\1\2", name)
        if _name_like(name):
            return name
    counts: dict[str, int] = {}
    for match in NAMED_COMPANY_RE.finditer(cover):
        name = " ".join(match.group("name").split())
        counts[name] = counts.get(name, 0) + 1
    return max(counts, key=lambda n: (counts[n], len(n))) if counts else None


def _name_like(text: str) -> bool:
    """A company name: a few words with letters, not a sentence and not a file number."""
    letters = sum(ch.isalpha() for ch in text)
    return letters >= 2 and len(text) <= 80 and not re.search(r"\d{3}-\d", text)


def _company_aliases(name: str) -> list[str]:
    name = re.sub(r"\s+", " ", name).strip(" .,")
    short = LEGAL_SUFFIX_RE.sub("", name).strip(" .,")
    return [display_name(name), display_name(short)]


def display_name(name: str) -> str:
    """A cover's capitals as a name is written: "MGM RESORTS INTERNATIONAL" -> "MGM Resorts
    International" (words of up to three letters stay capitals: MGM, 3M, AG)."""
    name = " ".join(name.split()).strip(" .,")
    if not (name.isupper() and len(name) > 4):
        return name
    return " ".join(
        w if len(w.strip(",.")) <= 3 and w.strip(",.") not in COMMON_SHORT_WORDS else w.title()
        for w in name.split()
    )


def _acronym(name: str) -> str:
    return "".join(w[0] for w in name.split() if w[0].isupper())


def profile_from_text(document: str, year: int, first_pages: Sequence[str]) -> DocumentProfile:
    """Aliases from a document's first pages (its cover) and its id."""
    text = "\n".join(first_pages)
    aliases: list[str] = []
    title: str | None = None
    if title := registrant_name(text):
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
    # "Coca-Cola" and "Coca Cola" name the same company
    body = r"[\s-]+".join(re.escape(part) for part in re.split(r"[\s-]+", alias) if part)
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
