"""What a question asks of a transaction: the verb it asks of, the manner it asks, its terms.

"What debt did Corning issue ...?" asks of an event by its verb (``transactions.json``'s
``events``: the transactions Regulation S-K Item 303(b)(1), Form 8-K's Items and ASC 805
report); "How was the redemption funded?" asks the manner of what a verb did; "What were the
key terms of the notes ...?" asks a transaction's terms (``terms``' ``asked``), as does a
transaction asked by its verb with a term named ("..., and what were their net proceeds?":
``terms``' ``named``). Each is read once, with the question (``Question.manner`` and
``Question.terms``); the readers of the sentences that state a transaction take its verbs
from here (:func:`event_verbs`, :func:`printed_verbs`). Plain Python.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

TRANSACTIONS_PATH = Path(__file__).with_name("transactions.json")
EVENT_STEM = 5  # "acqui" of acquired and acquisition, "decla" of declared and declaration
# "What debt did Corning issue ...?": a what/which question, its auxiliary, its subject, a verb
_EVENT_ASKED_RE = re.compile(
    r"^\s*(?i:according to [^,]+,\s*)?(?i:what|which|how much|how many)\s+(?:[\w&'’-]+\s+){0,4}?"
    r"(?:did|does|do|will)\s+(?:it|they|the company|[A-Z][\w&.’'-]*(?:\s+[A-Z][\w&.’'-]*)"
    r"{0,3})\s+(?P<verb>[a-z]{4,})\b")
# "How was the redemption funded?", "how were the proceeds used": the manner of what a verb did
# is asked, its participle ending the clause; a change asked so ("How has revenue changed?") is
# a figure's, not a manner's
_MANNER_ASKED_RE = re.compile(r"\bhow\s+(?:was|were|is|are|has|have|had|will|would)\s+"
                              r"(?P<rest>[^?]*)", re.IGNORECASE)
_MANNER_CLAUSE_END_RE = re.compile(r",\s*(?:and\s+)?(?=(?:what|how|which|who|whom|when|where|"
                                   r"why)\b)|\?", re.IGNORECASE)
_PARTICIPLE_RE = re.compile(r"\b(?P<stem>[a-z]{4,})(?:ed|en)\s*$", re.IGNORECASE)
_CHANGE_VERBS = frozenset({"chang", "increas", "decreas", "declin", "grow", "mov", "evolv",
                           "trend", "perform", "affect", "impact"})


@cache
def _entries() -> dict[str, Any]:
    entries: dict[str, Any] = json.loads(TRANSACTIONS_PATH.read_text("utf-8"))
    return entries


@cache
def event_verbs() -> frozenset[str]:
    """The verbs of a transaction a question asks about (``events``)."""
    verbs = _entries()["events"]["verbs"]
    assert isinstance(verbs, list)
    return frozenset(str(v) for v in verbs)


@cache
def printed_verbs() -> tuple[str, ...]:
    """The verbs a sentence that states a transaction prints: ``events``' and ``terms``'
    ("entered into an agreement")."""
    extra = _entries()["terms"]["events"]
    assert isinstance(extra, list)
    return (*sorted(event_verbs()), *(str(v) for v in extra))


@cache
def asking_words() -> tuple[str, ...]:
    """The words a terms question is asked with, which name nothing of the transaction
    (``terms.asking``)."""
    return tuple(str(w) for w in _entries()["terms"]["asking"]["words"])


@cache
def deal_verbs() -> tuple[str, ...]:
    """The verbs every completed deal prints ("completed", "closed": ``terms.deal_verbs``),
    which name a deal only where a question names nothing else."""
    return tuple(str(w) for w in _entries()["terms"]["deal_verbs"]["words"])


def stem(verb: str) -> str:
    """A verb cut as a sentence prints it in any form: "issu" for issued and issuance."""
    return verb.lower().rstrip("e")[:EVENT_STEM]


def event_asked(asking: str) -> str | None:
    """The stem of the transaction's verb a "what/which ... did X <verb>" question asks of
    ("issu" in "What debt did Corning issue ...?"), else None (a manner asked, "How was it
    funded?", is no transaction asked)."""
    event = _EVENT_ASKED_RE.search(asking)
    if event and event["verb"].lower() in event_verbs():
        return stem(event["verb"])
    return None


def manner_asked(asking: str) -> str | None:
    """The stem of the verb whose event a question asks ("issu" in "What debt did Corning issue
    ...?") or whose manner ("fund" in "How was the redemption funded, and ...?"), else None:
    the sentence that answers prints it ("the Company issued €300 million ...", "The Redemption
    was funded with HSG's existing cash on-hand of $75 million and ...")."""
    if event := event_asked(asking):
        return event
    asked = _MANNER_ASKED_RE.search(asking)
    if asked is None:
        return None
    clause = _MANNER_CLAUSE_END_RE.split(asked["rest"], maxsplit=1)[0]
    verb = _PARTICIPLE_RE.search(clause)
    found = verb["stem"].lower() if verb else None
    return found if found and found not in _CHANGE_VERBS else None


@cache
def _terms_res() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The words that ask a transaction's terms, and the terms a question may name."""
    entry = _entries()["terms"]
    return (re.compile(str(entry["asked"]), re.IGNORECASE),
            re.compile(str(entry["named"]), re.IGNORECASE))


def terms_asked(asking: str, expects: str, intents: Sequence[str]) -> bool:
    """Whether a question asks the terms of a transaction: "key terms", "on what terms" (never
    "in terms of"); or asks of a transaction by its verb ("What notes did Corning issue?": the
    notes are told by their terms) for what the filing says or with a term named ("..., and
    what were their net proceeds?"), unless it asks of deals (the ``acquisitions`` intent, whose
    reader lists a period's deals). Never a yes or no or a cause, and a figure only when the
    terms are asked in words."""
    if expects in ("yes_no", "cause"):
        return False
    asked, named = _terms_res()
    if asked.search(asking):
        return True
    if "acquisitions" in intents:
        return False  # "What operations did it divest?": the deals of a period have their reader
    return event_asked(asking) is not None and (
        expects in ("text", "names") or bool(named.search(asking)) and expects != "figure")
