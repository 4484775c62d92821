"""Footnotes: find markers and definitions, build the dictionary, stitch definitions into the text.

A claim and the footnote that qualifies it are usually far apart on the page (or pages apart);
chunking then separates them. This module puts every definition right after the sentence that
cites it, deterministically: no language model, nothing invented. Every inlined definition is text
of the document, markers that have no definition are reported ``unresolved``, definitions that
nobody cites are kept where they were and reported ``orphan``. The work is bounded: each stage is
linear in the text (give or take a log), and past ``FULL_BLOCKS_PER_PAGE`` citing places of one
note on a page a short reference stands for the definition stitched above it.

Marker styles: ``[N]``; ``(N)``, ``(a)``, ``*``/``†``/``‡`` (10-K style: meaningful only in a
document that defines them, since ``(a)`` is also a list item); Unicode superscript digits (the PDF
loader writes them where type sizes reveal them).

Definitions: a line that starts with a marker and stands in a footnote zone (a run of lines in
note type, or the lines under a separator rule where the document has one type size), with its
continuation lines up to the next definition or the zone's end, onto the next page when the note
breaks mid-sentence. Real filings print notes under a table in body type: there a marker-led line
also counts when the same marker is cited above it on the same page (or the page before) and it
reads like a note; its continuation lines are indented deeper or carry on its open sentence. A
body line that opens with a marker followed by punctuation (``[12]. The board``) is a citation
that wrapped, never a definition. ``page_views`` holds these per-page decisions;
``docs/ARCHITECTURE.md`` has the reasons.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, Field

from rag_assets.core.ingest.layout import (
    SEPARATOR_RE,
    find_running_furniture,
    furniture_lines,
)
from rag_assets.core.ingest.pages import (
    NOTE_SIZE_RATIO,
    SUPERSCRIPT_DIGITS,
    TABLE_PLACEHOLDER_RE,
    Page,
    TableBlock,
)

MarkerStyle = Literal["bracket", "paren-number", "paren-letter", "symbol", "superscript"]
SCOPED_STYLES = {"paren-number", "paren-letter", "symbol", "superscript"}  # reused per table / page
SUPERSCRIPTS = SUPERSCRIPT_DIGITS
TO_SUPERSCRIPT = str.maketrans("0123456789", SUPERSCRIPTS)

DEFINITION_RE = re.compile(
    r"^(?P<indent>\s*)(?:"
    r"\[(?P<bracket>\d{1,4})\]"
    r"|\((?P<pnum>\d{1,2})\)"
    r"|\((?P<plet>[a-hj-uwyz])\)"
    r"|(?P<sym>\*{1,3}|†|‡)"
    rf"|(?P<sup>[{SUPERSCRIPTS}]{{1,2}})"
    r"|(?P<bare>\d{1,2})(?=\s+[A-Z])"
    r")\s*(?P<text>\S.*)$"
)
CITATION_RE = re.compile(
    r"\[(?P<bracket>\d{1,4})\]"
    r"|\((?P<pnum>\d{1,2})\)(?![\w(])"
    r"|\((?P<plet>[a-hj-uwyz])\)(?![\w(])"
    r"|(?<=[\w%)\].,])(?P<sym>\*{1,3}|†|‡)"
    rf"|(?P<sup>[{SUPERSCRIPTS}]{{1,2}})"
)
# words after which "(1)" or "(a)" is a reference to a paragraph or point, not a footnote
REFERENCE_WORDS = {
    "article", "articles", "art", "paragraph", "paragraphs", "subparagraph", "subparagraphs",
    "point", "points", "section", "sections", "item", "items", "note", "notes", "chapter",
    "regulation", "directive", "and", "or", "to", "of", "in", "under", "see", "with", "letter",
    "clause", "clauses", "rule", "schedule", "exhibit", "annex",
}
ABBREVIATIONS = {
    "inc", "corp", "co", "ltd", "no", "nos", "vs", "e.g", "i.e", "u.s", "u.k", "art", "para",
    "approx", "fig", "mr", "ms", "dr", "st", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
    "sep", "sept", "oct", "nov", "dec", "p", "pp", "op", "cit", "l",
}
MAX_SENTENCE_LINES = 3
MAX_OVERLEAF_LINES = 12  # the rest of a note carried to the next page is a few lines
BRACKET_MARKER_RE = re.compile(r"^\[\d{1,4}\]$")
ACT_NUMBER_RE = re.compile(r"^\d{1,4}/\d{1,4}(?:/\w+)?[,;]?$")  # "Regulation 2019/1937 (1)"
FIGURE_RE = re.compile(r"^[($€£]*-?[\d][\d,.]*%?\)?[,;]?$|^—$")
SENTENCE_END_RE = re.compile(r"[.!?](?=[\"”’)\]]*(?:\s|$))")


class Footnote(BaseModel):
    """One footnote definition and where it is used."""

    footnote_id: str  # marker@page, e.g. "[3]@1", "(1)@44"
    marker: str
    style: MarkerStyle
    text: str
    page_index: int
    line: int
    also_defined_on: list[int] = Field(default_factory=list)
    spans: dict[int, list[int]] = Field(default_factory=dict)  # page -> lines of its definitions
    cited_pages: list[int] = Field(default_factory=list)
    citing_sentences: list[str] = Field(default_factory=list)
    cites: list[str] = Field(default_factory=list)  # footnote ids its own text cites

    @property
    def status(self) -> str:
        return "cited" if self.cited_pages else "orphan"


class Citation(BaseModel):
    """One occurrence of a marker in the text (or in a table, or in another footnote)."""

    marker: str
    style: MarkerStyle
    page_index: int
    line: int
    end: int  # offset just after the marker in its line
    context: Literal["text", "table", "footnote"]
    table_index: int | None = None
    in_footnote: str | None = None
    sentence: str = ""
    footnote_id: str | None = None
    how: str = ""  # how the marker was resolved: same-page, unique, nearest-page ...

    @property
    def resolution(self) -> str:
        return "stitched" if self.footnote_id else "unresolved"


class FootnoteIndex(BaseModel):
    footnotes: list[Footnote]
    citations: list[Citation]

    @property
    def unresolved(self) -> list[Citation]:
        return [c for c in self.citations if c.footnote_id is None]

    @property
    def orphans(self) -> list[Footnote]:
        return [f for f in self.footnotes if not f.cited_pages]

    def by_id(self) -> dict[str, Footnote]:
        return {f.footnote_id: f for f in self.footnotes}


class StitchedPage(BaseModel):
    page_index: int
    page_label: str | None
    section: str | None
    text: str


@dataclass
class _Definition:
    marker: str
    style: MarkerStyle
    page: int
    line: int
    spans: dict[int, list[int]]  # page -> its lines (a note can run over onto the next page)
    parts: list[str]

    @property
    def text(self) -> str:
        return join_wrapped(self.parts)


@dataclass
class _PageView:
    """A page as the footnote finder reads it.

    ``zone``: lines in a footnote zone (below a separator rule, or a run of note-type lines that
    opens with a marker); ``note_type``: lines set clearly smaller than the body type;
    ``overleaf``: a short run of note-type lines at the page foot without a marker, which
    continues a note from the page before when that note ended its page's zone in the middle of
    a sentence; ``wrapped``: body lines that
    open with a citation marker wrapped from the line above (``[12]. The board``), never
    definitions.
    """

    page: Page
    lines: list[str]
    furniture: set[int]
    typed: bool = False
    note_type: set[int] = field(default_factory=set)
    zone: set[int] = field(default_factory=set)
    overleaf: set[int] = field(default_factory=set)
    wrapped: set[int] = field(default_factory=set)
    definition_lines: set[int] = field(default_factory=set)

    # read once per page, after its zones are set (per line, they made long pages quadratic)
    @cached_property
    def longest(self) -> int:
        return max((len(line.strip()) for line in self.lines), default=0)

    @cached_property
    def last_content(self) -> int:
        """The last line that is neither furniture nor blank (-1: none)."""
        return next(
            (m for m in range(len(self.lines) - 1, -1, -1)
             if m not in self.furniture and self.lines[m].strip()),
            -1,
        )

    @cached_property
    def first_note(self) -> int:
        """The first non-blank line of the zone or of the overleaf run (len(lines): none)."""
        notes = self.zone | self.overleaf
        return min((m for m in notes if self.lines[m].strip()), default=len(self.lines))


def marker_of(match: re.Match[str]) -> tuple[str, MarkerStyle] | None:
    """The canonical printed marker and style of a definition or citation match."""
    groups = match.groupdict()
    if groups.get("bracket"):
        return f"[{groups['bracket']}]", "bracket"
    if groups.get("pnum"):
        return f"({groups['pnum']})", "paren-number"
    if groups.get("plet"):
        return f"({groups['plet']})", "paren-letter"
    if groups.get("sym"):
        return groups["sym"], "symbol"
    if groups.get("sup"):
        return groups["sup"], "superscript"
    if groups.get("bare"):
        return groups["bare"].translate(TO_SUPERSCRIPT), "superscript"
    return None


# --- finding --------------------------------------------------------------------------------


def build_footnote_index(pages: Sequence[Page]) -> FootnoteIndex:
    """Find all definitions and citations of a document and resolve each citation."""
    views = page_views(pages)
    # a text or TEI file that marks its notes with a "_____" rule marks all of them so; in a PDF
    # such a line is as often a signature or fill-in line (Coca-Cola's 10-K)
    strict_zones = not any(p.line_sizes for p in pages) and any(
        any(SEPARATOR_RE.match(line) for line in v.lines) for v in views
    )
    raw_citations = [c for v in views for c in _citations_in_page(v)]
    definitions = _find_definitions(views, raw_citations, strict_zones)
    # citations standing on definition lines belong to the definition (footnote-to-footnote)
    view_of = {v.page.page_index: v for v in views}
    for d in definitions:
        for page_index, lines in d.spans.items():
            view_of[page_index].definition_lines.update(lines)
    defined_styles = {d.style for d in definitions}
    citations: list[Citation] = []
    for c in raw_citations:
        if c.line in view_of[c.page_index].definition_lines:
            continue
        if c.style in SCOPED_STYLES and c.style not in defined_styles:
            continue  # "(a)" in a document that defines no "(a)" notes is a list item
        citations.append(c)
    footnotes = _merge_definitions(definitions)
    window = None if strict_zones else 1
    resolve = _Resolver(footnotes, window)
    citations = [c for c in citations if resolve(c)]
    for f in footnotes:
        cites = set(f.cites)
        for c in _citations_in_text(f.text, f.page_index, f.line, "footnote"):
            if not resolve(c):
                continue
            c.in_footnote = f.footnote_id
            citations.append(c)
            if c.footnote_id and c.footnote_id != f.footnote_id and c.footnote_id not in cites:
                f.cites.append(c.footnote_id)
                cites.add(c.footnote_id)
    by_id = {f.footnote_id: f for f in footnotes}
    # sets beside the lists: a note cited 170,000 times is looked up, not searched, each time
    pages_of: dict[str, set[int]] = defaultdict(set)
    sentences_of: dict[str, set[str]] = defaultdict(set)
    for c in citations:
        if c.footnote_id and c.context != "footnote":
            f = by_id[c.footnote_id]
            if c.page_index not in pages_of[f.footnote_id]:
                pages_of[f.footnote_id].add(c.page_index)
                f.cited_pages.append(c.page_index)
            if c.sentence and c.sentence not in sentences_of[f.footnote_id]:
                sentences_of[f.footnote_id].add(c.sentence)
                f.citing_sentences.append(c.sentence)
    for f in footnotes:
        f.cited_pages.sort()
    return FootnoteIndex(footnotes=footnotes, citations=citations)


def page_views(pages: Sequence[Page]) -> list[_PageView]:
    """Every page with its furniture, note type, footnote zone and wrapped citation lines."""
    all_lines = [p.lines for p in pages]
    running = find_running_furniture(all_lines)
    views = [
        _PageView(page=page, lines=lines, furniture=furniture_lines(lines, running))
        for page, lines in zip(pages, all_lines, strict=True)
    ]
    # notes set in smaller type: some marker-led line (not a footer) is in note type. Otherwise
    # (plain text, or one size throughout, an 8 pt footer aside) the rules of plain text stand:
    # zones come from separators alone
    typed = any(
        DEFINITION_RE.match(v.lines[n])
        for v in views for n in _note_type_lines(v.page) if n not in v.furniture
    )
    for view in views:
        page, lines = view.page, view.lines
        view.typed = typed
        view.note_type = _note_type_lines(page) if typed else set()
        view.zone, view.overleaf = _zone_lines(view)
        view.wrapped = {n for n in range(len(lines)) if _opens_with_wrapped_citation(view, n)}
    return views


def _note_type_lines(page: Page) -> set[int]:
    if not page.body_size:
        return set()
    limit = page.body_size * NOTE_SIZE_RATIO
    return {n for n, size in enumerate(page.line_sizes) if 0 < size < limit}


def _zone_lines(view: _PageView) -> tuple[set[int], set[int]]:
    """In a document set in one type size: the lines below a separator rule. Where type sizes
    differ, they tell more than rules (a 10-K draws many short rules in its tables): runs of
    note-type lines that open with a marker (blank lines and furniture inside a run do not end
    it; a body-type line does; a run may start with a table set in note type, the zone then
    opens at its first marker). Also the lines that may continue a note from the page before:
    the page-foot run up to its first marker (``_find_definitions`` decides)."""
    if not view.typed or not view.note_type - view.furniture:
        return set(view.page.note_lines), set(view.page.note_lines)
    zone: set[int] = set()
    overleaf: set[int] = set()
    run: list[int] = []
    runs: list[list[int]] = []
    for n, line in enumerate(view.lines):
        if n in view.furniture or not line.strip():
            continue
        if n in view.note_type:
            run.append(n)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    for i, run in enumerate(runs):
        heads = [k for k, n in enumerate(run) if DEFINITION_RE.match(view.lines[n])]
        last_on_page = i == len(runs) - 1 and not any(
            view.lines[n].strip() and n not in view.furniture and n not in view.note_type
            for n in range(run[-1] + 1, len(view.lines))
        )
        if heads:  # a table set in note type, then its notes: the zone opens at the first note
            zone.update(run[heads[0]:])
        carry = run[: heads[0]] if heads else run
        if last_on_page and len(carry) <= MAX_OVERLEAF_LINES:
            overleaf.update(carry)
    return zone, overleaf


WRAPPED_MARKER_RE = re.compile(
    r"^\s*(?:\[\d{1,4}\]|\(\d{1,2}\)|\([a-z]\)|[" + SUPERSCRIPTS + r"]{1,2})"
    r"(?P<punct>[.,;:)])?(?P<rest>\s*\S?)"
)


def _opens_with_wrapped_citation(view: _PageView, n: int) -> bool:
    """``[12]. The board …`` or ``(4), and …`` on a body line: the marker closed the sentence of
    the line above and wrapped; a definition never has punctuation right after its marker, nor
    continues a sentence in lower case."""
    if n in view.furniture:
        return False
    match = WRAPPED_MARKER_RE.match(view.lines[n])
    if match is None:
        return False
    if match.group("punct"):
        return True  # in a note too: "... on the same capital base as the ratio in / [51], ..."
    if n in view.zone or n in view.note_type:
        return False
    rest = match.group("rest").strip()
    if not rest or not rest.islower():
        return False
    above = next((view.lines[m] for m in range(n - 1, -1, -1) if view.lines[m].strip()), "")
    if re.search(r"[;,]\s*(?:and|or)$", above.rstrip()):
        return False  # "...; and / (f) the following": the next item of a list
    return bool(above) and not above.rstrip().endswith((".", "!", "?", ":", ";"))


def _citations_in_page(view: _PageView) -> list[Citation]:
    out: list[Citation] = []
    page = view.page
    tables = {t.index: t for t in page.tables}
    ends = SentenceEnds(view.lines)
    for number, line in enumerate(view.lines):
        if number in view.furniture:
            continue
        placeholder = TABLE_PLACEHOLDER_RE.match(line.strip())
        if placeholder:
            table = tables.get(int(placeholder.group(1)))
            if table:
                out.extend(_citations_in_table(table, page.page_index, number))
            continue
        above = view.lines[number - 1].rstrip() if number and number in view.wrapped else ""
        found = _citations_in_text(line, page.page_index, number, "text", wrapped=above)
        for c in found:
            c.sentence = ends.around(number, c.end)
        out.extend(found)
    return out


def _citations_in_table(table: TableBlock, page_index: int, line: int) -> list[Citation]:
    out = []
    for row in table.rows:
        for cell in row:
            for c in _citations_in_text(cell, page_index, line, "table"):
                c.table_index = table.index
                c.sentence = " | ".join(x for x in row if x)[:300]
                out.append(c)
    return out


def _citations_in_text(
    text: str,
    page_index: int,
    line: int,
    context: Literal["text", "table", "footnote"],
    wrapped: str = "",
) -> list[Citation]:
    """Markers cited in one line; ``wrapped``: the line above, when the marker opening this line
    is a citation that wrapped from it (not a definition)."""
    out = []
    start = len(text) - len(text.lstrip())
    for match in CITATION_RE.finditer(text):
        found = marker_of(match)
        if found is None:
            continue
        marker, style = found
        opens_line = match.start() <= start
        if wrapped and opens_line:
            if style in {"paren-number", "paren-letter"} and not _is_paren_citation(
                f"{wrapped} {text}", len(wrapped) + 1 + match.start()
            ):
                continue  # "Section 871(h) / (3) of the Code" is a reference that wrapped
        elif style in {"paren-number", "paren-letter"}:
            if not _is_paren_citation(text, match.start()):
                continue
        elif opens_line and context != "table":
            continue  # a marker that opens a line is a definition or a list item
        out.append(
            Citation(
                marker=marker, style=style, page_index=page_index, line=line,
                end=match.end(), context=context,
            )
        )
    return out


def citations_in_block(text: str) -> list[str]:
    """Markers cited in a block of lines, by the same rules the index applies to pages."""
    return [
        c.marker
        for number, line in enumerate(text.split("\n"))
        for c in _citations_in_text(line, 0, number, "text")
    ]


TOKEN_CHARS = 64  # a word read beside a "(1)": a longer one is read by its last 64 characters


def _token_before(text: str, at: int) -> tuple[str, int]:
    """The white-space separated word that ends before ``at`` (its last ``TOKEN_CHARS``
    characters at most) and where it starts: a marker is judged by its neighbours, and reading
    them must not cost the whole line for each marker of a long one."""
    end = at
    while end > 0 and text[end - 1].isspace():
        end -= 1
    start = end
    while start > 0 and not text[start - 1].isspace() and end - start < TOKEN_CHARS:
        start -= 1
    return text[start:end], start


def _token_after(text: str, at: int) -> str:
    """The first white-space separated word from ``at`` ("" when the word is over
    ``TOKEN_CHARS`` characters: no figure is that long)."""
    start = at
    while start < len(text) and text[start].isspace():
        start += 1
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
        if end - start > TOKEN_CHARS:
            return ""
    return text[start:end]


def _is_paren_citation(text: str, paren: int) -> bool:
    """``word (1)``, ``2012 (17).``, ``9.3%(b)``, ``8,5 % (2)``, ``2019/1937 (1)`` cite a note;
    ``6(1)``,
    ``9(2)(a)``, ``(370) (967)`` and ``point (a)`` do not. Only the words beside the marker are
    read (``_token_before``, ``_token_after``), never the line up to it."""
    previous, start = _token_before(text, paren)
    if not previous:
        return False  # opens the line: a definition, a recital number or a list item
    glued = 0  # digits glued to the marker
    while glued < 4 and paren - glued > 0 and text[paren - glued - 1].isdecimal():
        glued += 1
    if 0 < glued <= 3 or text[paren - 1 : paren] == ")":
        return False  # Article 6(1), 9(2)(a); a year glued to a marker (2022(1)) is a citation
    if BRACKET_MARKER_RE.match(previous):
        return True  # "Inferred [7] (b)": a note after a note
    if previous in {"%", "‰"}:
        figure, _ = _token_before(text, start)
        if figure:
            previous = figure + previous  # "8,5 %": a European figure with its spaced sign
    close = text.find(")", paren)
    following = _token_after(text, close + 1)
    next_is_figure = bool(following) and bool(FIGURE_RE.match(following))
    if not any(ch.isalpha() for ch in previous):
        # after a figure ("2012 (17).", "9.3%(b)") it is a note; after a reference ("60(7), (8)")
        # or inside a row of figures ("(370) (967)", "7 (4) 12") it is not
        plain_figure = (
            bool(FIGURE_RE.match(previous) or ACT_NUMBER_RE.match(previous))
            and not previous.startswith("(")
        )
        if not plain_figure or next_is_figure:
            return False
    word = previous.strip(".,;:()").lower()
    return word not in REFERENCE_WORDS


SENTENCE_CHARS = 400  # a citing sentence as the dictionary and the registry keep it
_NON_SPACE_RE = re.compile(r"\S")


def _word_before(text: str, at: int) -> str:
    """The run of word characters and dots that ends at ``at`` (``Inc.`` before its period)."""
    start = at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_."):
        start -= 1
    return text[start:at]


class SentenceEnds:
    """Where the sentences of one page's lines end, each line read once.

    ``find_sentence_end`` and ``sentence_around`` run for every citation. Read from the line's
    start each time, a page printed as one 5 MB line with 170,000 citations took minutes (each
    citation scanned the line up to itself); here each line's sentence ends are found once and
    a citation's are a binary search away, and a sentence running on over lines without a full
    stop is followed once per line, not once per citation on it.
    """

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self._all: dict[int, list[int]] = {}  # line -> end of every SENTENCE_END_RE match
        self._true: dict[int, tuple[list[int], list[int]]] = {}  # line -> (starts, ends)
        self._onward: dict[int, tuple[int, int]] = {}  # line -> end of a sentence carried in

    def all_ends(self, n: int) -> list[int]:
        """Every sentence end of line ``n``, abbreviations included (``sentence_around``)."""
        if n not in self._all:
            self._all[n] = [m.end() for m in SENTENCE_END_RE.finditer(self.lines[n])]
        return self._all[n]

    def first_end(self, n: int, offset: int) -> int | None:
        """The end of the first sentence end at or after ``offset`` in line ``n`` that does not
        follow a known abbreviation."""
        if n not in self._true:
            text = self.lines[n]
            starts: list[int] = []
            ends: list[int] = []
            for match in SENTENCE_END_RE.finditer(text):
                word = _word_before(text, match.start())
                if word and word.lower().rstrip(".") in ABBREVIATIONS:
                    continue
                starts.append(match.start())
                ends.append(match.end())
            self._true[n] = (starts, ends)
        starts, ends = self._true[n]
        i = bisect_left(starts, offset)
        return ends[i] if i < len(ends) else None

    def _paragraph_ends_after(self, n: int, *, definitions: bool) -> bool:
        lines = self.lines
        nxt = n + 1
        return (
            nxt >= len(lines)
            or not lines[nxt].strip()
            or bool(TABLE_PLACEHOLDER_RE.match(lines[nxt].strip()))
            or lines[nxt].lstrip().startswith("## ")
            or (definitions and bool(DEFINITION_RE.match(lines[nxt])))
        )

    def find(self, line: int, offset: int) -> tuple[int, int]:
        """``find_sentence_end`` for this page's lines."""
        if line >= len(self.lines):
            return len(self.lines) - 1, len(self.lines[-1])
        end = self.first_end(line, offset)
        if end is not None:
            return line, end
        if self._paragraph_ends_after(line, definitions=False):
            return line, len(self.lines[line])
        return self._carried(line + 1)

    def _carried(self, n: int) -> tuple[int, int]:
        """The end of a sentence that runs on into line ``n`` from a line above (there a line
        opening with a definition marker ends the paragraph too); memoized per line."""
        passed: list[int] = []
        while True:
            if n in self._onward:
                found = self._onward[n]
                break
            end = self.first_end(n, 0)
            if end is not None:
                found = (n, end)
                break
            if self._paragraph_ends_after(n, definitions=True):
                found = (n, len(self.lines[n]))
                break
            passed.append(n)
            n += 1
        for m in [*passed, n]:
            self._onward[m] = found
        return found

    def around(self, line: int, offset: int) -> str:
        """``sentence_around`` for this page's lines."""
        lines = self.lines
        start_line, start = line, 0
        ends = self.all_ends(line)
        before = bisect_right(ends, offset)  # ends within lines[line][:offset]
        if before:
            start = ends[before - 1]
        elif line > 0 and lines[line - 1].strip():
            start_line = line - 1
            prev_ends = self.all_ends(start_line)
            start = prev_ends[-1] if prev_ends else 0
        end_line, end = self.find(line, offset)
        parts: list[str] = []
        joined = -1  # the length of " ".join(parts)
        for n in range(start_line, end_line + 1):
            if joined >= SENTENCE_CHARS:
                break  # the rest would be cut off anyway
            text = lines[n]
            lo = start if n == start_line else 0
            hi = end if n == end_line else len(text)
            part = _clipped(text, lo, hi, max(1, SENTENCE_CHARS - joined - 1))
            if part:
                parts.append(part)
                joined += len(part) + 1
        return " ".join(parts)[:SENTENCE_CHARS]


