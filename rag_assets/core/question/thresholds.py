"""The level a yes or no question asks a value or a move against, read once with the question.

"Is its effective tax rate above the 21% statutory rate?", "Did net income exceed $1 billion?",
"Did its margin expand by more than 50 basis points?", "Did revenue fall to less than $7
billion?": the side asked, the level in the question's own unit (percent, points, dollars with
their scale word applied, or a plain number), and whether the level is one a move reached or
the size of the move. :class:`~rag_assets.core.question.question.Question` carries it; the
metric engine compares the computed value or move with it (``Threshold.holds``). A year is no
level ("above 2021 levels"). Plain Python.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from rag_assets.core.text.figures import SCALE_WORDS
from rag_assets.core.text.years import years_in


class Threshold(BaseModel):
    """A level a yes or no asks the value against: "above 21%", "at least 1.5", "more than $5
    billion"."""

    above: bool = Field(description="asked above (or at least) the level; False: below it")
    inclusive: bool = Field(default=False, description="'at least', 'at most'")
    level: float = Field(description="the level as written, a percent as its number (21)")
    percent: bool = Field(description="written with a percent sign or word")
    money: bool = Field(default=False, description="an amount of money ('$1 billion', '500 "
                        "million'): its level in dollars, compared with amounts only")
    reached: bool = Field(default=False, description="the level a move reached ('rose to more "
                          "than $10 billion'), not the size of the move ('rose by more than')")
    points: bool = Field(default=False, description="a move of a percentage in its points ('50 "
                         "basis points', '1 percentage point'): ``level`` in points (0.5, 1)")
    shown: str = Field(description="as written: '21%', '1.5', '$1 billion'")

    def holds(self, value: float, level: float) -> bool:
        """Whether ``value`` is on the side of ``level`` asked ("at least" takes the level)."""
        if self.above:
            return value >= level if self.inclusive else value > level
        return value <= level if self.inclusive else value < level


# a level a yes or no compares a value with: "above the 21% federal statutory rate", "at least
# 1.5 times", "more than $5 billion" (an amount: in dollars, its scale word applied); a year is
# no level
_THRESHOLD_RE = re.compile(
    r"\b(?P<op>above|over|more than|greater than|higher than|exceed(?:s|ed|ing)?|at least|"
    r"below|under|less than|lower than|at most)\s+(?:the\s+|a\s+)?(?P<cur>\$\s?)?"
    r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:\s*(?P<scale>thousand|million|billion|trillion)s?\b)?"
    r"\s*(?:(?P<bp>basis\s+points?\b|bps?\b)|(?P<pp>percentage\s+points?\b|pp\b)|"
    r"(?P<pct>%|percent\b))?", re.IGNORECASE)


def threshold_asked(asking: str) -> Threshold | None:
    """The level a yes or no question asks the value against, or None."""
    found = _THRESHOLD_RE.search(asking)
    if found is None or (not (found["pct"] or found["cur"]) and years_in(found["n"])):
        return None  # "above 2021 levels": a year, no level
    op = found["op"].lower()
    points = bool(found["bp"] or found["pp"])
    money = bool(found["cur"] or found["scale"]) and not (found["pct"] or points)
    scale = SCALE_WORDS[found["scale"].lower()] if money and found["scale"] else 1.0
    shown = (f"${found['n']}{' ' + found['scale'].lower() if found['scale'] else ''}" if money
             else f"{found['n']} {(found['bp'] or found['pp']).lower()}" if points
             else f"{found['n']}{'%' if found['pct'] else ''}")
    level = float(found["n"].replace(",", "")) * scale / (100 if found["bp"] else 1)
    reached = re.search(r"\bto\s*$", asking[:found.start()]) is not None
    return Threshold(above=not op.startswith(("below", "under", "less", "lower", "at most")),
                     inclusive=op.startswith("at "), reached=reached, level=level,
                     percent=bool(found["pct"]), money=money, points=points, shown=shown)
