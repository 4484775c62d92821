"""A stitched page as body text plus blocks: the body is what the model is given and must give
back word for word; the anchors say where the deterministic stitcher put each block.

``split_page`` and ``render_page`` are inverse: a page whose blocks cannot be taken out so that
putting them back gives the page again is not sent to the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rag_assets.core.footnotes.blocks import FOOTNOTE_BLOCK_RE
from rag_assets.core.footnotes.records import FootnoteIndex, StitchedPage

ONLY_BLOCKS_RE = re.compile(rf"^(?:{FOOTNOTE_BLOCK_RE.pattern}[ \t]*)+$")


@dataclass
class Anchor:
    """A block of the deterministic page: inline after ``offset`` of the body, or on a line of
    its own before body line ``line`` (``line == number of lines``: after the last one)."""

    marker: str
    text: str
    footnote_id: str
    orphan: bool
    offset: int | None = None
    line: int | None = None


@dataclass
class PageBody:
    """A stitched page split into the body given to the model and the anchors of its blocks."""

    page: StitchedPage
    body: str
    anchors: list[Anchor]

    @property
    def cited(self) -> list[Anchor]:
        return [a for a in self.anchors if not a.orphan]


def split_page(page: StitchedPage, index: FootnoteIndex) -> PageBody | None:
    """The page's body (its text less the footnote blocks) and where each block stood; None
    when the blocks cannot be taken out so that putting them back gives the page again."""
    orphans = {f.footnote_id for f in index.orphans if f.page_index == page.page_index}

    def anchor(match: re.Match[str], **where: int) -> Anchor | None:
        fid = footnote_of(index, page.page_index, match, own_line="line" in where)
        if fid is None:
            return None
        return Anchor(marker=match.group("marker"), text=match.group("text"), footnote_id=fid,
                      orphan=fid in orphans, **where)

    lines: list[str] = []
    anchors: list[Anchor] = []
    offset = 0  # where the current line starts in the body
    for line in page.text.split("\n"):
        if ONLY_BLOCKS_RE.match(line):
            for match in FOOTNOTE_BLOCK_RE.finditer(line):
                found = anchor(match, line=len(lines))
                if found is None:
                    return None
                anchors.append(found)
            continue
        kept: list[str] = []
        length, last = 0, 0
        for match in FOOTNOTE_BLOCK_RE.finditer(line):
            part = line[last:match.start()]
            part = part[:-1] if part.endswith(" ") else part
            kept.append(part)
            length += len(part)
            found = anchor(match, offset=offset + length)
            if found is None:
                return None
            anchors.append(found)
            last = match.end()
        kept.append(line[last:])
        body_line = "".join(kept)
        lines.append(body_line)
        offset += len(body_line) + 1
    split = PageBody(page=page, body="\n".join(lines), anchors=anchors)
    if render_page(split.body, [(a, a.text) for a in anchors]) != page.text:
        return None
    return split


def footnote_of(index: FootnoteIndex, page_index: int, block: re.Match[str],
                 own_line: bool = False) -> str | None:
    """The id of the footnote a block of a stitched page shows: the one with its marker and
    text that is cited on the page (or, on a line of its own, an orphan printed there)."""
    found = [f for f in index.footnotes
             if f.marker == block.group("marker") and f.text == block.group("text")]
    for f in found:
        if page_index in f.cited_pages:
            return f.footnote_id
    for f in found:
        if own_line and not f.cited_pages and f.page_index == page_index:
            return f.footnote_id
    return found[0].footnote_id if found else None


def render_page(body: str, blocks: Sequence[tuple[Anchor, str]]) -> str:
    """The body with each block put back where its anchor says (in the order given when two
    stand at one place), formatted as ``stitch_document`` formats them."""
    inline = sorted(((a.offset, n) for n, (a, _) in enumerate(blocks) if a.line is None),
                    reverse=True)
    text = body
    for offset, n in inline:
        anchor, definition = blocks[n]
        text = f"{text[:offset]} {footnote_block_text(anchor.marker, definition)}{text[offset:]}"
    lines = text.split("\n") if body else []
    own: dict[int, list[str]] = {}
    for anchor, definition in blocks:
        if anchor.line is not None:
            own.setdefault(anchor.line, []).append(footnote_block_text(anchor.marker, definition))
    out: list[str] = []
    for n in range(len(lines) + 1):
        out.extend(own.get(n, []))
        if n < len(lines):
            out.append(lines[n])
    return "\n".join(out)


def footnote_block_text(marker: str, definition: str) -> str:
    return f"{{FOOTNOTE {marker}: {definition}}}"


def body_text(page: StitchedPage, index: FootnoteIndex) -> str:
    """The text the model is given for a page: the stitched page without its footnote blocks."""
    split = split_page(page, index)
    if split is not None:
        return split.body
    return "\n".join(line for line in (FOOTNOTE_BLOCK_RE.sub("", x).rstrip()
                                       for x in page.text.split("\n")) if line.strip())


def line_starts(body: str) -> list[int]:
    """The offset of each line of ``body``: anchors and cuts are offsets, lines are read too."""
    starts = [0]
    starts.extend(m.end() for m in re.finditer("\n", body))
    return starts
