"""The measure a yes/no question asks the move of, when only prose names it.

"Did JPMorgan Chase grow its average deposits in Q2 2023?" asks whether a measure went up that
no statement prints and the finance vocabulary does not hold: a bank's average deposits, a
backlog, paid memberships. The filing states such a measure's move in MD&A or a release
("Firmwide average deposits of $2.4 trillion were down 6%"), and the stated-move reader answers
from that sentence once it knows the measure's words. They are read from the question's grammar,
never from a list of measures: the object of the verb of direction ("grow its average
deposits") or the subject that verb follows ("Did Netflix's paid memberships increase ...?").
A vocabulary term or a qualified measure is read elsewhere (the metric engine, the qualified
measures), so this is asked only when neither is named. Plain Python.
"""

from __future__ import annotations

import re

_AUX = r"(?:did|does|do|has|have|had|is|are|was|were)"
_UP_DOWN = (r"(?:gr[eo]w\w*|increas\w*|rais\w*|r[io]s[ei]\w*|expand\w*|improv\w*|reduc\w*|"
            r"decreas\w*|cut|lower\w*|shr[iu]nk\w*|declin\w*|f[ae]ll\w*|drop\w*)")
# a measure's words: one to four lower-case words, up to the period, comparison or clause after
_MEASURE = r"(?P<measure>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}?)"
_AFTER = (r"(?=\s+(?:in|during|for|from|over|between|as|compared|versus|year|since|at|by|"
          r"through|on|after|before|quarter)\b|\s*[,?(]|\s*$)")
# "Did <company> grow its average deposits ...?"
_OBJECT_RE = re.compile(rf"^{_AUX}\s+\S[^?]*?\s+{_UP_DOWN}\s+(?:its|their)\s+{_MEASURE}{_AFTER}")
# "Did <company>'s paid memberships increase ...?"
_SUBJECT_RE = re.compile(rf"^{_AUX}\s+[^?]*?['’]s?\s+{_MEASURE}\s+{_UP_DOWN}\b")
# words that name no measure of their own: a pronoun's object, a period, the company itself
_NO_MEASURE_RE = re.compile(r"^(?:business|company|firm|operations|results|performance|"
                            r"position|profile|it|them|this|that)\b")


def moved_measure(text: str) -> str | None:
    """The words of the measure whose move a yes/no question asks ("average deposits"), or
    None when its grammar names none."""
    asking = text.strip()
    for pattern in (_OBJECT_RE, _SUBJECT_RE):
        found = pattern.match(asking[:1].lower() + asking[1:])
        if found is not None:
            measure = " ".join(found["measure"].split())
            return None if _NO_MEASURE_RE.match(measure) else measure
    return None
