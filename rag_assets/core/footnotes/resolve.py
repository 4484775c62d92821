"""Resolution: which footnote a citation refers to, and which footnotes a footnote brings along.

``[N]`` resolves anywhere in the document; a scoped marker only to a definition within a window
of pages. Among several candidates the same page wins, then the nearest following page, then the
nearest preceding one. ``Resolver`` finds the candidates by marker and page, so a document with
thousands of notes is not searched whole per citation.
"""

from __future__ import annotations

import sys
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Sequence

from rag_assets.core.footnotes.records import Citation, Footnote
from rag_assets.core.text.markers import SCOPED_STYLES


class Resolver:
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
    ``footnotes``: the document's footnotes, or the ones ``Resolver`` found it can refer to.

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


def closure(footnote_id: str, by_id: dict[str, Footnote]) -> list[str]:
    """The footnote and, breadth first, the footnotes its text cites and theirs (each once):
    the blocks stitched after a citation, so a note that refers to another brings it along."""
    order: list[str] = []
    queue = [footnote_id]
    while queue:
        fid = queue.pop(0)
        if fid in order or fid not in by_id:
            continue
        order.append(fid)
        queue.extend(by_id[fid].cites)
    return order
