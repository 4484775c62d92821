"""How a document is named: its profile, read from its cover (questions are routed with it in
:mod:`rag_assets.core.question.companies`).

Across a corpus of many reports, "What did Pfizer earn in 2021?" should be searched in Pfizer's
2021 10-K, not in every page of every report. Document aliases come from the document itself (the
registrant name on a 10-K cover, its short forms and initials, the trading symbols in its cover's
table, a regulation's short name and number, the document's own id) and from a small table of
what no cover prints (``company_aliases.json``: nicknames, former names, a ticker an older cover
omits); years come from the question ("2022", "fiscal 2022", "FY22"). A question that names no
known document searches the whole corpus; one that names a company no profile knows ("Tesla's
margins" over a corpus without Tesla) is told apart (:func:`unindexed_company`), so the search
can say so instead of answering from another company's pages without a word.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import cache, cached_property, lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from rag_assets.core.ingest.pages import Page
from rag_assets.core.text.filing_kinds import (
    COVER_BOILERPLATE_RE,
    GENERIC_ID_WORDS,
    PERIOD_ID_WORD_RE,
)

ALIASES_PATH = Path(__file__).with_name("company_aliases.json")
# the cover's name line(s) just above "(Exact name of registrant ...)": up to five lines, since
# some filings set one word (or one letter) per line (found by str.find, not a regex: a pattern
# of "up to five lines before" backtracks for seconds on a cover that lacks the phrase)
EXACT_NAME_RE = re.compile(r"\(\s*exact\s+name\s+of\s+(?:the\s+)?registrant", re.IGNORECASE)
REGISTRANT_LINES = 5
# what a cover prints before the name on its line: the file number, a rule of underscores
COVER_PREFIX_RE = re.compile(
    r"^.*(?:_{3,}|(?:Commission\s+File\s+(?:No\.?|Number)\s*:?\s*)?\b\d{1,4}-\d{4,5}\b)\s*",
    re.IGNORECASE,
)
SPLIT_CAPITAL_RE = re.compile(r"\b([A-Z]) ([A-Z]{2,})\b")  # "R ESORTS" set as two pieces
# a legal suffix a cover in capitals runs into the name ("McDONALD'SCORPORATION")
GLUED_SUFFIX_RE = re.compile(r"(?<=[A-Z'’])(CORPORATION|COMPANY|INCORPORATED)\b")
# the small words a company's name may print in lower case ("Bank of America")
NAME_SMALL_WORDS = {"of", "and", "the", "de", "du", "des", "la", "le", "y", "for", "&", "und"}
# a company named in the running text: "The Coca-Cola Company", "Acme Widgets, Inc."
# (words on one line: "... Per Diluted Share\nCompany Raises Outlook" names no company; the verb
# of "DOCUMENTS INCORPORATED BY REFERENCE" is no legal suffix)
NAME_WORDS = r"[a-z]?[A-Z0-9][\w&.'’-]*(?:[ \t]+[A-Z][\w&.'’-]*){0,4},?[ \t]+"
LEGAL_SUFFIX = (r"Company|Inc\.|Incorporated(?![ \t]+(?:by|in|herein)\b)|Corporation|Corp\.|"
                 r"plc|N\.V\.")
# on a cover, set in capitals too ("McDONALD'S CORPORATION")
NAMED_COMPANY_RE = re.compile(
    rf"(?<![\w&.'-])(?P<name>(?:(?:The|THE)[ \t]+)?{NAME_WORDS}(?i:{LEGAL_SUFFIX}))(?![\w-])")
# the company a press release opens with: "MGM Resorts International (NYSE: MGM)"
NAME_BEFORE_SYMBOL_RE = re.compile(
    r"(?<![\w&.'-])(?P<name>[a-z]?[A-Z0-9][\w&.'’-]*(?:,?[ \t]+[A-Z][\w&.'’-]*){0,5})"
    r"[ \t]*\((?:NYSE|NASDAQ|Nasdaq)\s*:\s*[A-Z]{1,5}(?:\.[A-Z])?\)"
)
# names of exchanges and markets, which a cover's Section 12(b) table prints ("Chicago Stock
# Exchange, Inc.", "The Nasdaq Stock Market LLC"): never the registrant
EXCHANGE_NAME_RE = re.compile(r"\b(?:Exchange|Nasdaq|NYSE|Stock\s+Market)\b", re.IGNORECASE)
TICKER_RE = re.compile(
    r"(?:Trading\s+Symbol\(s\)|Trading\s+Symbol)[\s\S]{0,400}?\b(?P<ticker>[A-Z]{1,5})\b\s+"
    r"(?:New York Stock Exchange|NYSE|Nasdaq|Chicago Stock Exchange)",
)
COVER_NAME_RE = re.compile(
    r"(?i:Commission\s+file\s+(?:number|no\.?))[^\n]*\n\s*(?P<name>[A-Z0-9][A-Z0-9 .,&'-]{1,60})\n"
)
# the cover's table of securities registered under Section 12(b): "Common stock KHC The Nasdaq
# Stock Market LLC", "Depositary Shares ... JPM PR D The New York Stock Exchange", "Class B Common
# Stock NKE New York Stock Exchange" (the symbol sits before the exchange, whatever the column
# headings' order); the block ends at Section 12(g)
SECTION_12B_RE = re.compile(r"Section\s+12\s*\(\s*b\s*\)|Trading\s+Symbol", re.IGNORECASE)
SECTION_12G_RE = re.compile(r"Section\s+12\s*\(\s*g\s*\)", re.IGNORECASE)
SECTION_12B_CHARS = 2500
SYMBOL_BEFORE_EXCHANGE_RE = re.compile(
    r"(?<![\w$.,/-])(?P<ticker>[A-Z]{1,5}(?:\.[A-Z])?)(?:\s+PR\s*[A-Z]{0,2})?\s+(?:The\s+)?"
    r"(?:New\s+York\s+Stock\s+Exchange|NYSE\b|Nasdaq|NASDAQ|Chicago\s+Stock\s+Exchange)"
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
    r"Holdings|Group)\.?$",
    re.IGNORECASE,
)
COMMON_SHORT_WORDS = {"THE", "AND", "OF", "FOR", "INC", "CO", "LTD", "PLC", "LLC", "LP"}
INITIALS_SKIP = {"the", "and", "of", "&", "for"}
COVER_PAGES = 2  # a 10-K names its registrant and its symbols on its first page or two
MIN_INITIALS = 3  # "GM" for General Mills would name General Motors as often
MAX_NAME_WORDS = 6  # a longer "name" is a cover line read wrong: no initials from it
EXCHANGE_TICKER_RE = re.compile(
    r"\b(?:NYSE|NASDAQ|Nasdaq)\s*:\s*(?P<name>[A-Z]{1,5}(?:\.[A-Z])?)\b")
class DocumentProfile(BaseModel):
    """How a question may name a document."""

    document: str
    year: int
    title: str | None = None
    aliases: list[str]


class CompanyEntry(BaseModel):
    """One company of ``company_aliases.json``: what no cover prints, with its source."""

    model_config = ConfigDict(extra="forbid")

    names: list[str] = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    tickers: list[str] = Field(default_factory=list)
    source: str = Field(min_length=3)


class AliasTable(BaseModel):
    """``company_aliases.json``, validated: entries and the words no derived alias may be."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    doc: list[str] = Field(alias="_doc", min_length=1)
    companies: list[CompanyEntry]
    word_names: frozenset[str] = Field(default_factory=frozenset, description="one-word names "
                                       "that are also English words: a name only capitalized")
    not_aliases: set[str]

    def entry_for(self, *names: str | None) -> CompanyEntry | None:
        """The first entry whose names include one of ``names`` (the registrant's, else a name
        the profile already has: a cover set as an image leaves the document id's words
        "coca cola"), compared as :func:`name_key`."""
        by_name = self._entries_by_name
        return next((by_name[k] for n in names if n and (k := name_key(n)) in by_name), None)

    @cached_property
    def _entries_by_name(self) -> dict[str, CompanyEntry]:
        """Each name's first entry, by :func:`name_key`: every profile of a corpus asks for its
        entry on every question, a lookup, not a pass over the table."""
        out: dict[str, CompanyEntry] = {}
        for entry in self.companies:
            for name in entry.names:
                out.setdefault(name_key(name), entry)
        return out

    def entry_known_as(self, name: str) -> CompanyEntry | None:
        """The entry with ``name`` among its aliases or tickers, in any case (a document id's
        "amd" is Advanced Micro Devices): for a document whose cover printed no name."""
        key = name_key(name)
        return next((e for e in self.companies
                     if key in {name_key(a) for a in (*e.aliases, *e.tickers)}), None)


