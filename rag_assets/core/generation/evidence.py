"""Evidence units: the sentences and table rows of retrieved chunks, each on the page it is
printed on, with the footnote definitions stitched to it.

An answer quotes units, never paraphrases them, so every figure it writes is a figure its cited
page prints. A stitched ``{FOOTNOTE [N]: ...}`` block stays attached to the sentence that cites
it: the qualification travels with the claim it qualifies.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from itertools import zip_longest

from pydantic import BaseModel, Field

from rag_assets.core.chunks.units import page_tables, unruled_tables
from rag_assets.core.footnotes.blocks import sentences_with_blocks
from rag_assets.core.footnotes.stitching import FOOTNOTE_BLOCK_RE
from rag_assets.core.generation.page_texts import PageTexts, normalize
from rag_assets.core.generation.row_footnotes import MARKER_RE
from rag_assets.core.ingest.pages import is_markdown_rule
from rag_assets.core.ingest.statement_tables import CaptionsInForce, read_units, spanned
from rag_assets.core.ingest.statements import STATEMENT_TITLES
from rag_assets.core.question.vocabulary import whole_term
from rag_assets.core.retrieval.retriever import Hit
from rag_assets.core.text.bullets import at_bullets
from rag_assets.core.text.figures import FIGURE_AT_END_RE, NIL_TOKENS
from rag_assets.core.text.filing_kinds import form_of
from rag_assets.core.text.periods import DATE_LINE_RE, MONTH_RE
from rag_assets.core.text.years import HEADING_NUMBER_RE, YEAR_OR_CHANGE_HEADING_RE

MIN_UNIT_WORDS = 3
HEADING_WORDS = 8
# text addressed to a language model rather than to a report's reader: quoted, it would carry a
# document's instructions into an answer; it is never evidence
_INSTRUCTION_RE = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.]{0,40}\b(?:previous|prior|above|earlier|all|"
    r"the)\b[^.]{0,20}\b(?:instructions?|prompts?|rules|excerpts|context)\b"
    r"|\b(?:system|developer)\s*(?:prompt|mode|message)\b|^\s*(?:system|assistant)\s*[:,]"
    r"|\byou are (?:now |an? )?(?:ai|assistant|language model|chatbot|in developer mode)\b"
    r"|\b(?:reply|respond|answer) (?:only )?with the word\b"
    r"|\bnew instructions?\s*:|</?\s*(?:document|system|instructions?)\b",
    re.IGNORECASE)
# markup a report's prose never needs, which a reader's browser would run
_MARKUP_RE = re.compile(r"<\s*/?\s*(?:script|iframe|img|svg|object|embed|style)\b|\bon[a-z]+\s*="
                        r"|javascript\s*:", re.IGNORECASE)


class FootnoteNote(BaseModel):
    """A footnote definition stitched after a sentence, and the page that prints it."""

    marker: str
    text: str
    page: int | None = None


class EvidenceUnit(BaseModel):
    """A sentence or a table row of a retrieved chunk."""

    chunk_id: str
    document: str
    year: int
    chunk_rank: int
    page: int = Field(description="zero-based page that prints the quote")
    located: bool = Field(description="the quote was found on that page")
    is_row: bool = False
    quote: str = Field(description="the words as the page prints them (no footnote block)")
    text: str = Field(description="what an answer writes: the sentence, or the row with its "
                      "column headings")
    scope: str = Field(default="", description="chunk header, table title and headings: what "
                       "the unit is about beyond its own words")
    caption: str = Field(default="", description="a table row's caption row (\"Net sales\" "
                         "over the segments' rows): what its figures measure, when printed")
    period: str = Field(default="", description="the period captioning the row's block "
                        "(\"2019\" over a segment note's block), when one is printed")
    footnotes: list[FootnoteNote] = Field(default_factory=list)

    @property
    def with_footnotes(self) -> str:
        """The text with each stitched definition written after it."""
        notes = " ".join(f"(Footnote {n.marker}: {n.text})" for n in self.footnotes)
        return f"{self.text} {notes}".strip()


def printed_unit(document: str, year: int, page: int, quote: str, scope: str = "",
                 rank: int = 0) -> EvidenceUnit:
    """A passage a reader found by reading the page itself (a cover page's table, an Item's
    body, a caption), not a retrieved chunk: located, its text the words as printed."""
    return EvidenceUnit(chunk_id=f"{document}|{year}|p{page}", document=document, year=year,
                        chunk_rank=rank, page=page, located=True, quote=quote, text=quote,
                        scope=scope)


def looks_like_instruction(text: str) -> bool:
    """Words that speak to a model ("ignore previous instructions", "SYSTEM:", "you are now in
    developer mode", a forged ``</document>`` fence) or markup a browser would run (``<script>``,
    ``onerror=``, ``javascript:``), not words for a report's reader."""
    return bool(_INSTRUCTION_RE.search(text) or _MARKUP_RE.search(text))


