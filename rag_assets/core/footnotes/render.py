"""Rendering: the stitched text of every page, each definition after the sentence that cites it.

Furniture and definition lines are dropped, tables become markdown with their notes right below,
orphan definitions stay where they were printed. A page holds a footnote in full at its first
``FULL_BLOCKS_PER_PAGE`` citing places, then as a short reference (``blocks``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from rag_assets.core.footnotes.blocks import (
    FULL_BLOCKS_PER_PAGE,
    footnote_block,
    footnote_reference,
)
from rag_assets.core.footnotes.records import Footnote, FootnoteIndex, StitchedPage
from rag_assets.core.footnotes.resolve import closure
from rag_assets.core.footnotes.sentences import MAX_SENTENCE_LINES, SentenceEnds
from rag_assets.core.footnotes.zones import page_views
from rag_assets.core.ingest.layout import SEPARATOR_RE
from rag_assets.core.ingest.pages import TABLE_PLACEHOLDER_RE, Page


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
    # by page index, not list position: a slice of a document starts at any page
    view_of = {view.page.page_index: view for view in views}
    ends = {view.page.page_index: SentenceEnds(view.lines) for view in views}
    drop = {view.page.page_index: view.furniture | definition_lines[view.page.page_index]
            for view in views}
    for c in index.citations:
        if c.footnote_id is None or c.context == "footnote":
            continue
        view = view_of[c.page_index]
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
        for fid in closure(c.footnote_id, by_id):
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


def _tidy_blank_lines(lines: list[str]) -> str:
    """One blank line where dropped furniture and definition lines left several."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    return "\n".join(out).strip("\n")
