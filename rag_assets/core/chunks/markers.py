"""Which footnote markers a chunk cites and which definitions it holds, and what that shows.

The same bookkeeping serves both kinds of chunk, so their co-location (:func:`colocation`: a
cited marker with its definition in the same chunk) compares like with like.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag_assets.core.chunks.records import Chunk
from rag_assets.core.footnotes.stitching import (
    FOOTNOTE_BLOCK_RE,
    Footnote,
    FootnoteIndex,
    citations_in_block,
)
from rag_assets.core.ingest.context import letters_and_digits


def markers_in(
    text: str, pages: range, cited_on: dict[str, set[int]],
    complete: dict[str, set[str]] | None = None,
) -> tuple[list[str], list[str]]:
    """(cited, defined) markers of a chunk.

    Defined: markers of stitched ``{FOOTNOTE m: ...}`` blocks that hold the complete definition
    (its text in ``complete``, the dictionary; a cut block defines nothing). Cited: markers found
    outside those blocks by the index's own rules, and only where the index saw that marker cited
    on one of the chunk's pages (so "(5)" opening a recital is not a citation of note (5)).
    """
    defined = sorted({
        m.group("marker") for m in FOOTNOTE_BLOCK_RE.finditer(text)
        if complete is None
        or letters_and_digits(m.group("text")) in complete.get(m.group("marker"), ())
    })
    outside = FOOTNOTE_BLOCK_RE.sub(" ", text)
    cited = {
        marker for marker in citations_in_block(outside)
        if any(page in cited_on.get(marker, ()) for page in pages)
    }
    return sorted(cited), defined


def cited_pages_by_marker(index: FootnoteIndex) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for c in index.citations:
        if c.footnote_id and c.context != "footnote":
            out.setdefault(c.marker, set()).add(c.page_index)
    return out


def naive_defined(text: str, pages: range, by_page: dict[int, dict[str, set[str]]]) -> list[str]:
    """Markers whose complete definition the raw chunk holds (a window that cuts a definition
    after its first line holds part of it, not the definition). Only the definitions printed on
    the chunk's own pages are looked for: every chunk against every footnote grew as pages x
    notes (bench/README.md, issue 20)."""
    flat = letters_and_digits(text)
    return sorted({
        marker
        for page in pages
        for marker, texts in by_page.get(page, {}).items()
        if any(definition in flat for definition in texts)
    })


def complete_definitions(index: FootnoteIndex) -> dict[str, set[str]]:
    """Each marker's definition texts, as letters and digits only (line breaks, hyphenation and
    spacing differ between a raw window and the dictionary)."""
    out: dict[str, set[str]] = {}
    for f in index.footnotes:
        out.setdefault(f.marker, set()).add(letters_and_digits(f.text))
    return out


def definitions_by_page(index: FootnoteIndex) -> dict[int, dict[str, set[str]]]:
    """``complete_definitions`` by the pages each definition is printed on (where it was found,
    where it is repeated, and the pages its lines run over)."""
    out: dict[int, dict[str, set[str]]] = {}
    for f in index.footnotes:
        flat = letters_and_digits(f.text)
        for page in {f.page_index, *f.also_defined_on, *f.spans}:
            out.setdefault(page, {}).setdefault(f.marker, set()).add(flat)
    return out


def colocation(chunks: Sequence[Chunk]) -> tuple[int, int]:
    """(pairs, co-located): chunk × cited marker pairs, and those whose definition is there."""
    pairs = colocated = 0
    for chunk in chunks:
        for marker in chunk.markers_cited:
            pairs += 1
            colocated += marker in chunk.markers_defined
    return pairs, colocated


def evidence_pages(chunk: Chunk, footnotes: Sequence[Footnote]) -> list[int]:
    """The pages a chunk's text comes from: its own page range, plus the pages where the
    footnotes stitched into it are printed (a stitched definition is that page's evidence, and
    an answer citing it should cite that page)."""
    pages = set(range(chunk.page_start, chunk.page_end + 1))
    by_block = {(f.marker, f.text): f for f in footnotes}
    for match in FOOTNOTE_BLOCK_RE.finditer(chunk.text):
        footnote = by_block.get((match.group("marker"), match.group("text")))
        if footnote is not None:
            pages |= set(footnote.spans) or {footnote.page_index}
    return sorted(pages)
