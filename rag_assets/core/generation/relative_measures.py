"""Yes or no to "Did A grow faster than B?" and "Did A exceed B?": both measures computed, then
compared.

An analyst reads one line item against another: inventories growing faster than sales ties up
working capital (CFA Institute, "Financial Analysis Techniques", CFA Program Level I: activity
ratios), dividends above free cash flow are paid from borrowing or cash on hand (Koller et al.,
"Valuation", 7th ed.: free cash flow). Each side is computed as the metric engine computes one
measure, every operand cited: its change over the year asked and the year before (a quarter
against the same quarter a year before), or its value; the answer is "Yes" or "No" from the
comparison, with both figures. One side the statements do not give, no answer: a yes or no
from the other side alone would be a guess. The comparison asked is read once, onto the
question (``Question.compares``, :mod:`rag_assets.core.question.comparison`).
"""

from __future__ import annotations

from collections.abc import Callable

from rag_assets.core.generation.metric_engine import MetricAnswer
from rag_assets.core.generation.metric_format import format_value
from rag_assets.core.generation.metric_questions import MetricQuestion
from rag_assets.core.question.comparison import Comparison
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import load_vocabulary


def sides(relative: Comparison, question: Question) -> list[MetricQuestion]:
    """The two measures as the metric engine computes them: each one's trend over the year
    asked and the one before (a quarter against the quarter a year before), or its value."""
    if relative.measures is None:
        raise ValueError(f"no two line items compared: {question.text}")
    defs = load_vocabulary()
    year = max(question.years)
    years = [year - 1, year] if relative.by == "growth" else [year]
    return [MetricQuestion(question=question.text, target=name, is_metric=name in defs.metrics,
                           years=years, months=question.months,
                           aggregate="trend" if relative.by == "growth" else "value",
                           year_ago=relative.by == "growth" and question.months < 12,
                           written={name: relative.written[name]}
                           if name in relative.written else {})
            for name in relative.measures]


def compared(relative: Comparison, computed: list[MetricAnswer], subject: str,
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
