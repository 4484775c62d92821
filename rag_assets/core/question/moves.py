"""The measure a yes/no question asks the move of, when only prose names it, and the way asked.

"Did JPMorgan Chase grow its average deposits in Q2 2023?" asks whether a measure went up that
no statement prints and the finance vocabulary does not hold: a bank's average deposits, a
backlog, paid memberships. The filing states such a measure's move in MD&A or a release
("Firmwide average deposits of $2.4 trillion were down 6%"), and the stated-move reader answers
from that sentence once it knows the measure's words. They are read from the question's grammar,
never from a list of measures: the object of the verb of direction ("grow its average
deposits") or the subject that verb follows ("Did Netflix's paid memberships increase ...?"),
and the way asked is that verb's ("reduce its content spending" asks down, whatever else the
question says). A vocabulary term or a qualified measure is read elsewhere (the metric engine,
the qualified measures), so this is asked only when neither is named; a question that asks a
threshold ("by more than 10%") or names a member ("grow its average deposits in Asset & Wealth
Management") asks more than a direction, and is left to the other readers. Plain Python.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from rag_assets.core.text.periods import MONTH_RE, names_a_period

_AUX = r"(?:did|does|do|has|have|had|is|are|was|were)"
# the verbs of direction a question asks with, each with its way, as data with their sources
# (``directions.json``): those asked anywhere in a question ask the way (:func:`way_asked`);
# those that move their object ask it only as "<verb> its <measure>" ("Despite lower earnings,
# ..." asks no way down); those that say the way by a word of their own only with their object
# after them ("step up its buybacks", never "price hikes"), which the metric engine reads too
_VERBS: dict[str, dict[str, str]] = json.loads(
    (Path(__file__).with_name("directions.json")).read_text(encoding="utf-8"))["verbs"]


def _joined(kind: str, way: str) -> str:
    """The patterns of one kind and way of ``directions.json``, in the file's order."""
    return "|".join(v["pattern"] for v in _VERBS.values() if (v["kind"], v["way"]) == (kind, way))


UP_ASKED = _joined("asked", "up")
DOWN_ASKED = _joined("asked", "down")
COMPRESSED = _VERBS["compressed"]["pattern"]
STEPPED_UP = _VERBS["stepped_up"]["pattern"]
SCALED_BACK = _VERBS["scaled_back"]["pattern"]
REDUCED = _VERBS["reduced"]["pattern"]  # moves its object down: "cut its dividend"
_UP = f"{UP_ASKED}|{_joined('phrasal', 'up')}|{_joined('moving', 'up')}"
_DOWN = f"{DOWN_ASKED}|{_joined('phrasal', 'down')}|{_joined('moving', 'down')}"
_UP_ASKED_RE = re.compile(rf"\b(?:{UP_ASKED})\b", re.IGNORECASE)
_DOWN_ASKED_RE = re.compile(rf"\b(?:{DOWN_ASKED})\b", re.IGNORECASE)
_MOVED_UP_RE = re.compile(rf"\b(?:{_UP})\b", re.IGNORECASE)
_MOVED_DOWN_RE = re.compile(rf"\b(?:{_DOWN})\b", re.IGNORECASE)
_VERB = rf"(?P<verb>{_UP}|{_DOWN})"
# a measure's words: one to four lower-case words, up to the period, comparison or clause after
_MEASURE = r"(?P<measure>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}?)"
_AFTER = (r"(?=\s+(?:in|during|for|from|over|between|as|compared|versus|since|at|by|through|"
          r"on|after|before|to|above|below|more|less)\b|\s*[,?(]|\s*$)")
# "Did <company> grow its average deposits ...?"
_OBJECT_RE = re.compile(rf"^{_AUX}\s+\S[^?]*?\s+{_VERB}\s+(?:its|their)\s+{_MEASURE}{_AFTER}")
# "Did <company>'s paid memberships increase ...?"
_SUBJECT_RE = re.compile(rf"^{_AUX}\s+[^?]*?['’]s?\s+{_MEASURE}\s+{_VERB}\b")
# words that name no measure of their own: a position, the business, a pronoun's object
_NO_MEASURE_RE = re.compile(r"\b(?:business|company|firm|operations|results|performance|"
                            r"position|profile|it|them|this|that)$")
