"""One answer made checkable at a glance: a self-contained HTML page (``rag-assets ask --html``).

The answer's text with each ``[n]`` as a chip that links to the page it cites; beside it, each
cited page drawn as an image (``page_image``) with every quote on it highlighted from its
characters' boxes (``quote_boxes``: a sentence line by line, a table row whole, a quote over a
page break on both pages), so the operands of a computed metric, each citing its statement row,
are each highlighted on their page. A text or TEI report (or a PDF no longer where it was
ingested from) shows the page's stored text with the passage marked (``text_marks``). Each
citation's verification mark and the guardrails that acted are listed.

The page is rendered by jinja2 with autoescape on, and carries no script (its Content Security
Policy allows none): an answer, quote or guardrail detail made of hostile text reads as text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pdfplumber

from rag_assets.core.evaluation.audit_html import environment
from rag_assets.core.evaluation.coverage_heatmap import data_uri
from rag_assets.core.evaluation.page_image import page_png
from rag_assets.core.evaluation.quote_boxes import (
    Box,
    PageBoxes,
    PageChars,
    page_chars,
    quote_boxes,
)
from rag_assets.core.evaluation.text_marks import Segment, marked_segments
from rag_assets.core.generation.citations import MARKER_RE
from rag_assets.core.generation.records import QAResult, SourceCitation

TEMPLATE = "answer_view.html.j2"
_CHIP_RE = MARKER_RE  # the markers compose writes (citations.marked)
_TRAILING_CHIPS_RE = re.compile(rf"(?:\s*{MARKER_RE.pattern})+\s*$")
PageKey = tuple[str, int, int]


@dataclass(frozen=True, slots=True)
class PartitionSource:
    """What the view shows of a (document, year): its PDF (None for a text or TEI report, or a
    file gone from where it was read: ``note`` says so) and its stored page texts."""

    pdf: Path | None
    texts: Mapping[int, str]
    note: str = ""


@dataclass(frozen=True, slots=True)
class Highlight:
    """A rectangle of citation ``number`` on its page, in points and in percent of the page."""

    number: int
    box: Box
    width: float
    height: float

    @property
    def style(self) -> str:
        b = self.box
        return (f"left:{100 * b.x0 / self.width:.3f}%;top:{100 * b.top / self.height:.3f}%;"
                f"width:{100 * (b.x1 - b.x0) / self.width:.3f}%;"
                f"height:{100 * (b.bottom - b.top) / self.height:.3f}%")


@dataclass(slots=True)
class PagePanel:
    """One cited page: its image with the highlights, or its text in marked runs."""

    anchor: str
    document: str
    year: int
    page: int
    numbers: list[int] = field(default_factory=list)
    image: str | None = None
    highlights: list[Highlight] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)
    note: str = ""

    @property
    def label(self) -> str:
        return f"{self.document} {self.year} p.{self.page + 1}"


@dataclass(frozen=True, slots=True)
class CitationRow:
    """A citation as listed: its number, claim, quote, mark and whether the quote was found."""

    number: int
    claim: str
    citation: SourceCitation
    located: bool


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of the answer's text, or a chip (``number`` set) with its mark's words."""

    text: str
    number: int | None = None
    mark: str = ""


@dataclass(slots=True)
class AnswerView:
    result: QAResult
    lines: list[list[Piece]]
    citations: list[CitationRow]
    panels: list[PagePanel]
    anchors: dict[int, str]


def answer_lines(answer: str) -> list[list[Piece]]:
    """The answer's lines, each cut into text and the chips its ``[n]`` markers stand for.
    Only the markers that close a line are citations (``compose`` writes them there); a
    report's own footnote marker quoted inside the text ("$1,502 million [8]") stays text."""
    lines = []
    for line in answer.split("\n"):
        tail = _TRAILING_CHIPS_RE.search(line)
        start = tail.start() if tail else len(line)
        pieces: list[Piece] = [Piece(line[:start])] if start else []
        for chip in _CHIP_RE.finditer(line, start):
            pieces.append(Piece(chip.group(0), int(chip.group(1)), chip.group(2) or "valid"))
        lines.append(pieces)
    return lines


