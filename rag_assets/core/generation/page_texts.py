"""The stored pages as the citation verifier reads them: each page's text, normalized.

``PageTexts`` holds the text of stored pages (``raw_pages``), given in memory or read from the
warehouse one partition at a time as questions cite them, and computes, on first use and once,
what quote matching needs of it: the normalized text and where each line starts in it, the
Article / paragraph / Note in force on every line of a report, and the Article and Note
references printed on each page. ``normalize`` is the one normalization both sides of a match
go through (the page here, the quote in :mod:`citations`), so line breaks, hyphenation, table
pipes and typographic quotes never decide. Apart from the verifier so what a page is reads on
its own; plain Python, no Dagster.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rag_assets.core.footnotes.stitching import FOOTNOTE_BLOCK_RE
from rag_assets.core.ingest.pages import Page, is_markdown_rule, raw_page_text
from rag_assets.core.retrieval.references import find_references
from rag_assets.core.text.periods import FiscalYearEnd, fiscal_year_defined

if TYPE_CHECKING:
    import pandas as pd

    from rag_assets.core.ingest.statements import StatementKind

PageKey = tuple[str, int, int]
KEEP_PARTITIONS = 32  # partitions read from a source kept in memory (a question cites a few)

TOC_HEADINGS = 4  # a page with this many "Note N." headings is a table of contents
CHECKED_KINDS = ("article", "note")  # the references the verifier checks a page for

_QUOTES_DASHES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "`": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-",
    "\u2212": "-", "\ufe58": "-", "\u00ad": "",
})
_DASH_RUN_RE = re.compile(r"-{2,}")
_INNER_HYPHEN_RE = re.compile(r"(?<=[^\W_])-(?=[^\W\d_])")
_CURRENCY_RE = re.compile(r"([$€£¥])\s+(?=[\d(])")
_BLOCK_ANYCASE_RE = re.compile(FOOTNOTE_BLOCK_RE.pattern, re.IGNORECASE)

_ARTICLE_HEAD_RE = re.compile(r"Article (\d{1,3})")
_PARAGRAPH_RE = re.compile(r"(\d{1,2})\.\s+\S")
_NOTE_HEAD_RE = re.compile(r"(?:NOTE|Note)\s+(\d{1,2})\.(?:\s+[A-Z(].*)?")
_ITEM_HEAD_RE = re.compile(r"(?:ITEM|Item)\s+\d{1,2}[A-Z]?\.\s+[A-Z]")


# --- normalization -------------------------------------------------------------------------


def _block_as_printed(match: re.Match[str]) -> str:
    """``{FOOTNOTE [3]: text}`` reads as the definition line a page prints: ``[3] text``."""
    return f" {match['marker']} {match['text']} "


def _normalize_line(line: str) -> str:
    s = unicodedata.normalize("NFKC", line).casefold().translate(_QUOTES_DASHES)
    if is_markdown_rule(s):
        return ""  # a markdown table's |---|---| row prints nothing
    s = s.replace("\\|", " ").replace("|", " ")
    s = _DASH_RUN_RE.sub("-", s)  # "Revenues––$81.3 billion" prints two en dashes
    s = _INNER_HYPHEN_RE.sub("", s)  # "long-term", "long-\nterm" read "longterm"; "15-valent" too
    s = _CURRENCY_RE.sub(r"\1", s)  # table cells print "$ 5,363", prose "$5,363"
    return " ".join(s.split())


def _normalize_lines(lines: Sequence[str]) -> tuple[str, list[int]]:
    """The normalized text of ``lines`` and where each line starts in it (for positions)."""
    parts: list[str] = []
    starts: list[int] = []
    length = 0
    for line in lines:
        s = _normalize_line(line)
        if not s:
            starts.append(length)
            continue
        hyphen = bool(parts) and parts[-1].endswith("-") and parts[-1][-2:-1].isalnum()
        if hyphen and s[0].isalpha():
            parts[-1] = parts[-1][:-1]  # hyphenation at a line end: "infor-" + "mation"
            length -= 1
        elif hyphen and s[0].isdigit() and parts[-1][-2:-1].isalpha():
            pass  # "COVID-" + "19" reads "covid-19", as printed on one line
        elif parts:
            parts.append(" ")
            length += 1
        starts.append(length)
        parts.append(s)
        length += len(s)
    return "".join(parts), starts


def normalize(text: str) -> str:
    """What quote matching compares: case-folded NFKC text, curly quotes and dashes unified,
    markdown table pipes and ``---`` rows removed, ``{FOOTNOTE [N]: d}`` read as ``[N] d``,
    hyphenated line ends joined (and word-internal hyphens dropped, so both spellings agree),
    whitespace collapsed. A quote that spans line breaks or a table row's cells still matches."""
    return _normalize_lines(_BLOCK_ANYCASE_RE.sub(_block_as_printed, text).split("\n"))[0]


