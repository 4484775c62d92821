"""A quoted first sentence read on into the next one when the filing goes on there with the same
subject and states more of what it amounts to.

Filers state a thing and its size over two sentences as often as in one: "The Company estimates
an investment in excess of $1 billion of capital expenditures ..." then "Additionally, the
Company estimates annual operating expenses of approximately $50 million ..." (American Water's
Q2 2023 10-Q); an agreement's price per share, then "This represents ... a transaction value of
approximately $4.4 billion" (Lockheed Martin's 2020 10-K). A quote that stops at the first gives
half the amounts the filer states about the thing asked. The next sentence goes on with it when,
past a linking adverb ("Additionally,") or a time phrase ("In 2021,"), it opens on the same
subject (the filer, "it", "this", "these": ``core/text/sentences.SAME_SUBJECT_RE``, the rule
:func:`~rag_assets.core.generation.yes_no.with_its_amount` reads a yes or no's amount by), prints
an amount the first does not, and names no year that neither the first nor the question names.
The two are joined into one first sentence, each cited on its page.
"""

from __future__ import annotations

from rag_assets.core.generation.claims import claim_of
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import runs_figures_on
from rag_assets.core.generation.records import Claim
from rag_assets.core.question.question import Question
from rag_assets.core.text.figures import AMOUNT_STATED_RE
from rag_assets.core.text.periods import TIME_OPENING_RE
from rag_assets.core.text.sentences import LINKING_ADVERB_RE, SAME_SUBJECT_RE, joined
from rag_assets.core.text.years import years_in

# a longer next sentence is a paragraph of its own, no continuation of the first
MAX_CONTINUATION_WORDS = 60


def amounts_stated(text: str) -> set[str]:
    """The amounts a text prints, as printed ("$1 billion", "21%")."""
    return {" ".join(m.group(0).split()) for m in AMOUNT_STATED_RE.finditer(text)}


def opens_on_same_subject(sentence: str) -> bool:
    """Whether a sentence, past a linking adverb and a time phrase, opens on the subject of
    the one before it ("Additionally, the Company estimates ...", "In 2021, the Company expects
    ...", "This represents ...")."""
    rest = TIME_OPENING_RE.sub("", LINKING_ADVERB_RE.sub("", sentence.strip()))
    return bool(SAME_SUBJECT_RE.match(rest))


def continues(question: Question, lead: EvidenceUnit, after: EvidenceUnit) -> bool:
    """Whether ``after``, the sentence printed after ``lead``, goes on with its subject and
    states more of what it amounts to (the module's rule)."""
    if lead.is_row or after.is_row or runs_figures_on(after.text):
        return False
    if len(after.text.split()) > MAX_CONTINUATION_WORDS:
        return False
    if not amounts_stated(after.text) - amounts_stated(lead.text):
        return False
    if set(years_in(after.text)) - set(years_in(lead.text)) - set(question.years):
        return False
    return opens_on_same_subject(after.text)


def continued_claim(lead: EvidenceUnit, after: EvidenceUnit) -> Claim:
    """The two sentences as one claim (:func:`~rag_assets.core.text.sentences.joined`), each
    citation standing for its own sentence, the first's stitched definitions kept."""
    first, then = claim_of(lead), claim_of(after)
    citations = [c.model_copy(update={"supports": c.supports or lead.text})
                 for c in first.citations]
    citations += [c.model_copy(update={"supports": c.supports or after.text})
                  for c in then.citations]
    return Claim(text=joined(first.text, then.text), citations=citations)
