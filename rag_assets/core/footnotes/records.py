"""The records the footnote stages hand on: footnotes, citations, the index, stitched pages.

Pydantic models, so the warehouse, the chunker and the reports can store and read them as they
are; every other module of the package builds or reads these.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rag_assets.core.text.markers import MarkerStyle


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
    """The dictionary of a document: its footnotes and every citation, resolved or not."""

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
    """A page's text with its definitions inlined: what the chunkers read."""

    page_index: int
    page_label: str | None
    section: str | None
    text: str
