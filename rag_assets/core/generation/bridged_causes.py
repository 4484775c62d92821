"""What drove a margin's change when the filing explains the parts it is made of, not it.

Operating margin is gross margin less the operating expense ratio (``finance_terms.json``'s
``bridge``, the income statement's own subtraction), and MD&A (Regulation S-K Item 303(b))
gives the reasons for each part's change where it discusses it: "For fiscal 2018, the decrease
[in gross profit rate] was primarily due to strategic price investments ...", "the increase in
operating expenses as a percentage of net sales was primarily due to approximately $0.6
billion in charges ...". Filings seldom explain the operating margin in one sentence. When no
sentence explains the margin itself, each part that moved the margin's way (a lower gross
margin and a higher expense ratio both lower it: :class:`records.Moved`) is asked the question
the margin was asked, and the causes found lead the answer: "A lower gross margin (primarily
due to ...) and a higher operating expense ratio (primarily due to ...)"; the margin's change,
computed with its parts, follows. Nothing is written that a cited sentence does not print but
the part's name and its way, which the computation beside it shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.drivers import (
    CHANGE_NOUN,
    explained_way,
    names_owner,
    refers_elsewhere,
    segments_change,
)
from rag_assets.core.generation.records import Change, Moved
from rag_assets.core.question.question import Question
from rag_assets.core.question.vocabulary import (
    MetricDef,
    TermMatch,
    load_vocabulary,
    normalize,
    terms_in,
)
from rag_assets.core.text.figures import AMOUNT_STATED_RE
from rag_assets.core.text.periods import months_asked

# a cause question answered in one filing: the sentence that explains its measure, or None
Explain = Callable[[Question], DirectAnswer | None]
WAY_WORDS = {"up": "a higher", "down": "a lower"}
# a sentence's opening words that go lower case inside a clause ("our gross profit rate ...")
ARTICLES = frozenset({"The", "A", "An", "Our"})
YEAR_MONTHS = 12  # what months_asked reads from a text that names no part of a year
SALES = "revenue"  # the denominator of a margin, and a segment profit's other driver
MIN_PARTS = 2
# the way a change went, named as a noun: "the increase in", "the decline of"
WAY_NOUN_RE = re.compile(rf"\b{CHANGE_NOUN}(?=\s+(?:in|of)\b)", re.IGNORECASE)


def asked_of_part(question: Question, part: str) -> Question | None:
    """The question asked of a part instead of the bridged measure it names ("What drove the
    change in Walmart's operating margin in FY2018?" -> "... gross margin in FY2018?"), with
    everything else read from it kept; None when it names no bridged measure."""
    vocabulary = load_vocabulary()
    for term in terms_in(question.ranking_text):
        metric = vocabulary.metrics.get(term.name)
        if metric is not None and metric.bridge:
            return _reworded(question, term, part)
    return None


def _reworded(question: Question, term: TermMatch, words: str) -> Question:
    """The question with ``words`` for the measure ``term`` reads, as it prints it (any case,
    spacing or hyphen), the rest as written (a segment's name keeps its capitals) but the way
    the whole went: a part may have gone the other way ("What drove the increase in Walmart
    U.S.'s operating income" asks what drove the change in its gross margin, which fell)."""
    printed = re.compile(r"\W+".join(re.escape(w) for w in normalize(
        question.ranking_text)[term.start:term.end].split()), re.IGNORECASE)
    text = WAY_NOUN_RE.sub("change", printed.sub(words, question.ranking_text, count=1))
    return question.reworded(text, text)


def bridged_causes(question: Question, change: Change, explain: Explain) -> DirectAnswer | None:
    """The causes of each part of the change that moved its way, as one leading sentence
    citing every sentence read; None when no part's change is explained."""
    found: list[tuple[Moved, DirectAnswer]] = []
    for part in change.parts:
        asked = asked_of_part(question, part.title)
        cause = explain(asked) if asked is not None else None
        if (cause is None or refers_elsewhere(cause.causes)
                or explained_way(cause) not in (None, part.way)
                or segments_change(cause) or another_length(question, cause)):
            continue  # a pointer, an increase's causes, a segment's or a quarter's explain none
        found.append((part, cause))
    if not found:
        return None
    return _led_by(" and ", [(f"{WAY_WORDS[part.way]} {part.title}", cause)
                             for part, cause in found])


def _led_by(joiner: str, found: Sequence[tuple[str, DirectAnswer]]) -> DirectAnswer:
    """One leading sentence of the parts that moved, each with its change as printed and its
    causes in parentheses ("A lower gross margin (... primarily due to ...)"), citing every
    sentence read."""
    said = joiner.join(f"{moved} ({_stated(cause)}{bare_causes(cause.causes)})"
                       for moved, cause in found)
    units = [u for _, cause in found for u in cause.units]
    return DirectAnswer(kind="cause", text=f"{said[0].upper()}{said[1:]}.", units=units,
                        supports=units[0].text if len(units) == 1 else "", causes=said)


def _margin_of(amount: str) -> MetricDef | None:
    """The bridged margin whose numerator is the line item ``amount`` (operating income's
    operating margin: ``operating_income / revenue``), or None."""
    return next((m for m in load_vocabulary().metrics.values()
                 if m.bridge and m.formula == f"{amount} / {SALES}"), None)


def member_causes(question: Question, owners: set[str], explain: Explain
                  ) -> DirectAnswer | None:
    """What drove a segment's profit, as its own MD&A discussion gives it: a segment's
    operating income moves with its sales and with the parts of its margin (``bridge``: gross
    margin, operating expense ratio), and Item 303(b) has the segment's section explain each
    ("Net sales for the Walmart International segment decreased $1.6 billion ... primarily due
    to ... currency exchange rates of $4.1 billion"; "Gross profit rate decreased 136 ...
    basis points ... primarily due to Flipkart"), then sum up "As a result of the factors
    discussed above, segment operating income decreased $1.5 billion", a pointer that names
    no cause. Each part is asked of the segment (``owners``: the names the question gives
    it) and kept when a sentence of that segment's, named or under its heading, explains it;
    said the way it went, as printed. None when the question asks no segment's profit, or
    fewer than two parts are explained (one part alone is no bridge)."""
    terms = [t for t in terms_in(question.ranking_text) if not t.is_metric]
    margin = _margin_of(terms[0].name) if len(terms) == 1 else None
    if margin is None:
        return None
    vocabulary = load_vocabulary()
    found: list[tuple[str, DirectAnswer]] = []
    for part in (SALES, *margin.bridge):
        entry = vocabulary.metrics.get(part) or vocabulary.concepts.get(part)
        title = entry.title if entry is not None else part
        cause = explain(_reworded(question, terms[0], title))
        if (cause is None or refers_elsewhere(cause.causes) or another_length(question, cause)
                or not _of_member(cause, owners)):
            continue
        found.append((title, cause))
    if len(found) < MIN_PARTS:
        return None
    return _led_by("; ", [(_moved(title, explained_way(cause)), cause) for title, cause in found])


def _of_member(cause: DirectAnswer, owners: set[str]) -> bool:
    """Whether the change a cause explains is the segment's: the segment named in what changed
    ("Net sales for the Walmart International segment decreased"), or a sentence cited under
    its heading (the one read under the heading above it; the sentence before it, its change,
    is of the same section); a company sentence that mentions it among its causes ("price
    investment in the Walmart U.S. segment") is the company's."""
    return names_owner(cause.changed, owners) or any(
        names_owner(u.scope.rsplit("|", 1)[-1], owners) for u in cause.units)


def _moved(title: str, way: str | None) -> str:
    """A part and the way it went, as the sentence explaining it says: "a lower gross margin",
    "lower revenue" (a mass noun takes no article); "its revenue" when no way is said."""
    if way not in WAY_WORDS:
        return f"its {title}"
    words = WAY_WORDS[way]
    return f"{words.removeprefix('a ')} {title}" if title == SALES else f"{words} {title}"


def _stated(cause: DirectAnswer) -> str:
    """The line item's change as MD&A prints it, before its causes, when it states an amount
    ("cost of sales increased $912 million in fiscal 2022 to $12,591 million, "): the size of
    what the causes explain; nothing for a change worded without one."""
    changed = cause.changed.strip().rstrip(" .;,")
    if not changed or not AMOUNT_STATED_RE.search(changed) or len(changed.split()) > MAX_STATED:
        return ""
    first, _, rest = changed.partition(" ")
    return f"{first.lower() if first in ARTICLES else first} {rest}, " if rest else ""


MAX_STATED = 25  # words of a printed change worth repeating before its causes


def another_length(question: Question, cause: DirectAnswer) -> bool:
    """Whether a sentence the cause is read from names a part of a year other than the one
    asked ("the fourth quarter of 2018" for a fiscal year's change); a sentence that names
    none ("The decrease was driven by ...") is of the period its neighbour names."""
    return any((months := months_asked(u.text)) != YEAR_MONTHS and months != question.months
               for u in cause.units)


def bare_causes(causes: str) -> str:
    """Causes as a clause in parentheses: no closing stop, an article that opened a sentence
    in lower case ("The negative impact of the yen ...;" -> "the negative impact of the yen
    ..."; a name keeps its capital)."""
    causes = causes.strip().rstrip(" .;")
    first, _, rest = causes.partition(" ")
    return f"{first.lower()} {rest}" if first in ARTICLES and rest else causes
