"""Which customers are major: each one's share of sales as the filing states it, then the sentence
that says no other customer reaches the threshold.

ASC 280-10-50-42 has a filer disclose each customer of 10 % or more of its revenue, and filings
state it in one sentence ("During fiscal 2020, Walmart Inc. and its affiliates (Walmart)
accounted for 21 percent of our consolidated net sales ...") that they often close with another
("No customer other than Walmart accounted for 10 percent or more of our consolidated net
sales"). A question that asks for names of the customers intent is answered with those
sentences of the period asked, joined, each cited: the customer, its share and the threshold
the analyst judges concentration by; where no customer reaches it, "None" and the sentence
that says so ("For 2020, 2019 and 2018, no customer met or exceeded 10% of ...", ``denies``).
The patterns are ``intent_lexicon.json``'s (``affirms``, ``denies`` and ``none_other`` of
``customers``, with their source); a share of a segment's sales ("three
customers of the Display Technologies segment ...") is no share of the company's and is not
matched, nor is several customers' share together ("ten largest customers"). The sentences are
looked for in the evidence selected, the part's other evidence, then every page of the filing;
none stating a share or denying one, nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer, Scan
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.yes_no import (
    Before,
    candidates,
    compiled,
    of_the_period,
    polarity,
)
from rag_assets.core.question.intents import load_intents
from rag_assets.core.question.question import Question
from rag_assets.core.text.sentences import unlinked

INTENT = "customers"
# a share of a segment's sales: "7 percent of our net sales in the International segment"
SEGMENT_SHARE_RE = re.compile(r"\s+(?:in|of)\s+(?:the|our|its)\s+[\w&,' -]{0,40}?segment",
                              re.IGNORECASE)
# several customers' (or franchises') share together ("Corning's ten largest customers
# accounted for 45%", "our top three franchises ... collectively accounted for 67%"):
# concentration, but no customer's own share
AGGREGATE_RE = re.compile(r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty)"
                          r"\s+(?:largest\s+|biggest\s+|major\s+)?[a-z]+s\b|"
                          r"\b(?:collectively|combined|together)\b", re.IGNORECASE)
MAX_CUSTOMER_SENTENCES = 3


# the name a share's sentence opens with, right before its verb ("Sam's Club accounted for")
SUBJECT_RE = re.compile(r"(?:^|[,;]\s*)((?:[A-Z][\w&'’.-]*)(?:\s+(?:[A-Z][\w&'’.-]*|of|and|&))*)"
                        r"\s*(?:\([^)]*\)\s*)?$")


def _a_segment(before: str, scan: Scan | None) -> bool:
    """Whether the name a share is stated of is one of the filer's segments, which the filing
    calls so elsewhere ("Sam's Club accounted for approximately 12% of our fiscal 2018 net
    sales": "the Sam's Club segment"): a segment's share of sales names no customer."""
    found = SUBJECT_RE.search(before.strip())
    if found is None or scan is None:
        return False
    name = re.escape(found.group(1).strip())
    pattern = re.compile(rf"\b{name}\s+(?:reportable\s+|operating\s+)?segment\b", re.IGNORECASE)
    return next(iter(scan([pattern])), None) is not None


def major_customers(question: Question, selected: Sequence[EvidenceUnit],
                    pool: Sequence[EvidenceUnit] = (), before: Before | None = None,
                    scan: Scan | None = None) -> DirectAnswer | None:
    """The sentences that state each major customer's share of sales, then the one that
    says no other reaches the threshold; None for another question or when none is found.
    Asked for their names, or how dependent the filer is on its customers (the shares are
    the measure of it)."""
    if not (question.expects == "names" or question.asks_degree) or (
            INTENT not in question.intents):
        return None
    entry = load_intents().intents[INTENT]
    affirms, others = compiled(entry.affirms), compiled(entry.none_other)
    denies = compiled(entry.denies)

    named = question.depended_on
    shares: dict[str, EvidenceUnit] = {}
    closing: EvidenceUnit | None = None
    denial: EvidenceUnit | None = None  # "no customer met or exceeded 10% of sales"
    for unit in candidates(selected, pool, scan, [*affirms, *others, *denies]):
        text = " ".join(unit.text.split())
        if unit.is_row or not of_the_period(question, text):
            continue
        if closing is None and any(p.search(text) for p in others):
            closing = unit
            continue
        if denial is None and any(p.search(text) for p in denies):
            denial = unit
            continue
        share = next((m for p in affirms if (m := p.search(text))), None)
        if share is None or polarity(entry, text, before(unit) if before else "") is not True:
            continue
        if named and named.lower() not in text.lower():
            continue  # "How dependent is it on the U.S. Government?": not the F-35's share
        if AGGREGATE_RE.search(text[:share.start()]) or SEGMENT_SHARE_RE.match(
                text[share.end():]) or _a_segment(text[:share.start()], scan):
            continue
        if len(shares) < MAX_CUSTOMER_SENTENCES:
            shares.setdefault(" ".join(text[share.start():].lower().split()[:8]), unit)
        elif closing is not None:
            break  # the filing need not be read further
    if not shares:
        return None if denial is None else DirectAnswer(
            kind="customers", units=[denial], supports=denial.text,
            text=f"None: {unlinked(' '.join(denial.text.split())).rstrip(' .')}.")
    units = [*shares.values(), *([closing] if closing is not None else [])]
    said = "; ".join(" ".join(u.text.split()).rstrip(" .") for u in units)
    return DirectAnswer(kind="customers", units=units, text=f"{said}.",
                        supports="" if len(units) > 1 else units[0].text)
