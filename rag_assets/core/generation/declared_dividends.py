"""A dividend declared, as the filing states it: its amount per share, when it is paid and to
whom ("How much was the dividend declared on August 9, 2023, and when will it be paid?").

A board's declaration is one disclosure wherever it is printed (an 8-K's press release, a
10-Q's or 10-K's subsequent-events note, Item 5): one sentence says a (quarterly, special, ...)
dividend of one amount per share was declared, on a date it prints, and that sentence or the
next gives the date it is payable and the date of record ("The quarterly dividend is payable
September 8, 2023, to shareholders of record at the close of business on August 25, 2023").
The answer's first sentence states them, each read from the cited sentences, never computed.

Only a question that asks what was declared ("declared" and "dividend") or when it is paid
("payable", "record date", "payment date") is answered here, and never one about a total, a
ratio, a yes or no or a name. The declaration is the one whose own date (printed before "declared",
or right after "declared on") the question names; a question on an 8-K that names no date
takes the report's declarations (of the years it names, if it names any). A 10-K or a 10-Q
prints a year's declarations in tables and prose apart, so there a date must be named, or, of
a 10-Q, the calendar quarter its cover reports ("For the quarterly period ended June 30, 2023"
and "Q2 2023"): the declarations dated in that quarter ("On June 21, 2023, our Board of
Directors declared a quarterly dividend of $0.28 per share"), never the equity statement's
six months' row. Of
several, all must state the same amount: which of several is not ours to guess. A sentence
that prints a total or two amounts per share declares nothing here, nor does a preferred
stock's unless the question asks of preferred stock; a table's cells before a sentence are
not quoted with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.quarter_events import asks_reported_quarter
from rag_assets.core.question.question import Question
from rag_assets.core.text.filing_kinds import form_of
from rag_assets.core.text.periods import PRINTED_DATE_RE, in_quarter, month_number, quarter_end
from rag_assets.core.text.sentences import page_prose, split_sentences

DATE = PRINTED_DATE_RE.pattern
COVER_PAGES = 2  # a 10-Q's cover, where it names the quarter it reports
# the question asks what was declared, or when it is paid
DECLARED_ASKED_RE = re.compile(r"\bdeclar\w*\b.*\bdividends?\b|\bdividends?\b.*\bdeclar\w*",
                               re.IGNORECASE)
PAYMENT_ASKED_RE = re.compile(r"\bdividends?\b.*(?:\bpayable\b|\brecord date\b|\bpayment date\b|"
                              r"\bwhat date\b|\bwhen (?:is|was|will) (?:it|the dividend)\b)|"
                              r"(?:\bpayable\b|\brecord date\b|\bpayment date\b).*\bdividends?\b",
                              re.IGNORECASE)
# what another answer gives: a total of the year, a ratio, the amounts of a statement
# the dividend is what is asked: "What dividend did Costco announce?", never "How many
# warehouses did Costco operate at the time of its dividend announcement?"
DIVIDEND_ASKED_RE = re.compile(r"\b(?:what|which|how much)\b[^?]{0,60}?\bdividends?\b",
                               re.IGNORECASE)
NOT_ASKED_RE = re.compile(r"\b(?:total|aggregate|ratio|yield|in (?:thousands|millions|"
                          r"billions)|why|risks?|increase|raise|cut)\b", re.IGNORECASE)
DECLARED_RE = re.compile(r"\bdeclar\w*\b.*?\bdividends?\b|\bdividends?\b.*?\bdeclared\b",
                         re.IGNORECASE)
AMOUNT_RE = re.compile(r"\$\s?(?P<amount>\d+(?:\.\d+)?)\s+per\s+(?:common\s+)?share\b",
                       re.IGNORECASE)
# a sentence that sums or tabulates what was declared, or compares two amounts
SUMMED_RE = re.compile(r"\b(?:total(?:ed|ing)?|aggregate|respectively|balance)\b|\[\[TABLE",
                       re.IGNORECASE)
PREFERRED_RE = re.compile(r"\bpreferred\b", re.IGNORECASE)
# a table's note ("(d) Dividends in the amount of ..."): of the table's class, not said here
NOTE_MARK_RE = re.compile(r"^\s*\([a-z]\)\s")
# the declaration's own date: "On August 9, 2023, the Board declared", "declared on ..."
DATED_BEFORE_RE = re.compile(rf"(?P<date>{DATE})(?!.*{DATE}.*\bdeclared\b).*?\bdeclared\b",
                             re.IGNORECASE)
DATED_AFTER_RE = re.compile(rf"\bdeclared\s+on\s+(?P<date>{DATE})", re.IGNORECASE)
# the words before "dividend" that say its kind ("a quarterly cash dividend")
BEFORE_DIVIDEND_RE = re.compile(r"\b(?P<words>(?:[a-z-]+\s+){1,3})dividends?\b", re.IGNORECASE)
DIVIDEND_KINDS = frozenset({"regular", "quarterly", "special", "annual", "semi-annual",
                            "interim", "final", "cash"})
# a regular dividend's payments a year: the rate an analyst annualizes it at (the "indicated
# annual dividend": the latest regular payment times the payments a year)
PAYMENTS_A_YEAR = {"quarterly": 4, "semi-annual": 2, "monthly": 12}
PAYABLE_RE = re.compile(rf"\bpayable\s+(?:on\s+)?(?P<date>{DATE})", re.IGNORECASE)
RECORD_RE = re.compile(rf"\bof\s+record\b[^.]{{0,60}}?\b(?:on|as\s+of)\s+(?P<date>{DATE})|"
                       rf"\brecord\s+date\s+(?:of\s+)?(?P<date2>{DATE})", re.IGNORECASE)


@dataclass(frozen=True)
class Declaration:
    """One declaration as printed: the sentence that declares it, the one after it, the
    amount per share and the date it was declared on (empty when the sentence prints none)."""

    page: int
    sentence: str
    following: str
    amount: str
    declared_on: str

    @property
    def quote(self) -> str:
        return f"{self.sentence} {self.following}".strip()


def _declaration(page: int, sentence: str, following: str) -> Declaration | None:
    """The sentence's declaration, or None when it declares no one amount per share (a table's
    cells that page_prose ran into it are left out: "| $ 0.50 | On December 7, 2022, ...")."""
    sentence = re.split(r"\||\]\]", sentence)[-1]
    amounts = AMOUNT_RE.findall(sentence)
    if len(amounts) != 1 or not DECLARED_RE.search(sentence) or SUMMED_RE.search(sentence) \
            or NOTE_MARK_RE.match(sentence):
        return None
    dated = DATED_AFTER_RE.search(sentence) or DATED_BEFORE_RE.search(sentence)
    return Declaration(page, sentence.strip(), following.strip(), amounts[0],
                       " ".join(dated["date"].split()) if dated else "")


def _declarations(pages: Sequence[tuple[int, str]]) -> list[Declaration]:
    """Every sentence of the filing that declares a dividend of one amount per share; the next
    sentence completes it unless it declares another."""
    found: list[Declaration] = []
    for page, text in pages:
        flat = page_prose(text)
        if not DECLARED_RE.search(flat):
            continue
        sentences = split_sentences(flat)
        read = [_declaration(page, s, "") for s in sentences]
        for at, declared in enumerate(read):
            if declared is None:
                continue
            following = sentences[at + 1] if at + 1 < len(sentences) and read[at + 1] is None \
                else ""
            found.append(Declaration(page, declared.sentence, following.strip(), declared.amount,
                                     declared.declared_on))
    return found


def _chosen(question: Question, declared: Sequence[Declaration], current_report: bool,
            quarter: tuple[int, int] | None = None) -> Declaration | None:
    """The declaration the question dates (its own date), else an 8-K's (of the years the
    question names), else a 10-Q's dated in the quarter it reports when that is the quarter
    asked (``quarter``: the (year, month) its cover says it ends), when they all state one
    amount."""
    if not PREFERRED_RE.search(question.text):
        declared = [d for d in declared if not PREFERRED_RE.search(d.sentence)]
    if question.dates:
        dates = {d.lower() for d in question.dates}
        matching = [d for d in declared if d.declared_on.lower() in dates]
    elif quarter is not None and asks_reported_quarter(question, quarter):
        matching = [d for d in declared if d.declared_on and in_quarter(
            (int(d.declared_on[-4:]), month_number(d.declared_on.split()[0])), quarter)]
    elif current_report and not question.quarters:
        matching = [d for d in declared if not question.years or (
            d.declared_on and int(d.declared_on[-4:]) in question.years)]
    else:
        return None
    asked_kinds = set(question.ranking_text.lower().split()) & DIVIDEND_KINDS - {"cash"}
    matching = [d for d in matching if asked_kinds <= set(_kind(d).split())]
    if not matching or len({d.amount for d in matching}) != 1:
        return None
    return max(matching, key=lambda d: len(_kind(d)))  # the sentence that says its kind


def _kind(found: Declaration) -> str:
    """"quarterly cash dividend": the kind words printed between "declared" and the amount."""
    declared = re.search(r"\bdeclared\b", found.sentence, re.IGNORECASE)
    amount = AMOUNT_RE.search(found.sentence)
    span = found.sentence[declared.end():amount.start()] if declared and amount and (
        declared.end() < amount.start()) else ""
    if before := BEFORE_DIVIDEND_RE.search(span):
        kinds = before["words"].lower().split()
        while kinds and kinds[0] not in DIVIDEND_KINDS:
            kinds.pop(0)
        if kinds and all(w in DIVIDEND_KINDS for w in kinds):
            return f"{' '.join(kinds)} dividend"
    return "dividend"


def _sentence_of(found: Declaration) -> str:
    """"A quarterly cash dividend of $1.02 per share, payable ..., to shareholders of record
    on ...": each part from the printed sentences, the parts not printed left out."""
    named = _kind(found)
    text = f"{'An' if named[0] in 'aeiou' else 'A'} {named} of ${found.amount} per share"
    if times := next((n for word, n in PAYMENTS_A_YEAR.items() if word in named.split()), None):
        text += f" (${Decimal(found.amount.replace(',', '')) * times:,} a year at that rate)"
    if found.declared_on:
        text += f", declared {found.declared_on}"
    if payable := PAYABLE_RE.search(found.quote):
        text += f", payable {payable['date']}"
    if record := RECORD_RE.search(found.quote):
        text += f", to shareholders of record on {record['date'] or record['date2']}"
    return f"{text}."


def declared_dividend(question: Question, document: str, year: int,
                      pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The declaration the question asks about, stated and cited, or None."""
    asking = question.ranking_text
    if question.expects not in ("figure", "text") or NOT_ASKED_RE.search(asking):
        return None
    current_report = bool(pages) and form_of(document, pages[0][1]) == "8-K"
    # a dividend asked of a current report is its declaration (Item 8.01's announcement)
    if not (DECLARED_ASKED_RE.search(asking) or PAYMENT_ASKED_RE.search(asking)
            or (current_report and DIVIDEND_ASKED_RE.search(asking))):
        return None
    quarter = None if current_report else quarter_end(text for _, text in pages[:COVER_PAGES])
    found = _chosen(question, _declarations(pages), current_report, quarter)
    if found is None:
        return None
    unit = EvidenceUnit(chunk_id=f"{document}|{year}|p{found.page}", document=document,
                        year=year, chunk_rank=0, page=found.page, located=True,
                        quote=found.quote, text=found.quote)
    return DirectAnswer(kind="dividend", units=[unit], supports=found.quote,
                        text=_sentence_of(found))
