"""Which section of a filing a page belongs to: its Item (10-K, 10-Q by Part, 8-K) and its note.

Analysts ask what a filing says about its legal matters, segments, deals, debt or outlook, and a
filing answers each in a known place: 10-K Item 3 and the contingencies note, a 10-Q's Part II
Item 1, an 8-K's Item 5.02 for officers. ``statements.py`` reads the 10-K Items and the
statement pages; this module adds the Items of the other forms (a 10-Q numbers Item 1 twice, in
Part I and Part II; an 8-K numbers them 2.02, 5.07) and the note each page of the notes belongs
to, and maps both to a section key (``sections.json``, with its sources) that the intent lexicon
of the retrieval stage points questions to. A chunk learns its sections from its header: the
Item label and the note's title are printed there (``context.py``), and
:func:`sections_of` reads them back. Plain Python, no model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from rag_assets.core.ingest.statements import (
    ITEM_RE,
    OPEN_END_RE,
    PAGE_REF_RE,
    PRIMARY_STATEMENTS,
    REFERENCE_WORDS_RE,
    exhibit_of,
    item_heading,
    item_of,
    items_by_page,
    note_heading,
)
from rag_assets.core.text.filing_kinds import QUARTERLY_PART_RE, QUARTERLY_PART_TITLE_RE

SECTIONS_PATH = Path(__file__).with_name("sections.json")
MAX_NOTE_PAGES = 12  # a note runs 1-12 pages; past that a missed heading ended it
MAX_HEADING_CHARS = 70
MAX_ITEMS_IN_BODY = 6
CURRENT_ITEM_RE = re.compile(
    r"^\s*item\s+(?P<n>\d\.\d{2})\s*[.:—–-]?\s*(?P<title>\S.*)$", re.IGNORECASE)
# a page that lists Items with page numbers, or more of them than a body page holds
CONTENTS_MIN_ITEMS = 3
OPENING_LINES = 4  # a note heading among a page's first lines opens the page


class ItemEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    starts: str
    title: str
    section: str


class NoteEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str
    patterns: list[str] = Field(min_length=1)


class SectionTable(BaseModel):
    """``sections.json``, validated."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    doc: list[str] = Field(alias="_doc", min_length=1)
    items_10k: dict[str, str]
    items_10q: dict[str, dict[str, ItemEntry]]
    items_8k: dict[str, ItemEntry]
    notes: dict[str, NoteEntry]
    headings: dict[str, list[str]]

    def keys(self) -> set[str]:
        """Every section key the table can give a page (what an intent may point to)."""
        return (set(self.items_10k.values())
                | {e.section for part in self.items_10q.values() for e in part.values()}
                | {e.section for e in self.items_8k.values()}
                | set(self.notes) | set(self.headings) | set(STATEMENT_SECTIONS.values()))


# what a page's StatementKind says of its section
STATEMENT_SECTIONS: dict[str, str] = {
    **{kind: "financial_statements" for kind in PRIMARY_STATEMENTS},
    "segment_note": "segments",
    "mdna": "mdna",
}


@cache
def load_sections(path: Path = SECTIONS_PATH) -> SectionTable:
    """The section table, read once per process."""
    return SectionTable.model_validate(json.loads(path.read_text(encoding="utf-8")))


@cache
def _note_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((key, re.compile(p, re.IGNORECASE))
                 for key, entry in load_sections().notes.items() for p in entry.patterns)


@cache
def _heading_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((key, re.compile(p, re.IGNORECASE))
                 for key, patterns in load_sections().headings.items() for p in patterns)


# --- Items of a 10-Q and an 8-K ------------------------------------------------------------------


def quarterly_item_of(line: str, part: str) -> str | None:
    """The 10-Q Item a heading line opens, as ``"Part II, Item 1. Legal Proceedings"``; the Part
    is the one in force unless only the other Part's Item has this title ("Item 1. Legal
    Proceedings" after a missed "PART II" heading). Cross references and contents lines: None."""
    heading = item_heading(line)
    if heading is None:
        return None
    number, title = heading
    if REFERENCE_WORDS_RE.search(title):
        return None
    table = load_sections().items_10q
    for candidate in (part, "II" if part == "I" else "I"):
        entry = table[candidate].get(number)
        if entry and re.match(rf"(?:the\s+)?(?:{entry.starts})", title):
            return f"Part {candidate}, Item {number}. {entry.title}"
    return None


