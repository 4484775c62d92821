"""Yes or no from the sentence that states it, then that sentence.

A yes/no question about a matter a filing must disclose ("Does X depend on a few major
customers?", "Did X buy back shares in Q3?") is answered by the polarity of the sentence that
discloses it: ``intent_lexicon.json`` gives, per intent, the patterns of a sentence that states
yes (``affirms``: "Walmart ... accounted for 21 percent of our consolidated net sales") and no
(``denies``: "no customer accounted for 10% or more", "temporarily suspended share
repurchases"), each with its source. The sentence is looked for in the evidence the engine
selected, then in the rest of the part's evidence, then on every page of the filing (a filing
prints such a sentence once, often where retrieval did not look); a sentence that names years
but not the one asked, or a period of another length, does not answer. No sentence, no yes or
no: the quotes stand alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from rag_assets.core.generation.continued_quotes import continues
from rag_assets.core.generation.direct_rows import DirectAnswer, Scan
from rag_assets.core.generation.drivers import Adjacent, stated_direction
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import names_measure, words
from rag_assets.core.question.intents import IntentEntry, load_intents
from rag_assets.core.question.question import Question
from rag_assets.core.text.figures import AMOUNT_STATED_RE
from rag_assets.core.text.periods import listed_months, months_asked
from rag_assets.core.text.sentences import LINKING_ADVERB_RE, SAME_SUBJECT_RE, joined
from rag_assets.core.text.years import year_mentions, years_in

# the text a page prints just before a unit (for ``stated_near``), and every sentence of the
# filing the units are from that any of the patterns may match (read only when needed)
Before = Callable[[EvidenceUnit], str]


def disclosure_entries(question: Question) -> list[IntentEntry]:
    """The question's intents whose lexicon says which sentences state yes and which no, but
    one the question asks of another party ("a single supplier" is no customer)."""
    intents = load_intents().intents
    return [entry for k in question.intents if ((entry := intents[k]).affirms or entry.denies)
            and not (entry.other_party
                     and re.search(entry.other_party, question.text, re.IGNORECASE))]


def compiled(patterns: Sequence[str]) -> list[re.Pattern[str]]:
    """An intent's patterns as the lexicon documents them: case-insensitive."""
    return [re.compile(p, re.IGNORECASE) for p in patterns]


def polarity(entry: IntentEntry, sentence: str, before: str = "") -> bool | None:
    """True when the sentence states yes, False no, None neither (or not about the intent:
    ``stated_near`` found in neither the sentence nor the text before it)."""
    if entry.stated_near and not (re.search(entry.stated_near, sentence, re.IGNORECASE)
                                  or re.search(entry.stated_near, before, re.IGNORECASE)):
        return None
    if any(p.search(sentence) for p in compiled(entry.denies)):
        return False
    if any(p.search(sentence) for p in compiled(entry.affirms)):
        return True
    return None


def of_the_period(question: Question, sentence: str) -> bool:
    """Whether the sentence may speak of the period asked: no year named, or one asked; no
    period of another length named ("during the nine months" does not say what the third
    quarter did), unless it lists the length asked beside it."""
    named = years_in(sentence)
    if named and question.years and not set(named) & set(question.years):
        return False
    months = months_asked(sentence)
    # "during the three and six months ended June 30, 2023" speaks of the quarter too
    return months in (12, question.months) or question.months in (listed_months(sentence) or [])


def candidates(selected: Sequence[EvidenceUnit], pool: Sequence[EvidenceUnit],
               scan: Scan | None, patterns: Sequence[re.Pattern[str]]
               ) -> Iterable[EvidenceUnit]:
    """Where a disclosure is looked for: the evidence selected, the part's other evidence,
    then every sentence of the filing that ``patterns`` match (a filing prints it once, often
    where retrieval did not look)."""
    yield from selected
    yield from pool
    if scan is not None:
        yield from scan(patterns)


def names_qualified(question: Question, sentence: str) -> bool:
    """Whether the sentence names a measure the question qualifies, when it qualifies one, of a
    year asked: "Did Costco pay a special dividend in FY2018?" is answered by a sentence of a
    special dividend, never by one of its quarterly dividend, and the year printed nearest the
    measure is the one it is of ("$8.90 per share in 2017, which included a special cash
    dividend" is 2017's). The measure's words are matched by their roots (:func:`names_measure`)."""
    if not question.qualified:
        return True
    lowered = sentence.lower()
    for measure in question.qualified:
        if names_measure(measure, sentence):
            at = re.search(rf"\b{re.escape(words(measure)[0][:5])}", lowered)
            years = [(abs(offset - at.start()), year)
                     for year, offset in year_mentions(lowered)] if at else []
            if not years or not question.years or min(years)[1] in question.years:
                return True
    return False


