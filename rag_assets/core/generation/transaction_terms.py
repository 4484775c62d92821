"""The terms of a transaction asked ("What were the key terms of the notes AWCC issued in Q2
2023?", "Which acquisition did JPMorgan complete, and on what terms?"): the sentence that
states the transaction, then the sentences after it that give its terms, as one first sentence.

A filing states a transaction once where it gives its name (the "Notes", the "First Republic
acquisition") and prints its terms in the sentences that follow in the same note or paragraph:
the proceeds, the rate, the maturity, the exchange price, the note issued in connection with it
(Regulation S-K Item 303(b)(1) and ASC 470-10-50 for debt, ASC 805-10-50-2 for an acquisition:
the amounts disclosed with the transaction). A sentence after the transaction's is read as
its terms when it states an amount or a date, until the paragraph moves on: three sentences in
a row that do not name the transaction ("AWCC received net proceeds of approximately $1,022
million ..." and "A portion of the net proceeds was used ..." still belong to it). The note
may run on to the next page when that page opens by naming the transaction again ("The Notes
will be exchangeable at an initial exchange rate of 5.8213 shares ..."). Reading stops at a
pointer elsewhere ("Refer to Note 28", "See Note 7"), at a sentence that turns to another
transaction ("In addition to the Notes ...") and after ``MAX_TERMS`` terms. A transaction a
filing prints twice (a note and MD&A) is read where the most terms follow it. Every sentence
is quoted from its page and cited.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit, printed_unit
from rag_assets.core.generation.extractive import (
    ANSWER_TYPES_PATH,
    EVENT_STEM,
    manner_asked,
    roots,
)
from rag_assets.core.question.question import Question
from rag_assets.core.text.figures import AMOUNT_STATED_RE
from rag_assets.core.text.periods import MONTH_RE
from rag_assets.core.text.sentences import page_prose, split_sentences

MAX_TERMS = 3  # sentences of terms after the transaction's
MAX_READ = 6  # sentences read after the transaction's, over a page break too
MAX_UNNAMED = 2  # sentences in a row that do not name the transaction, in its run of terms
EVENTS_READ = 5  # of the selected units, the best ones a transaction is looked for in
# the name a filing gives a transaction where it states it: (the "Notes"), ("2026 Notes")
DEFINED_RE = re.compile(r"\((?:the\s+)?[“\"]([^”\"]{2,60})[”\"]\)")
# an amount of a currency as a transaction's sentence prints it: "€300 million", "$1,035 million"
AMOUNT_RE = re.compile(r"(?P<cur>[$€£¥])\s?(?P<n>\d[\d,]*(?:\.\d+)?)"
                       r"(?:\s+(?P<scale>million|billion))?")
TOTAL_RE = re.compile(r"\btotal\b", re.IGNORECASE)
# a tranche's rate right after its amount: "€300 million 3.875% Notes", "$500 million of 4.5%"
TRANCHE_RATE_RE = re.compile(r"\s+(?:(?:aggregate\s+)?principal\s+amount\s+)?(?:of\s+)?"
                             r"(?:(?:the|its|our)\s+)?\d+(?:\.\d+)?%")
# a sentence that sends the reader elsewhere, or turns to another transaction
STOP_RE = re.compile(r"^(?:refer to|see\b|for (?:more|additional|further) (?:information|"
                     r"details)|in addition to\b)", re.IGNORECASE)
DATE_RE = re.compile(rf"{MONTH_RE.pattern}\s+\d{{1,2}},\s+\d{{4}}", MONTH_RE.flags)
# a verb of a transaction done, as printed: "issued", "acquired", "entered into"
MODAL_RE = re.compile(r"\b(?:may|might|could|would|will|plans? to|intends? to)\s+\w+$",
                      re.IGNORECASE)


@cache
def _asked_re() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The words that ask a transaction's terms, and the terms a question may name
    (``answer_types.json``'s ``terms``: ``asked``, ``named``)."""
    entry = json.loads(ANSWER_TYPES_PATH.read_text("utf-8"))["terms"]
    return (re.compile(entry["asked"], re.IGNORECASE),
            re.compile(entry["named"], re.IGNORECASE))


@cache
def _event_stems() -> frozenset[str]:
    """The stems of a transaction's verbs: ``answer_types.json``'s ``events`` and ``terms``'
    ``events`` ("entered into"), cut as the extractive engine cuts them (``manner_asked``)."""
    entry = json.loads(ANSWER_TYPES_PATH.read_text("utf-8"))
    verbs = [*entry["events"]["verbs"], *entry["terms"]["events"]]
    return frozenset(v.rstrip("e")[:EVENT_STEM] for v in verbs)


@cache
def _event_re() -> re.Pattern[str]:
    """A transaction's verb as printed ("issued", "acquisition", "entered into")."""
    stems = sorted(_event_stems(), key=len, reverse=True)
    return re.compile(rf"\b(?:{'|'.join(stems)})\w*", re.IGNORECASE)


