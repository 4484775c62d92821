"""The stitched text read as units, in reading order: headings, sentences, tables.

A unit is what the enriched chunker keeps whole: a sentence with the ``{FOOTNOTE ...}`` blocks
stitched after it, a table with its title, header rows, the rows printed as text under a ruled
header (:mod:`rag_assets.core.chunks.header_rows`), the notes printed below it and the caption
or colon line that leads into it (``StitchedTable.lead``). Units
are not sized here (:mod:`rag_assets.core.chunks.fitting` does that).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rag_assets.core.chunks.header_rows import rows_under_header, text_tables
from rag_assets.core.footnotes.blocks import sentences_with_blocks
from rag_assets.core.footnotes.stitching import (
    FOOTNOTE_BLOCK_RE,
    StitchedPage,
    is_reference,
)
from rag_assets.core.ingest.layout import detect_heading
from rag_assets.core.ingest.pages import is_markdown_rule, markdown_cells
from rag_assets.core.ingest.statement_tables import headed_markdown
from rag_assets.core.text.figures import AMOUNT_IN_LINE_RE
from rag_assets.core.text.periods import DATE_LINE_RE, DURATIONS
from rag_assets.core.text.sentences import sentence_ends, split_sentences
from rag_assets.core.text.years import YEAR_DIGITS_RE


@dataclass
class Unit:
    """What a chunk is packed from and never cuts through unless it alone is over the window:
    a heading, a sentence with its stitched blocks, a table (part) with its notes."""

    text: str
    page: int
    section: str | None
    heading: bool = False
    table: bool = False  # a table (part) with its notes: kept whole, its notes never dropped
    title: str | None = None  # a table's title
    tokens: int = 0
    # marker -> the full block a short reference of that marker in ``text`` stands for (the
    # nearest full block of the marker above the unit on its page)
    refs: dict[str, str] = field(default_factory=dict)


HEADING_LINES = 8  # lines above a table read for its column headings and units line
MAX_HEADING_LINES = 16  # ... and at most, when they are one block of short lines
HEADER_LINE_CHARS = 80  # a longer line is prose, not a column heading
MIN_LEAD_WORDS = 4  # a sentence leading into a table, not a note's number ("Note 4:")
_LAST_COLON_RE = re.compile(r":\s+(?=[^:]*$)")  # where a lead ends and the table's title starts


@dataclass
class StitchedTable:
    """A table as the stitched text holds it: title, markdown lines, the notes below it."""

    title: str | None
    lines: list[str]
    notes: list[str]
    page: int
    section: str | None
    # the caption or introducing line printed right above it on its page (a statement's
    # "Consolidated Balance Sheets (In millions ...)", a "... are presented below:"), which
    # opens the table's first part instead of a chunk of its own
    lead: Unit | None = None


def stitched_units(pages: Sequence[StitchedPage]) -> Iterable[Unit | StitchedTable]:
    """Headings, sentences (with their stitched footnotes) and tables, in reading order; each
    unit holding a short reference knows the full block it stands for (``Unit.refs``)."""
    nearest: dict[str, str] = {}  # marker -> its nearest full block above, on this page
    page = None
    for item in _read_units(pages):
        if item.page != page:
            nearest, page = {}, item.page
        if isinstance(item, StitchedTable):
            blocks = [m for note in item.notes if (m := FOOTNOTE_BLOCK_RE.fullmatch(note))]
        elif "{FOOTNOTE" in item.text:
            blocks = list(FOOTNOTE_BLOCK_RE.finditer(item.text))
        else:
            blocks = []
        for match in blocks:
            marker = match.group("marker")
            if not is_reference(match):
                nearest[marker] = match.group(0)
            elif isinstance(item, Unit) and marker not in item.refs and marker in nearest:
                item.refs[marker] = nearest[marker]
        yield item


def _read_units(pages: Sequence[StitchedPage]) -> Iterable[Unit | StitchedTable]:
    """Headings, sentences (with their stitched footnotes) and tables, in reading order."""
    section: str | None = None
    for page in pages:
        section = page.section if section is None else section
        lines = page.text.split("\n")
        n = 0
        paragraph: list[str] = []

        while n < len(lines):
            line = lines[n].strip()
            heading = detect_heading(line)
            if line.startswith("|"):
                above = header_block(lines, n)
                title = _table_title(paragraph, above)
                before = list(_flush(paragraph, page.page_index, section))
                lead = before.pop() if before and _introduces_table(before[-1].text) else None
                yield from before
                table_lines: list[str] = []
                while n < len(lines) and lines[n].strip().startswith("|") and not (
                        table_lines and _starts_table(lines, n)):
                    table_lines.append(lines[n].strip())
                    n += 1
                below, n = rows_under_header(table_lines, lines, n)
                width = len(markdown_cells(below[0])) - 1 if below else None
                table_lines = headed_markdown([*table_lines, *below], above, width)
                notes = []
                while n < len(lines) and FOOTNOTE_BLOCK_RE.fullmatch(lines[n].strip()):
                    notes.append(lines[n].strip())
                    n += 1
                yield StitchedTable(title, table_lines, notes, page.page_index, section, lead)
                continue
            if heading:
                yield from _flush(paragraph, page.page_index, section)
                section = heading
                yield Unit(line, page.page_index, section, heading=True)
            elif not line:
                yield from _flush(paragraph, page.page_index, section)
            else:
                paragraph.append(line)
            n += 1
        yield from _flush(paragraph, page.page_index, section)


def _starts_table(lines: Sequence[str], n: int) -> bool:
    """Line ``n`` heads a table of its own (its header rule follows): two tables printed one
    under the other (JPMorgan's segment results: four segments, then Corporate and the total)
    are two, each under its own header."""
    return n + 1 < len(lines) and is_markdown_rule(lines[n + 1])


def page_tables(text: str, page: int) -> list[StitchedTable]:
    """Every table a page's text prints, as the chunker reads them (markdown tables, with the
    rows printed as text under a ruled header), and the tables printed without rules that the
    chunker leaves as lines of text (:func:`text_tables`): what an answer compares when a
    table's blocks were split over chunks that retrieval did not all return, or its rows were
    indexed as prose."""
    stitched = StitchedPage(page_index=page, page_label=None, text=text, section=None)
    tables = [u for u in _read_units([stitched]) if isinstance(u, StitchedTable)]
    return [*tables, *unruled_tables(text, page)]


def unruled_tables(text: str, page: int) -> list[StitchedTable]:
    """The tables a page prints without rules (:func:`text_tables`), which the chunker leaves
    as lines of text. A title that opens with the sentence leading into the table ("Selected
    financial information concerning the Company's product lines and reportable segments
    follow (in millions): Years Ended December 31, Revenues from External Customers") has
    that sentence as its lead: what the rows are of; only the last sentence before the colon,
    so the prose the text layer runs onto it is no part of it; a title with no such lead is
    its last sentence ("... allocated to our Display Technologies segment . Cash Flows Summary
    of cash flow data (in millions):" titles cash flows, not a segment)."""
    out = []
    for title, lines in text_tables(text.split("\n")):
        colon = _LAST_COLON_RE.search(title)
        rest = title[colon.end():] if colon else ""
        sentences = split_sentences(title[:colon.start()]) if colon and rest else []
        opening = sentences[-1] if sentences else ""
        if len(opening.split()) < MIN_LEAD_WORDS:  # "Note 4:" leads into nothing
            last = split_sentences(title)[-1:] if title else []
            out.append(StitchedTable(last[0] if last else None, lines, [], page, None))
            continue
        out.append(StitchedTable(rest, lines, [], page, None,
                                 lead=Unit(f"{opening}:", page, None)))
    return out


def header_block(lines: Sequence[str], table_start: int) -> list[str]:
    """The lines printed above a table that may head its columns: the last ``HEADING_LINES``;
    when they name no duration ("Three months ended") and the block of short lines they end
    (no sentence's end, no amount, no table, no blank line, up to ``MAX_HEADING_LINES``)
    does, the whole block (its units line too). A stacked header prints a line per date and
    its durations above them all (MGM's release: "Three months ended Twelve months ended" over
    "December 31," / "2022" four times): without that line the quarter's and the year's
    columns are both "2022". A block without a duration is not read further up (a year in a
    note's caption above an equity statement would head its columns)."""

    def kept(part: Sequence[str]) -> list[str]:
        return [x.strip() for x in part if x.strip() and not x.strip().startswith("|")]

    start = max(0, table_start - HEADING_LINES)
    base = kept(lines[start:table_start])
    if any(p.search(line) for line in base for p, _ in DURATIONS) or any(
            AMOUNT_IN_LINE_RE.search(line) for line in base):
        return base  # headed already, or rows of figures printed as text lie between
    top, durations = start, False
    while top > max(0, table_start - MAX_HEADING_LINES):
        line = lines[top - 1].strip()
        if (not line or line.startswith("|") or len(line) > HEADER_LINE_CHARS
                or line.endswith((".", ";", ":")) or AMOUNT_IN_LINE_RE.search(line)):
            break  # prose, a table, a blank line or a row of figures: not a heading
        top -= 1
        durations = durations or any(p.search(line) for p, _ in DURATIONS)
    return kept(lines[top:table_start]) if durations else base


def _flush(paragraph: list[str], page: int, section: str | None) -> Iterable[Unit]:
    """Emit the sentences of the paragraph gathered so far, and empty it."""
    text = " ".join(" ".join(paragraph).split())
    paragraph.clear()
    for sentence in sentences_with_blocks(text):
        yield Unit(sentence, page, section)


def _introduces_table(text: str) -> bool:
    """The text right above a table leads into it unless it ends a sentence (the one grammar's
    end: "Inc." or "No." closing a caption line is no end) or a list item (";"): a caption (a
    statement's company, name, units and "For the Years Ended December 31," lines) or a line
    that ends in a colon. Kept with the table, a statement's title no longer makes a chunk of
    its own when the table's first rows do not fit in the chunk before it. Text holding a
    stitched footnote stays a sentence of its own."""
    text = text.rstrip()
    if not text or "{FOOTNOTE" in text or text.endswith(";"):
        return False
    ends = sentence_ends(text)
    return not ends or ends[-1] < len(text)


def _table_title(paragraph: list[str], above: Sequence[str]) -> str | None:
    """A table's title, taken out of the paragraph above it: its last line when that is a
    short line without a sentence's end; but when that line is a date of a stacked header
    ("2021" under "December 31,"), the caption line of the header block above it (MGM's
    "SUPPLEMENTAL DATA - ADJUSTED PROPERTY EBITDAR AND ADJUSTED EBITDAR", over its units, its
    durations and a line per date), so that the table is named by what it measures. The date
    line stays in the paragraph, as printed."""
    if not paragraph or not _is_title(paragraph[-1]):
        return None
    if not DATE_LINE_RE.fullmatch(paragraph[-1].strip()):
        return paragraph.pop()
    for line in reversed(above):  # the block of short header lines right above the table
        if len(line) > HEADER_LINE_CHARS or line.rstrip().endswith((".", ";")):
            break  # prose: a caption is never taken out of a sentence
        if _is_caption(line) and line in paragraph:
            del paragraph[len(paragraph) - 1 - paragraph[::-1].index(line)]
            return line
    return paragraph.pop()


def _is_caption(line: str) -> bool:
    """A header block's line that names the table: words, not a date, a duration, a units line
    or a parenthesized note ("(Unaudited)")."""
    text = line.strip()
    return (len(re.findall(r"[A-Za-z]{3,}", text)) >= 2 and not text.startswith("(")
            and not YEAR_DIGITS_RE.search(text)
            and not any(p.search(text) for p, _ in DURATIONS)
            and not re.search(r"\b(?:millions|thousands|billions)\b", text, re.I))


def _is_title(line: str) -> bool:
    """A short line without a sentence end just above a table is its title."""
    return len(line) <= 120 and not line.rstrip().endswith((".", ";", ","))