PageLocator = Callable[[str, int, Sequence[int], str], int | None]


def is_heading(line: str) -> bool:
    """A short line without a sentence's end or a footnote block: a section or table heading."""
    text = line.strip()
    return (0 < len(text.split()) <= HEADING_WORDS and text[-1] not in ".:;,!?)]}"
            and "{FOOTNOTE" not in text and not text[0].islower()
            and not FIGURE_AT_END_RE.search(text))


# what a table of contents' sentence holds: a page number before the next Item or Part, or at
# its end ("Legal Proceedings 17 Item 4.", "Signatures 38"), never a sentence that refers to
# an Item ("... set forth in Part II, Item 8. Financial Statements ... in this report.")
_CONTENTS_ENTRY_RE = re.compile(r"(?:^|\s)(?:[A-Z]-)?\d{1,3}(?:\s+(?:item|part)\b|\.?$)",
                                re.IGNORECASE)


def contents_entry(pages: PageTexts, unit: EvidenceUnit) -> bool:
    """Whether a sentence is an entry of the filing's table of contents: it names a section
    and its page and states nothing, so it is never quoted ("Legal Proceedings 17 Item 4." is
    no answer to "What legal proceedings does Netflix describe?"). Told by its page, which
    lists the Items with their page numbers (:meth:`PageTexts.contents_pages`), not by its
    words: a title-case sentence elsewhere ("Stores Opened 17") states something."""
    return (unit.page in pages.contents_pages(unit.document, unit.year)
            and _CONTENTS_ENTRY_RE.search(" ".join(unit.text.split())) is not None)


def headings_at(text: str, flat: str) -> list[tuple[int, str]]:
    """A page's heading lines (:func:`is_heading`; not a table's lines, its placeholder or a
    caption in parentheses, "(Amounts in millions) 2022 2021"), each with where ``flat``, the
    page on one line, prints it, in order."""
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return offsets_on(flat, [line for line in lines if line and not line.startswith(
        ("|", "[[", "(")) and is_heading(line)])


def offsets_on(flat: str, parts: Sequence[str]) -> list[tuple[int, str]]:
    """Each of ``parts``, in order, with where ``flat`` prints it after the one before; a part
    it does not print is left out."""
    out, cursor = [], 0
    for part in parts:
        at = flat.find(part, cursor)
        if at >= 0:
            out.append((at, part))
            cursor = at + len(part)
    return out


def _split_footnotes(sentence: str) -> tuple[str, list[FootnoteNote]]:
    notes = [FootnoteNote(marker=m.group("marker").strip(), text=m.group("text").strip())
             for m in FOOTNOTE_BLOCK_RE.finditer(sentence)]
    body = FOOTNOTE_BLOCK_RE.sub(" ", sentence)
    return " ".join(body.split()), notes


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _heading_cell(cell: str) -> bool:
    """A cell a header prints: words, years and days ("Year ended December 31,", "21 vs.
    20"); not an amount."""
    return all(not re.search(r"\d", t) or HEADING_NUMBER_RE.fullmatch(t) for t in cell.split())


def _completes_headings(header: Sequence[str], cells: Sequence[str]) -> bool:
    """Whether a row under a header of years prints only the rest of the headings that name no
    year: the "Change" under a "%" (MGM's release wraps "% Change" over two rows beside "2022"
    and "2021"), which joins its column's heading and is no row."""
    filled = [i for i, c in enumerate(cells) if c]
    return bool(filled) and 0 not in filled and all(
        i < len(header) and header[i] and not re.search(r"\d", header[i])
        and _heading_cell(cells[i]) for i in filled)


