"""Coverage: did stitching put every cited definition on every page that cites it?"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from rag_assets.core.footnotes.blocks import FOOTNOTE_BLOCK_RE, footnote_block
from rag_assets.core.footnotes.records import FootnoteIndex, StitchedPage


class Coverage(BaseModel):
    """Did stitching inline every definition where it is cited?"""

    cited_with_definition: int  # distinct (page, footnote) citations that have a definition
    stitched: int  # of those, the ones whose definition stands on the citing page
    missing: list[str]  # "footnote_id on page N" that were not stitched
    unresolved: list[str]  # "marker on page N" cited but defined nowhere

    @property
    def ratio(self) -> float:
        return self.stitched / self.cited_with_definition if self.cited_with_definition else 1.0


def stitching_coverage(index: FootnoteIndex, pages: Sequence[StitchedPage]) -> Coverage:
    """A cited footnote counts as stitched on a page that holds its full block (a short
    reference does not count: each citing page must hold the definition itself)."""
    text_of = {p.page_index: p.text for p in pages}
    blocks_of: dict[int, set[str]] = {}  # the page's blocks, read once (not a search per note)
    by_id = index.by_id()
    wanted = sorted(
        {(c.page_index, c.footnote_id) for c in index.citations
         if c.footnote_id and c.context != "footnote"}
    )

    def stitched(page: int, footnote_id: str) -> bool:
        block = footnote_block(by_id[footnote_id])
        if not FOOTNOTE_BLOCK_RE.fullmatch(block):  # a text with braces: searched for
            return block in text_of.get(page, "")
        if page not in blocks_of:
            blocks_of[page] = {
                m.group(0) for m in FOOTNOTE_BLOCK_RE.finditer(text_of.get(page, ""))
            }
        return block in blocks_of[page]

    missing = [f"{fid} on page {page}" for page, fid in wanted if not stitched(page, fid)]
    unresolved = sorted({f"{c.marker} on page {c.page_index}" for c in index.unresolved})
    return Coverage(
        cited_with_definition=len(wanted), stitched=len(wanted) - len(missing),
        missing=missing, unresolved=unresolved,
    )
