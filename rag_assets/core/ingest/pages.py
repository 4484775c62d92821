"""What every loader returns: pages with their printed labels, type sizes, note zones and tables.

The models live apart from the loaders so that the PDF engine and the text loaders depend on them,
not on each other. Bad input raises ``DocumentError`` with one line that names the file and the
cause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

DocumentKind = Literal["pdf", "txt", "tei"]
# where a page's text came from: the file's text (a PDF's text layer, a text or TEI file), OCR of
# the rendered page, or nowhere (a PDF page with next to no text layer that OCR did not read)
TextSource = Literal["text", "ocr", "none"]
NOTE_SIZE_RATIO = 0.88  # type below 88% of the document's body size is note (or footer) type
TABLE_PLACEHOLDER = "[[TABLE {index}]]"
TABLE_PLACEHOLDER_RE = re.compile(r"^\[\[TABLE (\d+)\]\]$")


class DocumentError(Exception):
    """A report that cannot be ingested; ``str(err)`` is the one line a user sees."""

    def __init__(self, path: Path | str, cause: str) -> None:
        self.path = str(path)
        self.cause = cause
        super().__init__(f"{Path(path).name}: {cause}")

    def __reduce__(self) -> tuple[type[DocumentError], tuple[str, str]]:
        # raised in a reader worker process: it crosses back by pickle, with both arguments
        return DocumentError, (self.path, self.cause)


# the step of reading a page that failed: "ocr", "ruled_tables", "superscripts" (marks and
# displaced markers), "lines" (split rows joined), "aligned_tables", "layout" (everything after
# the text: the page is kept as its plain text), "text" (not even the text: an empty page)
PageReader = Literal[
    "ocr", "ruled_tables", "superscripts", "lines", "aligned_tables", "layout", "text"
]
FAULT_CAUSE_CHARS = 200


class PageFault(BaseModel):
    """A step of reading one page that failed: the page keeps what the other steps read (at the
    least its text), and the document goes on. One bad table layout must not cost a filing."""

    page_index: int
    reader: PageReader
    cause: str

    @classmethod
    def of(cls, page_index: int, reader: PageReader, exc: BaseException) -> PageFault:
        """The fault of ``exc``, its cause on one line (a user reads it in the run log)."""
        return cls(page_index=page_index, reader=reader, cause=one_line_cause(exc))

    def line(self) -> str:
        """``page 12: aligned_tables failed (ValueError: ...); the page keeps its text``."""
        kept = "nothing read" if self.reader == "text" else "the page keeps its text"
        return f"page {self.page_index + 1}: {self.reader} failed ({self.cause}); {kept}"


def one_line_cause(exc: BaseException) -> str:
    """``Type: message``, first line only and at most ``FAULT_CAUSE_CHARS`` characters."""
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    cause = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return cause if len(cause) <= FAULT_CAUSE_CHARS else cause[: FAULT_CAUSE_CHARS - 3] + "..."


# -- the markdown table grammar: how every table is written into a page's text, and read back
# (the chunkers, the evidence reader and the page texts all use these, never a pattern of their
# own)
_MARKDOWN_RULE_RE = re.compile(r"\|?(?:\s*:?-{3,}:?\s*\|)*\s*:?-{3,}:?\s*\|?")


def markdown_row(cells: Sequence[str]) -> str:
    """A markdown table row of ``cells``, a pipe in a cell escaped."""
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def markdown_rule(width: int) -> str:
    """The rule under a markdown table's header row, for ``width`` columns."""
    return "|" + "---|" * width


def is_markdown_rule(line: str) -> bool:
    """Whether ``line`` is a markdown table's header rule (``|---|:---:|``): never a row."""
    return _MARKDOWN_RULE_RE.fullmatch(line.strip()) is not None


def markdown_cells(line: str) -> list[str]:
    """The cells of a markdown table row, an escaped pipe read back as a pipe."""
    return [c.strip().replace("\\|", "|") for c in line.strip().strip("|").split("|")]


class TableBlock(BaseModel):
    """A table found on a page, kept apart from the prose so that figures stay readable.

    ``found_by``: "rules" for a table drawn with rules (the PDF's grid), "alignment" for a
    statement printed without rules, found by its lines of figures under a header of years.
    """

    index: int
    title: str | None = None
    rows: list[list[str]]
    found_by: Literal["rules", "alignment"] = "rules"

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    def markdown(self, rows: list[list[str]] | None = None) -> str:
        """Render as a markdown table; the first row is the header (``rows`` renders a slice)."""
        body = self.rows if rows is None else [self.rows[0], *rows]
        width = max(len(r) for r in body)
        padded = [row + [""] * (width - len(row)) for row in body]
        lines = [markdown_row(padded[0]), markdown_rule(width), *map(markdown_row, padded[1:])]
        return "\n".join(lines)


class Page(BaseModel):
    """One page of a report.

    ``text`` is the prose in reading order, one line per printed line; ``note_lines`` are the line
    numbers (0-based, in ``text``) below a separator rule (a ``_____`` line, a TEI notes block, a
    short rule drawn in a PDF). A PDF also says what type each line is set in: ``line_sizes``
    (points, 0 for a blank or table line) against the document's ``body_size``; footnote zones
    are read from both (``core/footnotes/stitching.py``). ``bold_lines`` are the line numbers
    set in a bold face: a filing's headings (its risk factors' captions). Text and TEI files
    have no type sizes or weights.

    ``text_source`` says where ``text`` came from; ``text_note`` says, in one line, how OCR read
    the page ("ocr": engine, resolution, words, confidence) or why the page has no text ("none":
    blank, or an image OCR could not read and why). A page read by OCR has type sizes on the
    OCR's own scale, and its ``body_size`` is that of the document's OCR'd pages.

    ``faults``: the steps of reading this page that failed (its tables, superscripts, OCR), each
    with why; the page holds what the other steps read.
    """

    page_index: int
    page_label: str | None = None
    section: str | None = None
    text: str
    note_lines: list[int] = Field(default_factory=list)
    line_sizes: list[float] = Field(default_factory=list)
    bold_lines: list[int] = Field(default_factory=list)
    body_size: float = 0.0
    tables: list[TableBlock] = Field(default_factory=list)
    text_source: TextSource = "text"
    text_note: str | None = None
    faults: list[PageFault] = Field(default_factory=list)

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    def lines_with_tables(self) -> Iterator[tuple[str, TableBlock | None]]:
        """Each line of ``text``, with the table its placeholder stands for (None for a line
        of prose, or a placeholder whose table the page does not hold): the one walk of a
        page that renders or reads its tables in place."""
        tables = {t.index: t for t in self.tables}
        for line in self.lines:
            match = TABLE_PLACEHOLDER_RE.match(line.strip())
            yield line, tables.get(int(match.group(1))) if match else None


def raw_page_text(page: Page) -> str:
    """What a plain extractor sees: the page text with each table rendered in place."""
    return "\n".join(table.markdown() if table else line.strip()
                     for line, table in page.lines_with_tables())


class LoadedDocument(BaseModel):
    """A report's pages. ``repaired``: the file could not be opened as it is and was read from
    qpdf's repair of it (``repair_cause`` says why it needed one)."""

    source: Path
    kind: DocumentKind
    sha256: str
    pages: list[Page]
    warnings: list[str] = Field(default_factory=list)
    repaired: bool = False
    repair_cause: str | None = None

    @property
    def page_faults(self) -> list[PageFault]:
        """Every page's failed reading steps, in page order."""
        return [fault for page in self.pages for fault in page.faults]