def current_item_of(line: str) -> str | None:
    """The 8-K Item a heading line opens, as ``"Item 5.07. Submission of Matters to a Vote of
    Security Holders"``; "Item 404(a) of Regulation S-K" and unknown numbers give None."""
    text = " ".join(line.split())
    match = CURRENT_ITEM_RE.match(text)
    if not match or len(text) > 240:
        return None
    entry = load_sections().items_8k.get(match.group("n"))
    title = match.group("title").lower().replace("’", "'")
    if entry is None or not re.match(rf"(?:{entry.starts})", title):
        return None
    return f"Item {match.group('n')}. {entry.title}"


def _part_of(line: str) -> str | None:
    text = " ".join(line.split())
    match = QUARTERLY_PART_RE.match(text)
    if not match or len(text) > 60 or PAGE_REF_RE.search(text):
        return None
    rest = match.group("rest").lower()
    if rest and not QUARTERLY_PART_TITLE_RE.match(rest):
        return None  # "Part I of this report", "Part II, Item 1A": not a Part heading
    return "II" if match.group("part").lower() in ("ii", "2") else "I"


def _quarterly_items(pages: Sequence[Sequence[str]]) -> tuple[list[str | None], list[list[str]]]:
    out: list[str | None] = []
    opened: list[list[str]] = []
    part, current = "I", None
    for lines in pages:
        found: list[str] = []
        page_part = part
        previous = ""
        for line in lines:
            if not line.strip():
                continue
            if (heading := _part_of(line)) is not None:
                page_part = heading
            elif (item := quarterly_item_of(line, page_part)) and not OPEN_END_RE.search(previous):
                found.append(item)
                page_part = item.split(",")[0].removeprefix("Part ")
            previous = line
        listed = sum(1 for line in lines
                     if ITEM_RE.match(" ".join(line.split())) and PAGE_REF_RE.search(line.rstrip()))
        contents = len(found) > MAX_ITEMS_IN_BODY or (
            len(found) + listed >= CONTENTS_MIN_ITEMS and listed > 0)
        if found and not contents:
            current, part = found[-1], page_part
        elif (exhibit := exhibit_of(lines)) is not None:
            current = exhibit
        out.append(current)
        opened.append(found if found and not contents else [])
    return out, opened


def _current_items(pages: Sequence[Sequence[str]]) -> tuple[list[str | None], list[list[str]]]:
    out: list[str | None] = []
    opened: list[list[str]] = []
    current: str | None = None
    for lines in pages:
        exhibit = exhibit_of(lines)
        found = [item for line in lines if (item := current_item_of(line))]
        if exhibit is not None:
            current = exhibit
        elif found:
            current = found[-1]
        out.append(current)
        opened.append(found if exhibit is None else [])
    return out, opened


def _annual_opened(pages: Sequence[Sequence[str]], items: Sequence[str | None]) -> list[list[str]]:
    """The 10-K Items headed on each page; a page whose last heading did not become the Item in
    force (a table of contents) heads none."""
    opened: list[list[str]] = []
    for lines, item in zip(pages, items, strict=True):
        found: list[str] = []
        previous = ""
        for line in lines:
            if line.strip():
                if (label := item_of(line)) and not OPEN_END_RE.search(previous):
                    found.append(label)
                previous = line
        opened.append(found if found and found[-1] == item else [])
    return opened


def items_for_form(pages: Sequence[Sequence[str]], form: str) -> list[str | None]:
    """The Item in force on each page, read by the form's own numbering: a 10-Q's Parts, an
    8-K's "Item 5.07"; any other form as a 10-K (:func:`statements.items_by_page`)."""
    return page_items(pages, form)[0]


def page_items(pages: Sequence[Sequence[str]],
               form: str) -> tuple[list[str | None], list[list[str]]]:
    """The Item in force on each page and the Items each page heads (a 10-Q page that holds
    Part II Items 1, 1A, 2 and 5 is Item 5 in force, and holds the legal proceedings too)."""
    if form == "10-Q":
        return _quarterly_items(pages)
    if form == "8-K":
        return _current_items(pages)
    items = items_by_page(pages)
    return items, _annual_opened(pages, items)


# --- notes and headings --------------------------------------------------------------------------