def prose_yes_no(question: Question, selected: Sequence[EvidenceUnit],
                 pool: Sequence[EvidenceUnit] = (), before: Before | None = None,
                 scan: Scan | None = None) -> DirectAnswer | None:
    """"Yes." or "No." and the sentence that says it, or None: of the evidence's sentences, the
    first that says either, or a later one that says the same and prints the amount it is of
    ("Yes" to "Does it pay a dividend?" with the sentence that states the dividend per share,
    not only the one that says the board declares them); else the filing's first."""
    if question.expects != "yes_no" or question.compares_growth:
        return None  # one measure's move is no answer to whether it outgrew another
    entries = disclosure_entries(question)
    if not entries:
        return None
    patterns = [p for e in entries for p in compiled([*e.affirms, *e.denies])]

    asks_change = bool(question.phrased("change"))

    def said(unit: EvidenceUnit) -> bool | None:
        if unit.is_row or not of_the_period(question, unit.text) \
                or not names_qualified(question, unit.text):
            return None
        if asks_change and stated_direction(unit.text) is None:
            return None  # "declared a quarterly dividend of $0.28" says no dividend changed
        context = before(unit) if before else ""
        return next((s for e in entries if (s := polarity(e, unit.text, context)) is not None),
                    None)

    # the evidence first, where a later sentence of the same answer may print its amount; the
    # filing's other sentences only when the evidence says neither, and then its first (a
    # sentence far from the question saying "dividends" may be of a partner's dividends)
    stated = [(u, s) for u in [*selected, *pool] if (s := said(u)) is not None]
    found = next(((u, s) for u, s in stated if s == stated[0][1]
                  and AMOUNT_STATED_RE.search(u.text)), stated[0]) if stated else next(
        ((u, s) for u in (scan(patterns) if scan else ()) if (s := said(u)) is not None), None)
    if found is None:
        return None
    unit, yes = found
    if question.phrased("stopped"):
        # "Did it pause buybacks?": "temporarily suspended share repurchases" says yes; a
        # payment says nothing of a later stop, and "never paid any" of none to stop
        if yes or not STOPPED_STATED_RE.search(unit.text):
            return None
        yes = True
    return DirectAnswer(kind="yes_no", units=[unit], supports=unit.text,
                        text=f"{'Yes' if yes else 'No'}. {unit.text}")


# a disclosure that says something stopped: "temporarily suspended share repurchases"
STOPPED_STATED_RE = re.compile(r"\b(?:paused|suspend(?:ed|s)?|stopped|halted|ceased|"
                               r"discontinued|eliminated)\b", re.IGNORECASE)


# what a denial says when it says the amount is none ("have not declared or paid any", "no
# shares were repurchased"), not that it stopped ("suspended share repurchases")
NONE_AT_ALL_RE = re.compile(r"\b(?:no|not|never)\b", re.IGNORECASE)


def stated_none(question: Question, selected: Sequence[EvidenceUnit],
                pool: Sequence[EvidenceUnit] = (), before: Before | None = None,
                scan: Scan | None = None) -> DirectAnswer | None:
    """"None." and the sentence that says so, for a figure asked of one disclosure whose
    denial means the amount is none (``nothing_paid``: "How much did Netflix pay in dividends
    per share?" and "We have not declared or paid any cash dividends"); the statements had no
    line for it, or the facts route would have answered. None otherwise."""
    entries = disclosure_entries(question)
    if question.expects != "figure" or len(entries) != 1 or not entries[0].nothing_paid:
        return None
    entry = entries[0]
    for unit in candidates(selected, pool, scan, compiled(entry.denies)):
        if unit.is_row or not of_the_period(question, unit.text):
            continue
        said = polarity(entry, unit.text, before(unit) if before else "")
        if said is False and NONE_AT_ALL_RE.search(unit.text):
            return DirectAnswer(kind="none", units=[unit], supports=unit.text,
                                text=f"None. {unit.text}")
    return None


def with_its_amount(found: DirectAnswer | None, preceding: Adjacent | None = None,
                    following: Adjacent | None = None, years: Sequence[int] = ()
                    ) -> DirectAnswer | None:
    """A yes or no whose sentence prints no amount, completed by the sentence beside it that
    prints what the event amounts to: the one before when the sentence goes on from it
    ("Furthermore, the Board ... determined to suspend our ongoing regular dividends" after
    "... had authorized a new $2.0 billion share repurchase plan"), else the one after when it
    goes on with the same subject ("We expect to receive net proceeds of approximately $84
    million" after the agreement to sell). One that prints an amount, completed by the sentence
    after it when that one refers back to it and states more of what it amounts to, as a quote
    is (:func:`continued_quotes.continues`; ``years`` the question's). An analyst's yes comes
    with its figures; the two sentences are joined into the first, each cited. Anything else
    is returned as it is."""
    if found is None or found.kind != "yes_no" or len(found.units) != 1:
        return found
    unit = found.units[0]
    if unit.is_row or not found.text.endswith(unit.text):
        return found
    after = following(unit) if following else None
    if AMOUNT_STATED_RE.search(unit.text):
        if after is None or not continues(years, unit, after):
            return found
        return _joined_with(found, unit, after)
    before = preceding(unit) if preceding and LINKING_ADVERB_RE.match(unit.text) else None
    if before is not None and AMOUNT_STATED_RE.search(before.text):
        beside = before
    elif after is not None and SAME_SUBJECT_RE.match(after.text) and AMOUNT_STATED_RE.search(
            after.text):
        beside = after
    else:
        return found
    return _joined_with(found, unit, beside)


def _joined_with(found: DirectAnswer, unit: EvidenceUnit, beside: EvidenceUnit) -> DirectAnswer:
    """The answer with ``beside`` joined to its sentence, each cited."""
    opening = found.text[:len(found.text) - len(unit.text)]
    return found.model_copy(update={
        "units": [unit, beside], "supports": "",
        "text": opening + joined(unit.text, beside.text)})
