"""A dividend declared, as the filing states it: its amount per share, when it is paid and to
whom ("How much was the dividend declared on August 9, 2023, and when will it be paid?").

A board's declaration is one disclosure wherever it is printed (an 8-K's press release, a
10-Q's or 10-K's subsequent-events note, Item 5): one sentence says the board declared a
(quarterly, special, ...) dividend of an amount per share, and that sentence or the next gives
the date it is payable and the date of record ("The quarterly dividend is payable September 8,
2023, to shareholders of record at the close of business on August 25, 2023"). The answer's
first sentence states all three, each read from the cited sentences, never computed.

The declaration is the one the question dates (its date printed in the sentence or the next);
a question that dates none takes the filing's declaration when every declaration it prints
states the same amount, and gets nothing here otherwise: which of several is not ours to
guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.question.question import Question
from rag_assets.core.text.periods import PRINTED_DATE_RE
from rag_assets.core.text.sentences import page_prose, split_sentences

DATE = PRINTED_DATE_RE.pattern
# the question asks what was declared, or when it is paid
ASKED_RE = re.compile(r"\bdividends?\b(?=.*?(?:\bdeclar\w*|\bpayable\b|\brecord date\b|"
                      r"\bwhen\b|\bwhat date\b|\bpaid on\b))|(?:\bdeclar\w*|\bpayable\b|"
                      r"\bwhen\b|\bwhat date\b).*?\bdividends?\b", re.IGNORECASE | re.DOTALL)
DECLARED_RE = re.compile(r"\bdeclar\w*\b.*?\bdividends?\b|\bdividends?\b.*?\bdeclared\b",
                         re.IGNORECASE)
AMOUNT_RE = re.compile(r"\$\s?(?P<amount>\d+(?:\.\d+)?)\s+per\s+(?:common\s+)?share\b",
                       re.IGNORECASE)
# the words before "dividend" that say its kind ("a quarterly cash dividend")
BEFORE_DIVIDEND_RE = re.compile(r"\b(?P<words>(?:[a-z-]+\s+){1,3})dividends?\b", re.IGNORECASE)
DIVIDEND_KINDS = frozenset({"regular", "quarterly", "special", "annual", "semi-annual",
                            "interim", "final", "cash"})
PAYABLE_RE = re.compile(rf"\bpayable\s+(?:on\s+)?(?P<date>{DATE})", re.IGNORECASE)
RECORD_RE = re.compile(rf"\bof\s+record\b[^.]{{0,60}}?\b(?:on|as\s+of)\s+(?P<date>{DATE})|"
                       rf"\brecord\s+date\s+(?:of\s+)?(?P<date2>{DATE})", re.IGNORECASE)


@dataclass(frozen=True)
class Declaration:
    """One declaration as printed: the sentence that declares it and the one after it."""

    page: int
    sentence: str
    following: str
    amount: str

    @property
    def quote(self) -> str:
        return f"{self.sentence} {self.following}".strip()

    def dated(self, date: str) -> bool:
        return " ".join(date.split()).lower() in self.quote.lower()


def _declarations(pages: Sequence[tuple[int, str]]) -> list[Declaration]:
    """Every sentence of the filing that declares a dividend of an amount per share."""
    found = []
    for page, text in pages:
        flat = page_prose(text)
        if not DECLARED_RE.search(flat):
            continue
        sentences = split_sentences(flat)
        declares = [bool(AMOUNT_RE.search(s) and DECLARED_RE.search(s)) for s in sentences]
        for at, sentence in enumerate(sentences):
            if declares[at] and (amount := AMOUNT_RE.search(sentence)):
                # the next sentence completes this one unless it declares another dividend
                following = sentences[at + 1] if at + 1 < len(sentences) and not declares[
                    at + 1] else ""
                found.append(Declaration(page, sentence.strip(), following.strip(),
                                         amount["amount"]))
    return found


def _chosen(question: Question, declared: Sequence[Declaration]) -> Declaration | None:
    """The declaration the question dates, else the only amount the filing declares."""
    dated = [d for d in declared if any(d.dated(date) for date in question.dates)]
    if dated:
        return dated[0]
    if declared and not question.dates and len({d.amount for d in declared}) == 1:
        return declared[0]
    return None


def _sentence_of(found: Declaration) -> str:
    """"A quarterly cash dividend of $1.02 per share, payable ..., to shareholders of record
    on ...": each part from the printed sentences, the parts not printed left out."""
    named = "dividend"
    if before := BEFORE_DIVIDEND_RE.search(found.sentence):
        kinds = [w for w in before["words"].lower().split()]
        while kinds and kinds[0] not in DIVIDEND_KINDS:
            kinds.pop(0)
        if kinds and all(w in DIVIDEND_KINDS for w in kinds):
            named = f"{' '.join(kinds)} dividend"
    text = f"{'An' if named[0] in 'aeiou' else 'A'} {named} of ${found.amount} per share"
    if payable := PAYABLE_RE.search(found.quote):
        text += f", payable {payable['date']}"
    if record := RECORD_RE.search(found.quote):
        text += f", to shareholders of record on {record['date'] or record['date2']}"
    return f"{text}."


def declared_dividend(question: Question, document: str, year: int,
                      pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The declaration the question asks about, stated and cited, or None."""
    if question.expects == "yes_no" or not ASKED_RE.search(question.ranking_text):
        return None
    found = _chosen(question, _declarations(pages))
    if found is None:
        return None
    unit = EvidenceUnit(chunk_id=f"{document}|{year}|p{found.page}", document=document,
                        year=year, chunk_rank=0, page=found.page, located=True,
                        quote=found.quote, text=found.quote)
    return DirectAnswer(kind="dividend", units=[unit], supports=found.quote,
                        text=_sentence_of(found))