def _clipped(text: str, lo: int, hi: int, room: int) -> str:
    """The first ``room`` characters of ``text[lo:hi].strip()`` (all of them when it is
    shorter): a long line is not copied whole for the few hundred characters a sentence keeps."""
    first = _NON_SPACE_RE.search(text, lo, hi)
    if first is None:
        return ""
    start = first.start()
    if hi - start <= room:
        return text[start:hi].rstrip()
    if _NON_SPACE_RE.search(text, start + room, hi):
        return text[start:start + room]
    return text[start:start + room].rstrip()


def sentence_around(lines: Sequence[str], line: int, offset: int) -> str:
    """The sentence that holds position (line, offset), for the dictionary and reports (its
    first ``SENTENCE_CHARS`` characters). For many positions on one page, ``SentenceEnds``."""
    return SentenceEnds(lines).around(line, offset)


def find_sentence_end(lines: Sequence[str], line: int, offset: int) -> tuple[int, int]:
    """(line, offset) just after the end of the sentence running at (line, offset).

    A sentence ends at ``.``/``!``/``?`` before white space (not after a known abbreviation),
    or where its paragraph ends: a blank line, a table, a heading, or the page end (or, on a
    line after the first, a line that opens with a definition marker). For many positions on
    one page, ``SentenceEnds``.
    """
    return SentenceEnds(lines).find(line, offset)


