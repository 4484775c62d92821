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