def note_topic(title: str) -> str | None:
    """The section key of a note's title ("Commitments and Contingencies" -> "legal"), or None
    for a note no intent asks about (leases, pensions)."""
    return next((key for key, pattern in _note_patterns() if pattern.search(title)), None)


def heading_topic(line: str) -> str | None:
    """The topic a short heading line opens ("Outlook", "Fiscal 2024 Guidance"), or None."""
    text = " ".join(line.replace("|", " ").split())
    if not text or len(text) > MAX_HEADING_CHARS:
        return None
    return next((key for key, pattern in _heading_patterns() if pattern.match(text)), None)


def in_notes(item: str | None) -> bool:
    """Notes are read where financial statements are: 10-K Item 8 (or the statements appended
    after Item 15), a 10-Q's Part I Item 1, a filing without Items."""
    return item is None or bool(re.match(r"(?:Item 8\.|Item 15\.|Part I, Item 1\.)", item))


def topics_by_page(pages: Sequence[Sequence[str]], items: Sequence[str | None]) -> list[list[str]]:
    """The note topics and heading topics of each page, in order, each once.

    A note heading ("NOTE 15. Commitments and Contingencies", "Income Taxes (Continued)") opens
    its topic; the pages after it carry it until another note heading, an Item change, or
    :data:`MAX_NOTE_PAGES` (a page whose first lines open another note no longer carries it).
    A heading topic ("Outlook") holds on its page and the next.
    """
    out: list[list[str]] = []
    carried: str | None = None
    carried_pages = 0
    previous_item: str | None = None
    previous_headings: list[str] = []
    for lines, item in zip(pages, items, strict=True):
        if item != previous_item:
            carried, carried_pages = None, 0
        previous_item = item
        text_lines = [line for line in lines if line.strip()]
        notes = [(at, note_topic(title)) for at, line in enumerate(text_lines)
                 if in_notes(item) and (title := note_heading(line)) is not None]
        headings = [topic for line in text_lines if (topic := heading_topic(line))]
        topics: list[str] = []
        opens_with_note = bool(notes) and notes[0][0] < OPENING_LINES
        if carried and carried_pages < MAX_NOTE_PAGES and not opens_with_note:
            topics.append(carried)
        topics += [topic for _, topic in notes if topic]
        topics += previous_headings + headings
        if notes:
            carried, carried_pages = notes[-1][1], 0
        carried_pages += 1
        previous_headings = headings
        out.append(list(dict.fromkeys(topics)))
    return out


# --- reading sections back -----------------------------------------------------------------------

HEADER_ITEM_RE = re.compile(
    r"(?:(?<![\w])Part (?P<part>II|I), )?(?<![\w])Item (?P<n>\d\.\d{2}|\d{1,2}[A-C]?)\.",
    re.IGNORECASE,
)


def topic_title(topic: str) -> str:
    """What a chunk header says for a note or heading topic ("Notes: Income Taxes")."""
    entry = load_sections().notes.get(topic)
    return entry.title if entry else f"Topic: {topic.replace('_', ' ').title()}"


@lru_cache(maxsize=16384)
def sections_of(header: str, statement: str | None = None) -> frozenset[str]:
    """The section keys of a chunk, read from its header (the Item labels, the topic titles
    :func:`topic_title` printed there) and its statement (``segment_note`` is "segments")."""
    table = load_sections()
    found: set[str] = set()
    if statement in STATEMENT_SECTIONS:
        found.add(STATEMENT_SECTIONS[statement])
    for match in HEADER_ITEM_RE.finditer(header):
        number, part = match.group("n").upper(), match.group("part")
        section: str | None
        if part:
            entry = table.items_10q[part.upper()].get(number)
            section = entry.section if entry else None
        elif "." in number:
            entry_8k = table.items_8k.get(number)
            section = entry_8k.section if entry_8k else None
        else:
            section = table.items_10k.get(number)
        if section:
            found.add(section)
    lowered = header.lower()
    found |= {key for key in (*table.notes, *table.headings) if topic_title(key).lower() in lowered}
    return frozenset(found)



def pages_in_section(items: Mapping[int, str | None], section: str) -> list[int]:
    """The pages, in order, whose Item (as ingest read it: ``raw_pages.item``) maps to
    ``section``."""
    return [page for page, item in sorted(items.items()) if item and section in sections_of(item)]
