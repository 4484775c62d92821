"""A required disclosure the whole filing does not make: the part abstains and says what it
looked for, instead of quoting a sentence on something else.

Some disclosures are required only when there is something to disclose: ASC 280-10-50-42 has
a filer state each customer of 10% or more of its revenue, so a filing with none often says
nothing at all. A question that asks for one ("Which customers accounted for 10% or more of
3M's net sales?") of such a filing used to be answered with the best-ranked sentence on
customers, a quote that answers nothing. The intent lexicon's ``unfound`` entry says what the
question looks like and the forms it is asked in, the sentences that would state the
disclosure (with the intent's ``affirms``, ``denies`` and ``none_other``) and the rule that
requires it; every page of the filing is scanned, and only a filing with none of them makes
the part abstain. A looser
sentence anywhere ("10% of the revenue generated from customers") and the part quotes as
before: the reader may have missed a wording, and the filing is not blamed for it.

A figure asked of a line item that no page of a current report names in any of the
vocabulary's words for it ("What was Costco's net income reported in its 8-K dated August 9,
2023?" of a dividend announcement) is not in that filing either: the part says so rather
than quote. Every filing the part read is scanned; one that states it, and the part quotes.

Guidance is no required disclosure, but a release that gives one prints it under its own
heading or in a sentence of what the company expects; a release with neither (the safe
harbor's list of words aside) gave none, and "What outlook did Costco give?" is told so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rag_assets.core.generation.direct_rows import Scan
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.yes_no import compiled
from rag_assets.core.question.intents import load_intents
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import (
    load_vocabulary,
    normalize,
    phrase_pattern,
    phrases_of,
)
from rag_assets.core.text.filing_kinds import form_of

CURRENT_REPORT = "8-K"
# whether a page of the filings read, its text normalized (vocabulary.normalize), matches one
Prints = Callable[[Sequence[re.Pattern[str]]], bool]


def unfound_disclosure(question: Question, filings: Sequence[EvidenceUnit], scan: Scan
                       ) -> str | None:
    """What the part looked for on every page of ``filings`` (a unit of each filing read) and
    did not find, for a question asking for a required disclosure alone (the intents it may be
    asked beside aside); None when one filing states it, or it is not asked."""
    if not filings:
        return None
    lexicon = load_intents()
    for key in question.intents:
        entry = lexicon.intents[key]
        wanted = entry.unfound
        if wanted is None or question.expects not in wanted.forms or not re.search(
                wanted.asked, question.text, re.IGNORECASE) or not set(
                question.intents) <= {key, *wanted.alongside}:
            continue
        patterns = compiled([*entry.affirms, *entry.denies, *entry.none_other, *wanted.stated])
        ignored = re.compile(wanted.ignore, re.IGNORECASE) if wanted.ignore else None
        if any(ignored is None or not ignored.search(u.text) for u in scan(patterns)):
            return None
        return f"{wanted.looked_for}, on every page of {_named(filings)}: none found " \
               f"({wanted.source})"
    return None


def unprinted_line_item(question: Question, filings: Sequence[EvidenceUnit], prints: Prints
                        ) -> str | None:
    """What the part looked for when a figure of one line item is asked of current reports
    (8-Ks: no statements of their own, unless a release attached prints them) and no page of
    ``filings`` (their text, tables included) names the item in any of the vocabulary's words
    for it; None when one does, or another question is asked. A 10-K, a 10-Q or a release
    prints its statements, whose labels vary beyond the vocabulary's words ("Total selling and
    administrative expense"): a label missed would blame the filing."""
    vocabulary = load_vocabulary()
    if not filings or any(form_of(u.document, "") != CURRENT_REPORT for u in filings) or (
            question.expects != "figure" or len(question.metrics) != 1) or (
            entry := vocabulary.concepts.get(question.metrics[0])) is None:
        return None
    names = list(dict.fromkeys([*(normalize(item) for item in entry.line_items),
                                *phrases_of(question.metrics[0], entry)]))
    if prints([phrase_pattern(_singular(name)) for name in names]):
        return None
    return f"{entry.title} (as {', '.join(repr(n) for n in names[:4])} or another of its " \
           f"names), on every page of {_named(filings)}: none names it"


def _named(filings: Sequence[EvidenceUnit]) -> str:
    """The filings read, as the abstention names them ("costco-8k-2023-08-09 2023")."""
    return " and ".join(f"{u.document} {u.year}" for u in filings)


def _singular(phrase: str) -> str:
    """The phrase with each plural word in the singular, which the phrase pattern takes in
    both numbers ("dividends declared" matches "a dividend declared"); a name missed is a
    filing blamed, so its matching errs toward finding it."""
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(
        ("ss", "us", "is")) else w for w in phrase.split())
