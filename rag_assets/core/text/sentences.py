"""Where a sentence ends: the one rule that stitching, chunking, evidence, the answer judge and
the question parser share.

A sentence ends at ``.``, ``!`` or ``?`` (and the closing quotes or brackets after it) before
white space or the end of the text, unless

- the period closes an abbreviation (``abbreviations.json``: ``Inc.``, ``No. 3``, ``approx.``),
  an initial (``Richard A. Johnson``) or a dotted acronym (``U.S.``, ``e.g.``, ``L.P.``), or
- the next word starts in lower case (``approx. the``, ``$2.4 vs. last year``): a sentence of a
  report never starts so.

Hand-written because the libraries that split sentences (nltk's punkt, spaCy, pysbd) either need
model data downloaded at run time or are trained on news prose, and none knows a filing's
``Inc.`` / ``No. 3`` / ``U.S.`` conventions better than this list does.
"""

from __future__ import annotations

import json
import re
from functools import cache
from itertools import accumulate
from pathlib import Path

from rag_assets.core.text.figures import CURRENCY_SIGNS, is_figure

ABBREVIATIONS_FILE = Path(__file__).with_name("abbreviations.json")

# the terminator (one character: "?!" ends at its last) and the closers a sentence keeps
SENTENCE_END_RE = re.compile(r"[.!?](?=[\"”’')\]]*(?:\s|$))")
_CLOSERS_RE = re.compile(r"[\"”’')\]]*")
_FOLLOWING_RE = re.compile(r"[\"”’')\]]*\s*(\S?)")  # the next character after closers and space
_DOTTED_ACRONYM_RE = re.compile(r"(?:[a-z]\.)+[a-z]")


@cache
def _abbreviations() -> tuple[frozenset[str], frozenset[str]]:
    """The words of ``abbreviations.json``: always abbreviations, and only before a figure."""
    data = json.loads(ABBREVIATIONS_FILE.read_text(encoding="utf-8"))
    always = frozenset(word for words in data["groups"].values() for word in words)
    return always, frozenset(data["before_a_figure"]["words"])


def word_before(text: str, at: int) -> str:
    """The run of letters, digits and dots that ends at ``at`` (``U.S`` before its period)."""
    start = at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_."):
        start -= 1
    return text[start:at]


def is_abbreviation(word: str, following: str = "") -> bool:
    """``word`` (what precedes a period, without it) shortens something: a listed
    abbreviation, an initial, a dotted acronym, or ``No.`` with a figure after it
    (``following``: the next non-space character)."""
    word = word.lower().rstrip(".")
    always, before_a_figure = _abbreviations()
    return bool(word) and (
        word in always
        or (len(word) == 1 and word.isalpha())
        or bool(_DOTTED_ACRONYM_RE.fullmatch(word))
        or (word in before_a_figure and following.isdigit())
    )


def ends_sentence(text: str, terminator: int) -> bool:
    """Whether the ``.``/``!``/``?`` at ``text[terminator]`` (a :data:`SENTENCE_END_RE` match)
    ends a sentence."""
    after = _FOLLOWING_RE.match(text, terminator + 1)  # matched in place: no slice of the rest
    following = after.group(1) if after else ""
    if text[terminator] == "." and is_abbreviation(word_before(text, terminator), following):
        return False
    return not following.islower()


def sentence_ends(text: str, *, closers: bool = True) -> list[int]:
    """Offsets just past each sentence end of ``text``, in order: past the closing quotes and
    brackets (``closers``) or right after the terminator."""
    ends = []
    for match in SENTENCE_END_RE.finditer(text):
        if not ends_sentence(text, match.start()):
            continue
        end = match.end()
        if closers:
            close = _CLOSERS_RE.match(text, end)
            end = close.end() if close else end
        ends.append(end)
    return ends


ENDS_AT_CONTEXT = 60


