"""The deals of a period, each in the sentence that states it, as the answer's first line.

"Which acquisitions did X complete in FY2018?", "Which divestitures ...?": ASC 805-10-50-2 has a
filing name each business combination of the period with its date, and ASC 205-20 / 360-10 each
disposal, and filings state each completed deal in one sentence ("On January 1, 2022, the
Company completed the sale of its New York subsidiary"). ``intent_lexicon.json`` gives the
pattern of that sentence per kind of deal asked (``states``: a sale for "divestitures", an
acquisition for "acquisitions"), with its source. The sentences are looked for in the evidence
the engine selected, the part's other evidence, then every page of the filing; a sentence that
names years but not the one asked is of another period. The first line lists them, numbered,
as printed (at most ``MAX_DEALS``), each cited; none found, no first line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer, Scan
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.yes_no import of_the_period
from rag_assets.core.question.intents import load_intents
from rag_assets.core.question.question import Question
from rag_assets.core.text.years import years_in

MAX_DEALS = 4
MAX_SENTENCE_WORDS = 80  # a sentence longer than this is a paragraph the reader failed to split


def _patterns(question: Question) -> list[re.Pattern[str]]:
    """The patterns of the sentences that state what the question asks, by the kind asked."""
    intents = load_intents().intents
    out = []
    for key in question.intents:
        for statement in intents[key].states:
            if re.search(statement.asked, question.ranking_text, re.IGNORECASE):
                out.append(re.compile(statement.stated, re.IGNORECASE))
    return out


def _object_of(rest: str) -> str:
    """What a deal sentence names after its verb, as a key: the first name it prints ("CMD",
    "Asda"), else its first content words, lower case: "substantially all of CMD for $841
    million" and "... of CMD in two cash transactions" are one deal."""
    name = re.search(r"\b[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*)*", rest[:80])
    if name:
        return name.group(0).lower()
    words = [w for w in re.findall(r"[a-z0-9&]+", rest.lower())
             if w not in {"of", "the", "all", "its", "our", "a", "an", "substantially", "certain"}]
    return " ".join(words[:5])


def _in_period(question: Question, sentence: str) -> bool:
    """The sentence names a year asked (a deal of the period), or the question asks none, and
    no period of another length (:func:`yes_no.of_the_period`)."""
    named = not question.years or bool(set(years_in(sentence)) & set(question.years))
    return named and of_the_period(question, sentence)


def stated_deals(question: Question, selected: Sequence[EvidenceUnit],
                 pool: Sequence[EvidenceUnit] = (), scan: Scan | None = None
                 ) -> DirectAnswer | None:
    """The period's deals, each in the sentence that states it, numbered; or None."""
    if question.expects != "names":
        return None
    patterns = _patterns(question)
    if not patterns:
        return None

    def candidates() -> Iterable[EvidenceUnit]:
        yield from selected
        yield from pool
        if scan is not None:
            yield from scan(patterns)

    found: dict[str, EvidenceUnit] = {}
    deals: set[str] = set()
    for unit in candidates():
        text = " ".join(unit.text.split())
        match = next((m for p in patterns if (m := p.search(text))), None)
        if (match is None or unit.is_row or len(text.split()) > MAX_SENTENCE_WORDS
                or not _in_period(question, text)):
            continue
        deal = _object_of(text[match.end():])
        if deal in deals:  # the same deal stated again (the note, MD&A, Item 9A)
            continue
        deals.add(deal)
        found[text] = unit
        if len(found) == MAX_DEALS:
            break
    if not found:
        return None
    listed = "; ".join(f"({n}) {text.rstrip('.')}" for n, text in enumerate(found, start=1))
    units = list(found.values())
    return DirectAnswer(kind="list", units=units, text=f"{listed}.", supports=units[0].text)