def _row_of_amounts(cells: Sequence[str]) -> bool:
    """Whether a table's first row is a label over amounts ("$ 742", "6%"; dashes and "n/m"
    beside them), no heading: a heading prints years, dates and words, never a currency sign or
    a percentage."""
    values = [c for c in cells[1:] if c]
    amounts = [c for c in values if re.fullmatch(r"\$?\s?\(?[\d,.]+\)?\s?%?", c)]
    nil = [c for c in values if c in NIL_TOKENS or c.lower() in ("n/m", "nm", "n/a")]
    return bool(cells and cells[0] and amounts) and len(amounts) + len(nil) == len(values) and (
        any(re.search(r"[$%,]", c) for c in amounts))


def _markers(headings: Sequence[str]) -> set[str]:
    """The footnote markers column headings end with ("Adjusted*", "2023 (1)"), bare."""
    return {m["n"] or m["sup"] for h in headings if (m := MARKER_RE.search(h)) and m.start()}


def _bare_marker(marker: str) -> str:
    """A stitched note's marker as a heading's is read: "(1)" as "1", "*" as "*"."""
    return marker.strip().strip("()[]").strip()


def _row_text(label: str, values: list[tuple[str, str]]) -> str:
    shown = "; ".join(f"{h}: {v}" if h else v for h, v in values if v)
    return f"{label}: {shown}" if label else shown


def units_of(hit: Hit, locate: PageLocator) -> list[EvidenceUnit]:
    """Every sentence and table row of a chunk, each with the page that prints it."""
    return _ChunkReader(hit, locate).read()


@lru_cache(maxsize=4096)
def is_measure(label: str) -> bool:
    """Whether a table's row of words alone is a measure of the vocabulary ("Net sales",
    "Operating profit", "Operating activities"): a block heading printed without a colon."""
    return whole_term(label) is not None