def asks_terms(question: Question) -> bool:
    """Whether the question asks the terms of a transaction: "key terms", "on what terms"; or
    asks of a transaction by its verb ("What notes did Corning issue?": the notes are told by
    their terms), for what it says or with a term named ("..., and what were their net
    proceeds?"), never a yes or no, a figure alone or a cause."""
    asked, named = _asked_re()
    text = question.ranking_text
    if asked.search(text):
        return True
    event = manner_asked(text) in _event_stems()
    return event and (bool(named.search(text)) or question.expects in ("text", "names"))


def _in_all(event: str, asked: bool) -> str:
    """The total of the amounts ``event`` prints in one currency and scale ("€300 million ...
    and €550 million ...": " (€850 million in all)"): of every amount when a total is
    ``asked``, else of the tranches of notes it lists, each amount with its rate ("€300
    million 3.875% Notes due 2026 ... and €550 million 4.125% Notes due 2031"); "" for fewer
    than two (a price and the gain it resulted in are no total)."""
    found = [(m["cur"], m["scale"] or "", float(m["n"].replace(",", "")))
             for m in AMOUNT_RE.finditer(event)
             if asked or TRANCHE_RATE_RE.match(event, m.end())]
    if len(found) < 2 or len({(c, s) for c, s, _ in found}) != 1:
        return ""
    currency, scale, _ = found[0]
    total = float(sum(n for *_, n in found))
    shown = f"{total:,.{0 if total.is_integer() else 2}f}"
    return f" ({currency}{shown}{' ' + scale if scale else ''} in all)"


def _states_event(question: Question, unit: EvidenceUnit) -> bool:
    """A sentence that states a transaction done, with an amount, and names what the question
    names beyond its company and the word "terms"."""
    text = " ".join(unit.text.split())
    done = any(not MODAL_RE.search(text[:m.start()].rstrip()) for m in _event_re().finditer(text))
    named = roots(question.ranking_text) - roots(" ".join(question.companies)) - {"term"}
    return (not unit.is_row and done and bool(AMOUNT_STATED_RE.search(text))
            and bool(named & roots(text)))


def _states_term(sentence: str) -> bool:
    return bool(AMOUNT_STATED_RE.search(sentence) or DATE_RE.search(sentence))


def _names_defined(sentence: str, defined: Sequence[str]) -> bool:
    return any(re.search(rf"\b{re.escape(name.split()[-1])}\b", sentence) for name in defined)


def _terms_after(event: str, page: int, pages: dict[int, str]) -> list[tuple[int, str]]:
    """The sentences of terms after ``event`` printed on ``page`` (``MAX_TERMS`` at most, of
    ``MAX_READ`` read), the next page's opening ones when it names the transaction again."""
    flat = page_prose(pages.get(page, ""))
    at = flat.find(event)
    if at < 0:
        return []
    defined = DEFINED_RE.findall(event)
    read = [(page, s) for s in split_sentences(flat[at + len(event):])][:MAX_READ]
    if len(read) < MAX_READ and page + 1 in pages:
        opening = split_sentences(page_prose(pages[page + 1]))
        if opening and _names_defined(opening[0], defined):
            read += [(page + 1, s) for s in opening[:MAX_READ - len(read)]]
    terms: list[tuple[int, str]] = []
    unnamed = 0  # sentences in a row since one named the transaction (its own names it)
    for at_page, sentence in read:
        unnamed = 0 if _names_defined(sentence, defined) else unnamed + 1
        if STOP_RE.match(sentence) or len(terms) == MAX_TERMS or unnamed > MAX_UNNAMED:
            break  # elsewhere, enough, or the paragraph has moved on
        if _states_term(sentence):
            terms.append((at_page, sentence))
    return terms


def _event_stated(question: Question, best: Sequence[EvidenceUnit], pages: dict[int, str]
                  ) -> str | None:
    """The sentence that states the transaction asked: of the best units, else of the
    sentences of their pages (the word "terms" ranks a sentence on "similar terms and
    maturities" before the issuance printed below it), in their order."""
    on_pages = (printed_unit(u.document, u.year, u.page, s) for u in best
                for s in split_sentences(page_prose(pages.get(u.page, ""))))
    found = next((u for u in [*best, *on_pages] if _states_event(question, u)), None)
    return None if found is None else " ".join(found.text.split())


def transaction_terms(question: Question, selected: Sequence[EvidenceUnit], document: str,
                      year: int, pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The transaction the best units state and its terms, as one first sentence; None when
    the question asks no terms or no selected sentence of ``document`` states a transaction."""
    if not asks_terms(question):
        return None
    texts = dict(pages)
    said = _event_stated(question, [u for u in selected[:EVENTS_READ]
                                    if (u.document, u.year) == (document, year)], texts)
    if said is None:
        return None
    printed = [p for p, text in pages if said in page_prose(text)]
    if not printed:
        return None
    best = max(printed, key=lambda p: len(_terms_after(said, p, texts)))
    terms = _terms_after(said, best, texts)
    if not terms:
        return None
    units = [printed_unit(document, year, best, said),
             *(printed_unit(document, year, p, s) for p, s in terms)]
    total = _in_all(said, bool(TOTAL_RE.search(question.ranking_text)))
    text = "; ".join([said.rstrip(" .") + total, *(s.rstrip(" .") for _, s in terms)])
    return DirectAnswer(kind="terms", units=units, text=f"{text}.")
