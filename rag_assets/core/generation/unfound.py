"""A required disclosure the whole filing does not make: the part abstains and says what it
looked for, instead of quoting a sentence on something else.

Some disclosures are required only when there is something to disclose: ASC 280-10-50-42 has
a filer state each customer of 10% or more of its revenue, so a filing with none often says
nothing at all. A question that asks for one ("Which customers accounted for 10% or more of
3M's net sales?") of such a filing used to be answered with the best-ranked sentence on
customers, a quote that answers nothing. The intent lexicon's ``unfound`` entry says what the
question looks like, the sentences that would state the disclosure (with the intent's
``affirms``, ``denies`` and ``none_other``) and the rule that requires it; every page of the
filing is scanned, and only a filing with none of them makes the part abstain. A looser
sentence anywhere ("10% of the revenue generated from customers") and the part quotes as
before: the reader may have missed a wording, and the filing is not blamed for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import Scan
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.yes_no import compiled
from rag_assets.core.question.intents import load_intents
from rag_assets.core.question.question import Question

ASKING_FORMS = frozenset({"names", "yes_no"})  # "which customers ...?", "is it reliant on ...?"


def unfound_disclosure(question: Question, units: Sequence[EvidenceUnit], scan: Scan
                       ) -> str | None:
    """What the part looked for on every page of the filing of ``units`` and did not find, for
    a question asking for a required disclosure; None when it is found, or not asked."""
    if not units or question.expects not in ASKING_FORMS:
        return None
    lexicon = load_intents()
    for key in question.intents:
        entry = lexicon.intents[key]
        wanted = entry.unfound
        if wanted is None or not re.search(wanted.asked, question.text, re.IGNORECASE):
            continue
        patterns = compiled([*entry.affirms, *entry.denies, *entry.none_other, *wanted.stated])
        if next(iter(scan(patterns)), None) is not None:
            return None
        filing = f"{units[0].document} {units[0].year}"
        return f"{wanted.looked_for}, on every page of {filing}: none found ({wanted.source})"
    return None
