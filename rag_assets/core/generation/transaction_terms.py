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

import re
from collections.abc import Sequence
from functools import cache

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit, printed_unit
from rag_assets.core.generation.extractive import MODAL_BEFORE_RE
from rag_assets.core.question.question import Question
from rag_assets.core.question.transactions import (
    asking_words,
    deal_verbs,
    printed_verbs,
    stem,
)
from rag_assets.core.text.figures import AMOUNT_STATED_RE, SIGNED_MONEY_RE
from rag_assets.core.text.periods import PRINTED_DATE_RE
from rag_assets.core.text.sentences import joined, page_prose, split_sentences

MAX_TERMS = 3  # sentences of terms after the transaction's
MAX_READ = 6  # sentences read after the transaction's, over a page break too
MAX_UNNAMED = 2  # sentences in a row that do not name the transaction, in its run of terms
EVENTS_READ = 5  # of the selected units, the best ones a transaction is looked for in
NAMED_LETTERS = 4  # a question's words compared by their first four letters ("note", "loan")
WORD_RE = re.compile(r"[a-z]{4,}")
# the words that ask, which name nothing of the transaction, and a deal's verbs, which every
# completed deal prints (``transactions.json``'s ``terms.asking`` and ``terms.deal_verbs``), by
# their first NAMED_LETTERS letters as the question's words are compared
ASKING_STEMS = frozenset(w[:NAMED_LETTERS] for w in asking_words())
DEAL_VERB_STEMS = frozenset(w[:NAMED_LETTERS] for w in deal_verbs())
# the name a filing gives a transaction where it states it: (the "Notes"), ("2026 Notes"),
# (collectively, the "Notes"), (the ‘Notes’ or ...)
DEFINED_RE = re.compile(r"\([^()“\"‘]{0,30}?[“\"‘]([^”\"’]{2,60})[”\"’]")
# a tranche's rate right after its amount: "€300 million 3.875% Notes", "$500 million of 4.5%"
TRANCHE_RATE_RE = re.compile(r"\s+(?:(?:aggregate\s+)?principal\s+amount\s+)?(?:of\s+)?"
                             r"(?:(?:the|its|our)\s+)?\d+(?:\.\d+)?%")
# between two tranches of one issuance: "and", and no other verb or clause ("to redeem",
# "of which")
TRANCHE_GAP_RE = re.compile(r"^[^;]*\band\s+$")
OTHER_CLAUSE_RE = re.compile(r"\b(?:to|which|whom|while|whereas)\b", re.IGNORECASE)
# a sentence that sends the reader elsewhere, or turns to another transaction
STOP_RE = re.compile(r"^(?:refer to|see\b|for (?:more|additional|further) (?:information|"
                     r"details)|in addition to\b)", re.IGNORECASE)
# a deal stated as completed (ASC 805-10-50-2: "completed its acquisition of", "closed the sale")
COMPLETED = (r"\b(?:completed|closed|consummated|finalized)\s+(?:the|its|our|an?)\s+"
             r"(?:[\w-]+\s+){0,3}?(?:acquisition|merger|sale|divestiture|offering|issuance)s?\b")
# a past participle before the noun it qualifies is no transaction: "the divested markets"
ATTRIBUTIVE_RE = re.compile(r"\b(?:the|its|our|their|these|those|such|newly|previously)\s*$",
                            re.IGNORECASE)



@cache
def _event_stems() -> frozenset[str]:
    """The stems of the verbs a sentence that states a transaction prints."""
    return frozenset(stem(v) for v in printed_verbs())


@cache
def _event_re() -> re.Pattern[str]:
    """A transaction's verb as a sentence that states it done prints it: a past form
    ("issued", "acquired", "repaid"), "entered into", or a deal completed ("completed its
    acquisition of"); never a noun alone ("financial", "issues")."""
    stems = "|".join(sorted(_event_stems(), key=len, reverse=True))
    return re.compile(rf"\b(?:(?:{stems})\w*ed|repaid|entered\s+into)\b|{COMPLETED}",
                      re.IGNORECASE)


def _in_all(event: str, asked: bool) -> str:
    """The total of the amounts ``event`` prints in one currency and scale ("€300 million ...
    and €550 million ...": " (€850 million in all)"), at the decimals printed: of every amount
    when a total amount is ``asked``, else of the tranches of notes it lists, each amount with
    its rate and joined by "and" ("€300 million 3.875% Notes due 2026 ... and €550 million
    4.125% Notes due 2031"); "" for fewer than two (a price and the gain it resulted in, notes
    issued "to redeem" others, are no total)."""
    found = [m for m in SIGNED_MONEY_RE.finditer(event)
             if asked or TRANCHE_RATE_RE.match(event, m.end())]
    if not asked and any(not TRANCHE_GAP_RE.match(event[a.end():b.start()])
                         or OTHER_CLAUSE_RE.search(event[a.end():b.start()])
                         for a, b in zip(found, found[1:], strict=False)):
        return ""
    if len(found) < 2 or len({(m["sign"], m["scale"]) for m in found}) != 1:
        return ""
    total = sum(float(m["n"].replace(",", "")) for m in found)
    decimals = max(len(m["n"].partition(".")[2]) for m in found)
    scale = f" {found[0]['scale']}" if found[0]["scale"] else ""
    return f" ({found[0]['sign']}{total:,.{decimals}f}{scale} in all)"