def ends_at(text: str, offset: int) -> bool:
    """Whether a sentence of ``text`` ends just before ``offset`` (a quote cut from the text
    ends its sentence, or a chunk cut it mid-sentence)."""
    start = max(0, offset - ENDS_AT_CONTEXT)  # the word before a stop, the word after it
    window = text[start:offset + ENDS_AT_CONTEXT]
    return offset - start in {*sentence_ends(window), *sentence_ends(window, closers=False)}


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, stripped, none empty; every word kept (their join, space
    separated, holds every non-space character of ``text`` in order)."""
    out, start = [], 0
    for end in sentence_ends(text):
        piece = text[start:end].strip()
        if piece:
            out.append(piece)
        start = end
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return out


# an adverb that ties a sentence to the one before it ("Additionally, the Company did not
# ..."): a sentence that leads an answer reads without it
LINKING_ADVERB_RE = re.compile(r"^(?:additionally|in addition|also|further|furthermore|"
                               r"moreover|similarly|likewise),\s+", re.IGNORECASE)
# a subject that goes on from the sentence before ("We expect to receive net proceeds of
# ..." after the Company's agreement to sell): the filer, or what the sentence before named
SAME_SUBJECT_RE = re.compile(r"^\W*(?:we|it|they|this|these|such|the company)\b", re.IGNORECASE)
# a subject that refers back to what the sentence before stated, never the filer alone (nearly
# every sentence of a filing opens on "we"), nor an item of a list (a bullet mark first)
REFERS_BACK_RE = re.compile(r"^(?:it|they|this|these|such)\b", re.IGNORECASE)


def joined(lead: str, then: str) -> str:
    """Two sentences as one first sentence, the first's end a semicolon ("X decreased from A
    to B; primarily due to ..."): what a question asks together is answered together. A name
    keeps its capital ("Ulta Beauty's ...", "JPMorgan ...", "Costa Limited ...")."""
    named = bool(NAME_OPENING_RE.match(then) or TWO_WORD_NAME_RE.match(then))
    return f"{lead.rstrip(' .')}; {then if named else then[:1].lower() + then[1:]}"


# a sentence that opens with a name, not a sentence's capital: a possessive after capitalized
# words ("Ulta Beauty's", "General Mills'"), a word of two capitals or more ("JPMorgan", "AMD")
NAME_OPENING_RE = re.compile(r"^(?:(?:[A-Z][\w&.-]*\s+){0,3}[A-Z][\w&.-]*['’]s?(?=\s)|"
                             r"[A-Z][\w.&-]*[A-Z][\w.]*)")
# a name of two capitalized words ("Costa Limited In January 2019, ...", "Optical Communications
# The decrease ...": a heading printed before its paragraph), never a sentence's opening word
# before one ("The Company", "In March", "Additionally, Corning")
TWO_WORD_NAME_RE = re.compile(
    r"^(?!(?i:the|a|an|in|on|at|as|for|during|this|these|that|those|our|its|their|each|after|"
    r"before|since|while|with|under|upon|following|from|through|by|of|to|when|if|although|"
    r"because|despite|including|both|all|such|there|we|it|they|additionally|also|further|"
    r"furthermore|moreover|however|primarily|partially|due)\b)[A-Z][a-z][\w&.'’-]*\s+[A-Z]")


def unlinked(sentence: str) -> str:
    """A sentence without the linking adverb it opens with, its next word's case kept ("the
    Company did not generate material total revenues ...")."""
    return LINKING_ADVERB_RE.sub("", sentence)


# the running header a filing prints atop each page (a link back to its contents)
RUNNING_HEADER_RE = re.compile(r"^\s*table of contents\b\s*", re.IGNORECASE)


# the printed page number after a page's last words, when a sentence runs over the page break
# ("... driven by cost 38"): no word of the sentence
FOLIO_AFTER_WORDS_RE = re.compile(r"(?<=[a-z,])\s+\d{1,3}$")


def without_folio(last_sentence: str) -> str:
    """A page's last sentence without the page number printed after it, when the sentence
    runs on to the next page ("... driven by cost 38" -> "... driven by cost")."""
    return FOLIO_AFTER_WORDS_RE.sub("", last_sentence)


def page_prose(page_text: str) -> str:
    """A page's text on one line, the running header that opens it ("Table of Contents") left
    out: the first sentence read from a page is the page's, not the header's."""
    return RUNNING_HEADER_RE.sub("", " ".join(page_text.split()))


CELL_MARKS = frozenset({"%", "|"})  # printed between a table's last figure and the prose after it
TABLE_FIGURE_SHARE = 0.35  # a third of its words figures: a statement's row, not a sentence
TABLE_MIN_FIGURES = 6  # a table's cells run together print six figures at least


def reads_as_table(text: str, window: int = 40) -> bool:
    """Whether a text's opening reads as a table's cells run together ("Attributable to
    shareowners 1,182 1,371 1,447 (2,752) 1,248 Basic net income per share $ 0.28 ...")
    rather than prose: at least six figures, and a third of its first ``window`` words."""
    tokens = [t for t in text.split()[:window] if t not in CURRENCY_SIGNS]  # "$ 0.28"
    figures = sum(is_figure(t) for t in tokens)
    return figures >= TABLE_MIN_FIGURES and figures >= TABLE_FIGURE_SHARE * len(tokens)


def prose_after_table(text: str) -> str:
    """The prose a sentence ends with when a table's cells ran into its start ("... Other,
    net (27.9) (182.9) Net cash provided by operating activities $ 2,807.0 $ 2,841.0 During
    fiscal 2019, cash provided by operations was $2,807 million compared to ..."): the text
    from the last capitalized word that follows a figure (its "%" printed apart or a cell's
    closing bar between them: "1.0 % Operating income margins decreased ...", "| 4.1% | 3.8% |
    Gross profit as a percentage ...") with a table's figures before it
    (``TABLE_MIN_FIGURES``); the text itself otherwise."""
    tokens = text.split()
    figures_before = list(accumulate((is_figure(t) for t in tokens), initial=0))

    def after_figure(at: int) -> bool:
        before = at - 1
        while before > 0 and tokens[before] in CELL_MARKS:
            before -= 1
        return is_figure(tokens[before])

    for at in range(len(tokens) - 1, 0, -1):  # one pass: the figures before each word counted
        if (tokens[at][:1].isupper() and after_figure(at)
                and figures_before[at] >= TABLE_MIN_FIGURES):
            return " ".join(tokens[at:])
    return text