def _find_definitions(
    views: list[_PageView], citations: list[Citation], strict_zones: bool
) -> list[_Definition]:
    """Definitions: a marker-led line in a footnote zone, with its continuation lines (flush or
    indented) up to the next definition or the zone's end, and on into the next page's zone when
    that zone opens without a marker. Outside zones (real 10-Ks print table notes in body type) a
    marker-led line is a definition when its marker is cited above it on the page or the page
    before, and it reads like a note: no punctuation after the marker, not a wrapped citation;
    its continuation lines are indented further, or carry on a sentence in lower case."""
    superscripts_cited = any(c.style == "superscript" for c in citations)
    first_cited: dict[tuple[int, str], int] = {}  # (page, marker) -> the first line citing it
    for c in citations:
        key = (c.page_index, c.marker)
        first_cited[key] = min(c.line, first_cited.get(key, c.line))
    # a marker defined in a page's note zone is that page's note: a body line opening with the
    # same marker there (a recital "(5) This Regulation ...") is not a second definition
    zone_defined = {
        (v.page.page_index, found[0])
        for v in views for n in v.zone
        if (match := DEFINITION_RE.match(v.lines[n])) and (found := marker_of(match))
    }
    out: list[_Definition] = []
    open_note: _Definition | None = None  # the note that ended the previous page's zone
    for view in views:
        page = view.page.page_index
        lines = view.lines
        carried, open_note = open_note, None
        n = 0
        while n < len(lines):
            if n in view.furniture or n in view.wrapped or not lines[n].strip():
                n += 1
                continue
            match = DEFINITION_RE.match(lines[n])
            found = marker_of(match) if match else None
            in_zone = n in view.zone
            if found is None or match is None:
                if carried is not None and n in view.overleaf and _opens_zone(view, n) and (
                    not carried.parts[-1].rstrip().endswith((".", "!", "?"))
                ):
                    taken = _continuation(view, n, in_zone=True, indent=-1, parts=carried.parts)
                    if taken:
                        carried.spans[page] = taken
                        open_note = carried if _ends_zone(view, taken[-1]) else None
                        n = taken[-1]
                if n in view.zone or n in view.overleaf:
                    carried = None  # the zone opened with something else: nothing carries over
                n += 1
                continue
            marker, style = found
            if match.group("bare") and not (in_zone and superscripts_cited):
                n += 1
                continue
            cited_above = first_cited.get((page, marker), n) < n or (
                (page - 1, marker) in first_cited and (page - 1, marker) not in zone_defined
            )
            # out of a zone, "(a)" lines are far more often list items than notes
            accepted = in_zone or (
                not strict_zones
                and n not in view.note_type
                and (page, marker) not in zone_defined
                and _reads_like_note(match, view.typed)
                and (
                    (style == "bracket" and not view.typed)
                    or (cited_above and style != "paren-letter")
                )
            )
            if not accepted:  # a list item or a body line: a note carried over may still follow
                n += 1
                continue
            carried = None
            parts = [match.group("text").strip()]
            taken = [n] + _continuation(
                view, n + 1, in_zone=in_zone, indent=len(match.group("indent")), parts=parts
            )
            definition = _Definition(marker, style, page, n, {page: taken}, parts)
            out.append(definition)
            open_note = definition if in_zone and _ends_zone(view, taken[-1]) else None
            n = taken[-1] + 1
    return out


