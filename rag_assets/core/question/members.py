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

from rag_assets.core.question.vocabulary import load_vocabulary, normalize, terms_in
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


def _term_spans(text: str, phrase: str) -> list[tuple[int, int]]:
    """Where ``text`` prints a term's words (any case, spacing or hyphen, a plural ending)."""
    words = [re.escape(w) + r"(?:s|es)?" for w in phrase.split()]
    pattern = re.compile(r"(?<![\w&])" + r"[\s-]+".join(words) + r"(?![\w&])", re.IGNORECASE)
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


def _words(text: str) -> set[str]:
    return set(_WORD_RE.findall(normalize(text).replace("'s", "")))


def narrowed_by_name(text: str, companies: Sequence[str] = ()) -> dict[str, str]:
    """The terms ``text`` narrows to a member it names, each with the member's phrase ("operating
    income for Sam's Club"); empty when it names none."""
    parts = load_vocabulary().qualifiers.parts
    not_members = {normalize(w) for w in parts.not_members}
    norm = normalize(text)
    found: dict[str, str] = {}
    for term in terms_in(text):
        for start, end in _term_spans(text, norm[term.start:term.end]):
            member = _MEMBER_RE.match(text[end:])
            if member is None:
                continue
            owners = [m.group(1) for m in _OWNER_RE.finditer(text[:start])
                      if m.group(1).lower() not in _NOT_OWNERS] + list(companies)
            name = _words(unglued(member["name"]))  # "Q22023" is Q2 2023
            if not owners or name & set().union(*(_words(o) for o in owners)) or (
                    name & not_members) or FISCAL_YEAR_RE.search(unglued(member["name"])):
                continue  # the owner itself, a statement, a unit or a period ("for FY2018")
            found.setdefault(term.name, f"{text[start:end]}{member.group(0)}".strip())
    return found
