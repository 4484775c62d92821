"""A measure narrowed to a member by name: "Walmart's operating income for Sam's Club", "Nike's
revenues in Greater China", "Microsoft's revenue from Azure".

The grammar words that narrow a term ("of its International segment", "on new stores") are
the vocabulary's (``qualifiers.parts``, :mod:`vocabulary`); a member named by its proper name
alone needs the question's capitals, which the vocabulary's lower-case form has lost. A name
right after the term's preposition is a member when the question names its owner before the
term (a possessive, "Walmart's", or a company of the filings it names), the name shares no word
with that owner ("for 3M" in "capex for 3M" is the company), and it is no statement, unit or
period (``qualifiers.parts.not_members``). ASC 280: a segment's or a geography's figure is its
own, never the consolidated line. Plain Python.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.question.vocabulary import TermMatch, load_vocabulary, normalize, terms_in
from rag_assets.core.text.periods import unglued
from rag_assets.core.text.years import FISCAL_YEAR_RE

# a proper name after the preposition that narrows a measure: "for Sam's Club", "in Greater
# China", "from the Americas"; its words capitalized ("&", "and", "of" may join them)
_MEMBER_RE = re.compile(r"^\s+(?:for|of|from|at|in|within)\s+(?:the\s+|its\s+|their\s+)?"
                        r"(?P<name>[A-Z][\w&'’.-]*(?:\s+(?:[A-Z][\w&'’.-]*|&|and|of)\b)*)")
# the owner a question names before its measure: "Walmart's", "Coca-Cola's", "3M's"
_OWNER_RE = re.compile(r"\b([A-Z0-9][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)['’]s?\b")
_NOT_OWNERS = frozenset({"what", "who", "how", "where", "when", "which", "that", "it", "there",
                         "here", "let"})  # "What's the revenue for Walmart?" names no owner
_WORD_RE = re.compile(r"[a-z0-9&]+")
# a name printed just before the measure, right after its owner's possessive: "Walmart's
# eCommerce sales", "Microsoft's Azure revenues", "Walmart's international revenue"
_MEMBER_BEFORE_RE = re.compile(r"(?P<owner>[A-Z0-9][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)['’]s\s+"
                               r"(?P<name>[a-zA-Z][\w&.-]*(?:\s+[a-zA-Z][\w&.-]*){0,2})\s+$")
# what a member is called after its name: "the Walmart U.S. segment's net sales"
_MEMBER_KIND = r"(?:segment|division|business)"
# words a company's name carries besides its own: "Walmart Inc.", "Costco Corporation"
_CORPORATE_WORDS = frozenset({"inc", "incorporated", "corporation", "corp", "company", "co",
                              "ltd", "limited", "plc", "group", "holdings", "the"})


def _term_spans(text: str, phrase: str) -> list[tuple[int, int]]:
    """Where ``text`` prints a term's words (any case, spacing or hyphen, a plural ending)."""
    words = [re.escape(w) + r"(?:s|es)?" for w in phrase.split()]
    pattern = re.compile(r"(?<![\w&])" + r"[\s-]+".join(words) + r"(?![\w&])", re.IGNORECASE)
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


def _words(text: str) -> set[str]:
    return set(_WORD_RE.findall(normalize(text).replace("'s", "")))


def narrowed_by_name(text: str, companies: Sequence[str] = (),
                     terms: Sequence[TermMatch] | None = None) -> dict[str, str]:
    """The terms ``text`` narrows to a member it names, each with the member's phrase ("operating
    income for Sam's Club", "eCommerce sales"); empty when it names none. ``terms``: the text's
    terms (:func:`terms_in`) when the caller has read them already."""
    norm = normalize(text)
    parts = load_vocabulary().qualifiers.parts
    found: dict[str, str] = {}
    for term in terms_in(text) if terms is None else terms:
        for start, end in _term_spans(text, norm[term.start:term.end]):
            owners = [m.group(1) for m in _OWNER_RE.finditer(text[:start])
                      if m.group(1).lower() not in _NOT_OWNERS] + list(companies)
            after = _MEMBER_RE.match(text[end:])
            before = _MEMBER_BEFORE_RE.search(text[:start]) or _after_company(text[:start],
                                                                              companies)
            if before and before["owner"].lower() in _NOT_OWNERS:
                before = None  # "What's the revenue ...?" names no owner
            if after and _is_member(after["name"], owners):
                found.setdefault(term.name, f"{text[start:end]}{after.group(0)}".strip())
            elif before and _is_member(before["name"], [before["owner"], *companies],
                                       before=True, sourced=term.name in parts.sourced):
                found.setdefault(term.name, text[before.start("name"):end].strip())
            elif (named := _company_member(text, companies)) is not None:
                found.setdefault(term.name, f"{text[start:end]} of {named}")
    return found