def _stems(text: str) -> set[str]:
    """A text's words of four letters or more, by their first four ("notes" and "note",
    "euro-denominated" "euro" and "deno"); the extractive engine's stop words leave "notes"
    out, which names the transaction here."""
    return {w[:NAMED_LETTERS] for w in WORD_RE.findall(text.lower())}


def _named(question: Question) -> set[str]:
    """What the question names beyond its company, the words that ask and the transaction's
    verb ("exch", "note", "firs", "repu"); "completed" or "closed" only when nothing else is
    named ("the cheese business sale that Kraft Heinz completed with Lactalis" is not the Assan
    Foods acquisition it also completed)."""
    asked = _stems(question.ranking_text) - _stems(" ".join(question.companies))
    named = {w for w in asked - ASKING_STEMS
             if not any(w.startswith(stem[:NAMED_LETTERS]) for stem in _event_stems())}
    return named - DEAL_VERB_STEMS or named


def _states_event(named: set[str], unit: EvidenceUnit) -> bool:
    """A sentence that states a transaction done (not after "may", "will" or "to"), with an
    amount, naming something the question names (:func:`_named`)."""
    text = " ".join(unit.text.split())
    done = any(not MODAL_BEFORE_RE.search(text[:m.start()]) and not ATTRIBUTIVE_RE.search(
        text[:m.start()]) for m in _event_re().finditer(text))
    return (not unit.is_row and done and bool(AMOUNT_STATED_RE.search(text))
            and bool(named & _stems(text)))


def _states_term(sentence: str) -> bool:
    return bool(AMOUNT_STATED_RE.search(sentence) or PRINTED_DATE_RE.search(sentence))


def _names_defined(sentence: str, defined: Sequence[str]) -> bool:
    return any(re.search(rf"\b{re.escape(name.split()[-1])}\b", sentence) for name in defined)


def _terms_after(event: str, page: int, prose: dict[int, str]) -> list[tuple[int, str]]:
    """The sentences of terms after ``event`` printed on ``page`` (``MAX_TERMS`` at most, of
    ``MAX_READ`` read), the next page's opening ones when it names the transaction again;
    ``prose``: each page's text on one line."""
    flat = prose.get(page, "")
    at = flat.find(event)
    if at < 0:
        return []
    defined = DEFINED_RE.findall(event)
    read = [(page, s) for s in split_sentences(flat[at + len(event):])][:MAX_READ]
    if len(read) < MAX_READ and page + 1 in prose:
        opening = split_sentences(prose[page + 1])
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


def _event_stated(named: set[str], best: Sequence[EvidenceUnit], prose: dict[int, str]
                  ) -> str | None:
    """The sentence that states the transaction asked: of the best units, else of the
    sentences of their pages (the word "terms" ranks a sentence on "similar terms and
    maturities" before the issuance printed below it), in their order."""
    on_pages = (printed_unit(u.document, u.year, u.page, s) for u in best
                for s in split_sentences(prose.get(u.page, "")))
    found = next((u for u in [*best, *on_pages] if _states_event(named, u)), None)
    return None if found is None else " ".join(found.text.split())


def transaction_terms(question: Question, selected: Sequence[EvidenceUnit], document: str,
                      year: int, pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The transaction the best units state and its terms, as one first sentence; None when
    the question asks no terms or no selected sentence of ``document`` states a transaction."""
    if not question.terms:
        return None
    prose = {page: page_prose(text) for page, text in pages}  # each page read once
    said = _event_stated(_named(question), [u for u in selected[:EVENTS_READ]
                                            if (u.document, u.year) == (document, year)], prose)
    if said is None:
        return None
    found = {p: _terms_after(said, p, prose) for p, flat in prose.items() if said in flat}
    best = max(found, key=lambda p: len(found[p]), default=None)
    if best is None or not found[best]:
        return None
    units = [printed_unit(document, year, best, said),
             *(printed_unit(document, year, p, s) for p, s in found[best])]
    text = said.rstrip(" .") + _in_all(said, bool(question.phrased("terms_total")))
    for _, sentence in found[best]:
        text = joined(text, sentence)
    return DirectAnswer(kind="terms", units=units, text=f"{text.rstrip(' .')}.")
