"""What a filing's cover page states of its registrant: where its principal executive offices
are, where it is incorporated, how many shares are outstanding, the market value of the stock
held by non-affiliates.

Forms 10-K, 10-Q and 8-K print these on their cover, each value above the caption that names
it ("ONE RIVERFRONT PLAZA, CORNING, NY 14831" over "(Address of principal executive offices)
(Zip Code)") or in a sentence the form asks for ("There were 786,761,073 shares of Corning's
common stock issued and outstanding as of January 31, 2019."). Retrieval ranks other sentences
first for such questions (a subsidiary's country for "Where is Netflix headquartered?", a
preferred stock's count for its shares outstanding), so the cover is read where the form puts
it. The facts, the words that ask them and the captions are data (``cover_facts.json``, each
with its source). The answer's first sentence is the value as printed, or the cover's sentence
that states it; a cover that prints neither gives nothing here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import printed_unit
from rag_assets.core.generation.registered import COVER_PAGES
from rag_assets.core.question.question import Question
from rag_assets.core.text.sentences import split_sentences

FACTS_PATH = Path(__file__).with_name("cover_facts.json")
# a caption the cover prints under a value: "(Exact name of registrant as specified in its
# charter)", "(Address of principal executive offices) (Zip Code)"
CAPTION_LINE_RE = re.compile(r"^\(|\)$")  # a caption's line, or one of its two
# the check boxes the cover prints before a sentence, run into it: "Yes ☐ No ☒ As of ..."
CHECK_BOXES_RE = re.compile(r"^.*[☐☒]\s*")
# a heading run into the sentence before it, three words in capitals: "... 575.8 million
# DOCUMENTS INCORPORATED BY REFERENCE ..." (3M's 2018 cover)
HEADING_RUN_RE = re.compile(r"\s+(?=(?:[A-Z]{2,}\s+){2,}[A-Z]{2,}\b)")
# an employer identification number printed on the state's line: "Delaware 77-0467272"
EMPLOYER_NUMBER_RE = re.compile(r"\s+\d{2}-\d{7}\s*$")


class CoverFact(BaseModel):
    asks: str
    not_asked: str = ""
    cover_named: bool = False
    caption: str | None = None
    lines: int = 1
    cut_at_digit: bool = False
    labelled: str | None = None
    states: str | None = None
    says: str
    source: str


class CoverFacts(BaseModel):
    doc: list[str] = Field(alias="_doc", min_length=1)
    facts: dict[str, CoverFact]


@cache
def load_cover_facts(path: Path = FACTS_PATH) -> CoverFacts:
    return CoverFacts.model_validate(json.loads(path.read_text(encoding="utf-8")))


def fact_asked(question: Question) -> CoverFact | None:
    """The one cover fact the question asks, or None (none, or several)."""
    asked = [f for f in load_cover_facts().facts.values()
             if re.search(f.asks, question.text, re.IGNORECASE)
             and not (f.not_asked and re.search(f.not_asked, question.text, re.IGNORECASE))
             and not (f.cover_named and question.years
                      and not question.phrased("cover_word"))]
    return asked[0] if len(asked) == 1 else None


def _captioned(fact: CoverFact, text: str) -> tuple[str, str] | None:
    """The value printed after its label on one line, else on the lines above its caption, and
    the lines as printed (the label or the caption names what the value is)."""
    lines = [" ".join(line.split()) for line in text.splitlines()]  # no-break spaces too
    for line in lines:
        if fact.labelled and (found := re.search(fact.labelled, line, re.IGNORECASE)):
            return found["value"].strip(), line
    for at, line in enumerate(lines):
        if fact.caption and re.search(fact.caption, line, re.IGNORECASE):
            above = _above(lines, at, fact.lines)
            value = EMPLOYER_NUMBER_RE.sub("", ", ".join(above).strip(" _"))
            if fact.cut_at_digit:
                value = re.split(r"\s+\d", value)[0]
            if value:
                return value, "\n".join([*above, line])
    return None


def _above(lines: Sequence[str], at: int, most: int) -> list[str]:
    """The lines above line ``at`` that print its value, at most ``most``: up to a blank line,
    another caption or a line of check boxes."""
    taken: list[str] = []
    for line in reversed(lines[max(0, at - most):at]):
        if not line or CAPTION_LINE_RE.search(line) or "☐" in line or "☒" in line:
            break
        taken.insert(0, line.strip(" _"))
    return taken


def _blocks(text: str) -> list[str]:
    """The cover's text in blocks a sentence may run across: a caption line ("(Address of
    principal executive offices)") or a line of check boxes ends one, whatever it ends with."""
    blocks, block = [], []
    for line in (" ".join(line.split()) for line in text.splitlines()):
        block.append(line)
        if CAPTION_LINE_RE.search(line) or "☐" in line or "☒" in line:
            blocks.append(" ".join(block))
            block = []
    return [*blocks, " ".join(block)]


def _stated(fact: CoverFact, text: str) -> str | None:
    """The cover's sentence that states the fact."""
    found = next((s for block in _blocks(text) for s in split_sentences(block)
                  if fact.states and re.search(fact.states, s, re.IGNORECASE)), None)
    if found is None:
        return None
    return HEADING_RUN_RE.split(CHECK_BOXES_RE.sub("", found).strip())[0]


def cover_fact(question: Question, document: str, year: int,
               pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The cover's value or sentence for the one cover fact the question asks; None for any
    other question or a cover that prints neither."""
    fact = fact_asked(question)
    if fact is None:
        return None
    for page, text in pages[:COVER_PAGES]:
        if fact.caption and (found := _captioned(fact, text)) is not None:
            value, line = found
            unit = printed_unit(document, year, page, line, "cover page")
            return DirectAnswer(kind="cover", text=fact.says.format(value=value),
                                units=[unit], supports=line)
        if fact.states and (sentence := _stated(fact, text)) is not None:
            unit = printed_unit(document, year, page, sentence, "cover page")
            return DirectAnswer(kind="cover", text=fact.says.format(value=sentence),
                                units=[unit], supports=sentence)
    return None