def member_after(rest: str, owners: Sequence[str]) -> str | None:
    """The member a question names right after a measure, ``rest`` being what follows the
    measure ("... in CCB in Q3 2022?", "... for Sam's Club"), when it is a member of one of
    ``owners`` (no period, statement or unit: "in Q3 2022", "in Fiscal 2023"); else None. For a
    measure no term of the vocabulary names: a statement row named by its label's words."""
    after = _MEMBER_RE.match(rest)
    return after["name"] if after and _is_member(after["name"], owners) else None


def _company_member(text: str, companies: Sequence[str]) -> str | None:
    """A member the question names as the subject beside its company, wherever the measure
    stands: "How much operating income did Walmart International generate?" (the company
    "Walmart"); None when the words after the company are its own name, a period or a word of
    no member ("Walmart Inc.", "Costco Wholesale", "Walmart FY2020")."""
    for company in companies:
        for found in re.finditer(rf"(?<![\w&.-]){re.escape(company)}\s+(?P<name>[A-Z][\w&.-]*"
                                 rf"(?:\s+[A-Z][\w&.-]*){{0,2}})(?![\w&'’-])", text):
            if _is_member(found["name"], companies, before=True):
                return found.group(0)  # "Walmart International", as the filing names it
    return None


def _after_company(text: str, companies: Sequence[str]) -> re.Match[str] | None:
    """A capitalized name after a filing's company, just before the measure: "Walmart U.S."
    in "Walmart U.S. net sales" (the company "Walmart"), also as a possessive, with or without
    the word that says what it is: "Walmart International's operating income", "the Walmart
    U.S. segment's net sales" (ASC 280: a segment's figure is its own)."""
    for company in companies:
        found = re.search(rf"(?P<owner>{re.escape(company)})\s+(?P<name>[A-Z][\w&.-]*"
                          rf"(?:\s+[A-Z][\w&.-]*){{0,2}})(?:\s+{_MEMBER_KIND})?(?:['’]s)?\s+$",
                          text)
        if found:
            return found
    return None


def _is_member(name: str, owners: Sequence[str], before: bool = False,
               sourced: bool = False) -> bool:
    """Whether a name a question prints beside a measure is a member of its owner: not the
    owner itself ("for 3M", "for Walmart Inc."), no statement, unit, period or word of the
    measure's own ("Total", "GAAP", "FY2018"); a name before the measure only when an owner is
    named (or the word names a part of any company: "international", "eCommerce"; before a
    measure of where revenue comes from, ``sourced``, any other word does: "streaming")."""
    parts = load_vocabulary().qualifiers.parts
    words = _words(unglued(name))  # "Q22023" is Q2 2023
    if not words or words & {normalize(w) for w in parts.not_members} or FISCAL_YEAR_RE.search(
            unglued(name)) or (before and re.search(r"\d", name)):
        return False  # "its FY22 quick ratio" names a period
    if before and not re.search(r"[A-Z]", name):  # "international revenue", never "annual"
        # where revenue comes from: any word but a plain modifier ("streaming revenue")
        return sourced or bool(words & {w for m in parts.member_words
                                        for w in normalize(m).split()})
    owned = set().union(*(_words(o) for o in owners)) if owners else set()
    return bool(owners) and not words <= owned | _CORPORATE_WORDS