def build_view(result: QAResult, sources: Mapping[tuple[str, int], PartitionSource]
               ) -> AnswerView:
    """The view of ``result``: each citation located on its page(s) of ``sources``."""
    numbers = {(s.document, s.year, s.page): s.number for s in result.sources_used}
    panels: dict[PageKey, PagePanel] = {}
    rows: list[CitationRow] = []
    readers: dict[tuple[str, int], _PdfPages] = {}
    for claim in result.claims:
        for citation in claim.citations:
            key = (citation.document, citation.year, citation.page)
            number = numbers.setdefault(key, len(numbers) + 1)
            _panel(panels, key, number)
            source = sources.get(key[:2])
            located = False
            if source is not None and source.pdf is not None:
                reader = readers.setdefault(key[:2], _PdfPages(source.pdf))
                for hit in reader.locate(citation.page, citation.quote):
                    located = True
                    panel = _panel(panels, (key[0], key[1], hit.page), number)
                    panel.highlights += [Highlight(number, b, hit.width, hit.height)
                                         for b in hit.boxes]
            rows.append(CitationRow(number, claim.text, citation, located))
    for reader in readers.values():
        reader.close()
    ordered = list(panels.values())
    found = _draw(ordered, result, sources)
    rows = [CitationRow(r.number, r.claim, r.citation, r.located or (r.number, r.citation.page)
                        in found) for r in rows]
    anchors: dict[int, str] = {}
    for panel in ordered:
        for number in panel.numbers:
            anchors.setdefault(number, panel.anchor)
    return AnswerView(result, answer_lines(result.answer), rows, ordered, anchors)


def _panel(panels: dict[PageKey, PagePanel], key: PageKey, number: int) -> PagePanel:
    panel = panels.get(key)
    if panel is None:
        panel = panels[key] = PagePanel(f"page-{len(panels) + 1}", *key)
    if number not in panel.numbers:
        panel.numbers.append(number)
    return panel


def _draw(panels: Sequence[PagePanel], result: QAResult,
          sources: Mapping[tuple[str, int], PartitionSource]) -> set[tuple[int, int]]:
    """Each panel's image, or its text with the quotes cited on it marked; the (number, page)
    of each quote found in a text."""
    found: set[tuple[int, int]] = set()
    for panel in panels:
        source = sources.get((panel.document, panel.year))
        if source is None:
            panel.note = "this partition's pages are not stored: nothing to show"
        elif source.pdf is not None:
            panel.image = data_uri(page_png(source.pdf, panel.page))
        else:
            panel.note = source.note
            text = source.texts.get(panel.page)
            if text is None:
                panel.note = "this page is not stored"
                continue
            quotes = [(n, c.quote) for n, c in _cited_on(result, panel)]
            panel.segments, numbers = marked_segments(text, quotes)
            found |= {(n, panel.page) for n in numbers}
    return found


def _cited_on(result: QAResult, panel: PagePanel) -> list[tuple[int, SourceCitation]]:
    numbers = {(s.document, s.year, s.page): s.number for s in result.sources_used}
    return [(numbers.get((c.document, c.year, c.page), 0), c)
            for claim in result.claims for c in claim.citations
            if (c.document, c.year, c.page) == (panel.document, panel.year, panel.page)]


class _PdfPages:
    """A report's PDF open in pdfplumber, its pages' characters read once each."""

    def __init__(self, path: Path) -> None:
        self.pdf: Any = pdfplumber.open(str(path))
        self.chars: dict[int, PageChars] = {}

    def page(self, index: int) -> PageChars:
        if index not in self.chars:
            self.chars[index] = page_chars(self.pdf, index)
        return self.chars[index]

    def locate(self, page: int, quote: str) -> list[PageBoxes]:
        """The quote on ``page``, else over it and a neighbouring page."""
        if not 0 <= page < len(self.pdf.pages):
            return []
        found = quote_boxes([self.page(page)], 0, quote)
        if found:
            return found
        window = [i for i in (page - 1, page, page + 1) if 0 <= i < len(self.pdf.pages)]
        return quote_boxes([self.page(i) for i in window], window.index(page), quote)

    def close(self) -> None:
        self.pdf.close()


def render_view(view: AnswerView) -> str:
    """The self-contained HTML page of ``view`` (autoescaped, no script, nothing fetched)."""
    return environment().get_template(TEMPLATE).render(view=view)


def answer_html(result: QAResult, sources: Mapping[tuple[str, int], PartitionSource]) -> str:
    """The HTML view of an answer, its citations located in ``sources``."""
    return render_view(build_view(result, sources))
