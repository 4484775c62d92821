"""Where a filing's prose states a figure the statements gave: the sentence beside the number.

A line item computed from the statements ("repurchases of common stock: $2,227 million") is
usually also stated in MD&A or a note, with what the statements leave out: "During 2018, Corning
repurchased 74.8 million shares for approximately $2.2 billion", "We paid a special cash
dividend of $10.00 per share ... totaling $5,748". An analyst answers with that sentence's
share count or per-share amount beside the total. A sentence states the operand when it prints
the same amount (its digits as the statement prints them, or the amount in millions or billions
to the precision printed, within half a unit of its last digit and 2.5 %: "$2 billion" for a $2
billion program is not $2,227 million), shares a word with the line item (or prints the amount
to four significant digits or more: "outstanding long-term notes of $6,499.4 million" is the
$6,499,432 thousand of long-term debt), and names the
operand's fiscal year (a sentence naming only other years states another year's figure; one
that pairs amounts with years "respectively" states the amount in the year's place), and says
nothing that makes its amount another figure (what remains of an authorization, a fair value, a
plan); a table or a note's heading run into prose is no sentence. The first such sentence of
the filing, in page order, is given (a bullet of a list that ran into one sentence counts as
one); none, nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rag_assets.core.generation.extractive import roots
from rag_assets.core.generation.metric_engine import Operand
from rag_assets.core.text.bullets import bullet_items
from rag_assets.core.text.figures import MONEY_RE, SCALE_WORDS
from rag_assets.core.text.sentences import page_prose, reads_as_table, split_sentences
from rag_assets.core.text.years import years_in

MAX_RELATIVE_GAP = 0.025
# words that make a sentence's amount another figure than the line item's
QUALIFIER_RE = re.compile(r"\b(?:remain(?:s|ed|ing)?|authoriz\w*|available|fair value|up to|"
                          r"capacity|expect\w*|plan(?:s|ned)?|estimat\w*|target\w*)\b",
                          re.IGNORECASE)
# a table's cells or a note's heading run into the prose: no sentence a reader would quote
NOT_PROSE_RE = re.compile(r"\||\bNOTE\s+\d", re.IGNORECASE)
PRECISE_DIGITS = 4  # "$6,499.4 million" is that figure, whatever words it is said in
RESPECTIVELY_RE = re.compile(r"\brespectively\b", re.IGNORECASE)
MAX_SENTENCE_WORDS = 70


def _matches(money: re.Match[str], operand: Operand) -> bool:
    """Whether one printed amount is the operand's: its digits with a dollar sign as the
    statement prints them, or scaled, to the precision printed."""
    number, wanted = money["n"], abs(operand.value)
    if not money["scale"]:
        return number == operand.printed.strip("()$ -–")
    scale = SCALE_WORDS[money["scale"]]
    gap = abs(float(number.replace(",", "")) * scale - wanted)
    places = len(number.partition(".")[2])
    return bool(wanted) and gap <= 0.5 * 10 ** -places * scale and gap <= (
        MAX_RELATIVE_GAP * wanted)


def _significant(number: str) -> int:
    return len(number.replace(",", "").replace(".", "").lstrip("0"))


def _states_amount(sentence: str, operand: Operand) -> int:
    """How precisely the sentence prints the operand's amount for its year (the significant
    digits of the amount that matches; 0: none does): in a sentence that pairs amounts with
    years "respectively", only the amount in the year's place counts."""
    amounts = list(MONEY_RE.finditer(sentence))
    found = [i for i, money in enumerate(amounts) if _matches(money, operand)]
    if found and RESPECTIVELY_RE.search(sentence):
        years = list(dict.fromkeys(years_in(sentence)))
        if len(years) != len(amounts) or years.index(operand.fiscal_year) not in found:
            return 0
    return max((_significant(amounts[i]["n"]) for i in found), default=0)


def _qualified(sentence: str, operand: Operand) -> bool:
    """Whether the sentence says its amounts are of another figure than the line item: what
    remains of an authorization, a fair value, a capacity, a plan ("authorization for $5.7
    billion of share repurchases remained" is not the $5,717 million spent)."""
    own = f"{operand.title} {operand.label}".lower()
    return any(m.group(0).lower() not in own for m in QUALIFIER_RE.finditer(sentence))


def stated_sentence(operand: Operand, pages: Iterable[tuple[int, str]]) -> tuple[int, str] | None:
    """(page, sentence) of the first prose sentence of the filing that states ``operand``."""
    asked = roots(f"{operand.title} {operand.label}")
    for page, text in pages:
        flat = page_prose(text)  # its words joined by single spaces (NBSP too)
        if "$" not in flat:
            continue
        for sentence in (p for s in split_sentences(flat) for p in bullet_items(s)):
            if (len(sentence.split()) > MAX_SENTENCE_WORDS or reads_as_table(sentence)
                    or NOT_PROSE_RE.search(sentence) or _qualified(sentence, operand)
                    or operand.fiscal_year not in years_in(sentence)):
                continue
            digits = _states_amount(sentence, operand)
            if digits >= PRECISE_DIGITS or (digits and asked & roots(sentence)):
                return page, " ".join(sentence.split())
    return None


def computed_total(concept: str, title: str, fiscal_year: int, value: float, document: str,
                   year: int) -> Operand:
    """A line item the engine computed from its parts (total debt: the long-term and current
    debt rows), as an operand whose amount a sentence may state; it has no printed digits."""
    return Operand(concept=concept, title=title, fiscal_year=fiscal_year, months=None,
                   value=value, document=document, year=year, statement="", label="",
                   printed="", page=0, quote="")


def with_statements(headline: str, found: Iterable[tuple[int, str]]) -> str:
    """The headline with each sentence that states its figures after it, in parentheses: one
    sentence, so the answer's first sentence holds them."""
    stated = "; ".join(f'page {page + 1}: "{re.sub(r"[. ]+$", "", s)}"' for page, s in found)
    return f"{headline.rstrip('. ')} ({stated})." if stated else headline
