"""Where on a page footnote definitions may stand: the per-page decisions of the finder.

A footnote zone is a run of lines in note type that opens with a marker or, where the document
has one type size, the lines under a separator rule. ``overleaf`` lines at a page foot may carry
on a note the page before left mid-sentence; ``wrapped`` body lines open with a citation that
wrapped from the line above (``[12]. The board``) and are never definitions. ``page_views`` makes
these decisions once per document; ``docs/ARCHITECTURE.md`` has the reasons.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from rag_assets.core.ingest.layout import find_running_furniture, furniture_lines
from rag_assets.core.ingest.pages import NOTE_SIZE_RATIO, Page
from rag_assets.core.text.markers import DEFINITION_RE, WRAPPED_MARKER_RE

MAX_OVERLEAF_LINES = 12  # the rest of a note carried to the next page is a few lines


@dataclass
class PageView:
    """A page as the footnote finder reads it.

    ``zone``: lines in a footnote zone (below a separator rule, or a run of note-type lines that
    opens with a marker); ``note_type``: lines set clearly smaller than the body type;
    ``overleaf``: a short run of note-type lines at the page foot without a marker, which
    continues a note from the page before when that note ended its page's zone in the middle of
    a sentence; ``wrapped``: body lines that open with a citation marker wrapped from the line
    above (``[12]. The board``), never definitions.
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


def page_views(pages: Sequence[Page]) -> list[PageView]:
    """Every page with its furniture, note type, footnote zone and wrapped citation lines."""
    all_lines = [p.lines for p in pages]
    running = find_running_furniture(all_lines)
    views = [
        PageView(page=page, lines=lines, furniture=furniture_lines(lines, running))
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


def _zone_lines(view: PageView) -> tuple[set[int], set[int]]:
    """In a document set in one type size: the lines below a separator rule. Where type sizes
    differ, they tell more than rules (a 10-K draws many short rules in its tables): runs of
    note-type lines that open with a marker (blank lines and furniture inside a run do not end
    it; a body-type line does; a run may start with a table set in note type, the zone then
    opens at its first marker). Also the lines that may continue a note from the page before:
    the page-foot run up to its first marker (``find_definitions`` decides)."""
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


def _opens_with_wrapped_citation(view: PageView, n: int) -> bool:
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
