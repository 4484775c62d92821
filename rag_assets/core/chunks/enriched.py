"""Footnote-aware chunks: fitted units packed up to the budget, never across a heading or from
one statement's pages into another's.

A definition is stored once per chunk: the stitched text repeats it after every citing
sentence, a chunk keeps it after its first citing sentence only. Past the stitcher's bound
(``FULL_BLOCKS_PER_PAGE`` citing places of one note on a page) the stitched text carries a short
reference instead, which is read as the full block it stands for (:func:`resolve_blocks`):
every chunk citing the note still holds it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rag_assets.core.chunks.fitting import fitted_units, split_cited
from rag_assets.core.chunks.markers import (
    cited_pages_by_marker,
    complete_definitions,
    markers_in,
)
from rag_assets.core.chunks.records import Chunk, ChunkSettings, chunk_id
from rag_assets.core.chunks.tokens import (
    TokenBudget,
    count_tokens,
    special_tokens,
    with_token_counts,
)
from rag_assets.core.chunks.units import Unit, stitched_units
from rag_assets.core.footnotes.stitching import (
    FOOTNOTE_BLOCK_RE,
    FootnoteIndex,
    StitchedPage,
    is_reference,
)
from rag_assets.core.ingest.context import DocumentContext


@dataclass
class _Draft:
    """A chunk being packed: its header, its units as they will be stored, and the footnote
    blocks it holds (a definition is stored once per chunk)."""

    section: str | None
    header: str = ""
    budget: int = 0
    units: list[Unit] = field(default_factory=list)
    blocks: set[str] = field(default_factory=set)
    tokens: int = 0

    def stored(self, unit: Unit) -> Unit:
        """The unit as this draft would store it: without the footnote blocks the draft (or the
        unit itself, further up) already holds. A table keeps all its notes."""
        if unit.table:
            return unit
        text = resolve_blocks(unit.text, self.blocks, unit.refs)
        if text == unit.text:
            return unit
        tokens = count_tokens([text])[0] - special_tokens() if text else 0
        return replace(unit, text=text, tokens=tokens, refs={})

    def add(self, unit: Unit) -> None:
        self.units.append(unit)
        self.blocks.update(m.group(0) for m in FOOTNOTE_BLOCK_RE.finditer(unit.text))
        self.tokens += unit.tokens


_SPACED_BLOCK_RE = re.compile(r"\s*" + FOOTNOTE_BLOCK_RE.pattern)


def drop_repeated_blocks(text: str, held: set[str]) -> str:
    """``text`` without the ``{FOOTNOTE m: ...}`` blocks already in ``held`` and without a second
    copy of a block it holds itself (the citing text and its marker stay)."""
    return resolve_blocks(text, held)


def resolve_blocks(text: str, held: set[str], refs: dict[str, str] | None = None) -> str:
    """``drop_repeated_blocks``, with each short reference (``{FOOTNOTE m: as stitched above}``)
    read as the full block it stands for: the nearest full block of ``m`` before it, in ``text``
    or, above the unit, ``refs[m]``. That block is put in its place when neither ``held`` nor
    ``text`` before it holds it, else dropped like a repeated block; a reference with no block
    to stand for stays as written."""
    seen = set(held)
    nearest = dict(refs or {})

    def keep_first(match: re.Match[str]) -> str:
        written = match.group(0)
        block = written.lstrip()
        if is_reference(match):
            block = nearest.get(match.group("marker"), block)
        else:
            nearest[match.group("marker")] = block
        if block in seen:
            return ""
        seen.add(block)
        return written[: len(written) - len(written.lstrip())] + block

    return _SPACED_BLOCK_RE.sub(keep_first, text).strip()


def enriched_chunks(
    pages: Sequence[StitchedPage], document: str, year: int, index: FootnoteIndex,
    settings: ChunkSettings | None = None, context: DocumentContext | None = None,
) -> list[Chunk]:
    """Whole units packed up to the token budget beside each chunk's header. ``context`` comes
    from the raw pages (:func:`rag_assets.core.ingest.context.document_context`); without it the
    header names the document and year only."""
    settings = settings or ChunkSettings()
    context = context or DocumentContext(document=document, year=year)
    budget = TokenBudget(settings)

    def header_of(unit: Unit) -> str:
        return context.header(unit.page, unit.section, unit.title if unit.table else None)

    drafts: list[_Draft] = []
    current = _Draft(section=None)
    fitted = fitted_units(stitched_units(pages), header_of, budget)
    pending: list[Unit] = []  # pieces of a sentence cut after its references were put back
    while (unit := pending.pop() if pending else next(fitted, None)) is not None:
        stored = current.stored(unit)  # sized as stored: blocks already held are not again
        section_changes = unit.heading and current.units
        # a chunk's header and ``statement`` are its first page's: a page of another statement
        # (Pfizer's income statement after the auditor's report) opens a chunk of its own
        statement_changes = current.units and (
            context.page(unit.page).statement != context.page(current.units[0].page).statement)
        too_big = current.units and current.tokens + stored.tokens > current.budget
        if section_changes or statement_changes or too_big:
            drafts.append(current)
            current = _Draft(section=unit.section)
            stored = current.stored(unit)  # a fresh chunk gets the blocks again
        if not stored.text:
            continue  # nothing but blocks the chunk already holds
        limit = budget.body(header_of(unit))
        if unit.refs and not current.units and stored.tokens > limit:
            # the definitions its references stand for do not fit beside it: cut as fitted_units
            pending.extend(reversed(list(split_cited(stored, limit))))
            continue
        if not current.units:
            current.section = unit.section
            current.header = header_of(unit)
            current.budget = budget.body(current.header)
        current.add(stored)
    if current.units:
        drafts.append(current)

    cited_on = cited_pages_by_marker(index)
    definitions = complete_definitions(index)
    chunks = []
    for seq, draft in enumerate(drafts):
        text = "\n".join(u.text for u in draft.units).strip()
        first, last = min(u.page for u in draft.units), max(u.page for u in draft.units)
        cited, defined = markers_in(text, range(first, last + 1), cited_on, definitions)
        chunks.append(
            Chunk(
                chunk_id=chunk_id(document, year, "enriched", seq), document=document,
                year=year, kind="enriched", seq=seq, page_start=first, page_end=last,
                section=draft.section, context=draft.header,
                statement=context.page(first).statement, text=text,
                n_chars=len(text), n_tokens=0, markers_cited=cited, markers_defined=defined,
            )
        )
    return with_token_counts(chunks)