# --- the stored pages ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NormalizedPage:
    """A page's normalized text and where each of its lines starts in it (a match's line)."""

    text: str
    line_starts: list[int]

    def line_at(self, offset: int) -> int:
        return max(0, bisect.bisect_right(self.line_starts, offset) - 1)


# (article, paragraph, note) in force on one line of a page
Label = tuple[int | None, int | None, str | None]


@dataclass(frozen=True, slots=True)
class Mention:
    """An Article or Note reference printed on a page, and on which line."""

    key: str
    line: int
    heading: bool  # the "Article 33" / "NOTE 5." heading itself, not a cross-reference


class PageSource(Protocol):
    """Where a lazy :class:`PageTexts` reads a partition's pages from (the warehouse's
    ``raw_pages``: :class:`~rag_assets.core.warehouse.stored.StoredPages`)."""

    def pages(self, document: str, year: int) -> Sequence[Page]: ...

    def items(self, document: str, year: int) -> Mapping[int, str | None]: ...

    def statements(self, document: str, year: int) -> Mapping[int, StatementKind | None]: ...

    def partitions(self) -> list[tuple[str, int]]: ...


@dataclass(slots=True)
class _Partition:
    """One report's page texts and what was computed from them so far."""

    texts: dict[int, str]
    loaded: bool = False  # read from the source: it may be dropped and read again
    normalized: dict[int, NormalizedPage] = field(default_factory=dict)
    mentions: dict[int, list[Mention]] = field(default_factory=dict)
    labels: dict[int, list[Label]] | None = None
    items: dict[int, str | None] | None = None
    statements: dict[int, StatementKind | None] | None = None  # what each page is
    contents: frozenset[int] | None = None  # the pages of its table of contents
    # each page's lines set bold: (line number in the page's own text, the line)
    bold: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    # the fiscal-year naming the report defines, once read: (it,) so that None is an answer
    fiscal_year: tuple[FiscalYearEnd | None] | None = None

    @property
    def pages(self) -> list[int]:
        return sorted(self.texts)


