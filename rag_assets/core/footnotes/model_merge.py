"""The merge of one page: the model's reply against the deterministic page.

The body must be the given body, word for word, or the page falls back. Each block the page
cites is kept with the dictionary's text, at the model's place when that lies between the citing
marker and the end of the line where the deterministic stitcher put it; blocks for markers the
page does not cite are removed.
"""

from __future__ import annotations

from bisect import bisect_right

from rag_assets.core.footnotes.model_reply import (
    ReplyBlock,
    ReplyPage,
    body_difference,
    judge_definition,
    token_spans,
    tokens,
)
from rag_assets.core.footnotes.model_results import (
    FootnoteOutcome,
    RemovedBlock,
    StitchStatus,
)
from rag_assets.core.footnotes.page_body import Anchor, PageBody, line_starts, render_page
from rag_assets.core.footnotes.sentences import MAX_SENTENCE_LINES


class MergePage:
    """A split page with the helpers the merge needs."""

    def __init__(self, split: PageBody) -> None:
        self.split = split
        self.body = split.body
        self.lines = self.body.split("\n")
        self.starts = line_starts(self.body)
        self.spans = token_spans(self.body)

    def line_of(self, offset: int) -> int:
        return max(0, bisect_right(self.starts, offset) - 1)

    def line_end(self, line: int) -> int:
        return self.starts[line] + len(self.lines[line])

    def at(self, anchor: Anchor) -> int:
        if anchor.line is None:
            return anchor.offset or 0
        if anchor.line == 0:
            return 0
        return self.line_end(min(anchor.line, len(self.lines)) - 1)

    def place(self, token: int, marker: str, text: str, fid: str) -> Anchor:
        """Where a block the model wrote after ``token`` body tokens goes in the body: after the
        characters that close the token's word (``[1].``); after the table for a table row."""
        if token == 0 or not self.spans:
            return Anchor(marker=marker, text=text, footnote_id=fid, orphan=False, offset=0)
        offset = self.spans[min(token, len(self.spans)) - 1][1]
        while offset < len(self.body) and not self.body[offset].isspace():
            offset += 1
        line = self.line_of(offset)
        if self.lines[line].lstrip().startswith("|"):
            while line + 1 < len(self.lines) and self.lines[line + 1].lstrip().startswith("|"):
                line += 1
            return Anchor(marker=marker, text=text, footnote_id=fid, orphan=False, line=line + 1)
        return Anchor(marker=marker, text=text, footnote_id=fid, orphan=False, offset=offset)

    def window(self, anchor: Anchor) -> tuple[int, int]:
        """Where a model's block for the citation of ``anchor`` may stand: from the citing
        marker (when it is printed in the few lines before) to the end of the line on which the
        deterministic stitcher put the block."""
        at = self.at(anchor)
        line = self.line_of(at)
        low = self.starts[max(0, line - MAX_SENTENCE_LINES)]
        cited = self.body.rfind(anchor.marker, low, at + 1)
        start = cited + len(anchor.marker) if cited >= 0 else self.starts[line]
        return start, self.line_end(line)


def merge_page(
    page: MergePage, reply: ReplyPage, index_markers: set[str]
) -> tuple[str, list[FootnoteOutcome], list[RemovedBlock]] | str:
    """The merged page text, its outcomes and removed blocks; or why the page falls back."""
    given = tokens(page.body)
    if reply.tokens != given:
        return body_difference(given, reply.tokens)
    page_index = page.split.page.page_index
    expected: dict[str, list[Anchor]] = {}
    for a in page.split.cited:
        expected.setdefault(a.marker, []).append(a)
    got: dict[str, list[ReplyBlock]] = {}
    removed: list[RemovedBlock] = []
    for block in reply.blocks:
        if block.marker in expected:
            got.setdefault(block.marker, []).append(block)
            continue
        reason = ("not cited on this page" if block.marker in index_markers
                  else "not defined in the document")
        removed.append(RemovedBlock(page_index=page_index, marker=block.marker, reason=reason,
                                    text=block.text[:160]))
    rank = {id(a): n for n, a in enumerate(page.split.anchors)}  # reading order on the page
    placed: list[tuple[Anchor, int]] = [(a, rank[id(a)]) for a in page.split.anchors
                                        if a.orphan]
    per_footnote: dict[str, list[tuple[StitchStatus, str, bool]]] = {}
    for marker, anchors in expected.items():
        blocks = got.get(marker, [])
        for n, anchor in enumerate(anchors):
            if n >= len(blocks):
                placed.append((anchor, rank[id(anchor)]))
                per_footnote.setdefault(anchor.footnote_id, []).append(
                    ("backfilled", "missing", False))
                continue
            block = blocks[n]
            problem = judge_definition(block.text, anchor.text)
            where = page.place(block.token, anchor.marker, anchor.text, anchor.footnote_id)
            low, high = page.window(anchor)
            by_model = low <= page.at(where) <= high
            placed.append((where if by_model else anchor, rank[id(anchor)]))
            status: StitchStatus = "backfilled" if problem else "model"
            per_footnote.setdefault(anchor.footnote_id, []).append(
                (status, problem or "", by_model))
        for block in blocks[len(anchors):]:
            removed.append(RemovedBlock(page_index=page_index, marker=marker,
                                        reason="more blocks than citations on the page",
                                        text=block.text[:160]))
    outcomes = []
    marker_of = {a.footnote_id: a.marker for a in page.split.cited}
    for fid, results in per_footnote.items():
        bad = [r for r in results if r[0] != "model"]
        outcomes.append(FootnoteOutcome(
            page_index=page_index, marker=marker_of[fid], footnote_id=fid,
            status="backfilled" if bad else "model",
            reason="; ".join(dict.fromkeys(r[1] for r in bad)),
            placed_by="model" if all(r[2] for r in results) else "deterministic",
        ))
    # blocks at one place keep the deterministic page's order; always the dictionary's text
    placed.sort(key=lambda item: (page.at(item[0]), item[1]))
    text = render_page(page.body, [(anchor, anchor.text) for anchor, _ in placed])
    return text, outcomes, removed