# a threshold or a member asked in the clause ("by more than 10%", "its Consumer & Community
# Banking segment"), or a member named after the measure ("in Asset & Wealth Management"): more
# than a direction
_MORE_ASKED_RE = re.compile(r"%|\$|\b(?:more|less|fewer|greater|at least|at most|above|below|"
                            r"faster|slower|than|segment|division|region|business)\b",
                            re.IGNORECASE)
# a name after "in", "at", "for" or "of" ("in Asset & Wealth Management"), unless it opens a
# period ("in Fiscal 2022", "in January"; "Q2" and "FY2022" are no such name)
_MEMBER_RE = re.compile(r"\b(?:in|at|for|of)\s+(?:its\s+|the\s+)?(?P<name>[A-Z][a-z])")


def _names_member(text: str) -> bool:
    return any(not (names_a_period(text[m.start("name"):]) or MONTH_RE.match(text, m.start("name")))
               for m in _MEMBER_RE.finditer(text))


def way_asked(text: str, moved_by: bool = False) -> bool | None:
    """True when a question asks whether something went up, False down, None neither or both
    ("Did it rise or fall?" asks no way); ``moved_by``: the verbs that move their object count
    too ("Did it raise its guidance?", "cut its outlook")."""
    up_re, down_re = (_MOVED_UP_RE, _MOVED_DOWN_RE) if moved_by else (_UP_ASKED_RE,
                                                                      _DOWN_ASKED_RE)
    up, down = up_re.search(text), down_re.search(text)
    return None if bool(up) == bool(down) else bool(up)


Way = Literal["up", "down", "kept", "better", "worse"]
# a yes or no asking whether something was kept ("Did X reaffirm its guidance?"), never a move
# kept on ("Did it keep growing its memberships?" asks up)
_KEPT_ASKED_RE = re.compile(r"\b(?:reaffirm\w*|maintain\w*|reiterat\w*|unchanged|"
                            r"(?:kept|keep\w*)(?!\s+(?:on\s+)?[a-z]+ing\b))", re.IGNORECASE)
# a judgment of which way is better: each reader says which way of its measure that is (a
# stated "improved" is a move up, an improved outlook a raised one; two figures alone say none)
_BETTER_ASKED_RE = re.compile(r"\b(?:improv|strengthen)\w*", re.IGNORECASE)
_WORSE_ASKED_RE = re.compile(r"\b(?:worsen|deteriorat|weaken)\w*", re.IGNORECASE)


def way_of(clause: str) -> Way | None:
    """The way a yes or no's own clause asks something moved: kept ("reaffirm its outlook"),
    better or worse (a judgment: "improve", "deteriorate"), else up or down by the verbs of
    direction; those that move their object ("raise its guidance", "reduce its debt") only when
    no other verb of direction says it ("increase ... on lower gasoline prices" asks up); None
    when it asks no way, or both ("Did it rise or fall?")."""
    if _KEPT_ASKED_RE.search(clause):
        return "kept"
    better, worse = _BETTER_ASKED_RE.search(clause), _WORSE_ASKED_RE.search(clause)
    if better or worse:
        return None if better and worse else "better" if better else "worse"
    up = way_asked(clause)
    if up is None and not (_UP_ASKED_RE.search(clause) and _DOWN_ASKED_RE.search(clause)):
        up = way_asked(clause, moved_by=True)
    return None if up is None else "up" if up else "down"


class Move(BaseModel):
    """A measure named only in prose and the way its governing verb asks whether it moved
    (up or down; "improve" a judgment, better)."""

    measure: str
    way: Way


def moved_measure(text: str) -> Move | None:
    """The measure whose move a yes/no question asks ("average deposits") and the way its
    verb asks, or None when its grammar names none or asks more than a direction."""
    asking = text.strip()
    asking = asking[:1].lower() + asking[1:]
    for pattern in (_OBJECT_RE, _SUBJECT_RE):
        found = pattern.match(asking)
        if found is None:
            continue
        measure = " ".join(found["measure"].split())
        rest = asking[max(found.end("measure"), found.end("verb")):]
        clause = asking.split("?")[0].split(",")[0]  # its own clause, not a concessive one
        if _NO_MEASURE_RE.search(measure) or _MORE_ASKED_RE.search(clause) \
                or _names_member(rest.split("?")[0].split(",")[0]):
            return None
        verb = found["verb"]
        way: Way = ("better" if _BETTER_ASKED_RE.match(verb) else
                    "up" if re.fullmatch(_UP, verb) else "down")
        return Move(measure=measure, way=way)
    return None