class PageTexts:
    """The text of stored pages by (document, year, page_index), as a plain extractor sees it
    (tables rendered in place, so table cells can be quoted). Normalized text, the Article /
    Note structure of each report and the references printed on each page are computed on first
    use and cached: one verifier serves many answers.

    Held in memory (``from_pages``, ``from_frame``, ``add``), or read from a ``source`` one
    partition at a time when a method first asks for it (``from_warehouse``): a question reads
    the reports it cites, not the corpus. Of the partitions read from the source, the
    ``keep_partitions`` used last are kept; an older one is read again if asked for."""

    def __init__(self, texts: Mapping[PageKey, str] | None = None,
                 source: PageSource | None = None,
                 keep_partitions: int = KEEP_PARTITIONS) -> None:
        self._parts: OrderedDict[tuple[str, int], _Partition] = OrderedDict()
        for (document, year, page), text in (texts or {}).items():
            self._parts.setdefault((document, int(year)), _Partition({})).texts[page] = text
        self._source = source
        self._keep = keep_partitions
        self._source_partitions: list[tuple[str, int]] | None = None
        self.reads: list[tuple[str, int]] = []  # partitions read from the source, in order

    @classmethod
    def from_pages(cls, document: str, year: int, pages: Sequence[Page]) -> PageTexts:
        return cls().add(document, year, pages)

    @classmethod
    def from_frame(cls, raw_pages: pd.DataFrame) -> PageTexts:
        """All partitions of a ``raw_pages`` frame."""
        from rag_assets.core.warehouse.tables import (  # pandas only when used
            frame_to_items,
            frame_to_pages,
            frame_to_statements,
        )

        out = cls()
        for (document, year), rows in raw_pages.groupby(["document", "year"], sort=False):
            out.add(str(document), int(year), frame_to_pages(rows), frame_to_items(rows),
                    frame_to_statements(rows))
        return out

    @classmethod
    def from_warehouse(cls, database: str | Path) -> PageTexts:
        """The warehouse's ``raw_pages``, each partition read (with a ``WHERE``) when first
        asked for."""
        from rag_assets.core.warehouse.stored import StoredPages  # duckdb only when used

        return cls(source=StoredPages(database))

    def add(self, document: str, year: int, pages: Sequence[Page],
            items: Mapping[int, str | None] | None = None,
            statements: Mapping[int, StatementKind | None] | None = None) -> PageTexts:
        """Add (or replace) one partition's pages, with the Item ingest read for each and
        the statement it classified each as (``DocumentContext``; ``raw_pages.item`` and
        ``.statement``) when the caller has them; returns self so calls chain."""
        key = (document, int(year))
        part = self._parts.get(key)
        texts = {**(part.texts if part else {}),
                 **{page.page_index: raw_page_text(page) for page in pages}}
        bold = {**(part.bold if part else {}), **_bold_lines(pages)}
        self._parts[key] = _Partition(
            texts, items=dict(items) if items is not None else None, bold=bold,
            statements=dict(statements) if statements is not None else None)
        return self  # added, not read: never dropped

    def _partition(self, document: str, year: int) -> _Partition | None:
        """The partition's pages, read from the source on first use (the least recently used
        read partition dropped past ``keep_partitions``); None when none is stored."""
        key = (document, int(year))
        part = self._parts.get(key)
        if part is None and self._source is not None:
            self.reads.append(key)
            pages = self._source.pages(*key)
            part = self._parts[key] = _Partition(
                {page.page_index: raw_page_text(page) for page in pages}, loaded=True,
                items=dict(self._source.items(*key)), bold=_bold_lines(pages),
                statements=dict(self._source.statements(*key)))
            read = [k for k, p in self._parts.items() if p.loaded]
            for old in read[:max(0, len(read) - self._keep)]:
                del self._parts[old]
        if part is not None:
            self._parts.move_to_end(key)
        return part if part is not None and part.texts else None

    def __len__(self) -> int:
        """The pages held in memory now (a lazy instance holds what was read)."""
        return sum(len(p.texts) for p in self._parts.values())

    def __contains__(self, key: object) -> bool:
        if not (isinstance(key, tuple) and len(key) == 3):
            return False
        part = self._partition(key[0], key[1])
        return part is not None and key[2] in part.texts

    @property
    def held(self) -> list[tuple[str, int]]:
        """The partitions whose pages are in memory now."""
        return sorted(k for k, p in self._parts.items() if p.texts)

    def partitions(self) -> list[tuple[str, int]]:
        """Every partition there is: the source's (asked once) and those added."""
        if self._source is not None and self._source_partitions is None:
            self._source_partitions = self._source.partitions()
        return sorted({*(self._source_partitions or []), *self.held})

    def pages_of(self, document: str, year: int) -> list[int]:
        part = self._partition(document, year)
        return part.pages if part else []

    def get(self, document: str, year: int, page: int) -> str | None:
        part = self._partition(document, year)
        return part.texts.get(int(page)) if part else None

    def normalized(self, document: str, year: int, page: int) -> str | None:
        found = self.normalized_page((document, int(year), int(page)))
        return found.text if found else None

    def normalized_page(self, key: PageKey) -> NormalizedPage | None:
        """The page normalized with its line starts; None when it is not stored."""
        part = self._partition(key[0], key[1])
        if part is None or (text := part.texts.get(key[2])) is None:
            return None
        if key[2] not in part.normalized:
            part.normalized[key[2]] = NormalizedPage(*_normalize_lines(text.split("\n")))
        return part.normalized[key[2]]

    def page_labels(self, key: PageKey) -> list[Label]:
        """The (article, paragraph, note) in force on each line of a stored page (its report's
        outline, read once per partition)."""
        part = self._partition(key[0], key[1])
        if part is None:
            return []
        if part.labels is None:
            part.labels = _outline({p: text.split("\n") for p, text in part.texts.items()})
        return part.labels.get(key[2], [])

    def bold_lines(self, document: str, year: int) -> dict[int, list[tuple[int, str]]]:
        """Each page's lines set in a bold face, in order, with their line numbers in the
        page's own text (a PDF's headings; none for pages given as text)."""
        part = self._partition(document, year)
        return part.bold if part is not None else {}

    def page_items(self, document: str, year: int) -> dict[int, str | None]:
        """The Item in force on each stored page of a report ("Item 7.", "Part I, Item 2.",
        "Item 2.02"; None outside any): where a sentence found outside retrieval stands in the
        filing. As ingest stored it (``raw_pages.item``); for pages given without it (a test's
        or a bench's in-memory pages), read by the same function ingest reads it with
        (:func:`~rag_assets.core.ingest.sections.items_for_form`), once per partition."""
        from rag_assets.core.ingest.routing import COVER_PAGES
        from rag_assets.core.ingest.sections import items_for_form
        from rag_assets.core.text.filing_kinds import form_of

        part = self._partition(document, year)
        if part is None:
            return {}
        if part.items is None:
            pages = part.pages
            form = form_of(document, "\n".join(part.texts[p] for p in pages[:COVER_PAGES]))
            items = items_for_form([part.texts[p].split("\n") for p in pages], form)
            part.items = dict(zip(pages, items, strict=True))
        return part.items

    def page_statements(self, document: str, year: int) -> dict[int, StatementKind | None]:
        """What each stored page of a report is (a statement, the segment note, MD&A; None
        for another page), as ingest classified it (``raw_pages.statement``); for pages given
        without it (a test's or a bench's in-memory pages), classified from their text by
        :func:`~rag_assets.core.ingest.statements.classify_pages`, once per partition: ingest
        reads the same pages with their tables in place, and also leaves out the statements
        of another company a filing appends (an investee's under Rule 3-09)."""
        from rag_assets.core.ingest.statements import classify_pages

        part = self._partition(document, year)
        if part is None:
            return {}
        if part.statements is None:
            pages = part.pages
            kinds = classify_pages([part.texts[p].split("\n") for p in pages])
            part.statements = dict(zip(pages, kinds, strict=True))
        return part.statements

    def contents_pages(self, document: str, year: int) -> frozenset[int]:
        """The pages of a report that are its table of contents (three or more Items listed
        with their pages: :func:`~rag_assets.core.ingest.statements.is_contents_page`, the
        reading that keeps them from setting an Item), once per partition."""
        from rag_assets.core.ingest.statements import is_contents_page

        part = self._partition(document, year)
        if part is None:
            return frozenset()
        if part.contents is None:
            part.contents = frozenset(p for p in part.pages
                                      if is_contents_page(part.texts[p].split("\n")))
        return part.contents

    def fiscal_year_defined(self, document: str, year: int) -> FiscalYearEnd | None:
        """The fiscal-year naming a report defines in words ('the fiscal year ending January
        31, 2024 ("fiscal 2024")', :func:`~rag_assets.core.text.periods.fiscal_year_defined`),
        read once per partition: the facts route and the direct answers both date a fiscal
        quarter by it."""
        part = self._partition(document, year)
        if part is None:
            return None
        if part.fiscal_year is None:
            part.fiscal_year = (fiscal_year_defined(" ".join(part.texts[p] for p in part.pages)),)
        return part.fiscal_year[0]

    def page_mentions(self, key: PageKey) -> list[Mention]:
        """The Article and Note references a stored page prints, headings marked."""
        part = self._partition(key[0], key[1])
        if part is None:
            raise KeyError(key)
        if key[2] not in part.mentions:
            part.mentions[key[2]] = _mentions(part.texts[key[2]])
        return part.mentions[key[2]]