class _ChunkReader:
    """One chunk read line by line: prose into sentences (a heading line scopes the block after
    it), a table into rows (a title line above it, its header, the captions in force)."""

    def __init__(self, hit: Hit, locate: PageLocator) -> None:
        self.hit, self.locate = hit, locate
        own = hit.pages or list(range(hit.page_start, hit.page_end + 1))
        # a sentence that runs over a page break, or a chunk whose range is off by one, is
        # printed next door: looked for there too, after its own pages
        self.pages = [*own, *(p for p in (min(own) - 1, max(own) + 1)
                              if p >= 0 and p not in own)]
        self.units: list[EvidenceUnit] = []
        self.prose: list[str] = []
        self.header: list[str] | None = None
        self.headed = False  # a row below the header was read: the header is whole
        self.rows_read = False  # a row below the header was read as a row
        self.captions = CaptionsInForce(measure=is_measure)
        self.title = ""
        # the last table's first row unit and its header's footnote markers ("Adjusted*")
        self.marked_columns: tuple[int, set[str]] = (0, set())

    def read(self) -> list[EvidenceUnit]:
        lines = self.hit.text.split("\n")
        for position, line in enumerate(lines):
            stripped = line.strip()
            if not stripped.startswith("|"):
                self.header = None
                self.note_marked_columns(stripped)
                nxt = lines[position + 1].strip() if position + 1 < len(lines) else ""
                if nxt.startswith("|") and len(stripped) < 120 and not stripped.endswith("."):
                    # a table's title line; a short line of dates or units under a line that
                    # leads into the table ("Net sales by platform were (in millions):" over
                    # "December 25, 2021 December 26, 2020 ...") is titled by both
                    above = self.prose[-1].strip() if self.prose else ""
                    self.flush_prose()
                    self.title = (f"{above} {stripped}" if above.endswith(":") and (
                        _dates_or_units(stripped)) else stripped)
                elif nxt.startswith("|") and stripped.endswith(":"):
                    # a sentence leading into the table ("Presented in the table below is a
                    # geographic summary of ...:"): quoted as prose, and what the rows are of
                    self.prose.append(line)
                    self.flush_prose()
                    self.title = stripped
                else:
                    self.prose.append(line)
                continue
            self.flush_prose()
            if not is_markdown_rule(stripped):
                self.table_line(stripped)
        self.flush_prose()
        return self.units

    def add(self, quote: str, text: str, scope: str, notes: list[FootnoteNote], is_row: bool,
            caption: str = "", period: str = "") -> None:
        if (len(text.split()) < MIN_UNIT_WORDS and not is_row) or looks_like_instruction(text):
            return
        hit = self.hit
        page = self.locate(hit.document, hit.year, self.pages, quote)
        if page is None and not is_row:
            page, quote = self.over_page_break(quote)
        for note in notes:
            note.page = self.locate(hit.document, hit.year, self.pages, note.text)
        self.units.append(EvidenceUnit(
            chunk_id=hit.chunk_id, document=hit.document, year=hit.year, chunk_rank=hit.rank,
            page=page if page is not None else hit.page_start, located=page is not None,
            is_row=is_row, quote=quote, text=text, scope=scope, footnotes=notes,
            caption=caption, period=period))

    def over_page_break(self, quote: str) -> tuple[int | None, str]:
        """The page a sentence that runs over a page break starts on, and the part of it that
        page prints (Walmart's 10-K breaks a sentence on a quarter of its pages): its longest
        opening one page prints, when the next page prints the rest; else (None, the quote).
        The sentence is the unit's text whole; its citation quotes what its page prints."""
        words, find = quote.split(), partial(self.locate, self.hit.document, self.hit.year,
                                             self.pages)
        low, high = 0, len(words) - 1  # the longest opening printed: a shorter one is too
        while low < high:
            middle = (low + high + 1) // 2
            if find(" ".join(words[:middle])) is not None:
                low = middle
            else:
                high = middle - 1
        if low < MIN_UNIT_WORDS or len(words) - low < 1:
            return None, quote
        start = find(" ".join(words[:low]))
        rest = self.locate(self.hit.document, self.hit.year, [start + 1] if start is not None
                           else [], " ".join(words[low:]))
        if start is None or rest is None:
            return None, quote
        return start, " ".join(words[:low])

    def flush_prose(self) -> None:
        heading = ""
        block: list[str] = []
        for line in [*self.prose, None]:
            if line is not None and not is_heading(line):
                block.append(line)
                continue
            # a heading line ends the block before it and is the scope of the one after it
            self.add_sentences(block, heading)
            block = []
            heading = (line or "").strip()
        self.prose.clear()

    def add_sentences(self, block: Sequence[str], heading: str) -> None:
        """Each sentence of the block of prose lines as a unit, under ``heading``; a bullet
        opens a unit of its own: a release's highlights ("• Share buybacks of $2.8 billion in
        2022 and $352 million in 4Q22 • New $2 billion share repurchase program ...") are no
        one sentence; a footnote's bullets, and a list its lead introduces, stay whole."""
        scope = " | ".join(p for p in (self.hit.context, heading) if p)
        text = "\n".join(block)
        for item in at_bullets(text, [m.span() for m in FOOTNOTE_BLOCK_RE.finditer(text)]):
            for sentence in sentences_with_blocks(item):
                body, notes = _split_footnotes(sentence)
                self.add(FOOTNOTE_BLOCK_RE.sub(" ", sentence).strip(), body, scope, notes,
                         False)

    def note_marked_columns(self, stripped: str) -> None:
        """A footnote printed under a table whose column heading carries its marker ("12 Weeks
        Adjusted*" over "*Excluding the impacts from changes in gasoline prices and foreign
        exchange."): every row of the table is read with it, what its figures in that column
        mean, and is found by its words."""
        first, markers = self.marked_columns
        found = FOOTNOTE_BLOCK_RE.fullmatch(stripped)
        if found is None:
            if stripped:  # prose after the table: a note under it is no longer the table's
                self.marked_columns = (first, set())
            return
        if _bare_marker(found["marker"]) not in markers:
            return
        note = found["text"].strip()
        for unit in self.units[first:]:
            if unit.is_row:
                unit.footnotes.append(FootnoteNote(marker=found["marker"].strip(), text=note))
                unit.scope = " | ".join(p for p in (unit.scope, note) if p)

    def table_line(self, stripped: str) -> None:
        cells = _cells(stripped)
        if self.header is None:
            # the chunker's header of years names the columns already: no row joins it
            self.header, self.headed = cells, bool(re.search(r"\d", " ".join(cells)))
            self.rows_read = False
            self.captions = CaptionsInForce(measure=is_measure)
            self.marked_columns = (len(self.units), set())
            self.marked_columns[1].update(_markers(cells[1:]))
            if not _row_of_amounts(cells):
                return
            # a row of amounts above the rule is a data row the text layer cut from its
            # header (MGM's release: "Casino revenue $ 742 $ 697 6%"): it names no column
            self.header = [""] * len(cells)
        if not self.headed and not cells[0] and all(_heading_cell(c) for c in cells[1:]):
            # a header printed over several rows ("%" over "change" over "21 vs. 20", years
            # under "Year ended December 31,", American Water's "Water" and "Total" under
            # "Operating Revenues"): each column's heading is its cells joined, a heading
            # printed once over the columns it spans read over each
            top = [self.header[0], *spanned(self.header[1:])] if self.header else []
            self.header = [" ".join(f"{a} {b}".split()) for a, b in
                           zip_longest(top, [cells[0], *spanned(cells[1:])], fillvalue="")]
            return
        if not self.rows_read and _completes_headings(self.header, cells):
            self.header = [" ".join(f"{a} {b}".split()) for a, b in
                           zip_longest(self.header, cells, fillvalue="")]
            return
        self.headed = self.rows_read = True
        printed = cells
        caption, cells = self.captions.split(cells)
        label, values = cells[0], cells[1:]
        if not any(v for v in values):
            return  # a caption row: what the rows under it measure (their ``caption``)
        headings = self.header[1:] + [""] * max(0, len(values) - len(self.header) + 1)
        notes = [FootnoteNote(marker=m.group("marker").strip(), text=m.group("text").strip())
                 for m in FOOTNOTE_BLOCK_RE.finditer(stripped)]
        quote = FOOTNOTE_BLOCK_RE.sub(" ", " ".join(c for c in printed if c))
        text = _row_text(FOOTNOTE_BLOCK_RE.sub(" ", label).strip(),
                         [(h, FOOTNOTE_BLOCK_RE.sub(" ", v).strip())
                          for h, v in zip(headings, values, strict=False)])
        scope = " | ".join(p for p in (self.hit.context, self.title,
                                                " ".join(filter(None, self.header)))
                           if p)
        self.add(quote, text, scope, notes, True, caption, self.captions.period)


