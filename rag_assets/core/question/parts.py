"""The things one question asks, each as its own clause: "How was the redemption funded, and
what ownership interests did Corning hold once it was completed?" asks two, and an analyst's
answer opens with both.

The split follows the question's grammar, never a topic: a clause opened by an interrogative
after a comma at the top level (not inside parentheses), with or without "and" ("What dividend
did Costco declare, what annual rate does it imply, and when is it payable?"). A clause of at
most three words ("on what terms", "and how much") leans on the one before it and stays with
it; "and why" (a cause, answered with the change it explains by :mod:`answers`) is no part of
its own. Plain Python.
"""

from __future__ import annotations

import re

from rag_assets.core.question.intents import cause_openings
from rag_assets.core.text.sentences import split_sentences

_WH = r"(?:by how much|how|what|which|who|whom|when|where|on what|at what|in what)\b"
# "how" and "what" open a clause after a comma, "and" before them optional; "which", "who",
# "when" and "where" only after "and" (after a comma alone they open a relative clause: "fiscal
# 2022 revenue, which includes 3 months of Asda"); an auxiliary only after "and" ("..., and was
# any segment up?"), since one after a comma alone ends a question an aside interrupted ("How
# much cash, if any, did Corning put toward ...?")
_OPENING_RE = re.compile(r",\s*(?:and\s+)?(?=(?:by how much|how|what|on what|at what|in what)"
                         r"\b)|,\s*and\s+(?=(?:which|who|whom|when|where|did|does|do|is|are|"
                         r"was|were|has|have|had|can|will)\b)", re.IGNORECASE)
# a clause that asks: an interrogative or an auxiliary first; any other first clause ("As of
# FY2021", "According to its 2020 10-K") is the context of the one after it
_ASKS_RE = re.compile(rf"^(?:{_WH}|(?:did|does|do|is|are|was|were|has|have|had|can|will)\b)",
                      re.IGNORECASE)
# what asks a cause of what the clause before asks (answered together already)
# what asks what moved a thing ("what drove", "what's driving"): the drivers intent's own
# phrases, shared with the question's "..., and why?" reader (``question.AND_WHY_RE``)
CAUSE_ASKED = cause_openings()
_CAUSE_CLAUSE_RE = re.compile(rf"^(?:why|{CAUSE_ASKED}|what (?:factors|reasons|drivers)|"
                              r"(?:for )?what reasons?)\b", re.IGNORECASE)
LEANING_WORDS = 3  # a clause this short continues the one before ("on what terms")
# a clause whose subject is a pronoun continues the one before: "Who are its major customers,
# and does any account for more than 10% of revenue?" asks of the customers, not of revenue
_PRONOUN_SUBJECT_RE = re.compile(r"^(?:did|does|do|is|are|was|were|has|have|had|can|will)\s+"
                                 r"(?:any|it|they|these|those|either|each|none|one)\b",
                                 re.IGNORECASE)


def _top_level(text: str) -> list[int]:
    """Where a clause opens: each comma before an interrogative, outside parentheses."""
    starts = []
    for match in _OPENING_RE.finditer(text):
        before = text[:match.start()]
        if before.count("(") == before.count(")"):
            starts.append(match.start())
    return starts


def asked_parts(text: str) -> list[str]:
    """The clauses a question's asking sentence asks, in order, each ending with "?"; empty
    when it asks one thing. The sentences before it (a definition, a context) are left to the
    whole question."""
    sentences = split_sentences(text)
    asking = next((s for s in sentences if s.rstrip().endswith("?")), "")
    if not asking:
        return []
    cuts = _top_level(asking)
    pieces, start = [], 0
    for cut in [*cuts, len(asking)]:
        pieces.append(asking[start:cut])
        start = cut
    clauses: list[str] = []
    context = ""
    for piece in pieces:
        clause = re.sub(r"^,\s*(?:and\s+)?", "", piece).strip().rstrip("?").strip()
        if not clauses and not _ASKS_RE.match(clause):
            context = f"{context}{piece.rstrip('?')}"  # "As of FY2021, ..." opens the first
            continue
        if clauses and (len(re.findall(r"[\w'’-]+", clause)) <= LEANING_WORDS or
                        _CAUSE_CLAUSE_RE.match(clause) or _PRONOUN_SUBJECT_RE.match(clause)):
            clauses[-1] = f"{clauses[-1]}{piece.rstrip('?')}"
            continue
        clauses.append(f"{context.strip()}, {clause}" if context and not clauses else clause)
    if len(clauses) < 2:
        return []
    return [f"{clause[:1].upper()}{clause[1:].strip()}?" for clause in clauses]
