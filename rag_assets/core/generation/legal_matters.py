"""Legal matters as a filing prints them: each under the line of its own that titles it.

Regulation S-K Item 103 has a filer state, for each material pending proceeding, the court,
the date instituted, the principal parties, the facts and the relief sought, and filers print
each matter under a line of its own: a title ("Dunbar, West Virginia Water Main Break Class
Action Litigation") or the case's caption ("Lockheed Martin v. Metropolitan Transportation
Authority"). One matter takes several sentences (who sued, each complaint, the damages sought),
and its caption or the amount sought is often printed sentences after the one that names it:
read one sentence at a time, one matter is listed three times and its caption never. So the
sentences that state matters are grouped by the line they stand under
(:meth:`QuoteRoute.under_heading`), and each matter is listed once: its heading, the sentence
that names its case (:func:`_matter`) and the relief it seeks in an amount. A sentence under a
heading that names the section, not a matter ("Legal Proceedings"), is read on its own.
``legal_matters.json`` holds the section's words, a case's particulars, a part's title and the
relief's pattern, with their sources.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rag_assets.core.generation.evidence import EvidenceUnit
from rag_assets.core.text.figures import MONEY_RE
from rag_assets.core.text.periods import EVENT_DATE_RE

MATTERS_FILE = Path(__file__).with_name("legal_matters.json")
# a longer "sentence" is a paragraph the reader failed to split; a caption's names the parties
# at length (American Water's Bruce complaint: 81 words)
MATTER_SENTENCE_WORDS = 100
TAIL_CHARS = 40  # of a sentence's end, found among a heading's sentences: it stands there

# the heading a unit stands under and the sentences under that heading
Under = Callable[[EvidenceUnit], tuple[str, list[EvidenceUnit]]]


@dataclass(frozen=True)
class MatterRules:
    """``legal_matters.json`` read: what a section's heading, a case's particulars and the
    relief it seeks print (each pattern's source is in the file)."""

    section_words: frozenset[str]
    caption: re.Pattern[str]
    court: re.Pattern[str]
    instituted: re.Pattern[str]
    part_title: re.Pattern[str]
    relief: re.Pattern[str]
    outcome: re.Pattern[str]
    max_relief: int


@cache
def rules() -> MatterRules:
    data = json.loads(MATTERS_FILE.read_text(encoding="utf-8"))
    said, relief = data["particulars"], data["relief"]
    return MatterRules(
        section_words=frozenset(data["section_words"]["words"]),
        caption=re.compile(said["caption"]),
        court=re.compile(said["court"], re.IGNORECASE),
        instituted=re.compile(said["instituted"], re.IGNORECASE),
        part_title=re.compile(data["part_title"]["pattern"], re.IGNORECASE),
        relief=re.compile(relief["pattern"], re.IGNORECASE),
        outcome=re.compile(relief["outcome"], re.IGNORECASE),
        max_relief=int(data["max_relief"]))


def names_case(text: str) -> bool:
    """Whether a text prints a case's caption ("Lockheed Martin v. Metropolitan Transportation
    Authority", "In re ...")."""
    return rules().caption.search(text) is not None


def particulars(sentence: str) -> bool:
    """Whether a matter's sentence prints one of Item 103's particulars (a court, a case's
    caption, or the date it was instituted: a filing verb and an event's date)."""
    read = rules()
    return bool(read.court.search(sentence) or read.caption.search(sentence)
                or read.instituted.search(sentence) and EVENT_DATE_RE.search(sentence))


def seeks_relief(sentence: str) -> bool:
    """Whether a matter's sentence states the relief sought in an amount ("the MTA is seeking
    damages of approximately $190 million"), not an outcome ("a jury ... awarded compensatory
    damages of approximately $2 million")."""
    read = rules()
    return bool(read.relief.search(sentence) and MONEY_RE.search(sentence)
                and not read.outcome.search(sentence))


def names_section(heading: str) -> bool:
    """Whether a heading names a part of the filing, not one matter: a note's or an Item's
    title ("Note 9—Net Income per Share"), or the legal section's words only ("Legal
    Proceedings", "Commitments and Contingencies")."""
    words = re.findall(r"[a-z]+", heading.lower())
    return rules().part_title.match(heading) is not None or set(words) <= rules().section_words


def _said(unit: EvidenceUnit, heading: str = "") -> str:
    """A unit's sentence as a list prints it: on one line, without its end's period or a
    heading a chunk glued to its start."""
    said = " ".join(unit.text.split()).rstrip(". ")
    return said[len(heading):].lstrip(" :") if heading and said.startswith(heading) else said


def _flat(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _stands_in(unit: EvidenceUnit, heading: str, span: Sequence[EvidenceUnit]) -> bool:
    """Whether the unit's sentence is one of the heading's: its end is printed among them (a
    chunk may have glued the heading to its start), or it is the heading itself (a "sentence"
    of headings only: "Legal Proceedings United States of America, ex rel. Patzer; ... et
    al.")."""
    said = _flat(unit.text)
    tail = said[-TAIL_CHARS:]
    return bool(tail) and (tail in _flat(" ".join(u.text for u in span))
                           or said.endswith(_flat(heading)))


def _captions(text: str) -> set[str]:
    return {m.group(0) for m in rules().caption.finditer(text)}


def _matter(heading: str, span: Sequence[EvidenceUnit], found: EvidenceUnit,
            patterns: Sequence[re.Pattern[str]]) -> tuple[str, list[EvidenceUnit]]:
    """A matter's line: its heading, the sentence naming its case (under a caption, the first
    printing Item 103's particulars; under a title, one printing a caption, else the first
    stating a matter with its particulars, never a sentence that states none: "The initial
    license term is 15 years, which commenced ... on August 23, 2018" under a state's gaming
    regulation; else the sentence ``found`` stating a matter, as it was read) and, in
    parentheses, the relief sought in an amount (never an outcome: a verdict, an award), only
    where the heading holds one case (a title over several, "Pending Employment-Related
    Matters", may print one case's damages beside another's caption); and the sentences it is
    read from."""
    short = [u for u in span if len(u.text.split()) <= MATTER_SENTENCE_WORDS]
    stated = [u for u in short if any(p.search(u.text) for p in patterns)]
    if names_case(heading):  # one case: the first sentence that places it
        lead = next((u for u in short if particulars(u.text)), None) or next(iter(stated),
                                                                               short[0])
    else:  # a title ("Product Liability Litigation"): the case it names, else one stated
        lead = (next((u for u in short if names_case(u.text)), None)
                or next((u for u in stated if particulars(u.text)), None) or found)
    one_case = names_case(heading) or not _captions(" ".join(u.text for u in short)) - _captions(
        lead.text)
    relief = [u for u in short if u is not lead and seeks_relief(u.text)
              ][:rules().max_relief if one_case else 0]
    sought = f" ({'; '.join(_said(u) for u in relief)})" if relief else ""
    return f"{heading}: {_said(lead, heading)}{sought}", [lead, *relief]


def as_matters(found: dict[str, list[EvidenceUnit]], patterns: Sequence[re.Pattern[str]],
               under: Under) -> dict[str, list[EvidenceUnit]]:
    """The matters of ``found`` (each sentence stating one, with the units it is read from),
    each once: the sentences under one matter's heading as one line (:func:`_matter`), the
    Item's and the note's print of one matter as one (the same sentence leads both), in the
    order first found; a sentence under no heading, or under the section's own, as it was."""
    matters: dict[str, list[EvidenceUnit]] = {}
    headings: dict[str, str] = {}  # a heading read, to the line of its matter
    leads: dict[str, str] = {}  # a matter's lead sentence, to its line
    for text, units in found.items():
        heading, span = under(units[0])
        if (not heading or names_section(heading)
                or not any(len(u.text.split()) <= MATTER_SENTENCE_WORDS for u in span)
                or not _stands_in(units[0], heading, span)):
            matters.setdefault(text, units)
            continue
        if heading not in headings:
            line, read = _matter(heading, span, units[0], patterns)
            headings[heading] = leads.setdefault(_flat(read[0].text), line)
            matters.setdefault(headings[heading], read)
        if _captions(text) - _captions(headings[heading]) and not names_case(heading):
            line = f"{heading}: {' '.join(text.split()).rstrip('. ')}"  # another case of a
            matters.setdefault(line, units)  # title over several ("Employment-Related Matters")
    return matters