def page_table_rows(pages: PageTexts, document: str, year: int, page: int
                    ) -> list[EvidenceUnit]:
    """Every table row a stored page prints (:func:`page_tables`: markdown tables, rows printed
    as text under a ruled header, tables printed without rules), each a unit the verifier finds
    on the page: what a comparison reads when retrieval returned only some of a table's blocks
    or indexed its rows as prose."""
    text = pages.get(document, year, page)
    if text is None:
        return []

    def locate(_document: str, _year: int, _pages: Sequence[int], quote: str) -> int | None:
        wanted = normalize(quote)
        return page if wanted and wanted in (pages.normalized(document, year, page) or "") \
            else None

    # the sentence leading into a table ("Presented in the table below is a geographic
    # summary of ... :") is its context, as a chunk's heading is: what its rows are of; after
    # the statement the page is, as a chunk's header says it (the segment note's table at the
    # top of Nike's page 89 has no title of its own)
    kind = pages.page_statements(document, year).get(page)
    section = STATEMENT_TITLES[kind] if kind else ""
    hits = [Hit(chunk_id=f"{document}:{year}:page{page}:table{i}", document=document, year=year,
                page_start=page, page_end=page, pages=[page], rank=0, score=0.0, stage="page",
                text="\n".join(filter(None, [table.title, *table.lines])),
                context=" | ".join(filter(None, [
                    section, table.lead.text if table.lead is not None else ""])))
            for i, table in enumerate(page_tables(text, page))]
    return [u for h in hits for u in units_of(h, locate) if u.is_row and u.located]


MAX_SUBTITLE_CHARS = 80  # a line between a table's title and the table: its period, its unit


def _dates_or_units(line: str) -> bool:
    """A short line that only dates a table's columns or gives its units ("December 25, 2021
    December 26, 2020 December 28, 2019", "(in millions)"): the title's subtitle."""
    words = YEAR_OR_CHANGE_HEADING_RE.sub(" ", DATE_LINE_RE.sub(" ", line))
    return len(line) <= MAX_SUBTITLE_CHARS and (
        bool(read_units(line)[0]) or not re.search(r"[^\W\d_]{3,}", MONTH_RE.sub(" ", words)))


