"""Yes or no to "Did X do Y?" from the evidence's sentence that states that it did, or not.

An analyst asks yes or no of what a filing says happened: "Did the shareholders ratify KPMG?"
(an 8-K's Item 5.07), "Did the court grant the FTC's motion?" (a 10-Q's legal proceedings),
"Were all of its properties open as of June 30?". No intent's lexicon names these, but the
sentence that answers prints the question's own words: of the evidence's sentences, the one
that prints most of them (``MIN_SHARE``, at least ``MIN_WORDS``), its own clause's first word
and two thirds of that clause (``CLAUSE_SHARE``). It is read in its own polarity: a sentence
that opens "No", a negated verb, "never" or a "no" before the clause's words, or the opposite of
a question word (``event_opposites.json``: "denied" for "grant", each with its source), says
No. A proposal, a condition, what may happen, a risk or an outline's topic is no event (the
vote's result is). No such sentence, no yes or no: the quotes stand alone. Hand-written: no
library here reads a clause's polarity; the rule reads only words the filing prints.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple, cast

from rag_assets.core.generation.direct_rows import DirectAnswer, Scan
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.extractive import QUESTION_WORDS
from rag_assets.core.generation.yes_no import disclosure_entries, of_the_period
from rag_assets.core.question.question import Question
from rag_assets.core.retrieval.references import STOP_WORDS
from rag_assets.core.text.figures import AMOUNT_STATED_RE
from rag_assets.core.text.periods import MONTH_NAMES, without_occasion
from rag_assets.core.text.years import years_in

OPPOSITES_PATH = Path(__file__).with_name("event_opposites.json")
MIN_SHARE = 0.5  # of the question's words the sentence prints
CLAUSE_SHARE = 2 / 3  # of the words of the question's own clause
MIN_WORDS = 3
STEM_CHARS = 5  # "ratify" and "ratified" share "ratif"; "approve" and "approval" "appro"
WH_WORD_RE = re.compile(r"\b(?:what|how|which|who|whom|whose|when|where|why)\b", re.I)
# the size asked after the yes or no, with no verb of its own ("Did it open new warehouses in
# fiscal 2021, and how many?"): the sentence that states the event prints it
AND_HOW_MANY_RE = re.compile(r",?\s*\band\s+how\s+(?:many|much)\s*$", re.I)
AUXILIARY_RE = re.compile(r"^\s*(?:did|does|do|has|have|had|is|are|was|were)\b", re.I)
# words that carry no event: the answer engine's function and question words, and the words
# that frame a period ("in the first half of fiscal 2022")
_FRAME = STOP_WORDS | QUESTION_WORDS | frozenset({
    "quarter", "quarters", "months", "weeks", "ended", "ending", "period", "annual", "first",
    "second", "third", "fourth", "half", "during", "since", "before", "including",
    # a pronoun, and the state a deal asked of is in ("the proposed acquisition" is the deal)
    "his", "her", "proposed", "pending",
    # a predicate that only ties the filer to the matter its noun names ("involved in a tax
    # dispute with the IRS", "subject to an SEC investigation", "a party to"): the filing
    # states the matter ("U.S. Federal Income Tax Dispute ... a Statutory Notice of Deficiency
    # from the IRS"), seldom the tie
    "involved", "subject", "party", "engaged"})
NEGATED_RE = re.compile(
    r"\b(?:did|does|do|has|have|had|was|were|is|are|will|would|could|can)\s+not\b|"
    r"\b(?:didn|doesn|hasn|haven|hadn|wasn|weren|isn|aren)['’]t\b|\bnever\b", re.I)
NO_LONGER_RE = re.compile(r"\bno\s+longer\b", re.I)
OPENS_NO_RE = re.compile(r"^\W*no\b", re.I)  # "No share repurchases were completed ..."
# "no" as the determiner of the clause's noun, up to two words before it: "we have no
# off-balance sheet arrangements", "there were no material impairments" ("no longer" is read
# apart: it says something stopped)
NO_DETERMINER_RE = re.compile(r"\bno\s+(?!longer\b)(?:[\w-]+\s+){0,2}$", re.I)
SCOPE_CHARS = 40  # before the clause's word: where a negation or a condition governs it
# a risk factor or a forward-looking statement (its list of what it covers) says what may
# happen
RISK_RE = re.compile(r"\bItem 1A\b|\brisks?\b|\buncertaint|\bforward[- ]looking\b", re.I)
# a proposal, a plan, a condition or what may happen is no event: "the proposal to ratify",
# "subject to approval by the shareholders", "is expected to be completed", "If we do not"
UNREALIZED_RE = re.compile(r"\b(?:(?i:proposals?|proposed|plans?|intends?|seeks?|might|could|would|"
                           r"will|expected|expects?|subject|pending|if|upon|until|unless|"
                           r"whether)|may)\b[^.;]{0,12}$")  # "may", never the month "May"


# what a section covers, as an outline of it lists it ("Liquidity, Capital Resources and
# Financial Position — an analysis of cash flows; off-balance sheet arrangements ...", MD&A's
# overview in Coca-Cola's 2019 10-K): the topics of a discussion, no event
OUTLINE_RE = re.compile(r"(?:^|[—–:]\s*)\W*(?:an?|the)\s+(?:analysis|discussion|description|"
                        r"summary|overview|review)\s+of\b", re.IGNORECASE)


# a condition governs its clause up to a comma: "if the proposed acquisition of Seagen is
# terminated or does not close" states no termination
CONDITION_RE = re.compile(r"\b(?:if|unless|whether|in the event)\b[^,;.:]*$", re.IGNORECASE)


@cache
def _lexicon() -> dict[str, Any]:
    """``event_opposites.json``, read once for its opposites, events and equivalents."""
    return cast(dict[str, Any], json.loads(OPPOSITES_PATH.read_text(encoding="utf-8")))


@cache
def opposites() -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
    """Each verb's forms (whole words) and the forms of the verbs that say it did not
    happen: whole words, so "compliance" is no "complete" and "electric" no "elect"."""
    data = _lexicon()
    return tuple((re.compile(e["asked"], re.I), re.compile(e["opposite"], re.I))
                 for e in data["opposites"])


@cache
def events() -> tuple[re.Pattern[str], ...]:
    """Every verb ``event_opposites.json`` lists as an event, with an opposite or without one
    ("closed": what else a sentence says was terminated is no deal's closing)."""
    data = _lexicon()
    return tuple(re.compile(e["asked"], re.I) for e in [*data["opposites"], *data["events"]])


@cache
def equivalents() -> dict[str, frozenset[str]]:
    """Each word's stem and the stems of the words a filing states the same entry with
    ("book": "record", "recogn", ...; ``event_opposites.json``'s ``equivalents``)."""
    data = _lexicon()
    out: dict[str, frozenset[str]] = {}
    for entry in data["equivalents"]:
        stems = frozenset(_stem(w) for w in entry["words"])
        out.update({stem: stems for stem in stems})
    return out


def _event_verb(word: str) -> bool:
    """Whether a word is an event ``event_opposites.json`` lists ("closed", "ratify")."""
    return any(asked.fullmatch(word) for asked in events())


def _stem(word: str) -> str:
    return word.lower()[:STEM_CHARS]


def event_words(text: str) -> list[str]:
    """The lower-case words of a question (up to its question mark, after its auxiliary)
    that name the event: no capitalized name (the filer, a counterparty), no frame word, no
    number."""
    asked = without_occasion(AUXILIARY_RE.sub("", text.split("?")[0]))
    return list(dict.fromkeys(
        w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'’-]+", asked)
        if w[0].islower() and len(w) > 2
        and re.sub(r"['’]s$", "", w.lower()) not in _FRAME))


# capitalized nouns a question names the filer's own bodies by ("the Board of Directors"): no
# party of another name a sentence must print
NO_PARTY = frozenset({"board", "directors", "director", "company", "committee", "shareholders",
                      "stockholders", "management", "form", "report", "annual", "quarterly"})


def event_names(text: str, companies: Sequence[str] = ()) -> list[str]:
    """The names a question gives the event's parties, as written ("Richard Johnson",
    "Seagen"): its capitalized words after its first, no month, no word of the filer's own
    name (the filing says "we"), no period ("Q2") and no term with a number ("COVID-19"). A
    sentence printing one is of that party."""
    own = {w.lower() for c in companies for w in re.findall(r"[A-Za-z]+", c)}
    asked = text.split("?")[0]
    return list(dict.fromkeys(
        name for name in (re.sub(r"['’]s?$", "", w) for w in re.findall(
            r"(?<=\s)[A-Z][A-Za-z'’]+(?![\w-])", asked))
        if len(name) > 2 and name.lower() not in own | NO_PARTY
        and name.lower() not in MONTH_NAMES))


def _printed(words: list[str], sentence: str) -> tuple[list[str], list[str]]:
    """The question's words the sentence prints (by stem), and those it prints the
    opposite of."""
    tokens = [t.lower() for t in re.findall(r"[A-Za-z][A-Za-z'’-]+", sentence)]
    stems = {_stem(t) for t in tokens}
    # printed by its stem, an equivalent's ("booked" as "recognized") or a form the event's
    # entry lists ("closes" for "closed", never "closing", a date as often)
    said = [w for w in words if _stem(w) in stems
            or stems & equivalents().get(_stem(w), frozenset())
            or any(asked.fullmatch(w) and any(asked.fullmatch(t) for t in tokens)
                   for asked in events())]
    opposed = [w for w in words if w not in said and any(
        asked.fullmatch(w) and any(opposite.fullmatch(t) for t in tokens)
        for asked, opposite in opposites())]
    return said, opposed


def _clause_printed(core: list[str], printed: set[str]) -> bool:
    """Whether the sentence prints the question's own clause: its first word (what the
    clause is about: "compliance" in "Was it in compliance with its covenants?", which a
    sentence about the covenants alone does not state) and two thirds of its words."""
    return bool(core) and core[0] in printed and (
        len(printed & set(core)) >= CLAUSE_SHARE * len(core))


def _spots(words: list[str], sentence: str) -> list[int]:
    """Where the sentence prints each of the words (by stem) or a word opposite to it
    ("terminated" for "completed"), in order."""
    lower = sentence.lower()
    return sorted({m.start() for w in words for m in re.finditer(
        rf"\b{re.escape(_stem(w))}", lower)} | {
        m.start() for w in words for asked, opposite in opposites() if asked.fullmatch(w)
        for m in re.finditer(rf"\b(?:{opposite.pattern})\b", lower)})


def _unrealized(words: list[str], sentence: str) -> bool:
    """Whether one of the clause's words stands only in a proposal, a plan or a condition
    ("subject to approval", "expected to be completed", "if the proposed acquisition ... is
    terminated"), wherever the sentence prints it: "the proposal to ratify ... was ratified"
    states the event."""
    return any(spots and all(UNREALIZED_RE.search(sentence[max(0, at - SCOPE_CHARS):at])
                             or CONDITION_RE.search(sentence[:at]) for at in spots)
               for spots in (_spots([w], sentence) for w in words))


def _negated(spots: list[int], sentence: str, stopping: bool = False) -> bool:
    """Whether a negation stands right before a place the sentence prints its clause's words
    ("were not open", "No share repurchases", "we have no off-balance sheet arrangements",
    "will no longer be eligible"), not in a clause of its own after them ("..., which has not
    yet been paid"); "no longer" negates no clause that asks whether something stopped
    (``stopping``: "Did it stop offering ...?")."""
    return bool(OPENS_NO_RE.match(sentence)) or any(
        NEGATED_RE.search(before := sentence[max(0, at - SCOPE_CHARS):at])
        or NO_DETERMINER_RE.search(before)
        or (not stopping and NO_LONGER_RE.search(before)) for at in spots)


def _of_the_clause_year(years: set[int], sentence: str) -> bool:
    """Whether a sentence may be of the year the question's own clause asks ("... be eligible
    for an annual bonus for the 2023 fiscal year" is not answered by a sentence of 2022's
    bonus); any sentence when the clause names none."""
    printed = set(years_in(sentence))
    return not years or not printed or bool(years & printed)


class _Asked(NamedTuple):
    """What a sentence must print to state the event a question asks."""

    words: list[str]  # the question's event words
    core: list[str]  # those of its own clause
    names: list[str]  # the parties it names
    clause_names: set[str]
    clause_years: set[int]


def _stating(question: Question, asked: _Asked, unit: EvidenceUnit
             ) -> tuple[int, bool] | None:
    """How many of the question's words and names a sentence prints and whether it says yes,
    when it states the event asked; None when it does not."""
    if unit.is_row or not of_the_period(question, unit.text) or RISK_RE.search(
            f"{unit.scope} {unit.text}") or not _of_the_clause_year(asked.clause_years, unit.text
    ) or OUTLINE_RE.search(unit.text):
        return None  # a risk says what may happen, not what did; an outline what is discussed
    said, opposed = _printed(asked.words, unit.text)
    named = [n for n in asked.names if re.search(rf"\b{re.escape(n)}\b", unit.text)]
    if len(asked.clause_names & set(named)) < len(asked.clause_names) / 2:
        return None  # of other parties: "Valley Township in Pennsylvania" is no "York City
        # Sewer Authority" a Pennsylvania subsidiary acquires
    covered = len(said) + len(opposed) + len(named)
    if covered < MIN_WORDS or covered < MIN_SHARE * len(asked.words) or not _clause_printed(
            [*asked.core, *(n for n in named if n in asked.clause_names)],
            {*said, *opposed, *named}):  # a party never stands in for the clause's verb
        return None  # the question's own clause (its subject, its verb) must be printed
    if any(w not in said and w not in opposed for w in asked.core if _event_verb(w)):
        return None  # the event itself ("closed") unprinted: an agreement is no closing
    clause = [w for w in [*said, *opposed] if w in asked.core]
    spots = _spots(clause, unit.text)
    if _unrealized(clause, unit.text) or not spots:
        return None  # its own clause's words only in "the proposal to ratify ..."
    # a clause asking whether something stopped or ended: "no longer offers" says yes to it
    stopping = question.phrased("stopped") is not None or question.phrased("ended") is not None
    return covered, not opposed and not _negated(spots, unit.text, stopping)


def stated_event(question: Question, selected: Sequence[EvidenceUnit],
                 pool: Sequence[EvidenceUnit] = (), scan: Scan | None = None
                 ) -> DirectAnswer | None:
    """"Yes." or "No." and the evidence's sentence that states the event asked, or None; when
    the evidence prints none and the question names a party in its own clause ("Had Seagen's
    shareholders approved ...?"), the filing's sentences that name it (``scan``: a deal's
    approval is printed once, often where retrieval did not look)."""
    if question.expects != "yes_no" or question.way is not None or WH_WORD_RE.search(
            AND_HOW_MANY_RE.sub("", without_occasion(question.text.split("?")[0]))
    ) or question.phrased("cause_of_way"):
        return None  # a move is the metric engine's and the move readers'; "had rates stayed
        # ..., what would its revenue have been?" asks a figure, not a yes or no; a cause's
        # way asked is stated_moves.stated_cause's
    if any(e.lexicon_only for e in disclosure_entries(question)):
        return None  # the intent's disclosure is read by its lexicon alone (yes_no): "revenue
        # from contracts with customers" shares the words of a customer's share of revenue
    names = event_names(question.text, question.companies)
    asked = _Asked(event_words(question.text), event_words(question.clause), names,
                   set(event_names(question.clause)) & set(names),
                   set(years_in(question.clause)))
    if len(asked.words) < MIN_WORDS - bool(names):
        return None
    found = _best(question, asked, [*selected, *pool])
    if found is None and scan is not None and asked.clause_names:
        found = _best(question, asked, scan([re.compile(rf"\b{re.escape(n)}\b")
                                             for n in sorted(asked.clause_names)]))
    if found is None:
        return None
    unit, yes = found
    return DirectAnswer(kind="yes_no", units=[unit], supports=unit.text,
                        text=f"{'Yes' if yes else 'No'}. {unit.text}")


def _best(question: Question, asked: _Asked, units: Iterable[EvidenceUnit]
          ) -> tuple[EvidenceUnit, bool] | None:
    """The unit that prints most of the question's words of those that state its event, of
    those that print as many the first that names a year asked, then an amount (what the event
    amounts to: "we recognized goodwill impairment losses of $318 million ... in 2021" over
    "This impairment loss was recorded in our United States segment")."""
    best: tuple[tuple[int, bool, bool], EvidenceUnit, bool] | None = None
    for unit in units:
        stating = _stating(question, asked, unit)
        rank = (stating[0], bool(set(years_in(unit.text)) & set(question.years)),
                bool(AMOUNT_STATED_RE.search(unit.text))) if stating else None
        if stating is not None and rank is not None and (best is None or rank > best[0]):
            best = (rank, unit, stating[1])
    return (best[1], best[2]) if best else None
