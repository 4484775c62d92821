"""Yes or no to "Did its comparable sales grow?" from the sentence that states the measure's move.

A measure no statement prints (comparable sales, same-store sales, traffic, average ticket, a
bank's average deposits) is stated in MD&A or a release as a move: "Comparable sales (...)
increased 9.3%". A yes/no question that asks whether the measure it names
(``Question.qualified``, else the one its grammar names: ``Question.moved``) moved a way is
answered by the sentence that states the measure, a verb of its direction and the amount it
moved by: "Yes" when the stated direction is the one asked, "No" when it is the other, then
the sentence. The sentence must speak of the period asked (:func:`yes_no.of_the_period`);
one that names the measure before its verb is preferred to one that names it in passing. The
verbs are the ones a filing states a move with; hand-written because no library reads them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer, Scan
from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.generation.stated_events import event_names
from rag_assets.core.generation.yes_no import candidates, of_the_period
from rag_assets.core.question.moves import Move, moved_measure
from rag_assets.core.question.question import Question
from rag_assets.core.text.bullets import TOP_BULLET_RE
from rag_assets.core.text.periods import (
    MONTH_NUMBERS,
    MONTH_RE,
    months_asked,
    names_a_period,
    quarters_named,
)
from rag_assets.core.text.years import years_in

BASE_RE = re.compile(r"\b(?:compared (?:to|with)|versus|vs\.?|from)\b", re.IGNORECASE)
STATED_UP = frozenset({"increased", "rose", "grew", "improved", "was up", "were up"})
# the way a yes or no asks (``Question.way``) as a stated move's verb says it: an improvement
# is stated "improved", a move up (``STATED_UP``); a worsening has no verb of its own here
STATED_WAYS = {"up": True, "better": True, "down": False}
# the amount a move is stated with: a percentage, basis points or an amount of money
MOVE_AMOUNT = r"(?:-?\d[\d,]*(?:\.\d+)?\s?(?:%|percent\b|basis points\b)|\$\s?\d[\d,.]*)"
# between the measure and its verb: "Comparable sales (sales for stores open at least 14 months
# and e-commerce sales) increased 9.3%" (Ulta Beauty's release)
MAX_GAP_CHARS = 90


def _moved(measure: str, subject: bool = False) -> re.Pattern[str]:
    """A statement of ``measure``'s move: the measure, a verb of direction (group "verb"),
    then the amount it moved by; between the measure and its verb (group "gap") no clause of
    another subject ("... were flat at $2.4 trillion while average loans increased 13%") and
    no end of sentence (a decimal point, "$2.4 trillion", ends none). ``subject``: the
    measure must open the sentence, a scope word ("Firmwide", "Total") aside: a measure read
    from the question's grammar is matched only where it is what the sentence speaks of, never
    the object of another ("Interest expense on deposits increased")."""
    verbs = "increased|decreased|rose|fell|grew|declined|improved|was up|were up|was down|" \
            "were down"
    within = rf"(?:(?!\b(?:{_OTHER_CLAUSE})\b)(?:[^.;]|\.(?=\d)))"
    opening = rf"^[\s•●▪*–—-]*(?:{_PERIOD_OPENING})?(?:(?:{_SCOPE})\s+)?" if subject else r"\b"
    return re.compile(rf"{opening}{re.escape(measure)}\b(?P<gap>{within}{{0,{MAX_GAP_CHARS}}}?)"
                      rf"\b(?P<verb>{verbs})\b{within}{{0,40}}?{MOVE_AMOUNT}", re.IGNORECASE)


# what opens another clause, or says the measure did not move, between a measure and a verb
_OTHER_CLAUSE = "while|whereas|but|remained|flat|unchanged"
# a period the sentence opens with before its subject ("For the three months ended June 30,
# 2023, gross margin decreased by $233 million": Corning's 10-Q)
_PERIOD_OPENING = r"(?:for|in|during)\s(?P<opening>(?:[^,;.]|,\s(?=\d{4})){0,80}?\d{4}),\s*"
# what may scope the measure a sentence opens with: the whole company's
_SCOPE = "firmwide|firm-wide|total|global|consolidated|overall|company-wide|our"
_MEMBER_IN_GAP_RE = re.compile(r"\b(?:and|in|at|for|on)\b|\b[A-Z][a-z]")
# a margin's move stated as a rate: a compressed margin is a lower rate, whatever its dollars
RATE_STATED_RE = re.compile(r"\b(?:basis points?|percentage points?|as an? (?:percent(?:age)?|"
                            r"share) of)\b", re.IGNORECASE)
_WORD_RE = re.compile(r"\b[A-Z][a-z]+")


def _of_the_measure(question: Question, found: re.Match[str], sentence: str,
                    worded: bool) -> bool:
    """Whether a measure read from the question's grammar is what the matched statement
    speaks of: no member between it and its verb ("gross margin on services"), an opening
    that is only the period asked (:func:`_opening_of_the_period`), and, for a vocabulary
    margin the question words (``worded``), its rate stated ("Gross margin increased $1,627
    million" says nothing of a compressed margin)."""
    if _MEMBER_IN_GAP_RE.search(found["gap"]):
        return False
    if not _opening_of_the_period(question, found.groupdict().get("opening")):
        return False
    return not (worded and "margin" in found.group(0).lower()
                and not RATE_STATED_RE.search(sentence))


def _opening_of_the_period(question: Question, opening: str | None) -> bool:
    """Whether the period a sentence opens with ("For the three months ended June 30, 2023,")
    is only a period, and of the quarter asked when one is: a member named in it ("In our
    Greater China segment in fiscal 2023,", "In Europe in fiscal 2023,") speaks of the member,
    another quarter's months ("the three months ended March 31, 2023", asked Q2) of another
    period."""
    if not opening:
        return True
    if any(not MONTH_RE.fullmatch(w) for w in _WORD_RE.findall(opening)) or not (
            names_a_period(opening)):
        return False
    asked = {int(quarter[1]) for quarter, _ in question.periods if quarter}
    named = {q for q, _, _ in quarters_named(opening)} | {
        (MONTH_NUMBERS[m.lower()] + 2) // 3 for m in MONTH_RE.findall(opening)}
    return not asked or not named or named <= asked


def _worded_metric(question: Question) -> Move | None:
    """A vocabulary measure whose move a yes or no asks, as the question words it ("Did
    Corning's gross margin compress?": "gross margin"), read here only when the statements did
    not compute its move (the computed answer comes first): the sentence that states it."""
    if not question.metrics or question.expects != "yes_no":
        return None
    return moved_measure(question.ranking_text)


def _against_the_year_before(question: Question, text: str) -> bool:
    """Whether a move names only the year before the one asked, as its base ("increased 9.3%
    compared to an increase of 18.0% in the first quarter of fiscal 2022", asked of fiscal
    2023): the move is the period asked's, when the base is a period of the length asked ("in
    the first six months of fiscal 2022" is no base of the second quarter's move)."""
    named = set(years_in(text))
    return bool(named and question.years and BASE_RE.search(text)
                and named <= {y - 1 for y in question.years}
                and months_asked(text) == question.months)


def stated_move(question: Question, selected: Sequence[EvidenceUnit],
                pool: Sequence[EvidenceUnit] = (), scan: Scan | None = None
                ) -> DirectAnswer | None:
    """"Yes." or "No." and the sentence that states the measure's move (the evidence's, then
    the filing's), the one that names the measure nearest its start, then the shortest; or
    None. A measure only prose names (``Question.moved``) is read with the way its question's
    verb asks, only from a sentence it opens with nothing of a member between it and its verb
    ("Average deposits in CIB were up 4%" is a segment's), and only when every such sentence
    states the same way."""
    if question.phrased("cause_of_way"):
        return None  # the measure's move is granted; its cause's way is asked (stated_cause)
    moved = None if question.qualified else question.moved or _worded_metric(question)
    asked = STATED_WAYS.get(question.way or "")
    measures = question.qualified or ([moved.measure] if moved is not None else [])
    if question.expects != "yes_no" or asked is None or not measures \
            or question.compares_growth:
        return None  # one measure's move is no answer to whether it outgrew another
    patterns = [_moved(m, subject=moved is not None) for m in measures]
    best: tuple[tuple[int, int], EvidenceUnit, bool] | None = None
    ways: set[bool] = set()
    for unit in candidates(selected, pool, scan, patterns):
        if unit.is_row or not (of_the_period(question, unit.text)
                               or _against_the_year_before(question, unit.text)):
            continue
        for found in (m for p in patterns if (m := p.search(unit.text)) is not None):
            if moved is not None and not _of_the_measure(question, found, unit.text,
                                                         worded=question.moved is None):
                continue
            rank, up = (found.start(), len(unit.text)), found["verb"].lower() in STATED_UP
            ways.add(up)
            if best is None or rank < best[0]:
                best = (rank, unit, up)
    if best is None or (moved is not None and len(ways) > 1):
        return None
    _, unit, up = best
    said = TOP_BULLET_RE.sub("", unit.text)  # "• Firmwide average deposits ...": no glyph
    return DirectAnswer(kind="yes_no", units=[unit], supports=unit.text,
                        text=f"{'Yes' if up == asked else 'No'}. {said}")


# the way a cause is asked ("driven by a higher average ticket") and the way a sentence states
# a move of it: before it ("a 1.5% decrease in average ticket", "higher transactions") or
# after it ("average ticket declined")
ASKED_UP_RE = re.compile(r"\b(?:higher|increased|rising|growing|greater|more|improved|stronger)\b",
                         re.IGNORECASE)
CAUSE_ASKED_RE = re.compile(
    r"\b(?P<way>higher|lower|increased|decreased|rising|falling|declining|growing|greater|"
    r"fewer|more|less|improved|stronger|weaker)\s+(?P<what>.+)$", re.IGNORECASE)
UP_BEFORE = r"increases?|increased|growth|higher|rise|improvement|gains?|rising"
DOWN_BEFORE = r"decreases?|decreased|declines?|declining|lower|reductions?|drops?|falls?|fewer"
UP_AFTER = r"increased|rose|grew|improved|was up|were up"
DOWN_AFTER = r"decreased|declined|fell|dropped|was down|were down"
NEAR = r"(?:[-\d.,$%]+\s*(?:percent|basis points?)?\s+)?"  # "a 1.5% decrease in"


# what a sentence says a cause is: a driver ("driven by", "due to", "reflecting"), or what
# worked against the move ("partially offset by", "despite"); the nearest before the cause
CONNECTIVE_RE = re.compile(
    r"\b(?P<driver>driven|due|result(?:ing|ed)?|reflect\w*|attributable|because|primarily|"
    r"mainly|largely|led|caused|fueled|helped|boosted|from)\b|"
    r"\b(?P<against>offset|despite|although|though|while|partially)\b", re.IGNORECASE)


def _way_stated(what: str, sentence: str) -> bool | None:
    """The way a sentence states ``what`` moved as a driver of its measure's move (True up,
    False down), else None: a cause stated after "partially offset by" or "despite" worked
    against the move, and drove nothing."""
    name = re.escape(what)
    for way, before, after in ((True, UP_BEFORE, UP_AFTER), (False, DOWN_BEFORE, DOWN_AFTER)):
        found = re.search(rf"\b(?:{before})\s+(?:in\s+|of\s+)?(?:the\s+|our\s+)?{NEAR}"
                          rf"{name}\b|\b{name}\s+(?:{after})\b", sentence, re.IGNORECASE)
        if found is not None:
            said = list(CONNECTIVE_RE.finditer(sentence[:found.start()]))
            return way if said and said[-1]["driver"] else None
    return None


def stated_cause(question: Question, selected: Sequence[EvidenceUnit],
                 pool: Sequence[EvidenceUnit] = ()) -> DirectAnswer | None:
    """"Yes." or "No." to "Was the measure's move driven by a higher Y?" from the evidence's
    sentence that states the measure and Y's move: "No" when it states Y moved the other way
    ("driven by an 11.0% increase in transactions and a 1.5% decrease in average ticket"),
    "Yes" when the way asked; None when no sentence states Y's move beside the measure."""
    phrase = question.phrased("cause_of_way")
    asked = CAUSE_ASKED_RE.search(phrase or "")
    if question.expects != "yes_no" or asked is None:
        return None
    up, what = bool(ASKED_UP_RE.fullmatch(asked["way"])), asked["what"].strip()
    measures = question.qualified or ([question.moved.measure] if question.moved else [])
    names = event_names(question.text, question.companies)  # "at Sam's Club": that member's
    for unit in [*selected, *pool]:
        if unit.is_row or not (of_the_period(question, unit.text) or _against_the_year_before(
                question, unit.text)) or not all(
                re.search(re.escape(m), unit.text, re.IGNORECASE) for m in measures) or sum(
                bool(re.search(rf"\b{re.escape(n)}\b", unit.text)) for n in names
                ) < len(names) / 2:
            continue
        stated = _way_stated(what, unit.text)
        if stated is not None:
            return DirectAnswer(kind="yes_no", units=[unit], supports=unit.text,
                                text=f"{'Yes' if stated == up else 'No'}. {unit.text}")
    return None