@cache
def load_alias_table(path: Path = ALIASES_PATH) -> AliasTable:
    """The alias table, read once per process."""
    return AliasTable.model_validate(json.loads(path.read_text(encoding="utf-8")))


@lru_cache(maxsize=65_536)
def name_key(name: str) -> str:
    """A registrant name compared without case, punctuation, a leading "The" or a trailing legal
    suffix ("The Kraft Heinz Company" == "KRAFT HEINZ CO.")."""
    return re.sub(r"[^a-z0-9&]+", " ", short_name(name).lower()).strip()


def registrant_name(cover: str) -> str | None:
    """The registrant's name on a filing's cover as printed, without the file number or the rule
    printed before it; when the cover sets the name as an image (no text), the company a press
    release opens with ("MGM Resorts International (NYSE: MGM)"), else the company the first
    pages name most often."""
    cover = cover.replace("\xa0", " ")
    name = _name_above_exact(cover)
    if name is None and (match := NAME_BEFORE_SYMBOL_RE.search(cover)):
        name = match.group("name")
    if name is None:
        counts: dict[str, int] = {}
        for match in NAMED_COMPANY_RE.finditer(cover):
            found = " ".join(match.group("name").split())
            if not EXCHANGE_NAME_RE.search(found):  # "Chicago Stock Exchange, Inc."
                counts[found] = counts.get(found, 0) + 1
        name = max(counts, key=lambda n: (counts[n], len(n))) if counts else None
    return _as_printed(name) if name else None


