"""What a question compares or adds up, read once onto the :class:`~.question.Question`.

Two readings of how a question relates the measures it names, each a ``Question`` field so that
no answerer reads the text for it again:

- :func:`comparison_asked`: "Did A grow faster than B?", "Did A exceed B?": a yes or no on
  two measures, by their growth or their level (an analyst reads inventories against sales,
  dividends paid against free cash flow: CFA Institute, "Financial Analysis Techniques");
- :func:`total_asked`: "What was its total goodwill and intangible asset impairment?": the sum
  of the line items named together.

Hand-written: no library reads a comparison's two sides from a question.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from rag_assets.core.question.vocabulary import TermMatch, load_vocabulary, normalize, terms_in

# "grew faster than", "increase more than", "rose less than" (in normalize's lower case)
GROWTH_RE = re.compile(r"\b(?:grow|grew|grown|growing|increas(?:e|ed|ing)|ris(?:e|en|ing)|rose)"
                       # the measure may stand after the verb: "grow revenue faster than
                       # noninterest expense" (at most four words, no preposition among them:
                       # "rise to more than its depreciation" compares levels)
                       r"\s+(?:(?!(?:than|to|by|at|in|on|for|of|over|from|above|below)\b)"
                       r"[a-z&'-]+\s+){0,4}?(?:at\s+a\s+)?"
                       r"(?P<way>faster|more quickly|more|slower|more slowly|"
                       r"less)(?:\s+rate)?\s+than\b(?!\s*(?:\$?\d|once|twice|one|two|three|"
                       r"four|five|ten|a\b|an\b))")
OUTPACE_RE = re.compile(r"\b(?:outpac(?:e|ed|es|ing)|outgr(?:ow|ew|own|ows))\b")
# "did dividends paid exceed free cash flow", "was capex higher than depreciation"
LEVEL_RE = re.compile(r"\b(?:(?P<above>exceed(?:ed|s)?|surpass(?:ed|es)?|(?:higher|greater|"
                      r"larger|more)\s+than)|(?P<below>(?:lower|less|smaller)\s+than))\b"
                      r"(?!\s*\$?\d)")
YES_NO_RE = re.compile(r"^\s*(?:did|does|do|has|have|had|is|are|was|were)\b")
# the sum of line items asked together: "What was its total goodwill and intangible asset
# impairment?", "... in total?", "combined"
_TOTAL_RE = re.compile(r"\b(?:total|combined|together|altogether|sum)\b")


class Comparison(BaseModel):
    """A yes or no comparing two measures by their ``growth`` or their ``level``, asking
    whether the first is above (``more``) or below the second. ``first`` and ``second`` are
    vocabulary keys when each side is one line item of one unit, else None: the comparison is
    still asked, and one side alone never answers it."""

    by: Literal["growth", "level"]
    more: bool
    first: str | None = None
    second: str | None = None
    written: dict[str, str] = {}  # each measure's words as asked: its row printed so first

    @property
    def measures(self) -> tuple[str, str] | None:
        """The two line items compared, when both are known."""
        return (self.first, self.second) if self.first and self.second else None


def comparison_asked(text: str) -> Comparison | None:
    """The comparison of two measures a yes/no question asks, or None (no comparison word)."""
    asking = text.split("?")[0]
    norm = normalize(asking)
    if not YES_NO_RE.match(norm):
        return None
    found = GROWTH_RE.search(norm) or OUTPACE_RE.search(norm)
    by: Literal["growth", "level"] = "growth"
    if found is None:
        found, by = LEVEL_RE.search(norm), "level"
    if found is None:
        return None
    way = found.groupdict().get("way")
    more = not (way in ("slower", "more slowly", "less") or found.groupdict().get("below"))
    comparison = Comparison(by=by, more=more)
    terms = terms_in(asking, facts_only=True, qualified=False)
    split = found.start("way") if found.groupdict().get("way") else found.start()
    before = [t for t in terms if t.end <= split]
    after = [t for t in terms if t.start >= found.end()]
    if len(before) != 1 or not after or not _comparable(before[0], after[0]):
        return comparison if by == "growth" else None
    return comparison.model_copy(update={
        "first": before[0].name, "second": after[0].name,
        "written": {t.name: norm[t.start:t.end] for t in (before[0], after[0])}})


def _comparable(first: TermMatch, second: TermMatch) -> bool:
    """Two different measures of one unit that grows: dollars, or dollars per share (dividends
    per share against EPS); a ratio's growth against another's is no analyst's comparison."""
    defs = load_vocabulary()
    units = {defs.metrics[t.name].unit if t.name in defs.metrics else
             defs.concepts[t.name].unit for t in (first, second)}
    return first.name != second.name and units in ({"USD"}, {"USD/share"})


def total_asked(text: str) -> bool:
    """Whether a question asks the sum of the line items it names: a word of a total that is no
    part of a term's own name ("total revenues and net income" asks no sum)."""
    norm = normalize(text)
    spans = [(t.start, t.end) for t in terms_in(text)]
    return any(not any(a <= m.start() < b for a, b in spans)
               for m in _TOTAL_RE.finditer(norm))
