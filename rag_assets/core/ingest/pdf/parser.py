"""What the reader asks of a page parser, so that another one can plug in (as paper-qa's readers
take a parse function).

The reader hands a parser runs of pages and, for long documents, runs it in spawned worker
processes: so a parser takes the file's path, not an open document, and must be a module-level
function (spawned workers find it by its qualified name).
"""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from rag_assets.core.ingest.pages import Page

# a page, the characters per type size in its upper 60% (the document's body size is measured
# on them) and whether it carries /Rotate (for the warning)
ParsedPage = tuple[Page, Counter[float], bool]


class PageParser(Protocol):
    """Pages ``indices`` (0-based) of the PDF at ``path``, in order."""

    def __call__(self, path: str, indices: range, /) -> list[ParsedPage]: ...


class PageReadError(Exception):
    """A parser's error on one page (0-based ``page_index``), its cause on one line: what the
    reader raises, from a worker process too, where a parser fails on a page (it crosses the
    process boundary by pickle, so it keeps its two arguments as ``args``)."""

    def __init__(self, page_index: int, cause: str) -> None:
        super().__init__(page_index, cause)
        self.page_index = page_index
        self.cause = cause

    def __str__(self) -> str:
        return f"page {self.page_index + 1}: {self.cause}"
