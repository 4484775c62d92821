"""What drove a change that MD&A explains part by part, never as a whole.

Regulation S-K Item 303(b) lets MD&A discuss a change segment by segment where that is how the
business is understood: American Water's Q2 2023 10-Q explains its Regulated Businesses'
operating revenues ("increased $140 million, primarily due to a $110 million increase from
authorized rate increases ...") and its other businesses' ("increased $20 million ... due
primarily to the increase in capital projects ...") and never the company's $160 million. The
sentences that explain the measure's change at an amount the statements do not print for it
(:func:`drivers.parts_explained`) are its parts only when their stated changes add up to the
whole's (ASC 280-10-50-30: the segments reconcile to the consolidated total): then they lead,
each with its causes, and the sum is shown. Parts that do not add up explain nothing asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations

from rag_assets.core.generation.bridged_causes import bare_causes
from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.drivers import stated_direction
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.text.figures import MONEY_RE, SCALE_WORDS
from rag_assets.core.text.periods import listed_months, months_asked

MAX_READ = 8  # the best-ranked explained parts a sum is looked for among
SIGN = {"up": 1, "down": -1}
RESPECTIVELY_RE = re.compile(r"\brespectively\b", re.IGNORECASE)


def _stated(cause: DirectAnswer, months: int) -> tuple[float, float, str] | None:
    """The change a part's sentence states for a period of ``months``, signed by its way, in
    dollars; the half of the last digit it is printed to (its precision); and the amount as
    printed ("$140 million"). Of two periods' changes stated together ("For the three and six
    months ..., increased $20 million and $34 million, respectively"), the one asked; None
    for a sentence of another period's length."""
    way = stated_direction(cause.changed)
    amounts = [m for m in MONEY_RE.finditer(cause.changed) if m["scale"]]
    listed = listed_months(cause.changed)
    if listed is not None and RESPECTIVELY_RE.search(cause.changed) and len(amounts) == 2:
        amounts = [amounts[listed.index(months)]] if months in listed else []
    elif listed is None and months_asked(cause.changed) != months:
        return None
    amount = amounts[0] if amounts else None
    if way not in SIGN or amount is None:
        return None
    scale = SCALE_WORDS[amount["scale"]]
    decimals = len(amount["n"].partition(".")[2])
    return (SIGN[way] * float(amount["n"].replace(",", "")) * scale,
            0.5 * 10 ** -decimals * scale, amount[0].strip())


def parts_summing(whole: float, months: int, parts: Sequence[DirectAnswer]
                  ) -> DirectAnswer | None:
    """The causes of the parts whose stated changes add up to ``whole`` (the measure's change
    over ``months``, in dollars), two parts at least, the best-ranked first; None when no such
    parts are read."""
    stated = [(cause, read) for cause in parts[:MAX_READ]
              if (read := _stated(cause, months)) is not None]
    for size in range(2, len(stated) + 1):
        for chosen in combinations(stated, size):
            total = sum(read[0] for _, read in chosen)
            if abs(total - whole) <= sum(read[1] for _, read in chosen):
                # the largest part first, as a reconciliation lists its segments
                return _led(sorted(chosen, key=lambda c: -abs(c[1][0])))
    return None


def _led(chosen: list[tuple[DirectAnswer, tuple[float, float, str]]]) -> DirectAnswer:
    """One leading sentence: each part's change as printed with its causes in parentheses,
    then the sum that makes them the whole's parts."""
    said = "; ".join(f"{cause.changed.strip().rstrip(' .;,')} ({bare_causes(cause.causes)})"
                     for cause, _ in chosen)
    amounts = " + ".join(read[2] if read[0] >= 0 else f"-{read[2]}" for _, read in chosen)
    units = [_from_change(u, cause.changed) for cause, _ in chosen for u in cause.units]
    text = f"By its parts, as MD&A explains each: {said} ({amounts})."
    return DirectAnswer(kind="cause", text=text, units=units, causes=said)


def _from_change(unit: EvidenceUnit, changed: str) -> EvidenceUnit:
    """The unit quoted from the change its sentence states on: a page's text may run a
    table's headings into the sentence after it ("For the Three Months Ended June 30, ...
    (Gallons in millions) For the three months ended June 30, 2023, operating revenues
    increased $140 million, ..."), which is no part of what the cause says."""
    words = changed.split()[:6]
    at = re.search(r"\s+".join(map(re.escape, words)), unit.quote) if words else None
    if at is None or at.start() == 0:
        return unit
    return unit.model_copy(update={"quote": unit.quote[at.start():],
                                   "text": unit.text[unit.text.find(words[0]):]
                                   if words[0] in unit.text else unit.text})
