"""A line item's figure that the statements do not carry, as the filing's prose states it.

Some amounts an analyst asks for are required disclosures printed outside the statements'
tables: the interest and income taxes paid in cash (ASC 230-10-50-2, "Total interest paid was
$921 million, $903 million and $803 million in 2019, 2018 and 2017, respectively", Coca-Cola's
2019 debt note), advertising or research costs in a policy note. When the statement facts hold
no such line, the question's one line item is read from the sentence that names it (one of the
vocabulary's words for it, no qualifier such as "adjusted" or "core" before it: another
measure) before the amount, in dollars, in the year asked: the amount in the year's
place of a "respectively" list of as many years as amounts, or the first amount after the
name in a sentence that names that year alone (what follows it details it: "totaled $5,542
million, which primarily related to the acquisitions of Costa and the remaining interest in
CHI"). A sentence whose words up to the amount make it another figure (an estimate, what
remains, a plan: ``stated_figures.QUALIFIER_RE``) or its change ("increased $18 million to
$921 million") states nothing here; two sentences that
state two amounts for the year leave the choice to the quotes. Hand-written: no library pairs a
filing's amounts with its years.
"""

from __future__ import annotations

import re

from rag_assets.core.generation.direct_rows import DirectAnswer, Scan
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.stated_figures import QUALIFIER_RE, RESPECTIVELY_RE
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import (
    load_vocabulary,
    phrase_pattern,
    phrases_of,
    qualifier_pattern,
)
from rag_assets.core.text.figures import MONEY_RE
from rag_assets.core.text.years import years_in

MAX_SENTENCE_WORDS = 70
PER_SHARE_RE = re.compile(r"\s+(?:per|a|each)\s+(?:common\s+)?share\b", re.IGNORECASE)
QUALIFIER_CHARS = 40  # how far before a name a qualifier of it is looked for
# the words between a line item's name and its amount: "Total interest paid was $921 million",
# "income taxes paid, net of refunds, of $1.2 billion"
BETWEEN_RE = re.compile(r"^[^$.;]{0,60}$")
# words between the name and the amount that make it the change, not the amount: "total debt
# increased $1.2 billion to $42.8 billion"
CHANGED_RE = re.compile(r"\b(?:increas\w*|decreas\w*|declin\w*|r[io]se|risen|f[ae]ll\w*|"
                        r"gr[eo]w\w*|drop\w*|up|down|by|change\w*|higher|lower)\b",
                        re.IGNORECASE)


def _patterns(name: str) -> list[re.Pattern[str]]:
    """The line item's names (its printed labels and the questions' aliases), any case."""
    entry = load_vocabulary().concepts[name]
    phrases = dict.fromkeys([*entry.line_items, *phrases_of(name, entry)])
    return [re.compile(phrase_pattern(p).pattern, re.IGNORECASE) for p in phrases]


def _in_year(sentence: str, named_at: int, year: int) -> re.Match[str] | None:
    """The amount the sentence states for ``year`` after the name at ``named_at``."""
    amounts = [m for m in MONEY_RE.finditer(sentence, named_at)
               if not PER_SHARE_RE.match(sentence, m.end())]  # a rate, not the amount
    between = sentence[named_at:amounts[0].start()] if amounts else ""
    if not amounts or not BETWEEN_RE.match(between) or CHANGED_RE.search(between):
        return None
    years = years_in(sentence[amounts[0].start():])
    if RESPECTIVELY_RE.search(sentence):
        if len(years) == len(amounts) and year in years:
            return amounts[years.index(year)]
        return None
    return amounts[0] if years_in(sentence) == [year] else None


def _qualified(text: str, start: int) -> bool:
    """Whether a qualifier is printed just before the name ("Core earnings per share",
    "adjusted interest expense"): another measure than the line item."""
    before = text[max(0, start - QUALIFIER_CHARS):start].rstrip().lower()
    return any(m.end() == len(before) for m in qualifier_pattern().finditer(before))


def stated_line_item(question: Question, scan: Scan | None) -> DirectAnswer | None:
    """The sentence that states the one line item asked in the one year asked, and its
    amount first; None when the question asks anything else or no one sentence states it."""
    concepts = load_vocabulary().concepts
    if (scan is None or question.expects != "figure" or question.quarters
            or question.counts or len(question.metrics) != 1 or question.metrics[0] not in concepts
            or concepts[question.metrics[0]].unit != "USD" or len(question.years) != 1):
        return None
    name, year = question.metrics[0], question.years[0]
    patterns = _patterns(name)
    found: dict[str, EvidenceUnit] = {}  # by the amount as printed
    for unit in scan(patterns):
        text = " ".join(unit.text.split())
        if len(text.split()) > MAX_SENTENCE_WORDS:
            continue
        for named in (m for p in patterns for m in p.finditer(text)
                      if not _qualified(text, m.start())):
            stated = _in_year(text, named.end(), year)
            if stated is not None and not QUALIFIER_RE.search(text[:stated.end()]):
                found.setdefault(stated.group(0), unit)
                break
    if len(found) != 1:
        return None
    amount, unit = next(iter(found.items()))
    title = concepts[name].title
    text = (f"{title[0].upper()}{title[1:]} in {year} amounted to {amount}, as the filing "
            f"states it outside its statements: {unit.text}")
    return DirectAnswer(kind="stated", text=text, units=[unit], supports=unit.text)