def _name_above_exact(cover: str) -> str | None:
    """The name printed above "(Exact name of registrant ...)" or after the file number."""
    exact = EXACT_NAME_RE.search(cover)
    at = exact.start() if exact else -1
    above = cover[:at].split("\n")[-REGISTRANT_LINES - 1:] if at > 0 else []
    match = COVER_NAME_RE.search(cover)
    last = next((line.strip() for line in reversed(above) if line.strip()), "")
    rest = COVER_PREFIX_RE.sub("", last, count=1).strip(" _-")
    if rest != last and _name_like(rest) and not re.search(r"\d{4}", rest):
        # the name ends the line above after a file number and a rule ("Commission file
        # number 001-6991. _____ WALMART INC.")
        return SPLIT_CAPITAL_RE.sub(r"\1\2", rest)
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
        name = SPLIT_CAPITAL_RE.sub(r"\1\2", name).strip(" _-—–")
        if _name_like(name):
            return name
    return None


def _name_like(text: str) -> bool:
    """A company name: a few words with letters, each capitalised but the small words of names
    ("Bank of America", "Procter and Gamble"), not a sentence of the cover ("For the transition
    period from to"), not a line of its form ("FORM 10-K"), not a file number."""
    letters = sum(ch.isalpha() for ch in text)
    words = [w for w in text.split() if any(ch.isalnum() for ch in w)]
    return (letters >= 2 and len(text) <= 80 and not re.search(r"\d{3}-\d", text)
            and not COVER_BOILERPLATE_RE.search(text)
            and all(w.lower() in NAME_SMALL_WORDS or re.search(r"[A-Z0-9&]", w) for w in words))


def _as_printed(name: str) -> str:
    """The name's words as the cover prints them, apart: spaces as one, none before a stop
    ("NIKE, Inc ." -> "NIKE, Inc."), a legal suffix glued to the name in capitals set apart
    ("McDONALD'SCORPORATION" -> "McDONALD'S CORPORATION")."""
    name = re.sub(r"\s+([.,])", r"\1", " ".join(name.split()))
    return GLUED_SUFFIX_RE.sub(r" \1", name).strip(" _-—–")


def short_name(name: str) -> str:
    """The name without a leading "The" and trailing legal suffixes ("The Kraft Heinz Company"
    -> "Kraft Heinz", "JPMorgan Chase & Co." -> "JPMorgan Chase")."""
    name = re.sub(r"\s+", " ", name).strip(" .,")
    name = re.sub(r"^the\s+", "", name, flags=re.IGNORECASE)
    while (shorter := LEGAL_SUFFIX_RE.sub("", name).strip(" .,&")) != name and shorter:
        name = shorter
    return name


