"""Yes or no to "Did X do Y?" from the evidence's sentence that states that it did, or not.

An analyst asks yes or no of what a filing says happened: "Did the shareholders ratify KPMG?"
(an 8-K's Item 5.07), "Did the court grant the FTC's motion?" (a 10-Q's legal proceedings),
"Were all of its properties open as of June 30?". No intent's lexicon names these, but the
sentence that answers prints the question's own words: of the evidence's sentences, the one
that prints most of the clause's words (at least ``MIN_SHARE`` of them, and ``MIN_WORDS``),
read in its own polarity: a negated verb ("did not", "was not") or a sentence that opens "No"
says No, and so does the opposite of one of the question's words (``event_opposites.json``:
"denied" for "grant"), each with its source. A proposal, a plan or what may happen is no event
(the vote's result is). No such sentence, no yes or no: the quotes stand alone. Hand-written:
no library here reads a clause's polarity; the rule reads only words the filing prints.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.yes_no import of_the_period
from rag_assets.core.question.question import Question

OPPOSITES_PATH = Path(__file__).with_name("event_opposites.json")
MIN_SHARE = 0.5  # of the question's words the sentence prints
MIN_WORDS = 3
STEM_CHARS = 5  # "ratify" and "ratified" share "ratif"; "approve" and "approval" "appro"
WH_WORD_RE = re.compile(r"\b(?:what|how|which|who|whom|whose|when|where|why)\b", re.I)
AUXILIARY_RE = re.compile(r"^\s*(?:did|does|do|has|have|had|is|are|was|were)\b", re.I)
# words that carry no event: function words, periods, the question's frame
_FRAME = frozenset({"the", "a", "an", "of", "to", "in", "on", "at", "for", "by", "as", "and",
    "or", "with", "from", "its", "their", "his", "her", "our", "any", "all", "per", "into",
    "under", "than", "that", "this", "these", "those", "which", "who", "whom", "what", "when",
    "whether", "there", "after", "before", "during", "since", "until", "about", "also",
    "other", "including", "based", "according", "fiscal", "year", "quarter", "quarters",
    "months", "weeks", "ended", "ending", "period", "annual", "first", "second", "third",
    "fourth", "half", "company", "company's", "companies"})
NEGATED_RE = re.compile(
    r"\b(?:did|does|do|has|have|had|was|were|is|are|will|would|could|can)\s+not\b|"
    r"\b(?:didn|doesn|hasn|haven|hadn|wasn|weren|isn|aren)['’]t\b|\bnever\b|^\s*no\b", re.I)
# a risk factor or a forward-looking statement's list of risks says what may happen
RISK_RE = re.compile(r"\bItem 1A\b|\brisks?\b|\buncertaint", re.I)
# a proposal, a plan or what may happen is no event: "the proposal to ratify ..."
UNREALIZED_RE = re.compile(r"\b(?:proposals?|plans?|intends?|seeks?|may|might|could|would|"
                           r"will)\s+(?:to\s+)?$", re.I)


@cache
def opposites() -> dict[str, tuple[str, ...]]:
    """A verb's stem and the stems of the verbs that say it did not happen."""
    data = json.loads(OPPOSITES_PATH.read_text(encoding="utf-8"))
    return {e["word"]: tuple(e["opposites"]) for e in data["opposites"]}


def _stem(word: str) -> str:
    return word.lower()[:STEM_CHARS]


def event_words(text: str) -> list[str]:
    """The lower-case words of a question (up to its question mark, after its auxiliary)
    that name the event: no capitalized name (the filer, a counterparty), no frame word, no
    number."""
    asked = AUXILIARY_RE.sub("", text.split("?")[0])
    return list(dict.fromkeys(
        w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'’-]+", asked)
        if w[0].islower() and len(w) > 2
        and re.sub(r"['’]s$", "", w.lower()) not in _FRAME))


def _printed(words: list[str], sentence: str) -> tuple[list[str], list[str]]:
    """The question's words the sentence prints (by stem), and those it prints the
    opposite of."""
    stems = {_stem(t) for t in re.findall(r"[A-Za-z][A-Za-z'’-]+", sentence)}
    said = [w for w in words if _stem(w) in stems]
    opposed = [w for w in words if w not in said and any(
        o in s for o in opposites().get(_stem(w), ()) for s in stems)]
    return said, opposed


def _unrealized(words: list[str], sentence: str) -> bool:
    """Whether every question word the sentence prints stands in a proposal or a plan."""
    lower = sentence.lower()
    spots = [m.start() for w in words for m in re.finditer(rf"\b{re.escape(_stem(w))}", lower)]
    return bool(spots) and all(UNREALIZED_RE.search(lower[max(0, at - 30):at]) for at in spots)


def stated_event(question: Question, selected: Sequence[EvidenceUnit],
                 pool: Sequence[EvidenceUnit] = ()) -> DirectAnswer | None:
    """"Yes." or "No." and the evidence's sentence that states the event asked, or None."""
    if question.expects != "yes_no" or question.way is not None or WH_WORD_RE.search(
            question.text.split("?")[0]):
        return None  # a move is the metric engine's and the move readers'; "had rates stayed
        # ..., what would its revenue have been?" asks a figure, not a yes or no
    words, core = event_words(question.text), event_words(question.clause)
    if len(words) < MIN_WORDS:
        return None
    best: tuple[int, EvidenceUnit, bool] | None = None
    for unit in [*selected, *pool]:
        if unit.is_row or not of_the_period(question, unit.text) or RISK_RE.search(
                f"{unit.scope} {unit.text}"):
            continue  # a risk says what may happen, not what did
        said, opposed = _printed(words, unit.text)
        covered = len(said) + len(opposed)
        if covered < MIN_WORDS or covered < MIN_SHARE * len(words) or not (
                set(core) & {*said, *opposed}):
            continue  # the question's own clause (its verb, its subject) must be printed
        if not opposed and _unrealized([w for w in said if w in core], unit.text):
            continue  # its own clause's words only in "the proposal to ratify ..."
        if best is None or covered > best[0]:
            best = (covered, unit, not opposed and not NEGATED_RE.search(unit.text))
    if best is None:
        return None
    _, unit, yes = best
    return DirectAnswer(kind="yes_no", units=[unit], supports=unit.text,
                        text=f"{'Yes' if yes else 'No'}. {unit.text}")
