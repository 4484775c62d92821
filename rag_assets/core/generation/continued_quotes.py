"""A quoted first sentence read on into the next one when the filing goes on there with the same
subject and states more of what it amounts to.

Filers state a thing and its size over two sentences as often as in one: an agreement's price
per share, then "This represents a post-dividend equity value of approximately $4.6 billion ...
and a transaction value of approximately $4.4 billion" (Lockheed Martin's 2020 10-K). A quote
that stops at the first gives half the amounts the filer states about the thing asked. The next
sentence goes on with it when, past a linking adverb ("Additionally,") or a time phrase ("In
2021,"), it opens on a subject that refers back ("this", "these", "such", "it", "they":
``core/text/sentences.REFERS_BACK_RE``), prints an amount the first does not, and names no year
that neither the first nor the question names. The two are joined into one first sentence, each
cited on its page.

A sentence that opens on the filer ("we", "the Company") is not read on into, though it may go on
with the same matter ("Additionally, the Company estimates annual operating expenses of
approximately $50 million" after its PFAS capital estimate): most of a filing's sentences open so
whatever they state, and about a third of those after an amount state another matter ("... $2.7
billion gain on the sale of Bellagio; additionally, the Company recorded loss on early retirement
of debt of $142 million"). Nor is an item of a list (a bullet mark first).
"""

from __future__ import annotations

from collections.abc import Sequence

from rag_assets.core.generation.claims import claim_of
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import runs_figures_on
from rag_assets.core.generation.records import Claim
from rag_assets.core.text.figures import AMOUNT_STATED_RE
from rag_assets.core.text.periods import TIME_OPENING_RE
from rag_assets.core.text.sentences import LINKING_ADVERB_RE, REFERS_BACK_RE, joined
from rag_assets.core.text.years import years_in

# a longer next sentence is a paragraph of its own, no continuation of the first
MAX_CONTINUATION_WORDS = 60


def amounts_stated(text: str) -> set[str]:
    """The amounts a text prints, as printed ("$1 billion", "21%")."""
    return {" ".join(m.group(0).split()) for m in AMOUNT_STATED_RE.finditer(text)}


def opens_on_same_subject(sentence: str) -> bool:
    """Whether a sentence, past a linking adverb and a time phrase, opens on a subject that
    refers back to the one before it ("This represents ...", "In 2021, these ...";
    :data:`~rag_assets.core.text.sentences.REFERS_BACK_RE`): never on the filer alone ("we",
    "the Company"), which opens most of a filing's sentences whatever they state, nor on an
    item of a list."""
    rest = TIME_OPENING_RE.sub("", LINKING_ADVERB_RE.sub("", sentence.strip()))
    return bool(REFERS_BACK_RE.match(rest))


def continues(asked_years: Sequence[int], lead: EvidenceUnit, after: EvidenceUnit) -> bool:
    """Whether ``after``, the sentence printed after ``lead``, goes on with its subject and
    states more of what it amounts to (the module's rule; ``asked_years`` the question's)."""
    if lead.is_row or after.is_row or runs_figures_on(after.text):
        return False
    if len(after.text.split()) > MAX_CONTINUATION_WORDS:
        return False
    if not amounts_stated(after.text) - amounts_stated(lead.text):
        return False
    if set(years_in(after.text)) - set(years_in(lead.text)) - set(asked_years):
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