def _reads_like_note(match: re.Match[str], typed: bool) -> bool:
    """A note's text follows its marker directly and does not open in lower case (in a typed
    document a body line like ``(4) and …`` is a citation that wrapped)."""
    text = match.group("text")
    if text[:1] in ".,;:":
        return False
    return not (typed and text[:1].islower())


def _continuation(
    view: _PageView, start: int, *, in_zone: bool, indent: int, parts: list[str]
) -> list[int]:
    """The lines from ``start`` that continue a definition (appended to ``parts``)."""
    lines = view.lines
    taken: list[int] = []
    m = start
    while m < len(lines) and m not in view.furniture:
        nxt = lines[m]
        if not nxt.strip() or TABLE_PLACEHOLDER_RE.match(nxt.strip()):
            break
        open_sentence = not parts[-1].endswith((".", "!", "?"))
        head = DEFINITION_RE.match(nxt)
        # "30 June 2024." after "which amounted to" carries on; it is no bare note number
        if head and m not in view.wrapped and not (head.group("bare") and open_sentence):
            break
        if in_zone:
            continues = m in view.zone or m in view.overleaf
        else:
            deeper = len(nxt) - len(nxt.lstrip()) > indent
            # a flush line in the note's own type that carries on the open sentence of a line
            # that ran to the full measure (a short line, such as a table's row label, ended)
            carries_on = open_sentence and (
                nxt.lstrip()[:1].islower()
                or (_same_type(view, start - 1, m) and _full_measure(view, m - 1))
            )
            continues = (deeper or carries_on) and m not in view.note_type
        if not continues:
            break
        taken.append(m)
        parts.append(nxt.strip())
        m += 1
    return taken