def _company_aliases(name: str) -> list[str]:
    """The registrant's name, its short name, the short name in title case when the cover sets
    it in capitals ("NIKE" -> "Nike": "NIKE" alone matches only in capitals), its "&" form and
    its initials."""
    name = re.sub(r"\s+", " ", name).strip(" .,")
    short = display_name(short_name(name))
    out = [display_name(name), short]
    if short.isupper() and len(short) > 3 and " " not in short:
        out.append(short.title())
    return out + short_forms(name)


def short_forms(name: str) -> list[str]:
    """What analysts write for a registrant: the name with "&" as "and" and back ("Procter and
    Gamble"), the "&" form of a two-word name ("Johnson & Johnson" -> "J&J"), and initials of
    three letters or more, with "Company" or "Corporation" counted ("The Kraft Heinz Company" ->
    "KHC", "Advanced Micro Devices, Inc." -> "AMD"); never a word of the alias table's
    ``not_aliases`` ("IT", "CAT", "MRI")."""
    blocked = load_alias_table().not_aliases
    short = short_name(name)
    out: list[str] = []
    if " & " in short or " and " in short:
        swapped = (" & ", " and ") if " & " in short else (" and ", " & ")
        out.append(short.replace(*swapped))
    if match := re.fullmatch(r"([A-Za-z][\w-]*)\s*(?:&|\band\b)\s*([A-Za-z][\w-]*)", short):
        first, second = match.group(1)[0].upper(), match.group(2)[0].upper()
        out.append(f"{first}&{second}")  # "JNJ" is a ticker: the cover or the alias table
    # "Company"/"Corporation" stay in the name initials are made of; "Inc."/"Co." do not
    kept = re.sub(r"^the\s+", "", re.sub(r"\s+", " ", name).strip(" .,"), flags=re.IGNORECASE)
    kept = re.sub(r"[\s,]+(?:Inc|Incorporated|Co|Ltd|Limited|plc|PLC|N\.V|S\.A|AG)\.?$", "",
                  kept, flags=re.IGNORECASE)
    for words in (short.split(), kept.split()):
        letters = [w[0] for w in words if w.lower() not in INITIALS_SKIP and w[0].isalpha()]
        initials = "".join(letters).upper()
        if (MIN_INITIALS <= len(words) <= MAX_NAME_WORDS and len(initials) >= MIN_INITIALS
                and initials not in blocked):
            out.append(initials)
    return list(dict.fromkeys(a for a in out if a not in blocked))


def tickers_from_cover(text: str) -> list[str]:
    """The trading symbols in a cover's Section 12(b) table, each once, in order: several classes
    (JPMorgan's common stock and preferred depositary shares "JPM PR D" give JPM), a symbol
    printed before or after its column heading; without a cover, the first symbol printed
    after its exchange ("(NYSE: MGM)", as press releases open). Words of ``not_aliases`` are
    left out."""
    blocked = load_alias_table().not_aliases
    found: list[str] = []
    start = SECTION_12B_RE.search(text)
    if start:
        block = text[start.start(): start.start() + SECTION_12B_CHARS]
        if end := SECTION_12G_RE.search(block, 10):
            block = block[: end.start()]
        matches = list(SYMBOL_BEFORE_EXCHANGE_RE.finditer(block))
        found = [m.group("ticker") for m in matches]
        # the common stock's symbols when the table says which they are: JPMorgan's cover also
        # lists an exchange-traded note of another name ("Alerian MLP Index ETNs ... AMJ")
        common = [m.group("ticker") for before, m in zip([None, *matches], matches, strict=False)
                  if re.search(r"\bcommon\b", block[before.end() if before else 0: m.start()],
                               re.IGNORECASE)]
        found = common or found
    if not found and (match := TICKER_RE.search(text)):
        found = [match.group("ticker")]
    if not found:  # a press release names its symbol after its exchange: "(NYSE: MGM)"
        found = [m.group("name") for m in EXCHANGE_TICKER_RE.finditer(text)][:1]
    return _unique(t for t in found if t not in blocked)


def display_name(name: str) -> str:
    """A name set in capitals as it is written: "MGM RESORTS INTERNATIONAL" -> "MGM Resorts
    International", "McDONALD'S CORPORATION" -> "McDonald's Corporation" (the small letters a
    cover prints show where a word's own capitals are), "THE COCA-COLA COMPANY" -> "The Coca-Cola
    Company"; words of up to three letters stay capitals (MGM, 3M, AES). A name printed in mixed
    case ("eBay Inc.", "NIKE, Inc.") is kept as printed."""
    name = " ".join(name.split()).strip(" .,")
    if len(name) <= 4 or not all(_set_in_capitals(w) for w in name.split()):
        return name
    return " ".join(w if len(w.strip(",.")) <= 3 and w.strip(",.") not in COMMON_SHORT_WORDS
                    else _cased(w) for w in name.split())


