"""What industry a company is in: the sentence that opens the description of its business.

Regulation S-K Item 101 has a 10-K's Item 1 describe the business done, and filers open it
with one sentence that says what the company is ("We are a leading global manufacturer and
marketer of branded consumer foods sold through retail stores", "Corning Incorporated is one
of the world's leading innovators in materials science", "We are principally engaged in the
operation of membership warehouses"). A question of the ``industry`` intent alone that asks for a
text or a name ("What industry does X operate in?"; not "Is X cyclical?") is answered with the
first such sentence of the pages the filing prints under Item 1 (``PageTexts.page_items``),
whose patterns are ``intent_lexicon.json``'s ``describes``, with their source; the incorporation
and history sentences before it do not match. A filing without Item 1 (a 10-Q, a release), or
whose Item 1 opens otherwise, gets nothing here: its quotes stand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.generation.yes_no import compiled
from rag_assets.core.ingest.context import company_name
from rag_assets.core.ingest.sections import pages_in_section
from rag_assets.core.question.intents import load_intents
from rag_assets.core.question.question import Question
from rag_assets.core.text.filing_kinds import form_of
from rag_assets.core.text.sentences import page_prose, split_sentences

INTENT = "industry"
SECTION = "business"
RISK_SECTION = "risk_factors"  # where a filer that does not describe itself names its industry
PAGES_READ = 3  # Item 1 opens with it: its first pages, not a later page's segment summary
ANNUAL_FORM = "10-K"
COVER_PAGES = 3
COMPANY_SUBJECTS = ("we ", "the company ", "our company ")
ITEM_1_HEADING_RE = re.compile(r"\bitem\s+1\s*\.?\s*[-–—:]?\s*business\b", re.IGNORECASE)
NEXT_ITEM_RE = re.compile(r"\bitem\s+1a\b", re.IGNORECASE)
HEADING_PREFIX_RE = re.compile(
    r"^(?:.{0,40}?\bitem\s+1\s*\.?\s*[-–—:]?\s*)?(?:business\.?\s+)?"
    r"(?:(?:about us|company overview|overview|general|the company|our company)\s+)?",
    re.IGNORECASE)
# an introductory phrase before the subject: "With a history dating back to 1886, American
# Water is the largest ... water and wastewater utility company"
INTRO_RE = re.compile(r"^(?:with|since|founded|established|based|incorporated|through|as|"
                      r"for over|for more than)\b[^,]{0,80},\s+(?=[A-Z])", re.IGNORECASE)


def _business_pages(document: str, items: Mapping[int, str | None],
                    pages: Sequence[tuple[int, str]]) -> list[int]:
    """The first pages the filing prints under its Item 1 (the Item the business section
    maps to in ``sections.json``, read by :func:`pages_in_section`); when ingest found no Item on
    them and the filing is a 10-K, the pages from the first that prints Item 1's heading with
    no Item 1A just after it (a table of contents lists them together; a 10-Q refers to the
    10-K's Item 1 and has none)."""
    found = pages_in_section(items, SECTION)
    if not found and form_of(document, " ".join(text for _, text in pages[:COVER_PAGES])
                             ) == ANNUAL_FORM:
        opening = next((page for page, text in pages
                        if (m := ITEM_1_HEADING_RE.search(" ".join(text.split())))
                        and not NEXT_ITEM_RE.search(" ".join(text.split())[m.end():][:300])),
                       None)
        found = [page for page, _ in pages if opening is not None and page >= opening]
    return found[:PAGES_READ]


def _of_the_company(subject: str, company: Sequence[str]) -> bool:
    """Whether what a sentence says "is a ..." of is the company: "We", "The Company" or its
    name ("Corning Incorporated", "Netflix, Inc."), not "A platform" or "Our fiscal year"."""
    lowered = subject.lower().replace("-", " ")
    return lowered.startswith(COMPANY_SUBJECTS) or any(
        re.match(rf"(?:the\s+)?{re.escape(word)}\b", lowered) for word in company)


def _without_heading(sentence: str) -> str:
    """A sentence without the headings run into its start ("Item 1. Business ABOUT US
    Netflix, Inc. ...", "ITEM 1. BUSINESS General Walmart Inc. ...")."""
    return HEADING_PREFIX_RE.sub("", sentence, count=1)


def business_description(question: Question, document: str, year: int,
                         pages: Sequence[tuple[int, str]], items: Mapping[int, str | None]
                         ) -> DirectAnswer | None:
    """The sentence of Item 1 that says what the company is or does, or None."""
    if question.intents != [INTENT] or question.expects not in ("text", "names"):
        return None  # "What businesses did X acquire?" asks a deal, not the industry
    entry = load_intents().intents[INTENT]
    patterns = compiled(entry.describes)
    texts = dict(pages)
    company = company_name(document, None).lower().replace("-", " ").split()[:1]
    for page in _business_pages(document, items, pages):
        for sentence in split_sentences(page_prose(texts.get(page, ""))):
            said = INTRO_RE.sub("", _without_heading(" ".join(sentence.split())), count=1)
            if any((m := p.search(said)) and _of_the_company(said[:m.end()], company)
                   for p in patterns):
                unit = printed_unit(document, year, page, said, "Item 1.")
                return DirectAnswer(kind="business", units=[unit], text=said)
    return _industry_named(document, year, texts, items, entry.names_industry)


def _industry_named(document: str, year: int, texts: Mapping[int, str],
                    items: Mapping[int, str | None], pattern: str | None) -> DirectAnswer | None:
    """The first sentence of Item 1, then of Item 1A, that names the company's industry ("The
    food and beverage industry is highly competitive"), led by that name, or None: a filer
    whose Item 1 opens with no description of the company still says where it competes."""
    if pattern is None:
        return None
    names = re.compile(pattern, re.IGNORECASE)
    for section in (SECTION, RISK_SECTION):
        for page in pages_in_section(items, section):
            for sentence in split_sentences(page_prose(texts.get(page, ""))):
                said = " ".join(sentence.split())
                if (m := names.search(said)) is None:
                    continue
                unit = printed_unit(document, year, page, said, items.get(page) or "")
                industry = " ".join((m["industry"] or m["named"]).split()).rstrip(",")
                return DirectAnswer(kind="business", units=[unit], supports=said,
                                    text=f"The {industry} industry: {said}")
    return None
