"""Which indexed documents a question names, and which company it names that none is.

A document's aliases come from its cover (:mod:`rag_assets.core.ingest.routing`: the registrant
name, its short forms and initials, the trading symbols, a regulation's name and number, the
document's own id) and the alias table; a question names a document when it writes one of them
(:func:`alias_match`). One that names a company no profile knows ("Tesla's margins" over a
corpus without Tesla) is told apart (:func:`unindexed_company`), so the answer can say so
instead of answering from another company's pages without a word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rag_assets.core.ingest.routing import (
    EXCHANGE_TICKER_RE,
    INITIALS_SKIP,
    LEGAL_SUFFIX,
    MIN_INITIALS,
    NAME_WORDS,
    DocumentProfile,
    case_sensitive_alias,
    load_alias_table,
    short_name,
)
from rag_assets.core.text.filing_kinds import dated_filings, id_words, kinds_asked
from rag_assets.core.text.periods import asked_quarters

# in a question, only as a name is written: "WHAT WAS THE COMPANY REVENUE?" names no company
NAMED_COMPANY_IN_TEXT_RE = re.compile(
    rf"(?<![\w&.'-])(?P<name>(?:The[ \t]+)?{NAME_WORDS}(?:{LEGAL_SUFFIX}))(?![\w-])")
# a company as questions name one that no alias matched: "Tesla's", "TSLA's", "$TSLA",
# "Acme Widgets, Inc."; words before "'s" that are no company ("What's", "the Company's")
# (a name may open with a small letter: "eBay's")
POSSESSIVE_RE = re.compile(
    r"(?<![\w&.-])(?P<name>(?:[a-z]?[A-Z][\w&.-]*\s+){0,2}[a-z]?[A-Z][\w&.-]*?)['’]s\b")
DOLLAR_TICKER_RE = re.compile(r"(?<![\w$])\$(?P<name>[A-Z]{1,5})\b")
BARE_TICKER_RE = re.compile(r"(?<![\w&$.-])(?P<name>[A-Z]{2,5})(?![\w&.-])")
NOT_COMPANY_WORDS = {
    "what", "that", "it", "there", "here", "who", "how", "let", "where", "when", "company",
    "companies", "management", "board", "group", "firm", "registrant", "year", "quarter",
    "nation", "country", "world", "today", "moody", "investor", "investors", "analyst", "segment",
    "business", "america", "europe", "asia", "china", "state", "government", "people", "he",
    "she", "one", "which", "this", "fiscal",
}


@lru_cache(maxsize=4096)
def _alias_pattern(alias: str) -> re.Pattern[str]:
    """Whole words; a two-letter acronym ("KO", "P&G") only in capitals, a longer one in any case
    (:func:`alias_match` then wants a capital in what it matched)."""
    # "Coca-Cola" and "Coca Cola" name the same company
    body = r"[\s-]+".join(re.escape(part) for part in re.split(r"[\s-]+", alias) if part)
    two_letters = sum(ch.isalpha() for ch in alias) <= 2
    flags = 0 if case_sensitive_alias(alias) and two_letters else re.IGNORECASE
    return re.compile(rf"(?<![\w]){body}(?![\w])", flags)


def alias_match(alias: str, text: str) -> str | None:
    """Where ``text`` names ``alias``, as written there: a name in any case ("pfizer"); an acronym
    of three letters or more in any case that writes a capital ("JnJ", "Amex", "PFE", not the
    words "cost" or "pfe"); a two-letter one only in capitals ("KO", not "ko" nor "Ko"); a
    one-word name that is also an English word (``company_aliases.json``'s ``word_names``:
    "block", "target") only capitalized."""
    for match in _alias_pattern(alias).finditer(text):
        written = match.group(0)
        if case_sensitive_alias(alias) and not any(ch.isupper() for ch in written):
            continue
        if written.islower() and written in load_alias_table().word_names:
            continue  # "to block Microsoft's acquisition": the word, not Block
        return written
    return None


@lru_cache(maxsize=65_536)
def _alias_head(alias: str) -> str | None:
    """The alias's first word in lower case when it is ASCII (None otherwise): an ASCII text
    that does not hold it, in any case, cannot name the alias."""
    head = next((part for part in re.split(r"[\s-]+", alias) if part), "")
    return head.lower() if head.isascii() else None


def may_name(alias: str, lowered: str | None) -> bool:
    """Whether a text may name ``alias`` (``lowered``: the text in lower case when it is ASCII,
    else None): a substring test before the alias's pattern is compiled and run, so routing over
    a thousand profiles runs the patterns of the few aliases the text holds."""
    head = _alias_head(alias)
    return lowered is None or head is None or head in lowered


def route(question: str, profiles: Sequence[DocumentProfile]) -> list[str]:
    """Documents the question names (by any alias); empty means the whole corpus."""
    question = _straight(question)
    lowered = question.lower() if question.isascii() else None
    named = {
        p.document
        for p in profiles
        for alias in p.aliases
        if may_name(alias, lowered) and alias_match(alias, question)
    }
    return sorted(named)


def named_filings(question: str, documents: Sequence[str]) -> list[str]:
    """Of the documents a question names (one company's 10-K, 10-Qs, 8-Ks, releases), those of
    the kind and the quarter it asks about ("in this 10-K", "in 2021 Q1") and of the date it
    writes (:func:`dated_filings`: "its 8-K dated May 20, 2022"); a word that names no
    document's kind, quarter or date narrows nothing."""
    kept = list(documents)
    for wanted in (kinds_asked(question), asked_quarters(question)):
        if wanted:
            kept = [d for d in kept if id_words(d) & wanted] or kept
    return dated_filings(question, kept)


def unindexed_company(question: str, profiles: Sequence[DocumentProfile]) -> str | None:
    """The company a question names when it names none of the profiles' companies, else None.

    Read with high precision: a company of the alias table that no profile is, by its name,
    nickname or ticker ("Big Blue", "AMEX", "TSLA" with no such filing indexed) written with a
    capital, a name with a legal suffix ("Acme Widgets, Inc."), a ticker written as one
    ("$TSLA", "NYSE: TSLA", "TSLA's"), a capitalised possessive ("Tesla's", "eBay's"), a bare
    capitals word of three to five letters that is no known acronym ("TSLA revenue"). A name any
    profile's alias matches is no unindexed company.
    """
    text = _straight(question)
    if route(text, profiles):
        return None
    table = load_alias_table()
    indexed = {id(e) for p in profiles
               if (e := table.entry_for(p.title, *p.aliases)) is not None}
    for entry in table.companies:
        if id(entry) not in indexed:
            names = [short_name(n) for n in entry.names]
            for alias in (*names, *entry.aliases, *entry.tickers):
                found = alias_match(alias, text)
                if found and not found[0].islower():  # "block of shares" names no Block
                    return found
    candidates = [m.group("name") for m in NAMED_COMPANY_IN_TEXT_RE.finditer(text)]
    candidates += [m.group("name") for m in DOLLAR_TICKER_RE.finditer(text)]
    candidates += [m.group("name") for m in EXCHANGE_TICKER_RE.finditer(text)]
    for match in POSSESSIVE_RE.finditer(text):
        words = match.group("name").split()
        while words and words[0].lower() in NOT_COMPANY_WORDS | INITIALS_SKIP:
            words = words[1:]  # "What Tesla's" would be a sentence's first word
        if words and words[-1].lower() not in NOT_COMPANY_WORDS:
            candidates.append(" ".join(words))
    candidates += [m.group("name") for m in BARE_TICKER_RE.finditer(text)
                   if len(m.group("name")) >= MIN_INITIALS]
    for name in candidates:
        if name.upper() in table.not_aliases or name.lower() in NOT_COMPANY_WORDS:
            continue
        if not any(alias_match(a, name) for p in profiles for a in p.aliases):
            return " ".join(name.split())
    return None


# a business line printed by its name: "our Sam's Club segment", "the Walmart International
# segment" (ASC 280 has a filing name each reportable segment)
_MEMBER_NOUNS = r"(?:segments?|divisions?)"


def printed_as_member(name: str, text: str) -> bool:
    """Whether ``text`` prints ``name`` as one of the filer's own business lines: the name (its
    possessive and the capitalised words that complete it: "Sam" of "Sam's Club") before
    "segment" or "division", or named in the list of segments after the noun. A question's
    "Sam's Club's operating income" names a segment of an indexed filing, not a company no
    filing is from; a competitor a filing names ("Kroger") is printed as no segment of its
    own."""
    spaced = r"\s+".join(re.escape(w) for w in name.split())
    pattern = (rf"(?<![\w&.-]){spaced}(?:['’]s)?(?:\s+[A-Z][\w&.'’-]*){{0,3}}\s+"
               rf"{_MEMBER_NOUNS}\b")
    # the noun, then the list of the segments' names: "four major reportable business
    # segments – Consumer & Community Banking, Corporate & Investment Bank, ..." (JPMorgan's
    # 10-Q); "The Firm's consumer business segment is Consumer & Community Banking"
    listed = (rf"\b{_MEMBER_NOUNS}\s*(?:(?:is|are|include[sd]?|including|consist\s+of|"
              rf"comprise)\s+|[:–—-]\s*)(?:(?:the\s+)?[A-Z][\w&.'’\s-]*?(?:\s*\([^)]*\))?"
              rf",\s*(?:and\s+)?)*(?:the\s+)?[\w&.'’\s-]*?(?<![\w&.-]){spaced}(?![\w])")
    return re.search(pattern, text) is not None or re.search(listed, text) is not None


def _straight(text: str) -> str:
    """Curly apostrophes as straight ones: "Mickey D’s" is "Mickey D's"."""
    return text.replace("’", "'").replace("‘", "'")