def _full_measure(view: _PageView, n: int) -> bool:
    """A line about as long as the page's longest: it wrapped, the text goes on below."""
    return len(view.lines[n].strip()) >= 0.75 * view.longest


def _same_type(view: _PageView, a: int, b: int) -> bool:
    """Two lines set in the same type size (0.3 pt of rounding); unknown sizes never match."""
    sizes = view.page.line_sizes
    if not sizes or max(a, b) >= len(sizes) or min(a, b) < 0:
        return False
    return bool(sizes[a]) and abs(sizes[a] - sizes[b]) <= 0.3


def _opens_zone(view: _PageView, n: int) -> bool:
    """No non-blank line of the zone or the overleaf run above line ``n``."""
    return view.first_note >= n


def _ends_zone(view: _PageView, n: int) -> bool:
    """Nothing but furniture and blank lines after line ``n``: a note may go on overleaf."""
    return view.last_content <= n


def join_wrapped(parts: list[str]) -> str:
    text = ""
    for part in parts:
        if text.endswith("-") and part[:1].islower():
            text = text[:-1] + part
        else:
            text = f"{text} {part}" if text else part
    return " ".join(text.split())


def _merge_definitions(definitions: list[_Definition]) -> list[Footnote]:
    """One footnote per definition; a marker defined twice keeps its fuller definition.

    ``[N]`` numbering is document-wide, so two definitions of ``[3]`` are one footnote.
    ``(1)``/``(a)``/``*`` and superscripts restart under every table or page, so only a definition
    that is a truncated copy of another (a note repeated under a statement) is the same footnote.
    """
    merged: list[Footnote] = []
    found = _SameNote()
    for d in definitions:
        text = d.text
        same = found.first(d.marker, d.style, text)
        if same is None:
            footnote = Footnote(
                footnote_id=f"{d.marker}@{d.page}", marker=d.marker, style=d.style,
                text=text, page_index=d.page, line=d.line,
                spans={p: list(lines) for p, lines in d.spans.items()},
            )
            merged.append(footnote)
            found.add(footnote)
            continue
        for p, lines in d.spans.items():
            same.spans.setdefault(p, []).extend(lines)
        if len(text) > len(same.text):
            same.also_defined_on.append(same.page_index)
            found.retext(same, text)
            same.page_index, same.line = d.page, d.line
        elif d.page not in same.also_defined_on and d.page != same.page_index:
            same.also_defined_on.append(d.page)
    _assign_ids(merged)
    return merged


