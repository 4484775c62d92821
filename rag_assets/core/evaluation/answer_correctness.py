"""Whether an answer gives a reference answer (FinanceBench): figures within rounding in the
reference's units, else content-word recall; leniently anywhere in the answer
(:func:`answer_correct`) or strictly in its lead, the first sentence
(:func:`strict_answer_correct`: a correct figure lost in a long quote is not an answer, the rule
``make bench-real`` reports first).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from rag_assets.core.evaluation.answer_lexicon import SCALES, Figure, content_words, figures
from rag_assets.core.text.sentences import sentence_ends

REFERENCE_WORD_RECALL = 0.6
RELATIVE_TOLERANCE = Decimal("0.005")
_UNITS = (Decimal(1), Decimal(10) ** 3, Decimal(10) ** 6, Decimal(10) ** 9)
_NEGATIVE_WORDS = re.compile(
    r"\b(?:negative|deficit|loss(?:es)?|decreas(?:e|ed|es)|declin(?:e|ed|es)|fell|down|"
    r"shortfall|outflow)\b", re.IGNORECASE)


# ----------------------------------------------------------------------------- answer correctness

_QUESTION_UNIT = re.compile(
    r"\bin\s+(?:units\s+of\s+)?(?:usd|us\$|\$|dollars)?\s*(thousands|millions|billions)\b",
    re.IGNORECASE)
_POLARITY = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)


def _round_to(value: Decimal, decimals: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def _candidates(answer: Figure, reference: Figure, reference_scale: Decimal | None
                ) -> list[Decimal]:
    """The answer figure's value in the reference's units (several when a unit is unknown)."""
    if reference.is_year or answer.is_year:
        return [answer.value] if reference.is_year and answer.is_year else []
    if reference.percent:
        if answer.percent:
            return [answer.value]
        return [] if answer.scale else [answer.value * 100]  # a fraction: 0.019 is 1.9 %
    if answer.percent:
        return [answer.value / 100]
    if answer.scale is None:
        return [answer.value]
    if reference_scale is not None:
        return [answer.value * answer.scale / reference_scale]
    return [answer.value * answer.scale / unit for unit in _UNITS]


def _figure_matches(answer: Figure, reference: Figure, reference_scale: Decimal | None,
                    answer_says_negative: bool, reference_says_negative: bool = False) -> bool:
    if reference.negative:
        if not (answer.negative or answer_says_negative):
            return False
    elif answer.minus and not reference_says_negative:
        return False
    for value in _candidates(answer, reference, reference_scale):
        if _round_to(value, reference.decimals) == reference.value:
            return True
        if reference.value and abs(value - reference.value) <= (
                RELATIVE_TOLERANCE * reference.value):
            return True
        if not reference.value and value == 0:
            return True
    return False


def answer_correct(answer_text: str, reference_answer: str, question: str | None = None) -> bool:
    """Whether an answer gives a FinanceBench reference answer.

    Rule:

    1. polarity: when the reference opens with "Yes" or "No", an answer that opens with the other
       one is wrong;
    2. figures (:func:`figures`): years (``FY 2022``) and a date's day (``September 8, 2021``)
       are labels, the when of an amount, and left out unless the reference has no other
       figure (then its days count, and its years when it has nothing else: ``October 1``).
       Every reference figure must be matched by some figure of the answer, compared in the
       reference's units: the answer's value, converted, either
       rounds (half up) to the reference's printed precision and equals it (``24.257`` or
       ``24.26`` for ``24.26``; ``0.0126`` for ``0.01``), or is within 0.5 % of it (``$1.83
       billion`` for ``1832.00`` in millions). Units: ``%`` against ``%``; a plain fraction
       against a percentage is multiplied by 100 (``0.019`` is ``1.9%``) and a percentage
       against a plain reference divided by 100 (``1.0%`` is ``0.01``). Scale words are applied
       (``$1,577 million``, ``$1.58 billion``, ``1577.00``); the reference's scale is its own
       scale word, else the one the ``question`` asks for ("Answer in USD millions"), else
       unknown, and then an answer figure with a scale word matches in any of units, thousands,
       millions or billions. An answer figure without a scale word is read in the reference's
       units. Sign: a negative reference figure (minus or parentheses) needs a negative answer
       figure or a word of negativity in the answer ("negative", "deficit", "loss", "decline",
       ...), and a figure with a minus sign matches a reference that says its negativity in
       words ("Negative $200 million", "a decline of 3%") but no other;
    3. a reference without figures (a yes/no or text answer) is matched when at least 60 % of its
       content words (:func:`content_words`) occur in the answer.
    """
    reference_figures = figures(reference_answer)
    polarity = _POLARITY.match(reference_answer)
    given = _POLARITY.match(answer_text)
    if polarity and given and polarity.group(1).lower() != given.group(1).lower():
        return False
    amounts = ([f for f in reference_figures if not f.is_label]
               or [f for f in reference_figures if not f.is_year] or reference_figures)
    if not amounts:
        wanted = content_words(reference_answer)
        if not wanted:
            return bool(polarity and given)
        return len(wanted & content_words(answer_text)) / len(wanted) >= REFERENCE_WORD_RECALL
    unit = _QUESTION_UNIT.search(question or "")
    answer_figures = figures(answer_text)
    says_negative = bool(_NEGATIVE_WORDS.search(answer_text))
    reference_negative = bool(_NEGATIVE_WORDS.search(reference_answer))
    for reference in amounts:
        scale = reference.scale or (SCALES[unit.group(1).lower()[:-1]] if unit else None)
        if not any(_figure_matches(a, reference, scale, says_negative, reference_negative)
                   for a in answer_figures):
            return False
    return True


# ----------------------------------------------------------------------------------- strict rule

# a citation marker as answers print it: [1], [2, invalid], [3m-10k 2018 p.56]
_CITATION_MARKER = re.compile(r"[ \t]*\[[^\[\]\n]{1,80}\]")
LEAD_JOIN_WORDS = 3


def _sentences(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        start = 0
        for end in [*sentence_ends(line), len(line)]:
            if line[start:end].strip():
                out.append(line[start:end].strip())
            start = end
    return out


def answer_lead(text: str) -> str:
    """The lead of an answer (or of a reference answer): its first sentence, citation markers
    removed.

    Rule: markers (``[1]``, ``[2, invalid]``, ``[3m-10k 2018 p.56]``) are dropped; a sentence
    ends at a line break or where the one grammar says (``core/text/sentences``:
    ``$1.83 billion``, ``U.S.``, ``Inc.`` and ``Richard A. Johnson`` do not end one). A first
    sentence of at most three words and no figure (``Yes.``, ``No.``, ``Corporate.``, a name:
    FinanceBench's own ``Corporate. Its net revenue was -$473 million.``) is read together with
    the sentence after it. Empty for an empty text."""
    sentences = _sentences(_CITATION_MARKER.sub("", text))
    if not sentences:
        return ""
    lead = sentences[0]
    if len(sentences) > 1 and not figures(lead) and len(
            re.findall(r"[^\W\d_]+", lead)) <= LEAD_JOIN_WORDS:
        lead = f"{lead} {sentences[1]}"
    return lead


def strict_answer_correct(answer_text: str, reference_answer: str,
                          question: str | None = None) -> bool:
    """Whether the answer's lead gives the reference's lead: :func:`answer_correct` (its yes/no
    polarity rule, figures within rounding in the reference's units, else content-word recall)
    applied to :func:`answer_lead` of both.

    The answer is judged on its first sentence only, so a correct figure quoted in a later
    sentence or a later line does not count; the reference is judged on its own first sentence,
    so FinanceBench's caveats after it ("The answer here assumes FY2023 refers to the 12 months
    ended on January 28, 2023 ...") ask for no figure."""
    return answer_correct(answer_lead(answer_text), answer_lead(reference_answer), question)


def strict_miss(answer_text: str, reference_answer: str, question: str | None = None) -> str:
    """Why the strict rule rejects an answer, as one word a held-out set may total without a
    question being read: ``""`` (it is right), ``"polarity"`` (the lead says yes where the
    reference says no, or the other way), ``"no polarity"`` (the reference opens with yes or
    no, the lead with neither), ``"figure"`` (a reference figure is not in the lead) or
    ``"words"`` (a figureless reference's content words are not); "later" added when the
    rest of the answer gives them (the lead's order, not the reading, is at fault)."""
    lead, reference = answer_lead(answer_text), answer_lead(reference_answer)
    if answer_correct(lead, reference, question):
        return ""
    polarity, given = _POLARITY.match(reference), _POLARITY.match(lead)
    if polarity and given and polarity.group(1).lower() != given.group(1).lower():
        return "polarity"
    later = ", later" if answer_correct(_CITATION_MARKER.sub("", answer_text), reference,
                                        question) else ""
    if [f for f in figures(reference) if not f.is_label]:
        return ("figure" if given or not polarity else "no polarity, figure") + later
    return ("words" if given or not polarity else "no polarity") + later