def _bold_lines(pages: Sequence[Page]) -> dict[int, list[tuple[int, str]]]:
    out = {}
    for page in pages:
        if page.bold_lines:
            lines = page.text.splitlines()
            out[page.page_index] = [(n, lines[n]) for n in page.bold_lines if n < len(lines)]
    return out


def _mentions(text: str) -> list[Mention]:
    """The Article and Note references ``text`` prints, each with its line."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    mentions = []
    for r in find_references(text):
        if r.kind in CHECKED_KINDS:
            at = bisect.bisect_right(starts, r.start) - 1  # the line's index
            mentions.append(Mention(r.key, at, _is_heading(lines[at])))
    return mentions


def _is_heading(line: str) -> bool:
    s = line.strip()
    return bool(_ARTICLE_HEAD_RE.fullmatch(s) or _NOTE_HEAD_RE.fullmatch(s))


def _outline(pages: Mapping[int, list[str]]) -> dict[int, list[Label]]:
    """The Article, paragraph and Note in force on every line of a report, read in page order.

    An Article starts at a line that is exactly ``Article N`` (the GDPR's headings), a paragraph
    at ``M. Text`` when M follows the previous paragraph, a Note at ``NOTE N. Title`` /
    ``Note N. Title`` (10-K notes); each stays in force across pages until the next heading (an
    ``Item N.`` heading ends the notes). Numbers only go up, and a page with many Note headings
    is a table of contents, so neither a contents page nor a cross-reference opens a section.
    """
    out: dict[int, list[Label]] = {}
    article: int | None = None
    paragraph: int | None = None
    note: str | None = None
    for index in sorted(pages):
        lines = [line.strip() for line in pages[index]]
        toc = sum(bool(_NOTE_HEAD_RE.fullmatch(s)) for s in lines) >= TOC_HEADINGS
        labels: list[Label] = []
        for s in lines:
            if (m := _ARTICLE_HEAD_RE.fullmatch(s)) and int(m[1]) > (article or 0):
                article, paragraph = int(m[1]), None
            elif article and (m := _PARAGRAPH_RE.match(s)) and int(m[1]) == (paragraph or 0) + 1:
                paragraph = int(m[1])
            if not toc and (m := _NOTE_HEAD_RE.fullmatch(s)) and not s[-1].isdigit() \
                    and int(m[1]) > int(note or 0):
                note = m[1]
            elif _ITEM_HEAD_RE.match(s):
                note = None
            labels.append((article, paragraph, note))
        out[index] = labels
    return out