def pages_printing(pages: PageTexts, document: str, year: int, name: str) -> list[int]:
    """The filing's pages that print ``name`` at the start of a line with a figure after it (a
    table's row, its first cell in a page's Markdown table), in page order; a page's spaces
    vary, and "short term" is printed "short-term" too."""
    spaced = r"[\s-]+".join(re.escape(w) for w in re.split(r"[\s-]+", name) if w)
    starts = re.compile(rf"(?im)^\s*(?:\|\s*)?(?:total\s+)?{spaced}(?!\w)[^\n]*\d")
    return [p for p in pages.pages_of(document, year)
            if starts.search(pages.get(document, year, p) or "")]


def pages_titled(pages: PageTexts, document: str, year: int, words: Sequence[str]) -> list[int]:
    """The filing's pages that print a table whose title, the line right above it, or its
    header, its first row, names one of ``words`` ("The following table presents segment net
    sales by reportable segment"; 3M's untitled "Worldwide Sales Change By Business Segment"),
    the pages of the statement or note the words name first (the segment note), then the
    others in page order: where a ranking looks when retrieval returned no table of what it
    ranks."""
    named = "|".join(re.escape(w) for w in words)
    # the title may stand a short line above the table: the period or unit it is printed in
    # ("Presented in the tables below is summarized segment information:" over "As of or for
    # the Three Months Ended June 30, 2023", American Water's 10-Q)
    titled = re.compile(rf"(?im)^(?![ \t]*\|)[^\n]*\b(?:{named})[^\n]*\n"
                        rf"(?:(?![ \t]*\|)[^\n]{{1,{MAX_SUBTITLE_CHARS}}}\n)?[ \t]*\||"
                        rf"^(?![ \t]*\|)[^\n]*\n[ \t]*\|[^\n]*\b(?:{named})")
    word = re.compile(rf"(?i)\b(?:{named})")
    # the pages of a statement or note so named first (the segment note, whose later pages'
    # tables are titled only by its heading pages before: where ASC 280 requires the figures)
    kinds = pages.page_statements(document, year)
    named_note = [p for p in pages.pages_of(document, year)
                  if (kind := kinds.get(p)) is not None and word.search(STATEMENT_TITLES[kind])
                  and "|" in (pages.get(document, year, p) or "")]
    return [*named_note, *(
        p for p in pages.pages_of(document, year) if p not in named_note and (
            titled.search(text := pages.get(document, year, p) or "")
            or (word.search(text) and any(word.search(t) for t in _unruled_titles(text, p)))))]


@lru_cache(maxsize=1024)
def _unruled_titles(text: str, page: int) -> tuple[str, ...]:
    """The lead and title of each table a page prints without rules (Corning's segment note:
    "... product lines and reportable segments follow (in millions): ... 2015 2014 2013" over
    lines of figures), read once per page: every ranking of a filing asks the same pages."""
    return tuple(f"{t.lead.text if t.lead else ''} {t.title or ''}"
                 for t in unruled_tables(text, page))


# an attached material contract (Regulation S-K Item 601(b)(10): plans, agreements), as the
# page's Item names it ("Exhibit 10.42"); exhibits 3 and 4 (the charter, the description of
# the registered securities) are read: they state what the company is and has issued
LEGAL_EXHIBIT_RE = re.compile(r"^Exhibit 10\.\d+\b")
PERIODIC_FORMS = frozenset({"10-K", "10-Q"})


def attached_legal_text(pages: PageTexts, document: str, year: int, page: int) -> bool:
    """Whether a periodic report's page is one of its attached material contracts (Regulation
    S-K Item 601 exhibit 10: a stock plan's definition of a merger, a credit agreement's
    covenants), not the report's own disclosure, which a question about the company asks of.
    An 8-K's exhibits (a press release, the agreement an Item describes) are its content and
    stay."""
    item = pages.page_items(document, year).get(page) or ""
    if not LEGAL_EXHIBIT_RE.match(item):
        return False
    first = pages.get(document, year, min(pages.pages_of(document, year)))
    return form_of(document, first or "") in PERIODIC_FORMS