class _SameNote:
    """The footnotes merged so far, found by marker and text: which one a new definition is
    (``_merge_definitions``) without comparing it with every footnote of its marker (4,000
    pages each defining its own ``(1)`` took a minute).

    A scoped marker's footnotes never hold one another's text as a prefix (such a definition
    merges), so a text has at most one footnote that is a prefix of it, found by exact lookups
    of its first characters; the footnotes that start with a text shorter than ``KEY`` are
    indexed by that prefix, and longer texts are compared only with those sharing their first
    ``KEY`` characters.
    """

    KEY = 32

    def __init__(self) -> None:
        self.order: dict[int, int] = {}  # id(footnote) -> its place among the merged ones
        self.lower: dict[int, str] = {}
        self.of_marker: dict[str, list[Footnote]] = defaultdict(list)
        self.whole: dict[tuple[str, str], Footnote] = {}  # a text shorter than KEY
        self.starting: dict[tuple[str, str], Footnote] = {}  # the first to start so
        self.keyed: dict[tuple[str, str], list[Footnote]] = defaultdict(list)  # first KEY chars

    def add(self, footnote: Footnote) -> None:
        self.order[id(footnote)] = len(self.order)
        self.of_marker[footnote.marker].append(footnote)
        self._file(footnote, "", footnote.text.lower())

    def retext(self, footnote: Footnote, text: str) -> None:
        """``footnote`` takes a longer ``text`` that starts with its own."""
        old = self.lower[id(footnote)]
        if len(old) < self.KEY:
            self.whole.pop((footnote.marker, old), None)
        footnote.text = text
        self._file(footnote, old, text.lower())

    def _file(self, footnote: Footnote, old: str, lower: str) -> None:
        marker, place = footnote.marker, self.order[id(footnote)]
        self.lower[id(footnote)] = lower
        for n in range(len(old) + 1, min(len(lower), self.KEY - 1) + 1):
            first = self.starting.get((marker, lower[:n]))
            if first is None or self.order[id(first)] > place:
                self.starting[(marker, lower[:n])] = footnote
        if len(lower) < self.KEY:
            self.whole[(marker, lower)] = footnote
        elif len(old) < self.KEY:
            self.keyed[(marker, lower[: self.KEY])].append(footnote)

    def first(self, marker: str, style: MarkerStyle, text: str) -> Footnote | None:
        """The first footnote merged with ``marker`` (any, for a document-wide ``[N]``; for a
        scoped marker, one whose text is this text or a truncated copy of it, or the reverse)."""
        same = self.of_marker.get(marker)
        if not same:
            return None
        if style not in SCOPED_STYLES:
            return same[0]
        lower = text.lower()
        found = [f for n in range(1, min(len(lower), self.KEY))
                 if (f := self.whole.get((marker, lower[:n]))) is not None]
        if len(lower) < self.KEY:
            first = self.starting.get((marker, lower))
            found += [first] if first is not None else []
        else:
            found += [f for f in self.keyed.get((marker, lower[: self.KEY]), [])
                      if _same_lower(self.lower[id(f)], lower)]
        return min(found, key=lambda f: self.order[id(f)], default=None)


def _assign_ids(footnotes: list[Footnote]) -> None:
    """``marker@page``; a scoped marker defined twice on one page (two tables) gets ``.2``."""
    seen: Counter[str] = Counter()
    for f in sorted(footnotes, key=lambda f: (f.page_index, f.line)):
        base = f"{f.marker}@{f.page_index}"
        seen[base] += 1
        f.footnote_id = base if seen[base] == 1 else f"{base}.{seen[base]}"


def _same_lower(a: str, b: str) -> bool:
    """One definition is the other, or a truncated copy of it (a note repeated under a table):
    both in lower case."""
    shorter, longer = sorted((a, b), key=len)
    return longer.startswith(shorter)


