"""Batches for the model: the pages that cite a footnote, cut only between pages (a page longer
than a batch between paragraphs, or lines), each with the definitions its blocks carry."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from rag_assets.core.footnotes.page_body import PageBody, line_starts

DEFAULT_BATCH_CHARS = 4500


@dataclass
class Unit:
    """A page, or a part of a page longer than a batch, as sent to the model."""

    page_index: int
    part: int  # 1-based; 0 for a whole page
    start: int  # span in the page body
    end: int
    text: str
    definitions: list[tuple[str, str]]

    @property
    def header(self) -> str:
        part = f" PART {self.part}" if self.part else ""
        return f"=== PAGE {self.page_index + 1}{part} ==="

    @property
    def key(self) -> tuple[int, int]:
        return self.page_index + 1, self.part


@dataclass
class Batch:
    units: list[Unit] = field(default_factory=list)

    @property
    def chars(self) -> int:
        return sum(len(u.text) for u in self.units)

    @property
    def text(self) -> str:
        return "\n\n".join(f"{u.header}\n{u.text}" for u in self.units)

    @property
    def definitions(self) -> list[tuple[str, str]]:
        seen: dict[tuple[str, str], None] = {}
        for u in self.units:
            seen.update(dict.fromkeys(u.definitions))
        return list(seen)


def _parts(body: str, limit: int) -> list[tuple[int, int]]:
    """Spans of ``body`` of at most about ``limit`` characters, cut between paragraphs where
    that is enough, else between lines (a longer line is a part of its own)."""
    if len(body) <= limit:
        return [(0, len(body))]
    target = math.ceil(len(body) / math.ceil(len(body) / limit))
    starts = line_starts(body)
    ends = [s - 1 for s in starts[1:]] + [len(body)]
    spans: list[tuple[int, int]] = []
    start = 0
    best: int | None = None  # the last paragraph end in the current part
    for n, end in enumerate(ends):
        if end - start > target and n and ends[n - 1] > start:
            cut = best if best is not None and best - start >= target // 2 else ends[n - 1]
            spans.append((start, cut))
            start = cut + 1
            best = None
        blank_next = n + 1 < len(ends) and not body[starts[n + 1]:ends[n + 1]].strip()
        if blank_next and end > start:
            best = end
    spans.append((start, len(body)))
    return [(a, b) for a, b in spans if body[a:b].strip()]


def plan_units(splits: Sequence[PageBody], batch_chars: int = DEFAULT_BATCH_CHARS) -> list[Unit]:
    """The pages that cite a footnote, a page longer than ``batch_chars`` in parts; each with
    the definitions of the blocks that stand in it (a part without any is not sent)."""
    units: list[Unit] = []
    for split in splits:
        if not split.cited:
            continue
        spans = _parts(split.body, batch_chars)
        starts = line_starts(split.body)
        for part, (start, end) in enumerate(spans, start=1):
            defs: dict[tuple[str, str], None] = {}
            for a in split.cited:
                if a.line is None:
                    at = a.offset or 0
                else:  # a block on its own line belongs to the end of the line above
                    at = starts[a.line] - 1 if 0 < a.line < len(starts) else (
                        0 if a.line == 0 else len(split.body))
                if start <= at <= end:
                    defs[(a.marker, a.text)] = None
            units.append(Unit(page_index=split.page.page_index, part=part if len(spans) > 1
                              else 0, start=start, end=end, text=split.body[start:end],
                              definitions=list(defs)))
    return units


def plan_batches(units: Sequence[Unit], batch_chars: int = DEFAULT_BATCH_CHARS) -> list[Batch]:
    """The units that carry definitions, in order, packed into batches of about
    ``batch_chars`` characters of body text, cut only between units."""
    batches: list[Batch] = []
    current = Batch()
    for unit in units:
        if not unit.definitions:
            continue
        if current.units and current.chars + len(unit.text) > batch_chars:
            batches.append(current)
            current = Batch()
        current.units.append(unit)
    if current.units:
        batches.append(current)
    return batches
