"""What the model stitcher reports: per page and footnote, who placed the block and whether
its text is the model's or the dictionary's, the pages that fell back, the blocks removed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rag_assets.core.footnotes.records import StitchedPage

StitchStatus = Literal["model", "backfilled", "deterministic_fallback"]


class FootnoteOutcome(BaseModel):
    """What became of one footnote on one page that cites it."""

    page_index: int
    marker: str
    footnote_id: str
    status: StitchStatus
    reason: str = ""  # why it was backfilled or fell back; "" for ``model``
    placed_by: Literal["model", "deterministic"] = "deterministic"


class PageFallback(BaseModel):
    page_index: int
    reason: str


class RemovedBlock(BaseModel):
    """A block of the reply that the output does not carry."""

    page_index: int
    marker: str
    reason: str
    text: str  # the model's definition, cut to 160 characters


class ModelStitchResult(BaseModel):
    pages: list[StitchedPage]  # the same shape as ``stitch_document``'s
    outcomes: list[FootnoteOutcome] = Field(default_factory=list)
    fallbacks: list[PageFallback] = Field(default_factory=list)
    removed: list[RemovedBlock] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)  # model errors, one per failed batch
    batches: int = 0
    pages_sent: int = 0
    model_calls: int = 0
    seconds: float = 0.0  # wall time of the whole stitch, model calls included
    model_seconds: float = 0.0

    def _count(self, status: StitchStatus) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def recovered(self) -> int:
        """Footnote placements (page, footnote) the model got right by itself."""
        return self._count("model")

    @property
    def backfilled(self) -> int:
        return self._count("backfilled")

    @property
    def fallback_footnotes(self) -> int:
        return self._count("deterministic_fallback")

    @property
    def fallback_pages(self) -> int:
        return len(self.fallbacks)

    def status_by_footnote(self) -> dict[str, StitchStatus]:
        """Per footnote id, its worst status over the pages that cite it."""
        rank = {"model": 0, "backfilled": 1, "deterministic_fallback": 2}
        out: dict[str, StitchStatus] = {}
        for o in self.outcomes:
            if o.footnote_id not in out or rank[o.status] > rank[out[o.footnote_id]]:
                out[o.footnote_id] = o.status
        return out

    def summary(self) -> str:
        return (f"{self.recovered} footnote placements by the model, {self.backfilled} "
                f"backfilled, {self.fallback_footnotes} from {self.fallback_pages} page(s) that "
                f"fell back; {self.model_calls} model call(s), {self.seconds:.1f}s")