def _set_in_capitals(word: str) -> bool:
    """A word printed in capitals, maybe after a printed small-letter prefix ("McDONALD'S")."""
    upper = sum(ch.isupper() for ch in word)
    return upper > sum(ch.islower() for ch in word) or not any(ch.isalpha() for ch in word)


def _cased(word: str) -> str:
    """A word in capitals as written: each hyphenated part capitalised after the small letters
    printed in it ("McDONALD'S" -> "McDonald's", "COCA-COLA" -> "Coca-Cola")."""
    parts = []
    for part in word.split("-"):
        lower = [i for i, ch in enumerate(part) if ch.islower()]
        head = part[: lower[-1] + 1] if lower else ""
        tail = part[len(head):]
        parts.append(head + (tail[:1] + tail[1:].lower() if head else tail.capitalize()))
    return "-".join(parts)


def short_display_name(title: str) -> str:
    """What an answer calls a company: its registrant name without a leading "The" or a legal
    suffix, as written ("The AES Corporation" -> "AES", "THE COCA-COLA COMPANY" -> "Coca-Cola",
    "McDONALD'S CORPORATION" -> "McDonald's", "3M COMPANY" -> "3M"); the whole name when nothing
    is left ("The Company")."""
    return display_name(short_name(title) or title)


def _acronym(name: str) -> str:
    return "".join(w[0] for w in name.split() if w[0].isupper())


def profile_from_text(document: str, year: int, first_pages: Sequence[str]) -> DocumentProfile:
    """Aliases from a document's first pages (its cover) and its id (its words without the
    filing's kind or period: "mgm-resorts-earnings-q4" gives "mgm resorts")."""
    text = "\n".join(first_pages)
    aliases: list[str] = []
    title: str | None = None
    if title := registrant_name(text):
        aliases += _company_aliases(title)
    aliases += tickers_from_cover(text)
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
    words = [w for w in re.split(r"[-_\s]+", document)
             if w.lower() not in GENERIC_ID_WORDS and not PERIOD_ID_WORD_RE.fullmatch(w)]
    from_id = [" ".join(words)] if words else []
    table = load_alias_table()
    entry = table.entry_for(title, *aliases, *from_id) or (
        None if title or not from_id else table.entry_known_as(from_id[0]))
    if entry:
        if not title:  # a cover that prints its name as a picture (Foot Locker's 2023 10-K)
            title = entry.names[0]
            aliases += _company_aliases(title)
        aliases += [*entry.aliases, *entry.tickers]
    aliases += from_id  # last: the table's "JPMorgan" is kept before the id's "jpmorgan"
    return DocumentProfile(document=document, year=year, title=title, aliases=_unique(aliases))


def cover_text(page: Page) -> str:
    """A cover page as its readers here want it: its lines, each table's rows in place as lines
    of cells (a cover's Section 12(b) table and, on some covers, its name are ruled tables,
    which the page text holds only as placeholders)."""
    return "\n".join(
        "\n".join(" ".join(c for c in row if c) for row in table.rows) if table else line
        for line, table in page.lines_with_tables())


def cover_profile(document: str, year: int, pages: Sequence[Page]) -> DocumentProfile:
    """A document's profile from its first ``COVER_PAGES`` pages: the one reader of a cover, for
    the chunk header's company (``context``) and the routing profile (``document_profile``)."""
    return profile_from_text(document, year, [cover_text(p) for p in pages[:COVER_PAGES]])


def _unique(values: Iterable[str]) -> list[str]:
    """Each alias once, case-insensitively, except beside a capitals-only alias: "GDPR" matches
    only in capitals, so the id "gdpr" is kept to match in any case."""
    out: list[str] = []
    for value in (v.strip() for v in values):
        if len(value) < 2 or any(
            o.lower() == value.lower() and not case_sensitive_alias(o) for o in out
        ) or value in out:
            continue
        out.append(value)
    return out


def case_sensitive_alias(alias: str) -> bool:
    """Tickers and acronyms (capitals only): "PFE" must not match the letters "pfe" inside other
    text, nor a word in lower case."""
    return alias.isupper() and len(alias) <= 5