class _Resolver:
    """``_resolve`` for every citation of a document, each given only the footnotes it can
    refer to: those of its marker (for a scoped marker, those defined within ``window`` pages),
    found by marker and page instead of a pass over every footnote per citation; a marker
    defined on many pages (strict zones, ``window=None``) is resolved by binary search."""

    FEW = 16  # up to this many candidates, ``_resolve`` reads them one by one

    def __init__(self, footnotes: Sequence[Footnote], window: int | None) -> None:
        self.window = window
        self.order = {id(f): n for n, f in enumerate(footnotes)}
        self.of_marker: dict[str, list[Footnote]] = defaultdict(list)
        self.on_page: dict[tuple[str, int], list[Footnote]] = defaultdict(list)
        for f in footnotes:
            self.of_marker[f.marker].append(f)
            for page in f.spans:
                self.on_page[(f.marker, page)].append(f)
        self._by_place: dict[str, tuple[list[tuple[int, int, int]], list[Footnote]]] = {}

    def __call__(self, c: Citation) -> bool:
        if c.style in SCOPED_STYLES and self.window is not None:
            pages = range(c.page_index - self.window, c.page_index + self.window + 1)
            near = {id(f): f for p in pages for f in self.on_page.get((c.marker, p), [])}
            candidates = sorted(near.values(), key=lambda f: self.order[id(f)])
            return _resolve(c, candidates, self.window)
        candidates = self.of_marker.get(c.marker, [])
        if len(candidates) <= self.FEW:
            return _resolve(c, candidates, self.window)
        same_page = self.on_page.get((c.marker, c.page_index), [])
        if same_page:  # as _resolve decides
            below = [f for f in same_page if f.page_index == c.page_index and f.line > c.line]
            chosen = min(below, key=lambda f: f.line) if below else same_page[-1]
            c.footnote_id, c.how = chosen.footnote_id, "same page"
            return True
        keys, placed = self._placed(c.marker)
        following = bisect_right(keys, (c.page_index, sys.maxsize, sys.maxsize))
        if following < len(keys):  # the first defined on a later page
            c.footnote_id, c.how = placed[following].footnote_id, "nearest following page"
            return True
        last = bisect_left(keys, (keys[-1][0], keys[-1][1], -1))  # the last, first of a tie
        c.footnote_id, c.how = placed[last].footnote_id, "nearest preceding page"
        return True

    def _placed(self, marker: str) -> tuple[list[tuple[int, int, int]], list[Footnote]]:
        """The marker's footnotes by (page, line, order), with those keys."""
        if marker not in self._by_place:
            placed = sorted(self.of_marker[marker],
                            key=lambda f: (f.page_index, f.line, self.order[id(f)]))
            keys = [(f.page_index, f.line, self.order[id(f)]) for f in placed]
            self._by_place[marker] = (keys, placed)
        return self._by_place[marker]


def _resolve(c: Citation, footnotes: list[Footnote], window: int | None) -> bool:
    """Pick the definition a citation refers to; False when it is no citation at all.
    ``footnotes``: the document's footnotes, or the ones ``_Resolver`` found it can refer to.

    ``[N]`` numbering is document-wide: a marker with no definition is kept and reported
    unresolved. Scoped markers (``(1)``, ``(a)``, ``*``, ``¹``) restart under every table, so they
    resolve only to a definition within ``window`` pages (any page where notes are collected at
    the end of the document, ``window=None``); without one, ``Other (56)`` was a negative figure,
    not a note.
    """
    candidates = [
        f for f in footnotes
        if f.marker == c.marker
        and (
            c.style not in SCOPED_STYLES
            or window is None
            or any(abs(p - c.page_index) <= window for p in f.spans)
        )
    ]
    if not candidates:
        c.how = "no definition in the document"
        return c.style not in SCOPED_STYLES
    if len(candidates) == 1:
        c.footnote_id = candidates[0].footnote_id
        same = c.page_index in candidates[0].spans
        c.how = "same page" if same else "unique definition"
        return True

    same_page = [f for f in candidates if c.page_index in f.spans]
    if same_page:
        below = [f for f in same_page if f.page_index == c.page_index and f.line > c.line]
        chosen = min(below, key=lambda f: f.line) if below else same_page[-1]
        c.footnote_id, c.how = chosen.footnote_id, "same page"
        return True
    following = [f for f in candidates if f.page_index > c.page_index]
    if following:
        chosen = min(following, key=lambda f: (f.page_index, f.line))
        c.footnote_id, c.how = chosen.footnote_id, "nearest following page"
        return True
    chosen = max(candidates, key=lambda f: (f.page_index, f.line))
    c.footnote_id, c.how = chosen.footnote_id, "nearest preceding page"
    return True


# --- stitching ------------------------------------------------------------------------------


def footnote_block(footnote: Footnote, marker: str | None = None) -> str:
    return f"{{FOOTNOTE {marker or footnote.marker}: {footnote.text}}}"


# a block as ``footnote_block`` writes it, for the stages that read the stitched text
FOOTNOTE_BLOCK_RE = re.compile(r"\{FOOTNOTE (?P<marker>[^:{}]{1,8}): (?P<text>[^{}]*)\}")

# The bound on stitching (issue 19): a page inlines a footnote's full text at its first
# ``FULL_BLOCKS_PER_PAGE`` citing places; every later one gets the short reference
# ``{FOOTNOTE m: as stitched above}``, which stands for the nearest full block of marker ``m``
# above it on the page (the stitcher writes one only where that block is this footnote's). A
# page of 170,000 sentences citing one note is then its text, 256 definitions and 169,744
# references, not 170,000 definitions; no text is dropped: every citing page still holds the
# full definition (``stitching_coverage``), and the enriched chunker puts it back into every
# chunk that cites the note (``chunking.resolve_blocks``). 256 is over ten times the most any
# real filing cites one note on one page (24, in 43 SEC filings), so real documents stitch
# as before.
FULL_BLOCKS_PER_PAGE = 256
REFERENCE_TEXT = "as stitched above"


def footnote_reference(marker: str) -> str:
    """The short reference written instead of a definition already stitched
    ``FULL_BLOCKS_PER_PAGE`` times on the page (a block the stages reading blocks read)."""
    return f"{{FOOTNOTE {marker}: {REFERENCE_TEXT}}}"


def is_reference(block: re.Match[str]) -> bool:
    """A ``FOOTNOTE_BLOCK_RE`` match that is a short reference, not a definition."""
    return block.group("text") == REFERENCE_TEXT


