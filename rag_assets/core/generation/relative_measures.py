"""Yes or no to "Did A grow faster than B?" and "Did A exceed B?": both measures computed, then
compared.

An analyst reads one line item against another: inventories growing faster than sales ties up
working capital (CFA Institute, "Financial Analysis Techniques", CFA Program Level I: activity
ratios), dividends above free cash flow are paid from borrowing or cash on hand (Koller et al.,
"Valuation", 7th ed.: free cash flow). Each side is computed as the metric engine computes one
measure, every operand cited: its change over the year asked and the year before (a quarter
against the same quarter a year before), or its value; the answer is "Yes" or "No" from the
comparison, with both figures. One side the statements do not give, no answer: a yes or no
from the other side alone would be a guess. Hand-written: no library reads a comparison's two
sides from a question.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel

from rag_assets.core.generation.metric_engine import MetricAnswer
from rag_assets.core.generation.metric_format import format_value
from rag_assets.core.generation.metric_questions import MetricQuestion
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import TermMatch, load_vocabulary, normalize, terms_in

# "grew faster than", "increase more than", "rose less than" (in normalize's lower case)
GROWTH_RE = re.compile(r"\b(?:grow|grew|grown|growing|increas(?:e|ed|ing)|ris(?:e|en|ing)|rose)"
                       r"\s+(?:at\s+a\s+)?(?P<way>faster|more quickly|more|slower|more slowly|"
                       r"less)(?:\s+rate)?\s+than\b(?!\s*\$?\d)")
OUTPACE_RE = re.compile(r"\b(?:outpac(?:e|ed|es|ing)|outgr(?:ow|ew|own|ows))\b")
# "did dividends paid exceed free cash flow", "was capex higher than depreciation"
LEVEL_RE = re.compile(r"\b(?:(?P<above>exceed(?:ed|s)?|surpass(?:ed|es)?|(?:higher|greater|"
                      r"larger|more)\s+than)|(?P<below>(?:lower|less|smaller)\s+than))\b"
                      r"(?!\s*\$?\d)")
YES_NO_RE = re.compile(r"^\s*(?:did|does|do|has|have|had|is|are|was|were)\b")


class Relative(BaseModel):
    """Two measures a question compares: ``first`` against ``second`` (vocabulary keys),
    by their growth or their level, asking whether the first is above (``more``) or below."""

    first: str
    second: str
    by: Literal["growth", "level"]
    more: bool
    written: dict[str, str] = {}  # each measure's words as asked: its row printed so first


def asks_growth_against(question: Question) -> bool:
    """Whether a yes/no question compares one measure's growth with another's ("Did inventory
    grow faster than sales?"): one side alone never answers it."""
    norm = normalize(question.text.split("?")[0])
    return bool(YES_NO_RE.match(norm) and (GROWTH_RE.search(norm) or OUTPACE_RE.search(norm)))


def relative_asked(question: Question) -> Relative | None:
    """The comparison a yes/no question asks of two line items the statements print, or None
    (no comparison word, or not one term of the facts on each side)."""
    norm = normalize(question.text.split("?")[0])
    if not YES_NO_RE.match(norm):
        return None
    found = GROWTH_RE.search(norm) or OUTPACE_RE.search(norm)
    by: Literal["growth", "level"] = "growth"
    if found is None:
        found, by = LEVEL_RE.search(norm), "level"
    if found is None:
        return None
    terms = terms_in(question.text.split("?")[0], facts_only=True, qualified=False)
    before = [t for t in terms if t.end <= found.start()]
    after = [t for t in terms if t.start >= found.end()]
    if len(before) != 1 or not after:
        return None
    way = found.groupdict().get("way")
    more = not (way in ("slower", "more slowly", "less") or found.groupdict().get("below"))
    if not _comparable(before[0], after[0]):
        return None
    return Relative(first=before[0].name, second=after[0].name, by=by, more=more,
                    written={t.name: norm[t.start:t.end] for t in (before[0], after[0])})


def _comparable(first: TermMatch, second: TermMatch) -> bool:
    """Two different measures of one unit that grows: dollars, or dollars per share (dividends
    per share against EPS); a ratio's growth against another's is no analyst's comparison."""
    defs = load_vocabulary()
    units = {defs.metrics[t.name].unit if t.name in defs.metrics else
             defs.concepts[t.name].unit for t in (first, second)}
    return first.name != second.name and units in ({"USD"}, {"USD/share"})


def sides(relative: Relative, question: Question) -> list[MetricQuestion]:
    """The two measures as the metric engine computes them: each one's trend over the year
    asked and the one before (a quarter against the quarter a year before), or its value."""
    defs = load_vocabulary()
    year = max(question.years)
    years = [year - 1, year] if relative.by == "growth" else [year]
    return [MetricQuestion(question=question.text, target=name, is_metric=name in defs.metrics,
                           years=years, months=question.months,
                           aggregate="trend" if relative.by == "growth" else "value",
                           year_ago=relative.by == "growth" and question.months < 12,
                           written={name: relative.written[name]}
                           if name in relative.written else {})
            for name in (relative.first, relative.second)]


def compared(relative: Relative, computed: list[MetricAnswer], subject: str,
             when: Callable[[MetricQuestion], str]) -> MetricAnswer:
    """The answer: "Yes"/"No" from the two sides, each with its figures; the first side's
    computation's "missing" when a side lacks an operand, else "unavailable" (a side with one
    year only, a base that is not positive): never one side's answer as the comparison's."""
    missing = [c for c in computed if c.status != "answered" or len(c.values) < (
        2 if relative.by == "growth" else 1)]
    first, second = computed
    if missing:  # one side alone is never the answer: what is missing, else none
        return missing[0] if missing[0].status == "missing" else missing[0].model_copy(
            update={"status": "unavailable"})
    defs = load_vocabulary()
    titles = [defs.title(c.question.target) for c in computed]
    operands = [*first.operands, *second.operands]
    if relative.by == "level":
        a, b = (c.values[max(c.values)] for c in computed)
        held = a > b if relative.more else a < b
        word = "exceeded" if a > b else "did not exceed" if relative.more else "fell short of"
        headline = (f"{'Yes' if held else 'No'}. {subject} {when(first.question)} {titles[0]} "
                    f"of {_money(first, a)} {word} its {titles[1]} of {_money(second, b)}.")
        return first.model_copy(update={"headline": headline, "operands": operands,
                                         "details": [first.headline, second.headline]})
    rates = [_growth(c) for c in computed]
    if None in rates:
        return first.model_copy(update={"status": "unavailable"})
    a, b = (r for r in rates if r is not None)
    held = a > b if relative.more else a < b
    headline = (f"{'Yes' if held else 'No'}. {subject} {titles[0]} {_moved(first, a)} in "
                f"{when(first.question)}; its {titles[1]} {_moved(second, b)}.")
    return first.model_copy(update={"headline": headline, "operands": operands,
                                     "details": [first.headline, second.headline],
                                     "value": a - b})


def _growth(computed: MetricAnswer) -> float | None:
    """The change from the earlier value to the later, as a fraction; None from a base that is
    not positive (no rate of growth)."""
    earlier, later = (computed.values[y] for y in sorted(computed.values)[-2:])
    return later / earlier - 1 if earlier > 0 else None


def _moved(computed: MetricAnswer, rate: float) -> str:
    """"grew 2.6% (from $1,820.5 million to $1,867.3 million)"."""
    earlier, later = (computed.values[y] for y in sorted(computed.values)[-2:])
    verb = "grew" if rate > 0 else "fell" if rate < 0 else "was unchanged"
    return (f"{verb} {format_value(abs(rate), 'percent', 1)} (from "
            f"{_money(computed, earlier)} to {_money(computed, later)})")


def _money(computed: MetricAnswer, value: float) -> str:
    """An amount in its measure's unit: "$1,867.3 million", "$2.62" a share."""
    defs = load_vocabulary()
    name = computed.question.target
    unit = defs.metrics[name].unit if name in defs.metrics else defs.concepts[name].unit
    return format_value(value, "USD/share" if unit == "USD/share" else "USD", None)