class _PageBlocks:
    """Which footnotes a page has stitched so far, in reading order: a definition goes in full
    until it stands ``FULL_BLOCKS_PER_PAGE`` times, or when the nearest full block of its
    marker above is another footnote's (``(1)`` of two tables on one page)."""

    def __init__(self, by_id: dict[str, Footnote]) -> None:
        self.by_id = by_id
        self.written: Counter[str] = Counter()
        self.last_full: dict[str, str] = {}  # marker -> id of its nearest full block above

    def full(self, footnote: Footnote) -> str:
        self.written[footnote.footnote_id] += 1
        self.last_full[footnote.marker] = footnote.footnote_id
        return footnote_block(footnote)

    def block(self, footnote_id: str) -> str:
        footnote = self.by_id[footnote_id]
        if (self.written[footnote_id] < FULL_BLOCKS_PER_PAGE
                or self.last_full.get(footnote.marker) != footnote_id):
            return self.full(footnote)
        return footnote_reference(footnote.marker)


def stitch_document(pages: Sequence[Page], index: FootnoteIndex) -> list[StitchedPage]:
    """The document with each definition inlined after the sentence that cites it (in full at
    its first ``FULL_BLOCKS_PER_PAGE`` citing places on a page, then as a short reference).

    Furniture (headers, footers, page numbers) and the definition lines are removed; tables are
    rendered as markdown with the definitions their cells cite right below them; orphan
    definitions stay where they were, as footnote blocks.
    """
    views = page_views(pages)
    by_id = index.by_id()
    definition_lines: dict[int, set[int]] = defaultdict(set)
    orphan_at: dict[tuple[int, int], Footnote] = {}
    for f in index.footnotes:
        for page_index, span in f.spans.items():
            definition_lines[page_index].update(span)
        if not f.cited_pages:
            orphan_at[(f.page_index, f.line)] = f

    # page -> line -> offset in the line -> the footnote ids stitched there
    inserts: dict[int, dict[int, dict[int, list[str]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    ends = {view.page.page_index: SentenceEnds(view.lines) for view in views}
    drop = {view.page.page_index: view.furniture | definition_lines[view.page.page_index]
            for view in views}
    for c in index.citations:
        if c.footnote_id is None or c.context == "footnote":
            continue
        view = views[c.page_index]
        at = (c.line, len(view.lines[c.line]))
        if c.context == "text":
            end = ends[c.page_index].find(c.line, c.end)
            dropped = drop[c.page_index]
            # a "sentence" running over several lines without a full stop is a row of a table
            # laid out as text: its note goes right after the row instead
            near = end[0] - c.line <= MAX_SENTENCE_LINES
            if near and not any(n in dropped for n in range(c.line, end[0] + 1)):
                at = end
        ids = inserts[c.page_index][at[0]][at[1]]
        for fid in _closure(c.footnote_id, by_id):
            if fid not in ids:
                ids.append(fid)

    out = []
    for view in views:
        page = view.page
        tables = {t.index: t for t in page.tables}
        dropped = drop[page.page_index]
        page_inserts = inserts.get(page.page_index, {})
        blocks = _PageBlocks(by_id)
        # a separator rule with nothing kept below it goes with its zone
        last_kept = max(
            (n for n, line in enumerate(view.lines) if line.strip() and n not in dropped),
            default=-1,
        )
        rendered: list[str] = []
        for n, line in enumerate(view.lines):
            orphan = orphan_at.get((page.page_index, n))
            if orphan is not None:
                rendered.append(blocks.full(orphan))
            if n in dropped:
                continue
            if SEPARATOR_RE.match(line) and last_kept <= n:
                continue
            at_line = page_inserts.get(n, {})
            placeholder = TABLE_PLACEHOLDER_RE.match(line.strip())
            if placeholder and int(placeholder.group(1)) in tables:
                table = tables[int(placeholder.group(1))]
                rendered.append(table.markdown())
                for fid in at_line.get(len(line), []):
                    rendered.append(blocks.full(by_id[fid]))  # a table's notes stay whole
                continue
            text, last = [], 0
            for pos in sorted(at_line):
                text.append(line[last:pos])
                text.append(" " + " ".join(blocks.block(fid) for fid in at_line[pos]))
                last = pos
            text.append(line[last:])
            rendered.append("".join(text).rstrip())
        out.append(
            StitchedPage(
                page_index=page.page_index, page_label=page.page_label, section=page.section,
                text=_tidy_blank_lines(rendered),
            )
        )
    return out


def _closure(footnote_id: str, by_id: dict[str, Footnote]) -> list[str]:
    """The footnote and, depth first, the footnotes its text cites (each once)."""
    order: list[str] = []
    stack = [footnote_id]
    while stack:
        fid = stack.pop(0)
        if fid in order or fid not in by_id:
            continue
        order.append(fid)
        stack.extend(by_id[fid].cites)
    return order


def _tidy_blank_lines(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    return "\n".join(out).strip("\n")


class Coverage(BaseModel):
    """Did stitching inline every definition where it is cited?"""

    cited_with_definition: int  # distinct (page, footnote) citations that have a definition
    stitched: int  # of those, the ones whose definition stands on the citing page
    missing: list[str]  # "footnote_id on page N" that were not stitched
    unresolved: list[str]  # "marker on page N" cited but defined nowhere

    @property
    def ratio(self) -> float:
        return self.stitched / self.cited_with_definition if self.cited_with_definition else 1.0


def stitching_coverage(index: FootnoteIndex, pages: Sequence[StitchedPage]) -> Coverage:
    """A cited footnote counts as stitched on a page that holds its full block (a short
    reference does not count: each citing page must hold the definition itself)."""
    text_of = {p.page_index: p.text for p in pages}
    blocks_of: dict[int, set[str]] = {}  # the page's blocks, read once (not a search per note)
    by_id = index.by_id()
    wanted = sorted(
        {(c.page_index, c.footnote_id) for c in index.citations
         if c.footnote_id and c.context != "footnote"}
    )

    def stitched(page: int, footnote_id: str) -> bool:
        block = footnote_block(by_id[footnote_id])
        if not FOOTNOTE_BLOCK_RE.fullmatch(block):  # a text with braces: searched for
            return block in text_of.get(page, "")
        if page not in blocks_of:
            blocks_of[page] = {
                m.group(0) for m in FOOTNOTE_BLOCK_RE.finditer(text_of.get(page, ""))
            }
        return block in blocks_of[page]

    missing = [f"{fid} on page {page}" for page, fid in wanted if not stitched(page, fid)]
    unresolved = sorted({f"{c.marker} on page {c.page_index}" for c in index.unresolved})
    return Coverage(
        cited_with_definition=len(wanted), stitched=len(wanted) - len(missing),
        missing=missing, unresolved=unresolved,
    )
